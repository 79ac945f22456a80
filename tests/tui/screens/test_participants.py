"""The participants screen: filter and sort on 1,024 members, CSV export, subject and invites."""

from __future__ import annotations

import pytest

from gateway_tui.core.api.models import Participant, ParticipantRole
from gateway_tui.tui.screens.confirm import ConfirmScreen
from gateway_tui.tui.screens.group_modals import ExportScreen, InviteScreen, SubjectScreen
from gateway_tui.tui.screens.groups import GroupPickerScreen
from gateway_tui.tui.screens.instance import InstanceScreen
from gateway_tui.tui.screens.instances import InstancesScreen
from gateway_tui.tui.screens.participants import (
    ParticipantsScreen,
    number_sort_key,
)
from gateway_tui.tui.widgets.record_table import RecordTable
from tests.data import BIG, INSTANCE, INVITE_PREFIX, MEMBER_ONLY, demo_group
from tests.navigation import open_participants, participants_loaded
from tests.support import screen_text, wait_for


def table(app) -> RecordTable[Participant]:
    return app.screen.query_one("#participants-table", RecordTable)


SIZE = (120, 36)


# --- the table ------------------------------------------------------------------------------


@pytest.mark.in_process
async def test_1024_participants_with_counts_roles_and_names(app_for, demo_server):
    app = app_for()
    members = demo_group(demo_server).participants
    admins = sum(1 for p in members if p["admin"])
    async with app.run_test(size=(140, 40)) as pilot:
        await open_participants(app, pilot)
        assert len(members) == 1024
        assert table(app).visible_count == 1024
        text = screen_text(app)
        assert "1,024 participants" in text and f"{admins} admins" in text
        assert "★ superadmin" in text and "◆ admin" in text and "· member" in text
        assert "+49 1511 2340001" in text and "Jonas Weber" in text
        # Scrolling to the end shows the last member.
        await pilot.press("end")
        await pilot.pause()
        last = table(app).visible_rows[-1]
        assert table(app).cursor_key == last.id
        assert last.id in screen_text(app)


@pytest.mark.in_process
async def test_filter_1024_by_name_number_and_role(app_for):
    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        await open_participants(app, pilot)
        await pilot.press("slash", *"lena")
        await pilot.pause()
        assert [p.name for p in table(app).visible_rows] == ["Lena Fischer"]
        assert "showing 1" in screen_text(app)
        # The number as it reads on screen matches too.
        await pilot.press("ctrl+u", *"+49 1511 2340001")
        await pilot.pause()
        assert [p.id for p in table(app).visible_rows] == ["4915112340001@s.whatsapp.net"]
        await pilot.press("ctrl+u", *"super")
        await pilot.pause()
        assert [p.role for p in table(app).visible_rows] == [ParticipantRole.SUPERADMIN]
        await pilot.press("ctrl+u", *"zzz")
        await pilot.pause()
        assert table(app).visible_count == 0
        await pilot.press("escape")  # clears the filter first…
        await pilot.pause()
        assert table(app).visible_count == 1024
        assert isinstance(app.screen, ParticipantsScreen)
        await pilot.press("escape")  # …then goes back
        await pilot.pause()
        assert isinstance(app.screen, GroupPickerScreen)


@pytest.mark.in_process
async def test_sort_1024_by_number_then_role_then_name(app_for):
    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        await open_participants(app, pilot)
        rows = list(table(app).visible_rows)
        await pilot.press("o")
        await pilot.pause()
        assert table(app).visible_rows == sorted(rows, key=number_sort_key)
        assert "sort: number ▲" in screen_text(app)
        await pilot.press("o")
        await pilot.pause()
        assert table(app).visible_rows == sorted(rows, key=number_sort_key, reverse=True)
        await pilot.press("o", "o")  # jid ▲, jid ▼
        await pilot.press("o")  # role ▲: superadmin, admins, then members
        await pilot.pause()
        assert table(app).sort_column == "role"
        roles = [p.role for p in table(app).visible_rows]
        admins = sum(1 for p in rows if p.is_admin)
        assert roles[0] is ParticipantRole.SUPERADMIN
        assert all(r is ParticipantRole.ADMIN for r in roles[1:admins])
        assert all(r is ParticipantRole.MEMBER for r in roles[admins:])
        await pilot.press("o", "o")  # role ▼, then name ▲: named people first
        await pilot.pause()
        assert table(app).sort_column == "name"
        names = [p.name for p in table(app).visible_rows[:3]]
        assert names == ["Jonas Weber", "Lena Fischer", None]


@pytest.mark.in_process
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


@pytest.mark.in_process
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


@pytest.mark.in_process
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


@pytest.mark.in_process
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


@pytest.mark.in_process
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


@pytest.mark.in_process
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


@pytest.mark.in_process
async def test_help_lists_the_participants_keys(app_for):
    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        await open_participants(app, pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        text = screen_text(app)
        for description in ("Revoke code", "Copy invite URL", "Export CSV", "Gateway's lines"):
            assert description in text


@pytest.mark.in_process
async def test_participants_keys_can_be_remapped_by_id(app_for, demo_server):
    app = app_for(keys={"participants.invite_code": "f5"})
    async with app.run_test(size=(140, 40)) as pilot:
        await open_participants(app, pilot)
        await pilot.press("f5")
        await wait_for(pilot, lambda: app.state.invite_of(INSTANCE, BIG).current is not None)


@pytest.mark.in_process
async def test_a_long_subject_keeps_the_participants_header_on_one_line(app_for, demo_server):
    group_jid, group = next(iter(demo_server.state.instances[INSTANCE].groups.items()))
    group.subject = "S" * 200
    app = app_for()
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        app.push_screen(ParticipantsScreen(INSTANCE, group_jid))
        await wait_for(pilot, lambda: bool(app.state.participants_of(INSTANCE, group_jid).value))
        await pilot.pause()
        title = app.screen.query_one("#participants-title")
        assert title.region.height == 1


async def test_the_participants_header_wraps_between_phrases_at_120_columns(app_for):
    from gateway_tui.tui.screens.participants import ParticipantsScreen

    app = app_for()
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        app.push_screen(ParticipantsScreen("sales-eu", "120363012345678901@g.us"))
        await wait_for(pilot, lambda: "1,024 participants" in screen_text(app))
        await pilot.press("o", "/", *"49151", "enter")  # sorted and filtered: a longer header
        await wait_for(pilot, lambda: "showing " in screen_text(app))
        head = screen_text(app).splitlines()[2:4]
        keys = "o sort · y copy number · e export CSV · r refresh"
        for phrase in ("5 admins (1 superadmin)", "filter: “49151”", "sort: number ▲", keys):
            assert any(phrase in line for line in head), "\n".join(head)


def test_phrases_wrap_between_phrases_never_inside_one():
    import io

    from rich.console import Console

    from gateway_tui.core.text.formatting import Phrases

    console = Console(width=30, file=io.StringIO(), record=True, color_system=None)
    console.print(Phrases(["12 participants", "3 admins (1 superadmin)", "read 09:30", ""]))
    assert console.export_text().splitlines() == [
        "12 participants",
        "3 admins (1 superadmin)",
        "read 09:30",
    ]


# --- 4. a failed participants call is not an empty group ---------------------------------------


async def test_a_failed_participants_call_does_not_read_as_an_empty_group(app_for):
    from gateway_tui.tui.screens.participants import ParticipantsScreen

    missing = "120363999999999999@g.us"  # the demo answers 404 ["No participants", …]
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        app.push_screen(ParticipantsScreen("sales-eu", missing))
        participants = app.state.participants_of("sales-eu", missing)
        await wait_for(pilot, lambda: participants.error is not None and not participants.loading)
        await pilot.pause()
        text = screen_text(app)
        assert "No participants: the gateway cannot read this group" in text
        assert "0 participants" not in text and "0 admins" not in text
        assert "participants not read" in text


# --- 7. the small untruths of the instance screens ---------------------------------------------


async def test_a_group_error_of_a_closed_instance_names_the_apps_connect_key(app_for, demo_server):
    from gateway_tui.tui.screens.participants import ParticipantsScreen

    app = app_for(keys={"instance.connect": "ctrl+k"})  # remapped: the hint must follow
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        jid = next(iter(demo_server.state.instances["onboarding"].groups))  # status close
        app.push_screen(ParticipantsScreen("onboarding", jid))
        participants = app.state.participants_of("onboarding", jid)
        await wait_for(pilot, lambda: participants.error is not None)
        await pilot.pause()
        text = " ".join(screen_text(app).split())
        assert "onboarding is not connected" in text
        assert "manager" not in text
        assert "connect it with ^k on its screen" in text


def test_a_read_refused_before_asking_does_not_say_not_sent(demo_server, capsys):
    from gateway_tui.main import main

    argv = ["participants", "sales-eu", "notajid@g.us", "--url", demo_server.url]
    argv += ["--api-key", demo_server.api_key]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert "groupJid" in err
    assert "Not sent" not in err and "The gateway was not asked" in err


# --- 8. every number written the same way, and an invalid one said so --------------------------


@pytest.mark.parametrize(
    ("digits", "shown"),
    [
        ("4915112340001", "+49 1511 2340001"),  # valid: the way its country writes it
        ("341785919681", "+34 1785919681 (invalid)"),  # not even a possible Spanish number
        ("552985642549", "+55 2985642549 (invalid)"),  # possible, not valid
        ("491517453928", "+49 1517453928 (invalid)"),
        ("9991234567890", "+9991234567890 (invalid)"),  # no such country code
    ],
)
def test_a_number_is_grouped_or_said_to_be_invalid(digits: str, shown: str) -> None:
    from gateway_tui.core.text.formatting import format_number

    assert format_number(digits) == shown
