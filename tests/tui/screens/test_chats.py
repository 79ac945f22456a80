"""The chats screen on the demo gateway's chat store: names, order, filter, the sent history
merged in (and alone when the store is empty), archive, profiles, compose, opening a chat."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import Input

from gateway_tui.core.api.errors import NOT_CONNECTED_HINT, error_for_response
from gateway_tui.core.files.drafts import ComposeStore
from gateway_tui.tui.screens.chat_modals import EditMessageScreen, ProfileScreen
from gateway_tui.tui.screens.chats import ChatsScreen
from gateway_tui.tui.screens.composer import ComposerScreen
from gateway_tui.tui.screens.confirm import ConfirmScreen
from gateway_tui.tui.screens.messages import MessagesScreen
from gateway_tui.tui.widgets.record_table import RecordTable
from tests.data import (
    BAKERY,
    BAKERY_JID,
    INSTANCE,
    JONAS,
    JONAS_JID,
    JONAS_LAST_ID,
    WAR_ROOM,
    demo_instance,
    good_draft,
    send_list_request,
)
from tests.navigation import open_chats
from tests.support import notices, screen_text, wait_for

SIZE = (140, 40)


def table(app) -> RecordTable:
    return app.screen.query_one("#chats-table", RecordTable)


async def at_chat(pilot, screen: ChatsScreen, jid: str) -> None:
    assert screen.table.move_cursor_to_key(jid)
    await pilot.pause()


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


def _body(method: str, path: str, status: int, message: Any) -> Any:
    body = {"status": status, "error": "x", "response": {"message": message}}
    return error_for_response(status, body, method=method, path=path)


CLOSED = "onboarding"


@pytest.mark.in_process
async def test_gateway_chats_are_named_and_newest_first(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_chats(app, pilot)
        rows = screen.table.visible_rows
        assert {r.jid for r in rows} == set(demo_instance(demo_server).chats)
        stamps = [r.last_at for r in rows]
        assert stamps == sorted(stamps, reverse=True)
        by_jid = {r.jid: r for r in rows}
        assert by_jid[JONAS_JID].title == "Jonas Weber"  # from findContacts
        assert by_jid[WAR_ROOM].title == "Pricing war room"  # from fetchAllGroups
        assert by_jid[JONAS_JID].last_text == "Tracking: DHL 00340434161234567890"
        assert by_jid[JONAS_JID].from_me is True
        nameless = [r for r in rows if not r.name and not r.is_group]
        assert nameless and all(r.title.startswith("+") for r in nameless)  # pushName ""
        text = screen_text(app)
        assert "Jonas Weber" in text and "You: Tracking: DHL" in text
        assert f"{len(rows)} chats" in text


@pytest.mark.in_process
async def test_slash_filters_names_numbers_and_last_text_live(app_for):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_chats(app, pilot)
        await pilot.press("slash", *"weber")
        assert [r.jid for r in screen.table.visible_rows] == [JONAS_JID]
        await pilot.press(*["backspace"] * 5, *"tracking")
        assert [r.jid for r in screen.table.visible_rows] == [JONAS_JID]
        await pilot.press(*["backspace"] * 8, *"91234-5678")  # the number as shown
        assert [r.jid for r in screen.table.visible_rows] == [BAKERY_JID]
        assert "1 shown" in screen_text(app)


@pytest.mark.in_process
async def test_sent_history_is_merged_without_duplicates(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_chats(app, pilot, (JONAS, "Lunch menu"))
        rows = screen.table.visible_rows
        assert [r.jid for r in rows].count(JONAS_JID) == 1
        assert len(rows) == len(demo_instance(demo_server).chats)
        jonas = next(r for r in rows if r.jid == JONAS_JID)
        assert rows[0] is jonas  # just sent: the newest activity
        assert jonas.last_text == "☰ Lunch menu" and jonas.sent_here == 1
        assert jonas.last_key == app.state.sent[INSTANCE][-1].result.key


@pytest.mark.in_process
async def test_an_empty_store_falls_back_to_the_sent_history_and_says_so(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        await app.actions.messages.send_list(INSTANCE, send_list_request(JONAS, "Lunch menu"))
        workspace = demo_instance(demo_server).workspace
        workspace.chats.clear()  # the gateway keeps no store
        workspace.contacts.clear()
        screen = await open_chats(app, pilot)
        [row] = screen.table.visible_rows
        assert row.jid == JONAS_JID and not row.in_store and row.last_text == "Lunch menu"
        assert "chat store is empty" in screen_text(app)


@pytest.mark.in_process
async def test_no_chats_anywhere_says_how_they_appear(app_for, demo_server):
    demo_instance(demo_server).workspace.chats.clear()
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await open_chats(app, pilot)
        text = screen_text(app)
        assert "No chats" in text and "m composes" in text


@pytest.mark.in_process
async def test_a_failed_read_is_shown_and_the_sent_history_stays(app_for, demo_server):
    demo_server.faults.add("status", path_prefix="/chat/findChats/", status=500)
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_chats(app, pilot, (JONAS, "Lunch menu"))
        assert [r.jid for r in screen.table.visible_rows] == [JONAS_JID]
        assert "could not read the gateway's chats" in screen_text(app)
        demo_server.faults.clear()
        await pilot.press("r")
        await wait_for(pilot, lambda: len(screen.table.visible_rows) > 1)
        assert "could not read" not in screen_text(app)


@pytest.mark.in_process
async def test_archive_uses_the_chats_real_last_message(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_chats(app, pilot)
        await at_chat(pilot, screen, JONAS_JID)
        chat = demo_instance(demo_server).chats[JONAS_JID]
        await pilot.press("a")
        await wait_for(pilot, lambda: chat.archived)
        await wait_for(pilot, lambda: screen.table.cursor_row.archived)
        assert "archived" in screen_text(app)
        await pilot.press("a")
        # The gateway answers {"archived": true} to an unarchive too: the state follows the ask.
        await wait_for(pilot, lambda: not chat.archived)
        archives = [e for e in app.state.calls if e.path.startswith("/chat/archiveChat/")]
        assert [e.request_body["archive"] for e in archives] == [True, False]
        keys = {e.request_body["lastMessage"]["key"]["id"] for e in archives}
        assert keys == {JONAS_LAST_ID}
        stored = ComposeStore(app.gateway_url, INSTANCE).stored_chats()
        assert stored.archived.get(JONAS_JID) is False


@pytest.mark.in_process
async def test_archive_failure_keeps_the_flag(app_for, demo_server):
    demo_server.faults.add("status", path_prefix="/chat/archiveChat/", status=500, times=1)
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_chats(app, pilot)
        await at_chat(pilot, screen, JONAS_JID)
        await pilot.press("a")
        await wait_for(pilot, lambda: any("archiveChat" in e.path for e in app.state.calls))
        await pilot.pause()
        assert not screen.table.cursor_row.archived
        assert demo_instance(demo_server).chats[JONAS_JID].archived is False


@pytest.mark.in_process
async def test_enter_opens_the_conversation_and_e_edits_the_last_own_text(app_for):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_chats(app, pilot)
        await at_chat(pilot, screen, JONAS_JID)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, MessagesScreen) and app.screen.jid == JONAS_JID
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("e")  # straight to the edit of his chat's newest own text
        # It is older than WhatsApp's 15 minutes: asked first (issue 29, item 10).
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_for(pilot, lambda: isinstance(app.screen, EditMessageScreen))
        assert app.screen.key.id == JONAS_LAST_ID
        assert app.screen.query_one("#edit-text", Input).value.startswith("Tracking: DHL")
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen


@pytest.mark.in_process
async def test_the_list_opens_at_its_newest_row(app_for, demo_server):
    """The sent history draws first; when the gateway's newer chats arrive, the cursor goes
    to the top, not along with an old chat down the list."""
    from datetime import datetime

    from gateway_tui.core.api.models import SentMessage
    from gateway_tui.core.state import SentRecord

    app = app_for()
    async with app.run_test(size=(100, 24)) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        old = [
            SentRecord(
                instance=INSTANCE,
                recipient=f"49151000000{n:02d}",
                result=SentMessage.model_validate(
                    {
                        "key": {
                            "remoteJid": f"49151000000{n:02d}@s.whatsapp.net",
                            "fromMe": True,
                            "id": f"3EB0OLD{n:013d}",
                        }
                    }
                ),
                body={"listMessage": {"title": f"old {n}"}},
                sent_at=datetime(2020, 1, 1 + n),
            )
            for n in range(25)
        ]
        app.actions.messages.restore_sent(INSTANCE, old)
        screen = await open_chats(app, pilot)
        table = screen.table
        await wait_for(pilot, lambda: len(table.visible_rows) > 40)
        assert table.cursor_index == 0 and table.scroll_offset.y == 0
        newest = max(r.last_at for r in table.visible_rows if r.last_at)
        assert table.cursor_row.last_at == newest


@pytest.mark.in_process
async def test_before_the_gateway_answers_the_list_says_it_shows_only_local_chats(
    app_for, demo_server
):
    """Issue 29: for the first read's time only this app's sent history is there; the list
    says so until the gateway's chats are in, then no more."""
    stall = demo_server.faults.add("stall", seconds=20, path_prefix="/chat/findChats/", times=1)
    app = app_for(request_timeout=120)  # the stalled read is answered, late
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        await app.actions.messages.send_list(INSTANCE, send_list_request(JONAS, "Local first"))
        app.push_screen(ChatsScreen(INSTANCE))
        book = app.actions.chats.chat_book(INSTANCE)
        await wait_for(pilot, lambda: "Local first" in screen_text(app))
        text = " ".join(screen_text(app).split())
        assert book.value is None and stall.hits == 1  # the gateway has not answered yet
        assert "loading the gateway's chats… showing only the chats this app sent to" in text
        await wait_for(pilot, lambda: book.value is not None and not book.loading)
        await pilot.pause()
        text = " ".join(screen_text(app).split())
        assert "showing only the chats this app sent to" not in text
        assert len(app.screen.table.rows) > 1


@pytest.mark.in_process
async def test_server_text_is_shown_as_text_not_markup(app_for, demo_server):
    contacts = demo_instance(demo_server).workspace.contacts
    contacts[JONAS_JID] = "[bold red]Jonas[/]"
    contacts[BAKERY_JID] = "Padaria \x1b[2J\x07"
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await open_chats(app, pilot, (JONAS, "[b]Sale[/b] 50%"))
        text = screen_text(app)
        assert "[bold red]Jonas[/]" in text and "☰ [b]Sale[/b] 50%" in text
        # Control characters are shown as their visible symbols (␛ ␇), never written raw.
        assert "Padaria \u241b[2J\u2407" in text and "\x1b[2J" not in text


@pytest.mark.in_process
async def test_the_sent_history_and_archived_flag_come_back_in_a_new_run(app_for, demo_server):
    first = app_for()
    async with first.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(first.state.instances.value))
        ComposeStore(first.gateway_url, INSTANCE).save_draft(good_draft())
        composer = ComposerScreen(INSTANCE)
        first.push_screen(composer)
        await pilot.pause()
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: composer.last_result is not None)
        first.pop_screen()
        await pilot.pause()
        screen = ChatsScreen(INSTANCE)
        first.push_screen(screen)
        await pilot.pause()
        await wait_for(pilot, lambda: screen.table.cursor_row is not None)
        await at_chat(pilot, screen, JONAS_JID)
        await pilot.press("a")
        await wait_for(pilot, lambda: first.state.chats_of(INSTANCE)[JONAS_JID].archived)

    second = app_for()  # a new run: nothing in memory, the same data dir
    async with second.run_test(size=SIZE) as pilot:
        screen = await open_chats(second, pilot)
        jonas = next(r for r in screen.table.visible_rows if r.jid == JONAS_JID)
        assert jonas.archived and jonas.sent_here == 1


@pytest.mark.in_process
async def test_m_composes_to_the_chat(app_for):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_chats(app, pilot)
        await at_chat(pilot, screen, BAKERY_JID)
        await pilot.press("m")
        await pilot.pause()
        assert isinstance(app.screen, ComposerScreen)
        assert app.screen.query_one("#f-recipient", Input).value == BAKERY


@pytest.mark.in_process
async def test_bindings_have_ids_and_descriptions():
    for screen in (ChatsScreen, MessagesScreen, EditMessageScreen, ProfileScreen):
        for binding in screen.BINDINGS:
            assert binding.id and binding.description, binding
    ids = {b.id for b in ChatsScreen.BINDINGS}
    assert {"chats.open", "chats.archive", "chats.edit", "chats.profile", "chats.filter"} <= ids


@pytest.mark.in_process
async def test_an_archived_flag_set_here_comes_back_for_a_gateway_chat(app_for, demo_server):
    first = app_for()
    async with first.run_test(size=SIZE) as pilot:
        screen = await open_chats(first, pilot)
        await at_chat(pilot, screen, BAKERY_JID)  # no message of it was sent from here
        await pilot.press("a")
        await wait_for(pilot, lambda: screen.table.cursor_row.archived)

    second = app_for()
    async with second.run_test(size=SIZE) as pilot:
        screen = await open_chats(second, pilot)
        bakery = next(r for r in screen.table.visible_rows if r.jid == BAKERY_JID)
        assert bakery.archived and bakery.in_store and bakery.sent_here == 0
        assert len(screen.table.visible_rows) == len(demo_instance(demo_server).chats)


@pytest.mark.in_process
def test_a_group_chat_is_named_by_its_jid_not_as_a_phone_number():
    from gateway_tui.core.chat_book import person_label

    assert person_label("120363025912345678@g.us") == "120363025912345678@g.us"
    assert person_label(JONAS_JID) == "+49 1511 2340001"
    assert person_label(JONAS) == "+49 1511 2340001"


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


# --- 2. the chats screen recovers by itself after an outage ------------------------------------


async def test_the_chats_screen_recovers_by_itself_when_the_gateway_is_back():
    from gateway_tui.core.state import Health
    from gateway_tui.demo.server import DemoServer
    from gateway_tui.tui.screens.chats import ChatsScreen
    from tests.support import make_app, make_config

    first = DemoServer().start()
    port = first.port
    app = make_app(make_config(first, refresh_interval=1))
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        app.open_chats("sales-eu")
        await wait_for(pilot, lambda: isinstance(app.screen, ChatsScreen))
        book = lambda: app.actions.chats.chat_book("sales-eu")  # noqa: E731
        await wait_for(pilot, lambda: book().value is not None)
        first.stop()
        await pilot.press("r")
        await wait_for(pilot, lambda: app.state.health == Health.UNREACHABLE)
        await wait_for(pilot, lambda: not book().loading)
        assert "● unreachable" in screen_text(app)
        with DemoServer(port=port):  # back, and no key is pressed
            await wait_for(pilot, lambda: app.state.health == Health.OK)
            await wait_for(pilot, lambda: book().error is None and not book().loading)
            await pilot.pause()
            text = screen_text(app)
            assert "● ok" in text and "could not read the gateway's chats" not in text


LID = "205641847891234@lid"  # Marina Costa on support: her number is known on 2.x
HIDDEN = "118822334455667@lid"  # Theo Baker: never shared a number


async def test_a_lid_chat_shows_its_number_is_found_by_it_and_m_composes_to_the_lid():
    """The @lid rule (core/identity.py) in the chats list: the number beside the LID where
    2.x's keys give it, "number hidden" where none does; `/` finds the chat by the number;
    `m` composes to the LID's JID (its digits are no phone number), which the send takes to
    the number on this 2.3.7 (core/test_identity.py holds the send)."""
    from gateway_tui.demo.server import DemoServer
    from tests.navigation import open_instance
    from tests.support import make_app, make_config

    with DemoServer(api_version="2.3.7") as server:
        app = make_app(make_config(server))
        async with app.run_test(size=SIZE) as pilot:
            await open_instance(app, pilot, "support")
            await pilot.press("t")
            await wait_for(pilot, lambda: isinstance(app.screen, ChatsScreen))
            screen = app.screen
            await wait_for(pilot, lambda: any(r.jid == LID for r in screen.table.visible_rows))
            text = screen_text(app)
            assert "+55 11 98700-1234 · 2056" in text  # the column is cut at its width
            hidden = next(r for r in screen.rows if r.jid == HIDDEN)
            assert hidden.number == f"{HIDDEN} (number hidden)"
            await pilot.press("slash", *"5511987001234")
            await wait_for(pilot, lambda: [r.jid for r in screen.table.visible_rows] == [LID])
            await pilot.press("ctrl+u", *"98700-1234")  # the number as shown
            await wait_for(pilot, lambda: [r.jid for r in screen.table.visible_rows] == [LID])
            await pilot.press("enter")  # out of the filter, on the row
            await pilot.pause()
            await pilot.press("m")
            await wait_for(pilot, lambda: isinstance(app.screen, ComposerScreen))
            assert app.screen.query_one("#f-recipient", Input).value == LID
