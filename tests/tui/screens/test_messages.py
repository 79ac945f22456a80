"""The conversation screen on the demo gateway: bubbles by kind, list replies, delivery marks
that advance on their own, search, and the actions on one message."""

from __future__ import annotations

import json
import time

import pytest
from textual.widgets import Input

from gateway_tui.demo import chats as demo_chats
from gateway_tui.demo import lifecycle as demo_lifecycle
from gateway_tui.tui.screens import messages as messages_screen
from gateway_tui.tui.screens.chat_modals import EditMessageScreen, ProfileScreen
from gateway_tui.tui.screens.composer import ComposerScreen
from gateway_tui.tui.screens.confirm import ConfirmScreen
from tests.data import (
    INSTANCE,
    JONAS,
    JONAS_JID,
    JONAS_LAST_ID,
    WAR_ROOM,
    chat_with,
    demo_instance,
    send_list_request,
)
from tests.navigation import open_conversation, select_message
from tests.support import notices, screen_text, wait_for

# The demo runs in the test's event loop (tests/in_process.py): these tests need no socket.
pytestmark = pytest.mark.in_process

SIZE = (140, 40)


async def test_a_list_message_is_drawn_as_a_list_and_its_reply_shows_the_chosen_row(
    app_for, demo_server
):
    jid = chat_with(demo_server, lambda m: m.list_message is not None)
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_conversation(app, pilot, jid)
        kinds = [m.kind for m in screen.view.messages]
        assert kinds[-3:] == ["listMessage", "listResponseMessage", "conversation"]
        await select_message(pilot, screen, screen.view.messages[-3].id)
        text = screen_text(app)
        assert "Delivery slots" in text and "☰ See slots" in text
        assert "Morning" in text and "Talk to a person" in text  # the opened list
        await select_message(pilot, screen, screen.view.messages[-2].id)
        text = screen_text(app)
        assert "chose ● Morning" in text and "9am to 12pm" in text
        assert "from the list “Delivery slots”" in text


async def test_messages_are_the_chats_own_oldest_first_with_kinds_and_senders(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_conversation(app, pilot, WAR_ROOM)
        stored = demo_instance(demo_server).chats[WAR_ROOM].messages
        assert [m.id for m in screen.view.messages] == [m.key["id"] for m in stored]
        await select_message(pilot, screen, stored[0].key["id"])
        member = stored[0].participant
        assert member and screen.view.selected.participant == member
        assert stored[0].push_name in screen_text(app)  # the member's pushName
        unknown = chat_with(demo_server, lambda m: "interactiveMessage" in (m.content or {}))
        app.pop_screen()
        screen = await open_conversation(app, pilot, unknown)
        odd = next(m for m in screen.view.messages if m.kind == "interactiveMessage")
        await select_message(pilot, screen, odd.id)
        assert "[interactiveMessage]" in screen_text(app)


async def test_delivery_marks_advance_without_a_key(app_for, demo_server, monkeypatch):
    # The demo's clock is moved by the test, not waited for: each step holds until the test
    # moves on, however slow the machine (the screen polls as often as the test needs).
    monkeypatch.setattr(
        demo_chats,
        "STATUS_STEPS",
        ((0.0, "PENDING"), (1.0, "SERVER_ACK"), (1e6, "DELIVERY_ACK"), (2e6, "READ")),
    )
    monkeypatch.setattr(messages_screen, "POLL_SECONDS", 0.2)
    # The instance's websocket is off: its marks are polled (live, they come as events).
    demo_lifecycle.of(demo_server.state).websockets[INSTANCE] = {"enabled": False, "events": []}
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        sent = await app.actions.messages.send_list(
            INSTANCE, send_list_request(JONAS, "Lunch menu")
        )
        [message] = [
            m
            for m in demo_instance(demo_server).chats[JONAS_JID].messages
            if m.key["id"] == sent.key.id
        ]
        message.sent_clock = time.monotonic() - 10  # the server has it, for the next 11 days
        screen = await open_conversation(app, pilot, JONAS_JID)
        assert screen.view.messages[-1].id == sent.key.id

        def status() -> str:
            row = screen.view.statuses.get(sent.key.id)
            return row.status if row else ""

        await wait_for(pilot, lambda: status() == "SERVER_ACK")
        message.sent_clock = time.monotonic() - 3e6  # read, on the server
        await wait_for(pilot, lambda: status() == "READ")  # no key pressed
        await pilot.pause()
        assert "✓✓ READ" in screen_text(app)  # the details line of the newest message
        polls = [e for e in app.state.calls if e.path.startswith("/chat/findStatusMessage/")]
        assert len(polls) >= 2
        # Once read, polling stops.
        count = len(polls)
        await pilot.pause(0.8)
        after = [e for e in app.state.calls if e.path.startswith("/chat/findStatusMessage/")]
        assert len(after) == count


async def test_e_edits_own_text_only_and_says_why_not_otherwise(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        sent = await app.actions.messages.send_list(
            INSTANCE, send_list_request(JONAS, "Lunch menu")
        )
        screen = await open_conversation(app, pilot, JONAS_JID)
        received = next(m for m in screen.view.messages if not m.from_me)
        await select_message(pilot, screen, received.id)
        await pilot.press("e")
        await pilot.pause()
        assert app.screen is screen and any("Only your own messages" in n for n in notices(app))
        await select_message(pilot, screen, sent.key.id)
        await pilot.press("e")
        await pilot.pause()
        assert app.screen is screen and any("WhatsApp edits only text" in n for n in notices(app))
        await select_message(pilot, screen, JONAS_LAST_ID)
        await pilot.press("e")  # an old message: asked first (issue 29, item 10)
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_for(pilot, lambda: isinstance(app.screen, EditMessageScreen))
        assert app.screen.key.id == JONAS_LAST_ID
        await pilot.press("ctrl+u", *"Tracking: UPS 1Z999", "enter")
        await wait_for(pilot, lambda: app.screen is screen)
        stored = demo_instance(demo_server).chats[JONAS_JID].find(JONAS_LAST_ID)
        assert stored.text == "Tracking: UPS 1Z999" and stored.edited


async def test_the_edit_adds_to_the_old_text_and_the_bubble_shows_the_result(app_for, demo_server):
    # Within WhatsApp's 15 minutes: an edit the customer sees.
    demo_instance(demo_server).chats[JONAS_JID].find(JONAS_LAST_ID).timestamp = int(time.time())
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_conversation(app, pilot, JONAS_JID)
        await select_message(pilot, screen, JONAS_LAST_ID)
        old = screen.view.selected.full_text
        await pilot.press("e")
        await pilot.pause()
        field = app.screen.query_one("#edit-text", Input)
        assert field.value == old and field.cursor_position == len(old)
        assert field.selection.is_empty  # nothing selected: typing adds, never replaces
        await pilot.press(*" (arrives Friday)", "enter")
        await wait_for(pilot, lambda: app.screen is screen)
        new = old + " (arrives Friday)"
        assert demo_instance(demo_server).chats[JONAS_JID].find(JONAS_LAST_ID).text == new
        await wait_for(pilot, lambda: new in screen_text(app))
        assert "edited" in screen_text(app)
        await pilot.press("r")  # read again: still the new text, still marked
        loadable = app.actions.chats.messages_of(INSTANCE, JONAS_JID)
        await wait_for(pilot, lambda: not loadable.loading)
        await pilot.pause()
        text = screen_text(app)
        assert new in text and "edited" in text


async def test_y_copies_the_id_and_Y_the_stored_json(app_for):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_conversation(app, pilot, JONAS_JID)
        await select_message(pilot, screen, JONAS_LAST_ID)
        await pilot.press("y")
        assert app.clipboard == JONAS_LAST_ID
        await pilot.press("Y")
        await wait_for(pilot, lambda: app.clipboard.startswith("{"))
        copied = json.loads(app.clipboard)
        assert copied["key"]["id"] == JONAS_LAST_ID and copied["owner"] == INSTANCE


async def test_slash_jumps_to_hits_and_the_whole_chat_stays(app_for, demo_server):
    chat = demo_instance(demo_server).chats[JONAS_JID]
    base = chat.messages[-1].timestamp
    for index in range(60):  # "parcel" every 10th: hits far apart, far off screen
        chat.messages.insert(
            0,
            demo_chats.Message(
                key={"remoteJid": JONAS_JID, "fromMe": False, "id": f"3AE{index:017X}"},
                text=f"parcel {index}" if index % 10 == 0 else f"filler {index}",
                timestamp=base - 1000 + index,
            ),
        )
    chat.messages.sort(key=lambda m: m.timestamp)
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_conversation(app, pilot, JONAS_JID)
        total = len(screen.view.messages)
        await pilot.press("slash", *"dhl")
        assert len(screen.view.messages) == total  # the chat stays whole
        assert screen.view.selected.id == JONAS_LAST_ID
        assert "hit 1 of 1 for “dhl”" in screen_text(app)
        await pilot.press("ctrl+u", *"parcel", "enter")
        assert screen.view.selected.text == "parcel 50"  # the nearest, going back
        text = screen_text(app)
        # The counter counts the way n goes (it once ran 6, 5, 4… as n went on).
        assert "hit 1 of 6 for “parcel” (n/N next/previous)" in text
        assert "parcel 50" in text
        await pilot.press("n", "n")
        assert screen.view.selected.text == "parcel 30" and "parcel 30" in screen_text(app)
        assert "hit 3 of 6" in screen_text(app)
        await pilot.press("N")
        assert screen.view.selected.text == "parcel 40" and "hit 2 of 6" in screen_text(app)
        await pilot.press("N", "N")  # past the newest hit: round to the oldest
        assert screen.view.selected.text == "parcel 0" and "hit 6 of 6" in screen_text(app)
        await pilot.press("n")  # and back round the other way
        assert screen.view.selected.text == "parcel 50"
        await pilot.press("slash", "ctrl+u", *"zzzz")
        text = screen_text(app)
        assert "no match for “zzzz”" in text and "No messages" not in text
        assert len(screen.view.messages) == total and "parcel 50" in text
        await pilot.press("escape")
        assert "zzzz" not in screen_text(app) and app.screen is screen
        await pilot.press("escape")
        assert app.screen is not screen


async def test_search_finds_a_lists_rows_and_marks_the_hit(app_for, demo_server):
    jid = chat_with(demo_server, lambda m: m.list_message is not None)
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_conversation(app, pilot, jid)
        await pilot.press("slash", *"talk to a person")
        assert screen.view.selected.kind == "listMessage"  # a row title, not the list's title
        await pilot.press("ctrl+u", *"1pm to 5pm")  # a row's description
        assert screen.view.selected.kind == "listMessage"
        assert screen.hits and "no match" not in screen_text(app)


async def test_the_hit_is_highlighted_in_its_bubble(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_conversation(app, pilot, JONAS_JID)
        await pilot.press("slash", *"dhl")
        strips = screen.view._lines
        marked = [
            segment.text
            for strip in strips
            for segment in strip
            if segment.style is not None
            and segment.style.bgcolor is not None
            and segment.style.bgcolor.name == "yellow"
        ]
        assert "".join(marked).casefold() == "dhl"


async def test_a_p_and_m_act_on_the_chat(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_conversation(app, pilot, JONAS_JID)
        await pilot.press("a")
        chat = demo_instance(demo_server).chats[JONAS_JID]
        await wait_for(pilot, lambda: chat.archived)
        archive = next(e for e in app.state.calls if e.path.startswith("/chat/archiveChat/"))
        assert archive.request_body["lastMessage"]["key"]["id"] == screen.all_messages[-1].id
        await wait_for(pilot, lambda: "archived" in screen_text(app))
        await pilot.press("p")
        await pilot.pause()
        assert isinstance(app.screen, ProfileScreen)
        assert app.screen.query_one("#profile-number", Input).value == JONAS
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("m")
        await pilot.pause()
        assert isinstance(app.screen, ComposerScreen)
        assert app.screen.query_one("#f-recipient", Input).value == JONAS


@pytest.mark.parametrize("size", [(80, 24), (140, 40)])
async def test_moving_through_a_long_chat_keeps_the_cursor_on_screen(app_for, demo_server, size):
    instance = demo_instance(demo_server)
    chat = instance.chats[JONAS_JID]
    base = chat.messages[-1].timestamp
    for index in range(300):
        chat.messages.append(
            demo_chats.Message(
                key={"remoteJid": JONAS_JID, "fromMe": index % 2 == 0, "id": f"3AF{index:017X}"},
                text=f"line {index}",
                timestamp=base + index + 1,
            )
        )
    app = app_for()
    async with app.run_test(size=size) as pilot:
        screen = await open_conversation(app, pilot, JONAS_JID)
        assert screen.view.selected.text == "line 299"
        assert "line 299" in screen_text(app)
        await pilot.press("pageup", "pageup", "up")
        shown = screen.view.selected.text
        assert shown in screen_text(app)
        await pilot.press("home")
        assert screen.view.index == 0 and screen.view.selected.text in screen_text(app)
        await pilot.press("end")
        assert "line 299" in screen_text(app)


async def test_message_text_and_names_are_data_not_markup(app_for, demo_server):
    chat = demo_instance(demo_server).chats[WAR_ROOM]
    chat.messages[0].text = "[bold red]50% off[/] \x1b[31mred\x1b[0m"
    chat.messages[0].push_name = "[link=https://x.example]Mallory[/link]"
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_conversation(app, pilot, WAR_ROOM)
        await select_message(pilot, screen, chat.messages[0].key["id"])
        text = screen_text(app)
        assert "[bold red]50% off[/]" in text
        assert "[link=https://x.example]Mallory[/link]" in text
        assert "\x1b[31m" not in text


async def test_a_long_message_is_cut_in_its_bubble_and_v_shows_it_whole(app_for, demo_server):
    from textual.widgets import TextArea

    from gateway_tui.tui.screens.message_pager import MessagePagerScreen

    chat = demo_instance(demo_server).chats[JONAS_JID]
    chat.messages.append(
        demo_chats.Message(
            key={"remoteJid": JONAS_JID, "fromMe": False, "id": "3AF00000000000000LONG"},
            text="\n".join(f"row {n} of the manifest" for n in range(10_000)),
            timestamp=chat.messages[-1].timestamp + 1,
        )
    )
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_conversation(app, pilot, JONAS_JID)
        assert screen.view.selected.id == "3AF00000000000000LONG"
        text = screen_text(app)
        assert "row 0 of the manifest" in text  # its start shows, not just its last lines
        assert "more lines: v shows the whole message" in text
        await pilot.press("v")
        await pilot.pause()
        assert isinstance(app.screen, MessagePagerScreen)
        area = app.screen.query_one(TextArea)
        assert area.document.line_count == 10_000
        await pilot.press("ctrl+end")  # the document's end (scrolled there, maybe smoothly)
        await wait_for(pilot, lambda: "row 9999 of the manifest" in screen_text(app))
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen
