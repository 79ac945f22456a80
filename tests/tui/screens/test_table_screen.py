"""The TableScreen base (issue 21): the five table screens share one layout and one back, and
the behaviour their copies had drifted on is now the same; FormModal's busy and cancel."""

from __future__ import annotations

from textual.widgets import Static

from gateway_tui.tui.screens.chats import ChatsScreen
from gateway_tui.tui.screens.group_modals import SubjectScreen
from gateway_tui.tui.screens.groups import GroupPickerScreen
from gateway_tui.tui.screens.instances import InstancesScreen
from gateway_tui.tui.screens.participants import ParticipantsScreen
from gateway_tui.tui.screens.request_log import RequestLogScreen
from gateway_tui.tui.screens.table_screen import TableScreen
from gateway_tui.tui.widgets.table_filter import TableFilter
from tests.data import BIG, INSTANCE, JONAS, JONAS_JID
from tests.navigation import open_chats
from tests.support import notices, wait_for

SIZE = (140, 40)


async def _filter_then_back(app, pilot, screen: TableScreen, *, leaves: bool) -> None:
    """/ opens the filter, typing filters, escape clears it (the screen stays), escape again
    goes back (the home screen stays)."""
    table_filter = screen.query_one(TableFilter)
    screen.action_filter()
    await pilot.pause()
    assert table_filter.display and table_filter.has_focus
    await pilot.press("z", "z", "z")
    await wait_for(pilot, lambda: screen.table.filter_text == "zzz")
    await pilot.press("escape")
    await wait_for(pilot, lambda: not table_filter.display)
    assert app.screen is screen and screen.table.filter_text == ""
    assert screen.table.has_focus
    await pilot.press("escape")
    await pilot.pause()
    if leaves:
        await wait_for(pilot, lambda: app.screen is not screen)
    else:
        assert app.screen is screen


def test_the_five_table_screens_are_table_screens() -> None:
    for screen in (
        InstancesScreen,
        GroupPickerScreen,
        ParticipantsScreen,
        ChatsScreen,
        RequestLogScreen,
    ):
        assert issubclass(screen, TableScreen), screen
        # One place draws loading / error / rows and the stale banner; none keeps its own.
        # (Textual would run a handler of theirs and the base's: they extend view_changed.)
        for name in (
            "compose",
            "on_table_filter_applied",
            "on_record_table_sorted",
            "action_filter",
            "action_back",
        ):
            assert name not in vars(screen), (screen, name)


async def test_escape_closes_the_filter_before_going_back_on_every_table_screen(app_for):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        await _filter_then_back(app, pilot, app.screen, leaves=False)
        for make, loaded in (
            (
                lambda: GroupPickerScreen(INSTANCE),
                lambda: app.state.groups_of(INSTANCE).value is not None,
            ),
            (
                lambda: ParticipantsScreen(INSTANCE, BIG),
                lambda: bool(app.state.participants_of(INSTANCE, BIG).value),
            ),
            (
                lambda: ChatsScreen(INSTANCE),
                lambda: app.actions.chats.chat_book(INSTANCE).value is not None,
            ),
            (RequestLogScreen, lambda: bool(app.state.calls)),
        ):
            screen = make()
            app.push_screen(screen)
            await wait_for(pilot, lambda s=screen, ok=loaded: app.screen is s and ok())
            await wait_for(pilot, lambda s=screen: s.table.display)
            await _filter_then_back(app, pilot, screen, leaves=True)


async def test_the_request_log_closes_its_detail_pane_before_going_back(app_for):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(app.state.calls))
        screen = RequestLogScreen()
        app.push_screen(screen)
        await wait_for(pilot, lambda: app.screen is screen)
        screen.action_toggle_detail()
        await pilot.pause()
        assert screen.detail_open
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen and not screen.detail_open
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is not screen)


async def test_chats_keep_saying_the_read_failed_after_a_filter_and_a_sort(app_for, demo_server):
    # The chats screen's copy redrew its summary as if nothing had failed once a key was typed
    # in the filter or the sort changed: the failure vanished while the list stayed partial.
    demo_server.faults.add("status", path_prefix="/chat/findChats/", status=500)
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_chats(app, pilot, (JONAS, "Lunch menu"))
        assert [r.jid for r in screen.table.visible_rows] == [JONAS_JID]
        summary = screen.query_one("#chats-summary", Static)
        assert "could not read the gateway's chats" in str(summary.render())
        screen.action_filter()
        await pilot.press("4", "9")
        await wait_for(pilot, lambda: screen.table.filter_text == "49")
        assert "could not read the gateway's chats" in str(summary.render())
        screen.action_sort()
        await pilot.pause()
        assert "could not read the gateway's chats" in str(summary.render())


async def test_a_form_dialog_waits_for_the_gateway_before_it_closes(app_for):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        dialog = SubjectScreen(INSTANCE, BIG, "EU Sales")
        app.push_screen(dialog)
        await wait_for(pilot, lambda: app.screen is dialog)
        dialog.busy = True  # a submit's call is under way
        await pilot.press("escape")
        await wait_for(pilot, lambda: any("Waiting for the gateway" in n for n in notices(app)))
        assert app.screen is dialog
        dialog.busy = False
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is not dialog)


async def test_a_form_dialog_submits_once_and_closes_with_the_answer(app_for, demo_server):
    app = app_for()
    results: list[str | None] = []
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        dialog = SubjectScreen(INSTANCE, BIG, "EU Sales")
        app.push_screen(dialog, results.append)
        await wait_for(pilot, lambda: app.screen is dialog)
        await pilot.press("end", *" 2027")
        # enter, then the submit key at once: one call, not two.
        await pilot.press("enter", "ctrl+s")
        await wait_for(pilot, lambda: results == ["EU Sales 2027"])
        writes = [w for w in demo_server.state.writes if "updateGroupSubject" in w.path]
        assert len(writes) == 1
