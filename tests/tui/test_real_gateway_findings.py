"""What a real 1.7.1 gateway showed that the demo had hidden (issue 10), one test per defect.

These run against the demo, which answers as the real server does (tests/recorded/ checks it
against the recorded answers), so they run wherever the suite runs.
"""

from __future__ import annotations

import io
from datetime import datetime
from typing import Any

import pytest
from rich.console import Console
from textual.widgets import Input, Static, TextArea

from gateway_tui.core.api import GatewayClient, InvalidRequest, NotFound
from gateway_tui.core.api.errors import NOT_CONNECTED_HINT, error_for_response
from gateway_tui.core.api.events import CallEvent
from gateway_tui.core.api.models import (
    Instance,
    ListMessage,
    ListRow,
    ListSection,
    SendListRequest,
)
from gateway_tui.core.files.config import mask_key
from gateway_tui.core.files.drafts import Draft, DraftRow, DraftSection
from gateway_tui.core.state import AppState, Health
from gateway_tui.tui.screens.composer import ComposerScreen
from gateway_tui.tui.screens.confirm import ConfirmScreen
from gateway_tui.tui.screens.group_modals import InviteScreen, explain_group_error
from gateway_tui.tui.screens.groups import GroupPickerScreen
from gateway_tui.tui.screens.instance import details_table
from gateway_tui.tui.screens.instances import InstancesScreen
from tests.navigation import open_composer_with
from tests.support import notices, screen_text, wait_for

OPEN = "sales-eu"
CLOSED = "onboarding"
BIG = "120363012345678901@g.us"
JONAS = "4915112340001"
SIZE = (140, 40)


def _list_request(*rows: ListRow) -> SendListRequest:
    section = ListSection(title="Bikes", rows=list(rows))
    message = ListMessage(
        title="Offers", description="Pick one", button_text="Open", sections=[section]
    )
    return SendListRequest(number=JONAS, list_message=message)


def _body(method: str, path: str, status: int, message: Any) -> Any:
    body = {"status": status, "error": "x", "response": {"message": message}}
    return error_for_response(status, body, method=method, path=path)


# --- empty optional strings are left out, never sent as "" -----------------------------------


async def test_a_row_without_description_is_sent_without_the_field(demo_server) -> None:
    events: list[CallEvent] = []
    async with GatewayClient(demo_server.url, demo_server.api_key) as client:
        client.subscribe(events.append)
        request = _list_request(
            ListRow(title="City bike", row_id="city"),
            ListRow(title="Road bike", description="", row_id="road"),
            ListRow(title="Cargo bike", description="Carries 80 kg", row_id="cargo"),
        )
        sent = await client.messages.send_list(
            OPEN, request
        )  # the demo, like a real 1.7.1, refuses ""
    assert sent.key is not None
    rows = events[-1].request_body["listMessage"]["sections"][0]["rows"]
    assert rows == [
        {"title": "City bike", "rowId": "city"},
        {"title": "Road bike", "rowId": "road"},
        {"title": "Cargo bike", "description": "Carries 80 kg", "rowId": "cargo"},
    ]


@pytest.mark.parametrize("description", ["", "   "])
async def test_an_invite_without_description_is_refused_before_sending(
    demo_server, description: str
) -> None:
    async with GatewayClient(demo_server.url, demo_server.api_key) as client:
        with pytest.raises(InvalidRequest) as info:
            await client.groups.send_invite(OPEN, BIG, [JONAS], description)
    assert [p.field for p in info.value.problems] == ["description"]
    assert not demo_server.state.writes


async def test_the_invite_dialog_starts_with_a_description_and_will_not_send_a_blank_one(
    app_for, demo_server
) -> None:
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        app.push_screen(InviteScreen(OPEN, BIG, "EU Sales"))
        await pilot.pause()
        description = app.screen.query_one("#invite-description", Input)
        assert description.value == "Join the group “EU Sales” on WhatsApp:"
        app.screen.query_one("#invite-numbers", TextArea).insert(JONAS)
        description.value = "  "
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "a description is required" in screen_text(app)
        assert description.has_focus and not demo_server.state.writes
        description.value = "Monday's meeting"
        await pilot.press("ctrl+s")
        invite = app.state.invite_of(OPEN, BIG)
        await wait_for(pilot, lambda: invite.last_sent is not None)
        sent = [c for c in app.state.calls if c.path.startswith("/group/sendInvite")]
        assert [c.request_body["description"] for c in sent] == ["Monday's meeting"]


# --- a disconnected instance is explained as such ------------------------------------------


async def test_groups_of_a_disconnected_instance_say_not_connected_not_no_list(app_for) -> None:
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        app.open_groups(CLOSED)
        await wait_for(pilot, lambda: app.state.groups_of(CLOSED).error is not None)
        await pilot.pause()
        error = app.state.groups_of(CLOSED).error
        # The real server's 404 for this route: ["Error fetching group", "TypeError: …"].
        assert isinstance(error, NotFound) and not error.route_missing
        text = screen_text(app)
        assert f"The instance {CLOSED} is not connected (status: close)" in text
        assert "does not list groups" not in text
        assert not app.screen.query_one("#jid-entry").display


async def test_a_missing_route_still_turns_the_picker_into_a_jid_entry(app_for, demo_server):
    demo_server.faults.add("missing_route", path_prefix="/group/fetchAllGroups")
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        app.open_groups(OPEN)
        await wait_for(pilot, lambda: app.state.groups_of(OPEN).error is not None)
        await pilot.pause()
        assert isinstance(app.screen, GroupPickerScreen)
        assert "does not list groups" in screen_text(app)


async def test_an_invite_from_a_closed_instance_says_it_is_not_connected(app_for) -> None:
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        app.push_screen(InviteScreen(CLOSED, BIG))
        await pilot.pause()
        app.screen.query_one("#invite-numbers", TextArea).insert(JONAS)
        await pilot.press("ctrl+s")
        invite_calls = lambda: [c for c in app.state.calls if "sendInvite" in c.path]  # noqa: E731
        await wait_for(pilot, lambda: bool(invite_calls()) and not app.screen.busy)
        await pilot.pause()
        text = screen_text(app)
        # The gateway says only "No send invite"; the app knows the instance is close.
        assert "No send invite" in text
        assert f"The instance {CLOSED} is not connected (status: close)" in text
        assert "must be an admin" not in text


@pytest.mark.parametrize("status", ["open", None])
def test_no_send_invite_from_an_open_or_unknown_instance_keeps_its_own_reason(status) -> None:
    error = _body("POST", "/group/sendInvite/x", 404, ["No send invite"])
    title, advice = explain_group_error(
        error, operation="send_invite", instance="x", instance_status=status
    )
    assert title == "The invite was not sent" and "admin" in advice


def test_validation_errors_of_a_closed_instance_keep_their_explanation() -> None:
    error = _body("GET", "/group/participants/x", 400, [{"property": "groupJid", "message": "m"}])
    title, _ = explain_group_error(
        error, operation="participants", instance="x", instance_status="close"
    )
    assert "not connected" not in title


# Every form a real 1.7.1 used for a disconnected instance (captured with curl, both flavours).
REAL_NOT_CONNECTED_FORMS = [
    ("sendList, new", 500, "Cannot read properties of undefined (reading 'onWhatsApp')"),
    ("sendList, reloaded", 500, "Connection Closed"),
    (
        "groups, new",
        404,
        ["Error fetching group", "TypeError: Cannot read properties of undefined (reading 'x')"],
    ),
    ("groups, reloaded", 404, ["No participants", "Error: Connection Closed"]),
    (
        "archive, new",
        500,
        [
            {
                "archived": False,
                "message": [
                    "An error occurred while archiving the chat. Open a calling.",
                    "TypeError: Cannot read properties of undefined (reading 'chatModify')",
                ],
            }
        ],
    ),
    (
        "archive, reloaded",
        500,
        [
            {
                "archived": False,
                "message": [
                    "An error occurred while archiving the chat. Open a calling.",
                    "Error: App state key not present!",
                ],
            }
        ],
    ),
    ("logout", 400, ['The "evo-a" instance is not connected']),
    ("updateMessage", 400, ["TypeError: Cannot read properties of undefined (reading 'id')"]),
]


@pytest.mark.parametrize(
    ("status", "message"),
    [form[1:] for form in REAL_NOT_CONNECTED_FORMS],
    ids=[form[0] for form in REAL_NOT_CONNECTED_FORMS],
)
def test_every_real_not_connected_form_gets_the_hint(status: int, message: Any) -> None:
    error = _body("PUT", "/chat/archiveChat/evo-a", status, message)
    assert error.instance_not_connected and error.hint == NOT_CONNECTED_HINT


@pytest.mark.parametrize(
    "message",
    [
        # archiveChat with an empty `chat`: a bad request, not a session problem
        "TypeError: Cannot set properties of undefined (setting 'messageTimestamp')",
        ['The "x" instance needs to be disconnected'],
        ["No send invite"],
    ],
)
def test_other_errors_get_no_not_connected_hint(message: Any) -> None:
    assert not _body("PUT", "/chat/archiveChat/x", 500, message).instance_not_connected


async def test_archiving_on_a_disconnected_instance_shows_the_hint(app_for) -> None:
    from gateway_tui.core.api.models import MessageKey, SentMessage
    from gateway_tui.core.state import SentRecord
    from gateway_tui.tui.screens.chats import ChatsScreen

    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        key = MessageKey(remote_jid=f"{JONAS}@s.whatsapp.net", from_me=True, id="3EB0AA")
        record = SentRecord(CLOSED, JONAS, SentMessage(key=key, status="PENDING"), {})
        app.actions.messages.restore_sent(CLOSED, [record])
        app.push_screen(ChatsScreen(CLOSED))
        await pilot.pause()
        await pilot.press("a")
        await wait_for(pilot, lambda: any("Archiving" in n for n in notices(app)))
        (notice,) = [n for n in notices(app) if "Archiving" in n]
        assert "An error occurred while archiving the chat" in notice
        assert NOT_CONNECTED_HINT in notice


# --- one instance's 500 is not the gateway failing ----------------------------------------------


def _event(path: str, status: int | None, error: str | None = "x") -> CallEvent:
    return CallEvent("PUT", path, "http://g" + path, datetime.now(), 1.0, status, error)


@pytest.mark.parametrize(
    ("path", "status", "health"),
    [
        ("/group/updateGroupSubject/evo-a", 500, Health.OK),
        ("/message/sendList/evo-a", 500, Health.OK),
        ("/chat/archiveChat/evo-a", 500, Health.OK),
        ("/instance/fetchInstances", 500, Health.FAILING),
        ("/message/sendList/evo-a", 502, Health.FAILING),
        ("/message/sendList/evo-a", 503, Health.FAILING),
        ("/settings/find/evo-a", 401, Health.FAILING),
        ("/settings/find/evo-a", None, Health.UNREACHABLE),
    ],
)
def test_health_follows_the_gateway_not_one_instance(path, status, health) -> None:
    state = AppState()
    state.record_call(_event("/instance/fetchInstances", 200, None))
    state.record_call(_event(path, status))
    assert state.health is health


async def test_a_send_to_a_closed_instance_leaves_the_header_ok(app_for, demo_server) -> None:
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        screen = await open_composer_with(app, pilot, demo_server, _lunch(), CLOSED)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: "Not sent" in _status(screen))
        assert app.state.health is Health.OK
        assert "● ok" in screen_text(app) and "failing" not in screen_text(app)


# --- the composer: a general send error is not drawn under the last row ----------------------


def _status(screen: ComposerScreen) -> str:
    return str(screen.query_one("#composer-status", Static).render())


def _lunch() -> Draft:
    return Draft(
        recipient=JONAS,
        title="Lunch",
        description="Pick one",
        button_text="Menu",
        sections=[DraftSection("Pizzas", [DraftRow("Margherita"), DraftRow("Funghi")])],
    )


async def test_a_general_send_error_is_in_the_status_line_not_under_the_last_row(
    app_for, demo_server
) -> None:
    app = app_for()
    async with app.run_test(size=(140, 50)) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        screen = await open_composer_with(app, pilot, demo_server, _lunch(), CLOSED)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: "Not sent" in _status(screen))
        await pilot.pause()
        assert "Cannot read properties of undefined (reading 'onWhatsApp')" in _status(screen)
        assert NOT_CONNECTED_HINT in _status(screen)
        shown = [w for w in screen.query(".composer-error").results(Static) if w.display]
        assert not [str(w.render()) for w in shown if "gateway" in str(w.render())]


# --- instances: an already-deleted instance, a wrong key at start ---------------------------


async def test_deleting_an_instance_that_is_already_gone_removes_its_row(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, InstancesScreen)
        del demo_server.state.instances[CLOSED]  # deleted elsewhere (the manager, curl)
        assert screen.table.move_cursor_to_key(CLOSED)
        await pilot.press("ctrl+d")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await wait_for(pilot, lambda: app.state.instance(CLOSED) is None)
        await pilot.pause()
        assert CLOSED not in [i.instance_name for i in screen.table.visible_rows]
        assert any("no longer exists" in n for n in notices(app))


async def test_a_wrong_key_at_start_asks_once_and_says_it_once(app_for) -> None:
    app = app_for(api_key="WRONG-KEY-0000")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, InstancesScreen))
        await wait_for(pilot, lambda: app.state.instances.error is not None)
        await wait_for(pilot, lambda: "API key" in screen_text(app))
        for _ in range(5):
            await pilot.pause()
        asked = [c for c in app.state.calls if c.path == "/instance/fetchInstances"]
        assert len(asked) == 1
        assert len([n for n in notices(app) if "Refreshing instances failed" in n]) == 1


# --- the key mask, the instance's labels ------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "shown"),
    [
        ("WRONG", "••••"),
        ("1234567", "••••"),
        ("12345678", "••••78"),
        ("123456789012", "••••012"),
        ("EVO-LOCAL-GLOBAL-KEY-0001", "••••0001"),
    ],
)
def test_a_mask_never_shows_more_than_a_quarter_of_a_key(key: str, shown: str) -> None:
    assert mask_key(key) == shown
    assert len(shown) - 4 <= len(key) // 4


def test_the_wa_business_callback_is_not_called_the_webhook() -> None:
    instance = Instance.model_validate(
        {
            "instanceName": "evo-a",
            "status": "close",
            "integration": {"webhook_wa_business": "http://g/webhook/whatsapp/evo-a"},
        }
    )
    console = Console(width=120, file=io.StringIO(), record=True)
    console.print(details_table(instance))
    text = console.export_text()
    assert "WA Business callback" in text and "http://g/webhook/whatsapp/evo-a" in text
    assert "Webhook URL" not in text
