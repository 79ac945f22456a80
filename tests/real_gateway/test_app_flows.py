"""The main flows of the app, driven with keys, against a real 1.7.1 (its instances are close).

What a user with a disconnected instance meets: every screen must say so in plain words, keep
the gateway's health "ok" (the gateway answers; one session does not), and never show the key.
Stopping and starting the server is in test_restart.py (its own server).
"""

from __future__ import annotations

from textual.widgets import Input, Static, TextArea

from gateway_tui.api.errors import NOT_CONNECTED_HINT
from gateway_tui.api.models import MessageKey, SentMessage
from gateway_tui.drafts import ComposeStore, Draft, DraftRow, DraftSection
from gateway_tui.screens.chats import ChatsScreen
from gateway_tui.screens.composer import ComposerScreen
from gateway_tui.screens.confirm import ConfirmScreen
from gateway_tui.screens.group_modals import InviteScreen
from gateway_tui.screens.groups import GroupPickerScreen
from gateway_tui.screens.instance import InstanceScreen
from gateway_tui.screens.instances import InstancesScreen
from gateway_tui.state import Health, SentRecord
from tests.real_gateway.gateway import PLANTED, SEEDED, RealGateway
from tests.support import make_app, make_config, notices, screen_text, wait_for

SIZE = (140, 44)
GROUP = "120363025912345678@g.us"
NUMBER = "5511987650001"


def app_on(gateway: RealGateway, **overrides):
    return make_app(make_config(gateway, **overrides))


def instances_loaded(app) -> bool:
    return bool(app.state.instances.value)


async def test_instances_are_listed_closed_with_the_key_masked(real_gateway) -> None:
    app = app_on(real_gateway)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: instances_loaded(app))
        await pilot.pause()
        assert isinstance(app.screen, InstancesScreen)
        text = screen_text(app)
        for name in SEEDED:
            assert name in text
        assert "close" in text and "● ok" in text
        assert real_gateway.api_key not in text and "••••0001" in text
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, InstanceScreen)
        await wait_for(pilot, lambda: app.screen.instance_name in screen_text(app))
        assert "WA Business callback" in screen_text(app)


async def test_a_settings_toggle_is_written_and_read_back(real_gateway, scratch_instance):
    app = app_on(real_gateway)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: instances_loaded(app))
        app.open_instance(scratch_instance)
        settings = app.state.settings_of(scratch_instance)
        await wait_for(pilot, lambda: settings.value is not None)
        assert settings.value.reject_call is False
        await pilot.press("space")  # the first setting: reject_call
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await wait_for(pilot, lambda: settings.value.reject_call is True)
        status, stored = real_gateway.request("GET", f"/settings/find/{scratch_instance}")
        assert status == 200 and stored["reject_call"] is True


async def test_deleting_a_closed_instance(real_gateway) -> None:
    name = "zz-flow-delete"
    real_gateway.create_instance(name, qrcode=False)
    app = app_on(real_gateway)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: instances_loaded(app))
        await pilot.pause()
        assert app.screen.table.move_cursor_to_key(name)
        await pilot.press("ctrl+d")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await wait_for(pilot, lambda: app.state.instance(name) is None)
        assert any(f"Deleted {name}" in n for n in notices(app))
        status, _ = real_gateway.request("GET", f"/settings/find/{name}")
        assert status == 404


async def test_deleting_an_instance_someone_else_deleted_drops_its_row(real_gateway) -> None:
    name = "zz-flow-gone"
    real_gateway.create_instance(name, qrcode=False)
    app = app_on(real_gateway)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: instances_loaded(app))
        await pilot.pause()
        real_gateway.request("DELETE", f"/instance/delete/{name}")
        assert app.screen.table.move_cursor_to_key(name)
        await pilot.press("ctrl+d")
        await pilot.pause()
        await pilot.press("y")
        await wait_for(pilot, lambda: app.state.instance(name) is None)
        assert any("no longer exists" in n for n in notices(app))


async def test_groups_of_a_disconnected_instance(real_gateway) -> None:
    app = app_on(real_gateway)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: instances_loaded(app))
        app.open_instance(PLANTED)
        await pilot.pause()
        await pilot.press("g")
        await pilot.pause()
        assert isinstance(app.screen, GroupPickerScreen)
        await wait_for(pilot, lambda: app.state.groups_of(PLANTED).error is not None)
        await pilot.pause()
        text = screen_text(app)
        assert f"The instance {PLANTED} is not connected (status: close)" in text
        assert "does not list groups" not in text
        await pilot.press("d")  # the gateway's own lines
        await pilot.pause()
        assert "Error fetching group" in screen_text(app)
        assert app.state.health is Health.OK


async def test_an_invite_from_a_closed_instance(real_gateway) -> None:
    app = app_on(real_gateway)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: instances_loaded(app))
        app.push_screen(InviteScreen(PLANTED, GROUP))
        await pilot.pause()
        assert app.screen.query_one("#invite-description", Input).value  # never sent blank
        app.screen.query_one("#invite-numbers", TextArea).insert(NUMBER)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: "No send invite" in screen_text(app))
        text = screen_text(app)
        assert f"The instance {PLANTED} is not connected (status: close)" in text


async def test_compose_and_send_gets_the_real_500_explained(real_gateway) -> None:
    draft = Draft(
        recipient=NUMBER,
        title="Lunch",
        description="Pick one",
        button_text="Menu",
        # Rows without a description: a real 1.7.1 would refuse "" with a 400.
        sections=[
            DraftSection("Pizzas", [DraftRow("Margherita"), DraftRow("Funghi", "Mushrooms")])
        ],
    )
    app = app_on(real_gateway)
    async with app.run_test(size=(140, 50)) as pilot:
        await wait_for(pilot, lambda: instances_loaded(app))
        ComposeStore(real_gateway.url, PLANTED).save_draft(draft)
        app.open_instance(PLANTED)
        await pilot.pause()
        await pilot.press("m")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ComposerScreen) and screen.restored
        await pilot.press("ctrl+s")
        status = screen.query_one("#composer-status", Static)
        await wait_for(pilot, lambda: "Not sent" in str(status.render()))
        await pilot.pause()
        shown = str(status.render())
        assert "Cannot read properties of undefined (reading 'onWhatsApp')" in shown
        assert NOT_CONNECTED_HINT in shown
        # Nothing drawn under a row as if it were at fault; the gateway stays "ok".
        lines = [str(w.render()) for w in screen.query(".composer-error").results(Static)]
        assert not [line for line in lines if "gateway" in line]
        (sent,) = [c for c in app.state.calls if c.path.startswith("/message/sendList/")]
        assert sent.status == 500
        rows = sent.request_body["listMessage"]["sections"][0]["rows"]
        assert rows == [
            {"title": "Margherita", "rowId": "margherita"},
            {"title": "Funghi", "description": "Mushrooms", "rowId": "funghi"},
        ]
        assert app.state.health is Health.OK and "● ok" in screen_text(app)


async def test_chats_archive_and_profile_on_a_disconnected_instance(real_gateway) -> None:
    app = app_on(real_gateway)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: instances_loaded(app))
        # A message sent earlier from this app (the stored history brings it back).
        key = MessageKey(remote_jid=f"{NUMBER}@s.whatsapp.net", from_me=True, id="BAE5F1A2B3C4D5E6")
        record = SentRecord(PLANTED, NUMBER, SentMessage(key=key, status="PENDING"), {})
        app.actions.restore_sent(PLANTED, [record])
        app.open_instance(PLANTED)
        await pilot.pause()
        await pilot.press("t")
        await pilot.pause()
        assert isinstance(app.screen, ChatsScreen)
        assert "cannot list chats" not in screen_text(app)
        await pilot.press("a")
        await wait_for(pilot, lambda: any("Archiving the chat failed" in n for n in notices(app)))
        (notice,) = [n for n in notices(app) if "Archiving the chat failed" in n]
        assert "An error occurred while archiving the chat" in notice
        assert NOT_CONNECTED_HINT in notice
        assert app.state.health is Health.OK


async def test_a_wrong_key(real_gateway) -> None:
    wrong = "WRONG-KEY-4711-abcdef"
    app = app_on(real_gateway, api_key=wrong)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, InstancesScreen))
        await wait_for(pilot, lambda: app.state.instances.error is not None)
        await wait_for(pilot, lambda: "Check your API key" in screen_text(app))
        for _ in range(5):
            await pilot.pause()
        asked = [c for c in app.state.calls if c.path == "/instance/fetchInstances"]
        assert [c.status for c in asked] == [401]
        assert len([n for n in notices(app) if "Refreshing instances failed" in n]) == 1
        text = screen_text(app)
        assert wrong not in text and "••••cdef" in text and "failing" in text
