"""The chat list: built from what was sent (this run and the stored history); archive, edit,
and business profiles against the demo gateway."""

from __future__ import annotations

from textual.widgets import Input, Static

from gateway_tui.api.models import ListMessage, ListRow, ListSection, SendListRequest
from gateway_tui.drafts import ComposeStore
from gateway_tui.screens.chat_modals import EditMessageScreen, PickMessageScreen, ProfileScreen
from gateway_tui.screens.chats import ChatsScreen
from gateway_tui.screens.composer import ComposerScreen
from gateway_tui.widgets.record_table import RecordTable
from tests.support import screen_text, wait_for

INSTANCE = "sales-eu"
JONAS = "4915112340001"
JONAS_JID = f"{JONAS}@s.whatsapp.net"
BAKERY = "5511912345678"
SIZE = (140, 40)


def request(number: str, title: str) -> SendListRequest:
    return SendListRequest(
        number=number,
        list_message=ListMessage(
            title=title,
            description="Pick one",
            button_text="Options",
            sections=[ListSection(title="Choices", rows=[ListRow(title="Yes", row_id="yes")])],
        ),
    )


async def open_chats(app, pilot, *sent: tuple[str, str]) -> ChatsScreen:
    """Send list messages (number, title) through the actions, then `t` on the instance view."""
    await wait_for(pilot, lambda: bool(app.state.instances.value))
    for number, title in sent:
        await app.actions.send_list(INSTANCE, request(number, title))
    app.open_instance(INSTANCE)
    await pilot.pause()
    await pilot.press("t")
    await pilot.pause()
    assert isinstance(app.screen, ChatsScreen)
    return app.screen


def table(app) -> RecordTable:
    return app.screen.query_one("#chats-table", RecordTable)


def demo_chat(server, jid: str = JONAS_JID):
    return server.state.instances[INSTANCE].chats[jid]


async def test_no_chats_yet_says_how_they_appear(app_for):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await open_chats(app, pilot)
        text = screen_text(app)
        assert "No chats yet" in text and "m composes one" in text


async def test_recipients_of_sent_messages_are_listed_newest_first(app_for):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await open_chats(app, pilot, (JONAS, "Lunch"), (BAKERY, "Pães"), (JONAS, "Dinner"))
        rows = table(app).visible_rows
        assert [c.jid for c in rows] == [JONAS_JID, f"{BAKERY}@s.whatsapp.net"]
        assert rows[0].last_text == "Dinner"
        text = screen_text(app)
        assert "+49 1511 2340001" in text and "Dinner" in text and "PENDING" in text


async def test_archive_then_unarchive_trusts_the_request(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await open_chats(app, pilot, (JONAS, "Lunch"))
        chat = app.state.chats_of(INSTANCE)[JONAS_JID]
        await pilot.press("a")
        await wait_for(pilot, lambda: chat.archived)
        assert demo_chat(demo_server).archived is True
        assert "archived" in screen_text(app)
        await pilot.press("a")
        # The gateway answers {"archived": true} to an unarchive too: the state follows the ask.
        await wait_for(pilot, lambda: not chat.archived)
        assert demo_chat(demo_server).archived is False
        archives = [e for e in app.state.calls if e.path.startswith("/chat/archiveChat/")]
        assert [e.request_body["archive"] for e in archives] == [True, False]
        assert all(
            e.request_body["lastMessage"]["key"] == chat.last_key.to_json() for e in archives
        )


async def test_archive_failure_keeps_the_flag(app_for, demo_server):
    demo_server.faults.add("status", path_prefix="/chat/archiveChat/", status=500, times=1)
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await open_chats(app, pilot, (JONAS, "Lunch"))
        await pilot.press("a")
        await wait_for(pilot, lambda: any("archiveChat" in e.path for e in app.state.calls))
        await pilot.pause()
        assert app.state.chats_of(INSTANCE)[JONAS_JID].archived is False
        assert demo_chat(demo_server).archived is False


async def test_edit_prefills_the_old_text_and_the_new_one_shows(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await open_chats(app, pilot, (JONAS, "Lunch menu"))
        key = app.state.chats_of(INSTANCE)[JONAS_JID].last_key
        await pilot.press("e")
        await pilot.pause()
        assert isinstance(app.screen, EditMessageScreen)
        field = app.screen.query_one("#edit-text", Input)
        assert field.value == "Lunch menu"
        await pilot.press("ctrl+u", *"Dinner menu", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ChatsScreen))
        chat = app.state.chats_of(INSTANCE)[JONAS_JID]
        assert chat.texts[key.id] == "Dinner menu" and chat.last_text == "Dinner menu"
        assert demo_chat(demo_server).find(key.id).text == "Dinner menu"
        assert demo_chat(demo_server).find(key.id).edited
        assert "Dinner menu" in screen_text(app)
        # Kept with the history: a later run shows the edited text.
        stored = ComposeStore(app.gateway_url, INSTANCE).stored_chats()
        assert stored.texts == {key.id: "Dinner menu"}


async def test_edit_refused_by_the_gateway_stays_open_with_the_reason(app_for, demo_server):
    demo_server.faults.add("status", path_prefix="/chat/updateMessage/", status=400, times=1)
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await open_chats(app, pilot, (JONAS, "Lunch menu"))
        await pilot.press("e")
        await pilot.pause()
        await pilot.press("ctrl+u", *"Dinner", "enter")
        note = lambda: str(app.screen.query_one("#edit-note", Static).render())  # noqa: E731
        await wait_for(pilot, lambda: "✕" in note())
        assert isinstance(app.screen, EditMessageScreen)  # the typed text is still there
        assert app.screen.query_one("#edit-text", Input).value == "Dinner"
        assert app.state.chats_of(INSTANCE)[JONAS_JID].last_text == "Lunch menu"


async def test_edit_asks_which_message_when_there_are_several(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await open_chats(app, pilot, (JONAS, "First"), (JONAS, "Second"))
        first = app.state.sent[INSTANCE][0].result.key
        await pilot.press("e")
        await pilot.pause()
        assert isinstance(app.screen, PickMessageScreen)
        await pilot.press("down", "enter")  # newest first: down picks "First"
        await pilot.pause()
        assert isinstance(app.screen, EditMessageScreen)
        assert app.screen.key == first
        await pilot.press("ctrl+u", *"First, edited", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ChatsScreen))
        chat = app.state.chats_of(INSTANCE)[JONAS_JID]
        assert chat.texts[first.id] == "First, edited"
        assert chat.last_text == "Second"  # the newest message is unchanged
        assert demo_chat(demo_server).find(first.id).text == "First, edited"


async def test_business_profile_card(app_for):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await open_chats(app, pilot, (BAKERY, "Pães"))
        await pilot.press("p")  # prefilled with the chat's number, fetched at once
        await pilot.pause()
        assert isinstance(app.screen, ProfileScreen)
        await wait_for(pilot, lambda: "Padaria" in screen_text(app))
        text = screen_text(app)
        for shown in (
            "Padaria Pão Quente",
            "business account",
            "Pães artesanais e encomendas para eventos.",
            "contato@paoquente.com.br",
            "https://paoquente.com.br",
            f"https://pps.whatsapp.net/v/t61.24694-24/{BAKERY}_n.jpg",
        ):
            assert shown in text
        profile = app.state.profiles[(INSTANCE, BAKERY)].value
        assert profile.is_business is True


async def test_a_personal_profile_and_a_number_not_on_whatsapp(app_for):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await open_chats(app, pilot)
        await pilot.press("p")  # no chat: any number can be typed
        await pilot.pause()
        await pilot.press(*JONAS, "enter")
        await wait_for(pilot, lambda: "Jonas Weber" in screen_text(app))
        assert "a personal account" in screen_text(app)
        await pilot.press("ctrl+u", *"4915100000000", "enter")
        await wait_for(pilot, lambda: "not on WhatsApp" in screen_text(app))
        assert "+49 1510 0000000 is not on WhatsApp." in screen_text(app)
        assert "Jonas Weber" not in screen_text(app)
        await pilot.press("ctrl+u", *"12ab", "enter")
        await pilot.pause()
        assert "digits only" in screen_text(app)


async def test_server_text_is_shown_as_text_not_markup(app_for):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await open_chats(app, pilot, (JONAS, "[bold red]Sale[/] 50%"))
        assert "[bold red]Sale[/] 50%" in screen_text(app)
        await pilot.press("e")
        await pilot.pause()
        assert app.screen.query_one("#edit-text", Input).value == "[bold red]Sale[/] 50%"


async def test_the_chat_list_comes_back_from_the_history_in_a_new_run(app_for, demo_server):
    first = app_for()
    async with first.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(first.state.instances.value))
        ComposeStore(first.gateway_url, INSTANCE).save_draft(
            __import__("tests.test_composer", fromlist=["good_draft"]).good_draft()
        )
        screen = ComposerScreen(INSTANCE)
        first.push_screen(screen)
        await pilot.pause()
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: screen.last_result is not None)
        message_id = screen.last_result.key.id
        await pilot.press("escape")
        await pilot.pause()
        first.push_screen(ChatsScreen(INSTANCE))
        await pilot.pause()
        await pilot.press("a")  # archived in the first run
        await wait_for(pilot, lambda: first.state.chats_of(INSTANCE)[JONAS_JID].archived)

    second = app_for()  # a new run: nothing in memory, the same data dir
    async with second.run_test(size=SIZE) as pilot:
        await open_chats(second, pilot)
        [chat] = table(second).visible_rows
        assert chat.jid == JONAS_JID and chat.archived
        assert chat.last_key.id == message_id
        assert "Lunch menu" in screen_text(second)
        await pilot.press("a")  # the stored key still works: unarchive
        await wait_for(pilot, lambda: not chat.archived)
        assert demo_chat(demo_server).archived is False


async def test_m_composes_to_the_chat(app_for):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await open_chats(app, pilot, (BAKERY, "Pães"))
        await pilot.press("m")
        await pilot.pause()
        assert isinstance(app.screen, ComposerScreen)
        assert app.screen.query_one("#f-recipient", Input).value == BAKERY


async def test_bindings_have_ids_and_descriptions():
    for screen in (ChatsScreen, EditMessageScreen, PickMessageScreen, ProfileScreen):
        for binding in screen.BINDINGS:
            assert binding.id and binding.description, binding
    ids = {b.id for b in ChatsScreen.BINDINGS}
    assert {"chats.archive", "chats.edit", "chats.profile"} <= ids
