"""Group administration in the group view: mark and remove/promote/demote, add by number (checked
and de-duplicated, members left out), settings and description, leave with a typed
confirmation, create; each confirmed, a result per number, "not connected" said as such."""

from __future__ import annotations

import pytest

from gateway_tui.tui.screens.confirm import ConfirmScreen
from gateway_tui.tui.screens.group_admin_modals import (
    AddParticipantsScreen,
    CreateGroupScreen,
    GroupSettingsScreen,
    LeaveGroupScreen,
    OutcomesScreen,
)
from gateway_tui.tui.screens.groups import GroupPickerScreen
from gateway_tui.tui.screens.participants import ParticipantsScreen
from tests.data import INSTANCE, demo_group
from tests.navigation import open_groups, open_participants
from tests.support import screen_text, wait_for

WAR_ROOM = "120363023456789012@g.us"  # sales-eu is an admin; a small group
NEWCOMER = "4915112349999"


def _members(server) -> dict[str, str | None]:
    return {p["id"]: p["admin"] for p in demo_group(server, WAR_ROOM).participants}


async def _screen(app, pilot) -> ParticipantsScreen:
    return await open_participants(app, pilot, WAR_ROOM)


@pytest.mark.in_process
async def test_add_by_number_checked_deduplicated_with_a_result_per_number(app_for, demo_server):
    app = app_for()
    member = next(iter(_members(demo_server))).split("@")[0]
    async with app.run_test(size=(120, 36)) as pilot:
        await _screen(app, pilot)
        await pilot.press("a")
        await wait_for(pilot, lambda: isinstance(app.screen, AddParticipantsScreen))
        app.screen.query_one(
            "#add-numbers"
        ).text = f"+49 151 12349999\n0049 15112349999, {member}; 12"
        await wait_for(pilot, lambda: "1 to add" in screen_text(app))
        text = screen_text(app)
        assert "duplicate removed" in text and "already a member" in text
        assert "12" in text  # the invalid line, with its reason
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, OutcomesScreen))
        assert "Add: 1 of 1 added" in screen_text(app)
        assert "+49 1511 2349999 — done" in screen_text(app)
        assert f"{NEWCOMER}@s.whatsapp.net" in _members(demo_server)
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, ParticipantsScreen))
        # The list was read again: the newcomer is on screen.
        await wait_for(pilot, lambda: "+49 1511 2349999" in screen_text(app))


@pytest.mark.in_process
async def test_marked_participants_are_promoted_after_a_confirmation(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await open_participants(app, pilot)  # the big group: many plain members
        plain = [p for p in screen.table.visible_rows if not p.is_admin][:2]
        assert len(plain) == 2
        for participant in plain:
            assert screen.table.move_cursor_to_key(participant.id)
            await pilot.press("space")
        assert screen.marked == {p.id for p in plain}
        await pilot.press("p")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert "Promote 2 participants in" in screen_text(app)
        await pilot.press("y")
        await wait_for(pilot, lambda: isinstance(app.screen, OutcomesScreen))
        assert "Promote: 2 of 2 promoted to admin" in screen_text(app)
        members = {p["id"]: p["admin"] for p in demo_group(demo_server).participants}
        assert all(members[p.id] == "admin" for p in plain)
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, ParticipantsScreen))
        assert screen.marked == set()  # done: unmarked


@pytest.mark.in_process
async def test_remove_cancelled_removes_nobody(app_for, demo_server):
    app = app_for()
    before = _members(demo_server)
    async with app.run_test(size=(120, 36)) as pilot:
        await _screen(app, pilot)
        await pilot.press("x")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, ParticipantsScreen))
    assert _members(demo_server) == before
    assert not [w for w in demo_server.state.writes if "updateParticipant" in w.path]


@pytest.mark.in_process
async def test_settings_description_and_disappearing_saved_and_read_back(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=(120, 36)) as pilot:
        await _screen(app, pilot)
        await pilot.press("S")
        await wait_for(pilot, lambda: isinstance(app.screen, GroupSettingsScreen))
        dialog = app.screen
        dialog.query_one("#set-announce").value = True
        dialog.query_one("#set-disappearing").value = 604800
        dialog.query_one("#set-description").text = "Only the war room"
        # 1.7.1 has no member-add mode: the box is there, disabled, and says why.
        assert dialog.query_one("#set-member-add").disabled
        assert "2.4" in screen_text(app)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, ParticipantsScreen))
    group = demo_group(demo_server, WAR_ROOM)
    assert (group.announce, group.ephemeral, group.description) == (
        True,
        604800,
        "Only the war room",
    )
    writes = [w.path for w in demo_server.state.writes]
    assert len([p for p in writes if "updateSetting" in p]) == 1
    assert len([p for p in writes if "toggleEphemeral" in p]) == 1


@pytest.mark.in_process
async def test_settings_saved_but_not_read_back_is_said(app_for, demo_server):
    """The write went through; the read-back after it failed: said in a notice beside "saved"
    (it was swallowed, and the dialog closed as if all was well)."""
    from tests.support import notices

    app = app_for()
    async with app.run_test(size=(120, 36)) as pilot:
        await _screen(app, pilot)
        await pilot.press("S")
        await wait_for(pilot, lambda: isinstance(app.screen, GroupSettingsScreen))
        app.screen.query_one("#set-announce").value = True
        demo_server.faults.add("status", status=500, path_prefix="/group/findGroupInfos/")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, ParticipantsScreen))
        what = "Reading the group's settings back failed"
        await wait_for(pilot, lambda: any(what in n for n in notices(app)))
        assert any("Group settings saved" in n for n in notices(app))
    assert demo_group(demo_server, WAR_ROOM).announce is True  # the write stands


@pytest.mark.in_process
async def test_leave_needs_the_subject_typed(app_for, demo_server):
    app = app_for()
    subject = demo_group(demo_server, WAR_ROOM).subject
    async with app.run_test(size=(120, 36)) as pilot:
        await _screen(app, pilot)
        await pilot.press("L")
        await wait_for(pilot, lambda: isinstance(app.screen, LeaveGroupScreen))
        await pilot.press(*"nope", "ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, LeaveGroupScreen)
        assert WAR_ROOM in demo_server.state.instances[INSTANCE].groups
        await pilot.press(*["backspace"] * 4, *subject, "ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, GroupPickerScreen))
    assert WAR_ROOM not in demo_server.state.instances[INSTANCE].groups


@pytest.mark.in_process
async def test_create_a_group_from_the_picker(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=(120, 36)) as pilot:
        await open_groups(app, pilot)
        await pilot.press("N")
        await wait_for(pilot, lambda: isinstance(app.screen, CreateGroupScreen))
        await pilot.press(*"Launch team", "enter")
        app.screen.query_one("#create-numbers").text = "+49 151 12349999"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, GroupPickerScreen))
        await wait_for(pilot, lambda: "Launch team" in screen_text(app))
    made = [
        g
        for g in demo_server.state.instances[INSTANCE].groups.values()
        if g.subject == "Launch team"
    ]
    assert len(made) == 1
    assert any(p["id"] == f"{NEWCOMER}@s.whatsapp.net" for p in made[0].participants)


@pytest.mark.in_process
async def test_a_closed_instance_is_said_not_connected(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=(120, 36)) as pilot:
        await _screen(app, pilot)
        demo_server.state.instances[INSTANCE].status = "close"
        await pilot.press("a")
        await wait_for(pilot, lambda: isinstance(app.screen, AddParticipantsScreen))
        app.screen.query_one("#add-numbers").text = NEWCOMER
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: "is not connected" in screen_text(app))
        assert isinstance(app.screen, AddParticipantsScreen)  # the typing is kept
        assert app.screen.query_one("#add-numbers").text == NEWCOMER
