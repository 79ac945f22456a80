"""Groups from the keyboard, against the demo gateway: picker, participants, invite code."""

from __future__ import annotations

import pytest

from gateway_tui.tui.screens.confirm import ConfirmScreen
from gateway_tui.tui.screens.group_modals import ExportScreen, InviteScreen, SubjectScreen
from gateway_tui.tui.screens.groups import GroupPickerScreen
from gateway_tui.tui.screens.instance import InstanceScreen
from gateway_tui.tui.screens.instances import InstancesScreen
from gateway_tui.tui.screens.participants import ParticipantsScreen
from gateway_tui.tui.widgets.record_table import RecordTable
from tests.data import BIG, INSTANCE, INVITE_PREFIX, MEMBER_ONLY, demo_group
from tests.navigation import open_participants, participants_loaded
from tests.support import screen_text, wait_for

# The demo runs in the test's event loop (tests/in_process.py): these tests need no socket.
pytestmark = pytest.mark.in_process


async def test_the_whole_revoke_flow_with_keys_only(app_for, demo_server):
    app = app_for()
    original = demo_group(demo_server).invite_code
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_for(
            pilot, lambda: isinstance(app.screen, InstancesScreen) and app.state.instances.value
        )
        # sales-eu is the first instance the gateway lists: the cursor starts on it.
        assert app.screen.query_one("#instances-table", RecordTable).cursor_key == INSTANCE
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, InstanceScreen)
        await pilot.press("g")
        await pilot.pause()
        assert isinstance(app.screen, GroupPickerScreen)
        await wait_for(pilot, lambda: app.state.groups_of(INSTANCE).value is not None)
        assert "EU Sales — all hands" in screen_text(app)
        await pilot.press("enter")  # the first listed group: the 1,024-member one
        await wait_for(pilot, lambda: participants_loaded(app))
        await pilot.press("i")
        await wait_for(pilot, lambda: app.state.invite_of(INSTANCE, BIG).current is not None)
        old_url = INVITE_PREFIX + original
        assert app.state.invite_of(INSTANCE, BIG).current.url == old_url
        assert old_url in screen_text(app)

        await pilot.press("R")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        assert old_url in screen_text(app)  # the confirm names the link that stops working
        await pilot.press("y")
        invite = app.state.invite_of(INSTANCE, BIG)
        await wait_for(pilot, lambda: bool(invite.revoked))

        new_code = demo_group(demo_server).invite_code
        assert new_code != original  # the gateway's code really changed
        assert invite.current.invite_code == new_code
        assert invite.current.url == INVITE_PREFIX + new_code
        assert [old.invite_code for old in invite.revoked] == [original]
        text = screen_text(app)
        assert INVITE_PREFIX + new_code in text and old_url in text and "revoked" in text
        # The old link is shown struck through.
        panel = app.screen.query_one("#invite-panel").content
        struck = [
            panel.plain[span.start : span.end]
            for span in panel.spans
            if "strike" in str(span.style)
        ]
        assert struck == [old_url]

        # The next refresh drops the revoked code from the screen.
        await pilot.press("r")
        await wait_for(pilot, lambda: not app.state.invite_of(INSTANCE, BIG).revoked)
        await wait_for(pilot, lambda: not app.state.invite_of(INSTANCE, BIG).loading)
        text = screen_text(app)
        assert old_url not in text and INVITE_PREFIX + new_code in text


async def test_revoke_cancelled_changes_nothing(app_for, demo_server):
    app = app_for()
    original = demo_group(demo_server).invite_code
    async with app.run_test(size=(140, 40)) as pilot:
        await open_participants(app, pilot)
        await pilot.press("R")
        await pilot.pause()
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, ParticipantsScreen)
        assert demo_group(demo_server).invite_code == original
        assert not any(w.method == "PUT" for w in demo_server.state.writes)


async def test_a_failed_revoke_keeps_the_old_code_and_says_why(app_for, demo_server):
    app = app_for()
    original = demo_group(demo_server).invite_code
    async with app.run_test(size=(140, 40)) as pilot:
        await open_participants(app, pilot)
        await pilot.press("i")
        await wait_for(pilot, lambda: app.state.invite_of(INSTANCE, BIG).current is not None)
        # Meanwhile the instance lost its admin rights in the group.
        owner = demo_server.state.instances[INSTANCE].owner
        for participant in demo_group(demo_server).participants:
            if participant["id"] == owner:
                participant["admin"] = None
        await pilot.press("R")
        await pilot.pause()
        await pilot.press("y")
        invite = app.state.invite_of(INSTANCE, BIG)
        await wait_for(pilot, lambda: invite.error is not None and not invite.loading)
        assert invite.current.invite_code == original
        assert invite.revoked == []
        text = screen_text(app)
        assert INVITE_PREFIX + original in text
        assert "was not revoked" in text and "not an admin" in text
        assert "Error: not-authorized" not in text  # the gateway's lines only on demand
        await pilot.press("d")
        await pilot.pause()
        text = screen_text(app)
        assert "Revoke error" in text and "Error: not-authorized" in text


async def test_invite_code_of_a_group_where_we_are_no_admin(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        await open_participants(app, pilot, MEMBER_ONLY)
        await pilot.press("i")
        invite = app.state.invite_of(INSTANCE, MEMBER_ONLY)
        await wait_for(pilot, lambda: invite.error is not None and not invite.loading)
        text = screen_text(app)
        assert "No invite code for this group" in text and "not an admin" in text
        await pilot.press("c")  # nothing to copy: said, not crashed
        assert app.clipboard != INVITE_PREFIX


async def test_copy_url_and_copy_number(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        await open_participants(app, pilot)
        await pilot.press("i")
        await wait_for(pilot, lambda: app.state.invite_of(INSTANCE, BIG).current is not None)
        await pilot.press("c")
        assert app.clipboard == INVITE_PREFIX + demo_group(demo_server).invite_code
        table = app.screen.query_one("#participants-table", RecordTable)
        assert table.move_cursor_to_key("4915112340001@s.whatsapp.net")
        await pilot.press("y")
        assert app.clipboard == "4915112340001"


@pytest.mark.parametrize(
    ("screen", "prefix"),
    [
        (GroupPickerScreen, "groups."),
        (ParticipantsScreen, "participants."),
        (SubjectScreen, "subject."),
        (InviteScreen, "invite."),
        (ExportScreen, "export."),
    ],
)
def test_every_binding_has_an_id_and_a_description(screen, prefix):
    for binding in screen.BINDINGS:
        assert binding.id and binding.id.startswith(prefix), binding
        assert binding.description, binding


async def test_help_lists_the_participants_keys(app_for):
    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        await open_participants(app, pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        text = screen_text(app)
        for description in ("Revoke code", "Copy invite URL", "Export CSV", "Gateway's lines"):
            assert description in text


async def test_participants_keys_can_be_remapped_by_id(app_for, demo_server):
    app = app_for(keys={"participants.invite_code": "f5"})
    async with app.run_test(size=(140, 40)) as pilot:
        await open_participants(app, pilot)
        await pilot.press("f5")
        await wait_for(pilot, lambda: app.state.invite_of(INSTANCE, BIG).current is not None)
