"""The group picker (list, JID entry when fetchAllGroups answers 404, recents) and errors."""

from __future__ import annotations

import json

import pytest
from textual.widgets import Input

from gateway_tui.core.api import NotFound
from gateway_tui.core.files import recent_groups
from gateway_tui.tui.screens.groups import GroupPickerScreen, jid_preview
from gateway_tui.tui.screens.participants import ParticipantsScreen
from gateway_tui.tui.widgets.record_table import RecordTable
from tests.data import BIG, INSTANCE, MEMBER_ONLY, demo_group
from tests.navigation import open_groups, participants_loaded
from tests.support import screen_text, wait_for


def picker_table(app) -> RecordTable:
    return app.screen.query_one("#groups-table", RecordTable)


CLOSED = "onboarding"
SIZE = (140, 40)

OPEN = "sales-eu"


# --- the list -------------------------------------------------------------------------------


@pytest.mark.in_process
async def test_picker_lists_subject_size_and_jid(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        await open_groups(app, pilot)
        groups = demo_server.state.instances[INSTANCE].groups
        assert {row.jid for row in picker_table(app).rows} == set(groups)
        text = screen_text(app)
        assert "EU Sales — all hands" in text and "1,024" in text and BIG in text
        assert "4 groups" in text
        assert not app.screen.query_one("#jid-entry").display  # the list is the way in


@pytest.mark.in_process
async def test_recent_groups_come_first(app_for, demo_server):
    recent_groups.remember(INSTANCE, MEMBER_ONLY, "Partner announcements")
    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        await open_groups(app, pilot)
        rows = picker_table(app).visible_rows
        assert rows[0].jid == MEMBER_ONLY and rows[0].recent
        assert not any(row.recent for row in rows[1:])
        # Opening another group makes it the most recent, on disk and in the picker.
        assert picker_table(app).move_cursor_to_key(BIG)
        await pilot.press("enter")
        await wait_for(pilot, lambda: participants_loaded(app))
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, GroupPickerScreen)
        assert [r.jid for r in picker_table(app).visible_rows[:2]] == [BIG, MEMBER_ONLY]
        assert [r.jid for r in recent_groups.load_recent(INSTANCE)] == [BIG, MEMBER_ONLY]
        assert recent_groups.load_recent("support") == []  # per instance


@pytest.mark.in_process
async def test_a_refresh_in_another_server_order_moves_nothing_under_the_cursor(
    app_for, demo_server
):
    """Issue 29: the server's order varies between answers; the picker's does not, and the
    cursor stays on its group (by JID)."""
    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        await open_groups(app, pilot)
        table = picker_table(app)
        before = [row.jid for row in table.visible_rows]
        chosen = before[len(before) // 2]
        assert table.move_cursor_to_key(chosen)
        groups = demo_server.state.instances[INSTANCE].groups
        listed = list(groups.items())
        groups.clear()
        groups.update(reversed(listed))  # the next answer lists them the other way round
        loadable = app.state.groups_of(INSTANCE)
        read = loadable.updated_at
        await pilot.press("r")
        await wait_for(pilot, lambda: loadable.updated_at != read and not loadable.loading)
        await pilot.pause()
        assert [group.id for group in loadable.value][0] == listed[-1][0]  # read anew, reversed
        assert [row.jid for row in table.visible_rows] == before
        assert table.cursor_key == chosen


# --- JID entry when the server has no fetchAllGroups ----------------------------------------


@pytest.mark.in_process
async def test_404_from_fetch_all_groups_turns_the_picker_into_a_jid_entry(app_for, demo_server):
    # A server without the route: 404 "Cannot GET /group/fetchAllGroups/…".
    demo_server.faults.add("missing_route", path_prefix="/group/fetchAllGroups")
    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        await open_groups(app, pilot)
        entry = app.screen.query_one("#jid-input", Input)
        assert app.screen.query_one("#jid-entry").display and entry.has_focus
        assert "does not list groups" in screen_text(app)
        await pilot.press(*"12-34-5")
        await pilot.pause()
        assert "a group JID is digits" in screen_text(app)
        await pilot.press("enter")  # refused: stays here
        await pilot.pause()
        assert isinstance(app.screen, GroupPickerScreen)
        # A bare id: the JID that will be used is shown, then opened.
        await pilot.press("ctrl+u", *"120363012345678901")
        await pilot.pause()
        assert "uses 120363012345678901@g.us" in screen_text(app)
        await pilot.press("enter")
        await wait_for(pilot, lambda: participants_loaded(app))
        assert app.screen.group_jid == BIG
        # Back in the picker, the group is offered as a recent one (with its subject once set).
        await pilot.press("escape")
        await pilot.pause()
        assert [r.jid for r in picker_table(app).visible_rows] == [BIG]


@pytest.mark.in_process
async def test_jid_entry_by_key_when_the_list_is_there(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        await open_groups(app, pilot)
        await pilot.press("J")
        await pilot.pause()
        assert app.screen.query_one("#jid-input", Input).has_focus
        await pilot.press("escape")  # closes the entry, not the picker
        await pilot.pause()
        assert isinstance(app.screen, GroupPickerScreen)
        assert not app.screen.query_one("#jid-entry").display


@pytest.mark.in_process
@pytest.mark.parametrize(
    ("typed", "used"),
    [
        ("120363012345678901", "120363012345678901@g.us"),
        ("  120363012345678901@g.us ", "120363012345678901@g.us"),
        ("5511999887766-1589000000", "5511999887766-1589000000@g.us"),
    ],
)
def test_jid_entry_shows_the_jid_that_will_be_used(typed, used):
    jid, text = jid_preview(typed)
    assert jid == used and used in text.plain


@pytest.mark.in_process
@pytest.mark.parametrize(
    "typed",
    [
        "",  # nothing
        "abc",  # not digits
        "120363012345678901@s.whatsapp.net",  # a person, not a group
        "1-2-3@g.us",  # one dash at most
        "120363012345678901@g.us.evil",  # wrong domain
        "１２０３６３",  # other scripts' digits: the server refuses them
        "120363 0123",  # spaces inside
    ],
)
def test_jid_entry_rejects_what_a_server_rejects(typed):
    jid, text = jid_preview(typed)
    assert jid is None and text.plain


# --- errors read in place -------------------------------------------------------------------


@pytest.mark.in_process
async def test_not_connected_instance_reads_as_such(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        await open_groups(app, pilot, "onboarding")  # status close
        text = screen_text(app)
        assert "The instance onboarding is not connected (status: close)" in text
        assert "Cannot read properties" not in text
        await pilot.press("d")
        await pilot.pause()
        assert "TypeError: Cannot read properties" in screen_text(app)
        # The participants screen says the same in place.
        jid = next(iter(demo_server.state.instances["onboarding"].groups))
        app.push_screen(ParticipantsScreen("onboarding", jid))
        participants = app.state.participants_of("onboarding", jid)
        await wait_for(pilot, lambda: participants.error is not None)
        await pilot.pause()
        assert "onboarding is not connected" in screen_text(app)


@pytest.mark.in_process
async def test_no_participants_404_reads_in_place(app_for, demo_server):
    missing = "120363999999999999@g.us"
    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        await open_groups(app, pilot)
        await pilot.press("J", *missing, "enter")
        participants = app.state.participants_of(INSTANCE, missing)
        await wait_for(pilot, lambda: participants.error is not None)
        await pilot.pause()
        text = screen_text(app)
        assert "No participants: the gateway cannot read this group" in text
        assert "not a member" in text and "item-not-found" not in text
        await pilot.press("d")
        await pilot.pause()
        text = screen_text(app)
        assert "No participants" in text and "Error: item-not-found" in text


@pytest.mark.in_process
async def test_group_id_refused_by_the_gateway_reads_in_place(app_for, demo_server):
    demo_server.faults.add("status", status=400, path_prefix="/group/participants")
    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        await open_groups(app, pilot)
        await pilot.press("enter")
        participants = app.state.participants_of(INSTANCE, BIG)
        await wait_for(pilot, lambda: participants.error is not None)
        await pilot.pause()
        text = screen_text(app)
        assert "The gateway refused the group id" in text and "@g.us" in text


@pytest.mark.in_process
async def test_failed_participants_refresh_keeps_rows_marked_stale(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        await open_groups(app, pilot)
        await pilot.press("enter")
        await wait_for(pilot, lambda: participants_loaded(app))
        demo_server.faults.add("status", status=503, path_prefix="/group/participants")
        await pilot.press("r")
        participants = app.state.participants_of(INSTANCE, BIG)
        await wait_for(pilot, lambda: participants.stale)
        await pilot.pause()
        assert app.screen.query_one("#participants-table", RecordTable).visible_count == 1024
        assert "refresh failed" in screen_text(app)


@pytest.mark.in_process
async def test_server_text_is_shown_as_data_not_markup(app_for, demo_server):
    demo_group(demo_server).subject = "[bold red]Pwned[/] [link=x]y[/link]"
    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        await open_groups(app, pilot)
        assert "[bold red]Pwned[/]" in screen_text(app)
        await pilot.press("enter")
        await wait_for(pilot, lambda: participants_loaded(app))
        assert "[bold red]Pwned[/] [link=x]y[/link]" in screen_text(app)


# --- recents on disk ------------------------------------------------------------------------


@pytest.mark.in_process
def test_recents_newest_first_deduplicated_and_capped():
    for index in range(recent_groups.MAX_PER_INSTANCE + 3):
        recent_groups.remember(INSTANCE, f"1203630000{index:02d}@g.us")
    recent_groups.remember(INSTANCE, "120363000003@g.us")
    jids = [r.jid for r in recent_groups.load_recent(INSTANCE)]
    assert len(jids) == recent_groups.MAX_PER_INSTANCE
    assert jids[0] == "120363000003@g.us" and len(set(jids)) == len(jids)


@pytest.mark.in_process
def test_recents_keep_a_known_subject():
    recent_groups.remember(INSTANCE, BIG, "All hands")
    recent_groups.remember(INSTANCE, MEMBER_ONLY)
    recent_groups.remember(INSTANCE, BIG)
    assert recent_groups.load_recent(INSTANCE)[0] == recent_groups.RecentGroup(BIG, "All hands")


@pytest.mark.in_process
def test_recents_survive_a_corrupt_or_hand_edited_file():
    path = recent_groups.recent_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("{not json", encoding="utf-8")
    assert recent_groups.load_recent(INSTANCE) == []
    path.write_text(
        json.dumps(
            {
                "version": 1,
                "instances": {
                    INSTANCE: [{"jid": "not-a-jid"}, {"jid": BIG, "subject": 7}, "junk"],
                    "other": "junk",
                },
            }
        ),
        encoding="utf-8",
    )
    assert recent_groups.load_recent(INSTANCE) == [recent_groups.RecentGroup(BIG, None)]
    recent_groups.remember(INSTANCE, MEMBER_ONLY, "P")
    assert [r.jid for r in recent_groups.load_recent(INSTANCE)] == [MEMBER_ONLY, BIG]


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
