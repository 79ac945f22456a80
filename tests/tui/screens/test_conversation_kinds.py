"""The conversation's keys for the new kinds: a poll, a location and contact cards from their
dialog (checked as the real server checks them, in the dialog, before anything is sent); delete
for everyone (own messages only, confirmed); mark unread; and 2.4's buttons composer, refused
before 2.4 with the reason and the version."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input, Static

from gateway_tui.core.text.catalogues import extract
from gateway_tui.demo.server import DemoServer
from gateway_tui.tui.screens import conversation_kinds
from gateway_tui.tui.screens.confirm import ConfirmScreen
from gateway_tui.tui.screens.conversation_kinds import KIND_BINDINGS, KIND_KEYS, KindFormScreen
from gateway_tui.tui.screens.interactive_composer import InteractiveComposerScreen
from gateway_tui.tui.screens.messages import MessagesScreen
from tests.data import JONAS_JID
from tests.navigation import open_conversation, select_message
from tests.support import make_app, make_config, notices, screen_text, wait_for

SIZE = (120, 40)


def calls_to(app, route: str) -> list:
    return [e for e in app.state.calls if f"/{route}/" in e.path]


async def fill(pilot, dialog: KindFormScreen, **values: str) -> None:
    for field, value in values.items():
        dialog.query_one(f"#kind-{field}", Input).value = value
    await pilot.pause()


def test_the_kind_keys_table_makes_hidden_bindings_whose_words_the_catalogue_finds():
    """The kinds' keys are one table (KIND_KEYS): each row a binding of the conversation, hidden
    from the footer, with its tooltip; its word and tooltip are marked for translation (they
    are not written as Binding's third argument, where the extractor finds them by itself)."""
    marked = extract([Path(conversation_kinds.__file__)])
    conversation_ids = {binding.id for binding in MessagesScreen.BINDINGS}
    for binding in KIND_BINDINGS:
        assert binding.id in conversation_ids and binding.id.startswith("messages.")
        assert binding.show is False
        assert binding.description in marked and binding.tooltip in marked, binding.id
    assert len({b.id for b in KIND_BINDINGS}) == len({b.key for b in KIND_BINDINGS})
    assert len(KIND_BINDINGS) == len(KIND_KEYS)


@pytest.mark.in_process
async def test_a_poll_is_checked_in_its_dialog_then_sent(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_conversation(app, pilot, JONAS_JID)
        await pilot.press("P")
        await wait_for(pilot, lambda: isinstance(app.screen, KindFormScreen))
        dialog = app.screen
        await fill(pilot, dialog, question="Lunch?", options="Pizza", several="n")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: "minimum length of 2" in screen_text(app))
        assert app.screen is dialog and not calls_to(app, "sendPoll")
        await fill(pilot, dialog, options="Pizza | Sushi", several="y")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: app.screen is screen)
        await wait_for(pilot, lambda: bool(calls_to(app, "sendPoll")))
    (sent,) = calls_to(app, "sendPoll")
    # 1.7.1's shape, several choices: selectableCount 0.
    assert sent.request_body["pollMessage"] == {
        "name": "Lunch?",
        "selectableCount": 0,
        "values": ["Pizza", "Sushi"],
    }


@pytest.mark.in_process
async def test_a_location_and_contact_cards_go_out_in_the_lines_shape(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_conversation(app, pilot, JONAS_JID)
        await pilot.press("L")
        await wait_for(pilot, lambda: isinstance(app.screen, KindFormScreen))
        await fill(pilot, app.screen, latitude="abc", longitude="-46.6559")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: "latitude: a number" in screen_text(app))
        await fill(pilot, app.screen, latitude="-23,5617", name="Office")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: bool(calls_to(app, "sendLocation")))
        await wait_for(pilot, lambda: app.screen is screen)
        await pilot.press("C")
        await wait_for(pilot, lambda: isinstance(app.screen, KindFormScreen))
        await fill(pilot, app.screen, cards="Bob=123")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: "phoneNumber does not meet minimum" in screen_text(app))
        await fill(pilot, app.screen, cards="Bob=+55 11 97777-6666; Ana=+49 176 1234 5678")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: bool(calls_to(app, "sendContact")))
    place = calls_to(app, "sendLocation")[0].request_body["locationMessage"]
    assert place == {"name": "Office", "address": "", "latitude": -23.5617, "longitude": -46.6559}
    cards = calls_to(app, "sendContact")[0].request_body["contactMessage"]
    assert [c["fullName"] for c in cards] == ["Bob", "Ana"]
    assert cards[0]["wuid"] == "5511977776666"


@pytest.mark.in_process
async def test_delete_for_everyone_is_for_own_messages_and_confirmed(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_conversation(app, pilot, JONAS_JID)
        messages = screen.view.messages
        theirs = next(m for m in messages if not m.from_me and not m.kind.startswith("reaction"))
        mine = next(m for m in reversed(messages) if m.from_me)
        await select_message(pilot, screen, theirs.id)
        await pilot.press("D")
        await pilot.pause()
        assert any("Only your own messages" in n for n in notices(app))
        assert not isinstance(app.screen, ConfirmScreen)
        await select_message(pilot, screen, mine.id)
        await pilot.press("D")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("escape")  # not confirmed: nothing sent
        await wait_for(pilot, lambda: app.screen is screen)
        assert not calls_to(app, "deleteMessageForEveryone")
        await pilot.press("D")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_for(pilot, lambda: bool(calls_to(app, "deleteMessageForEveryone")))
        await pilot.press("U")
        await wait_for(pilot, lambda: bool(calls_to(app, "markChatUnread")))
    (deleted,) = calls_to(app, "deleteMessageForEveryone")
    assert deleted.method == "DELETE"
    assert deleted.request_body == {"remoteJid": JONAS_JID, "fromMe": True, "id": mine.id}
    unread = calls_to(app, "markChatUnread")[0].request_body["lastMessage"]
    assert unread["key"]["id"] == messages[-1].id


@pytest.mark.in_process
async def test_buttons_before_24_are_refused_with_the_reason_and_the_version(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await open_conversation(app, pilot, JONAS_JID)
        await pilot.press("B")
        await wait_for(pilot, lambda: isinstance(app.screen, InteractiveComposerScreen))
        await wait_for(pilot, lambda: "2.4 or later is needed for buttons" in screen_text(app))
        _, problems = app.screen.message()
        assert str(problems[0]) == (
            "Evolution API 2.4 or later is needed for buttons: this gateway is 1.7.1"
        )
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: "Not sent" in screen_text(app))
    assert not calls_to(app, "sendButtons")


async def test_buttons_on_24_show_the_rules_the_json_and_the_curl(isolated_home):
    with DemoServer(api_version="2.4.0") as server:
        app = make_app(make_config(server, api_version="auto"))
        async with app.run_test(size=(140, 50)) as pilot:
            await open_conversation(app, pilot, JONAS_JID)
            await pilot.press("B")
            await wait_for(pilot, lambda: isinstance(app.screen, InteractiveComposerScreen))
            composer = app.screen
            composer.query_one("#i-title", Input).value = "Menu"
            await wait_for(pilot, lambda: "ready to send" in screen_text(app))
            json_text = str(composer.query_one("#i-json", Static).render())
            assert '"type": "reply"' in json_text and '"displayText": "Yes, please"' in json_text
            curl = str(composer.query_one("#i-curl", Static).render())
            assert "/message/sendButtons/sales-eu" in curl and server.api_key not in curl
            lines = composer.query_one("#i-lines")
            lines.text = "reply: Yes = y\nurl: Site = https://example.com"
            await wait_for(
                pilot, lambda: "Reply buttons cannot be mixed with CTA or PIX" in screen_text(app)
            )
            lines.text = "url: A = https://a.example\nurl: B = https://b.example\ncall: C = +551140"
            await wait_for(pilot, lambda: "Maximum of 2 CTA buttons allowed" in screen_text(app))
            await pilot.press("ctrl+s")
            await wait_for(pilot, lambda: "Not sent" in screen_text(app))
        assert not calls_to(app, "sendButtons")


@pytest.mark.in_process
async def test_typing_is_shown_to_the_chat_only_when_asked(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_conversation(app, pilot, JONAS_JID)
        screen.line.focus()
        await pilot.press("h", "i")
        await pilot.pause()
        assert not calls_to(app, "sendPresence")  # off by default
        screen.view.focus()
        await pilot.press("T")
        screen.line.focus()
        await pilot.press("!")
        await wait_for(pilot, lambda: bool(calls_to(app, "sendPresence")))
        await pilot.press("?")
        await pilot.pause()
    (shown,) = calls_to(app, "sendPresence")  # at most one every 10 s
    assert shown.request_body["options"]["presence"] == "composing"
