"""The participants screen: filter and sort on 1,024 members, CSV export, subject and invites."""

from __future__ import annotations

import csv

import pytest
from textual.widgets import Input, TextArea

from gateway_tui.core.api.models import Participant, ParticipantRole
from gateway_tui.tui.screens.confirm import ConfirmScreen
from gateway_tui.tui.screens.group_modals import ExportScreen, InviteScreen, SubjectScreen
from gateway_tui.tui.screens.groups import GroupPickerScreen
from gateway_tui.tui.screens.participants import (
    ParticipantsScreen,
    number_sort_key,
    write_participants_csv,
)
from gateway_tui.tui.widgets.record_table import RecordTable
from tests.data import BIG, INSTANCE, INVITE_PREFIX, MEMBER_ONLY, demo_group, sent_writes
from tests.navigation import open_invite, open_participants
from tests.support import screen_text, wait_for

# The demo runs in the test's event loop (tests/in_process.py): these tests need no socket.
pytestmark = pytest.mark.in_process


def table(app) -> RecordTable[Participant]:
    return app.screen.query_one("#participants-table", RecordTable)


# --- the table ------------------------------------------------------------------------------


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


# --- CSV export -----------------------------------------------------------------------------


def read_csv(path) -> list[list[str]]:
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.reader(handle))


async def _export_to(pilot, name: str) -> None:
    """`e`, then a path typed relative to the working directory (the test's tmp_path)."""
    await pilot.press("e")
    await pilot.pause()
    assert isinstance(pilot.app.screen, ExportScreen)
    await pilot.press("ctrl+u", *name)
    await pilot.pause()
    await pilot.press("enter")
    await pilot.pause()


async def test_csv_export_writes_every_participant(app_for, demo_server, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    app = app_for()
    target = tmp_path / "all.csv"
    async with app.run_test(size=(140, 40)) as pilot:
        await open_participants(app, pilot)
        await _export_to(pilot, "all.csv")
        assert isinstance(app.screen, ParticipantsScreen)
    rows = read_csv(target)
    members = demo_group(demo_server).participants
    assert rows[0] == ["number", "jid", "role", "name"]
    assert len(rows) == 1 + len(members)
    expected = [
        [
            p["id"].split("@")[0],
            p["id"],
            p["admin"] or "member",
            p.get("name", ""),
        ]
        for p in members
    ]
    assert rows[1:] == expected


async def test_csv_export_of_a_filtered_view(app_for, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    app = app_for()
    target = tmp_path / "admins.csv"
    async with app.run_test(size=(140, 40)) as pilot:
        await open_participants(app, pilot)
        await pilot.press("slash", *"admin", "enter")
        await pilot.pause()
        shown = [p.id for p in table(app).visible_rows]
        assert 1 < len(shown) < 1024
        await _export_to(pilot, "admins.csv")
    assert [row[1] for row in read_csv(target)[1:]] == shown


async def test_csv_export_never_overwrites_without_asking(app_for, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    app = app_for()
    target = tmp_path / "kept.csv"
    target.write_text("precious\n", encoding="utf-8")
    async with app.run_test(size=(140, 40)) as pilot:
        await open_participants(app, pilot)
        await pilot.press("e")
        await pilot.pause()
        await pilot.press("ctrl+u", *"kept.csv")
        await pilot.pause()
        assert "the file exists" in screen_text(app)  # said before enter is pressed
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        assert "Replace the file?" in screen_text(app)
        await pilot.press("n")
        await pilot.pause()
        assert target.read_text(encoding="utf-8") == "precious\n"
        assert isinstance(app.screen, ExportScreen)  # still asking where
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await pilot.pause()
        assert isinstance(app.screen, ParticipantsScreen)
    assert target.read_text(encoding="utf-8").startswith("number,jid,role,name")


async def test_csv_export_refuses_a_folder_and_a_missing_folder(app_for, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        await open_participants(app, pilot)
        await _export_to(pilot, ".")
        assert isinstance(app.screen, ExportScreen)
        assert "folder" in screen_text(app)
        await pilot.press("ctrl+u", *"no/x.csv", "enter")
        await pilot.pause()
        assert isinstance(app.screen, ExportScreen)
        assert "does not exist" in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ParticipantsScreen)
    assert list(tmp_path.iterdir()) == []


def test_csv_cells_that_a_spreadsheet_would_run_are_defused(tmp_path):
    people = [
        Participant(id="4915112340001@s.whatsapp.net", admin=None, name="=HYPERLINK(1)"),
        Participant(id="4915112340002@s.whatsapp.net", admin="admin", name='Ana, "A"'),
    ]
    path = tmp_path / "p.csv"
    assert write_participants_csv(path, people) == 2
    rows = read_csv(path)
    assert rows[1][3] == "'=HYPERLINK(1)"
    assert rows[2] == ["4915112340002", "4915112340002@s.whatsapp.net", "admin", 'Ana, "A"']
    # Without overwrite=True an existing file is never replaced, even if it appeared late.
    with pytest.raises(FileExistsError):
        write_participants_csv(path, people[:1])
    assert len(read_csv(path)) == 3


# --- subject --------------------------------------------------------------------------------


async def test_subject_change_shows_in_the_screen_the_picker_and_the_state(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        await open_participants(app, pilot)
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, SubjectScreen)
        field = app.screen.query_one("#subject-input", Input)
        assert field.value == "EU Sales — all hands"  # prefilled
        # Empty is refused before anything is sent.
        await pilot.press("ctrl+u", "space", "enter")
        await pilot.pause()
        assert isinstance(app.screen, SubjectScreen)
        assert "cannot be empty" in screen_text(app)
        assert sent_writes(demo_server, "/group/updateGroupSubject") == []
        field.value = "EU Sales — Q3 kickoff"
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ParticipantsScreen))
        assert demo_group(demo_server).subject == "EU Sales — Q3 kickoff"
        assert app.state.subject_of(INSTANCE, BIG) == "EU Sales — Q3 kickoff"
        listed = {g.id: g.subject for g in app.state.groups_of(INSTANCE).value}
        assert listed[BIG] == "EU Sales — Q3 kickoff"
        assert "EU Sales — Q3 kickoff" in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, GroupPickerScreen)
        text = screen_text(app)
        assert "EU Sales — Q3 kickoff" in text and "EU Sales — all hands" not in text


async def test_subject_refused_by_the_gateway_is_explained_in_the_dialog(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        await open_participants(app, pilot, MEMBER_ONLY)
        await pilot.press("s")
        await pilot.pause()
        await pilot.press("ctrl+u", *"Renamed", "enter")
        await wait_for(pilot, lambda: "not changed" in screen_text(app))
        assert isinstance(app.screen, SubjectScreen)  # still open: fix or cancel
        text = screen_text(app)
        assert "not an admin" in text and "Error: not-authorized" in text
        assert demo_group(demo_server, MEMBER_ONLY).subject == "Partner announcements"
        assert app.state.subject_of(INSTANCE, MEMBER_ONLY) == "Partner announcements"


# --- invites --------------------------------------------------------------------------------


def _numbers_box(app) -> TextArea:
    return app.screen.query_one("#invite-numbers", TextArea)


async def test_invite_lists_each_invalid_line_and_sends_nothing(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        await open_invite(app, pilot)
        await pilot.press(*"4915112340001", "enter", *"12345, abc", "enter", *"5511912345678")
        await pilot.pause()
        text = screen_text(app)
        assert "line 2: '12345': too short for a number of +1" in text
        assert "line 2: 'abc' is not a number" in text
        assert "2 number(s) ready" in text
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "nothing was sent" in screen_text(app)
        assert sent_writes(demo_server, "/group/sendInvite") == []
        assert isinstance(app.screen, InviteScreen)


async def test_invite_needs_at_least_one_number(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        await open_invite(app, pilot)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "enter at least one number" in screen_text(app)
        assert sent_writes(demo_server, "/group/sendInvite") == []


async def test_invite_normalises_dedupes_and_shows_the_url_sent(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        await open_invite(app, pilot)
        # Formatted, comma-separated and one per line; the third is the first one again.
        _numbers_box(app).insert("+49 (151) 1234-0001, 4915112340002\n49 151 1234 0001\n")
        await pilot.pause()
        assert "1 duplicate(s) removed" in screen_text(app)
        app.screen.query_one("#invite-description", Input).value = "Join us on Monday"
        await pilot.press("ctrl+s")
        invite = app.state.invite_of(INSTANCE, BIG)
        await wait_for(pilot, lambda: invite.last_sent is not None)
        await pilot.pause()
        url = INVITE_PREFIX + demo_group(demo_server).invite_code
        assert invite.last_sent.numbers == ["4915112340001", "4915112340002"]
        assert invite.last_sent.result.invite_url == url
        text = screen_text(app)
        assert "Invite sent to 2 number(s)" in text and url in text
        sent = [c for c in app.state.calls if c.path.startswith("/group/sendInvite")]
        assert sent[-1].request_body["numbers"] == ["4915112340001", "4915112340002"]
        assert sent[-1].request_body["description"] == "Join us on Monday"
        chats = demo_server.state.instances[INSTANCE].chats
        for number in ("4915112340001", "4915112340002"):
            assert chats[f"{number}@s.whatsapp.net"].messages[-1].text.endswith(url)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ParticipantsScreen)
        assert "sent to 2 number(s)" in screen_text(app)


async def test_invite_refused_by_the_gateway_is_explained(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        await open_invite(app, pilot)
        # 4915100000000 is not on WhatsApp in the demo world: the gateway answers 404.
        await pilot.press(*"4915100000000", "ctrl+s")
        await wait_for(pilot, lambda: "not sent" in screen_text(app))
        text = screen_text(app)
        assert "every number must be on WhatsApp" in text and "No send invite" in text
        assert app.state.invite_of(INSTANCE, BIG).last_sent is None
