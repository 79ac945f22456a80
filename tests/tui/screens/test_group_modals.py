"""The participants screen's dialogs (subject, invite) and how group errors read."""

from __future__ import annotations

import csv
from typing import Any

import pytest
from textual.widgets import Input, Static, TextArea

from gateway_tui.core.api import GatewayClient, InvalidRequest
from gateway_tui.core.api.errors import error_for_response
from gateway_tui.core.api.models import Participant
from gateway_tui.tui.screens.confirm import ConfirmScreen
from gateway_tui.tui.screens.group_modals import (
    ExportScreen,
    InviteScreen,
    SubjectScreen,
    explain_group_error,
)
from gateway_tui.tui.screens.groups import GroupPickerScreen
from gateway_tui.tui.screens.participants import (
    ParticipantsScreen,
    write_participants_csv,
)
from gateway_tui.tui.widgets.record_table import RecordTable
from tests.data import BIG, INSTANCE, INVITE_PREFIX, MEMBER_ONLY, demo_group, sent_writes
from tests.navigation import open_invite, open_participants
from tests.support import screen_text, wait_for

# --- invites --------------------------------------------------------------------------------


def _numbers_box(app) -> TextArea:
    return app.screen.query_one("#invite-numbers", TextArea)


JONAS = "4915112340001"

OPEN = "sales-eu"
SIZE = (140, 40)
CLOSED = "onboarding"


def _body(method: str, path: str, status: int, message: Any) -> Any:
    body = {"status": status, "error": "x", "response": {"message": message}}
    return error_for_response(status, body, method=method, path=path)


def table(app) -> RecordTable[Participant]:
    return app.screen.query_one("#participants-table", RecordTable)


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


@pytest.mark.in_process
async def test_5_two_numbers_on_one_line_of_the_invite_dialog_are_refused_not_joined(
    app_for, demo_server
):

    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        await open_invite(app, pilot)
        app.screen.query_one("#invite-numbers", TextArea).insert(
            "4915112340001 5511912345678\n"  # two numbers run together on one line
            "123456789012345678\n"  # 18 digits
            "0049 151 12340002\n"
            "+49 151 1234 0002\n"  # the same person again
        )
        await pilot.pause()
        text = screen_text(app)
        assert "✓ 1 number ready" in text
        assert "line 1: '4915112340001 5511912345678': 26 digits is too long" in text
        assert "line 2: '123456789012345678': 18 digits is too long" in text
        assert "1 duplicate removed" in text
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "nothing was sent" in screen_text(app)
        assert sent_writes(demo_server, "/group/sendInvite") == []


# --- subject --------------------------------------------------------------------------------


@pytest.mark.in_process
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


@pytest.mark.in_process
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


@pytest.mark.in_process
async def test_invite_lists_each_invalid_line_and_sends_nothing(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        await open_invite(app, pilot)
        await pilot.press(*"4915112340001", "enter", *"12345, abc", "enter", *"5511912345678")
        await pilot.pause()
        text = screen_text(app)
        assert "line 2: '12345': too short for a number of +1" in text
        assert "line 2: 'abc' is not a number" in text
        assert "2 numbers ready" in text
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "nothing was sent" in screen_text(app)
        assert sent_writes(demo_server, "/group/sendInvite") == []
        assert isinstance(app.screen, InviteScreen)


@pytest.mark.in_process
async def test_invite_needs_at_least_one_number(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        await open_invite(app, pilot)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "enter at least one number" in screen_text(app)
        assert sent_writes(demo_server, "/group/sendInvite") == []


@pytest.mark.in_process
async def test_invite_normalises_dedupes_and_shows_the_url_sent(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        await open_invite(app, pilot)
        # Formatted, comma-separated and one per line; the third is the first one again.
        _numbers_box(app).insert("+49 (151) 1234-0001, 4915112340002\n49 151 1234 0001\n")
        await pilot.pause()
        assert "1 duplicate removed" in screen_text(app)
        app.screen.query_one("#invite-description", Input).value = "Join us on Monday"
        await pilot.press("ctrl+s")
        invite = app.state.invite_of(INSTANCE, BIG)
        await wait_for(pilot, lambda: invite.last_sent is not None)
        await pilot.pause()
        url = INVITE_PREFIX + demo_group(demo_server).invite_code
        assert invite.last_sent.numbers == ["4915112340001", "4915112340002"]
        assert invite.last_sent.result.invite_url == url
        text = screen_text(app)
        assert "Invite sent to 2 numbers" in text and url in text
        sent = [c for c in app.state.calls if c.path.startswith("/group/sendInvite")]
        assert sent[-1].request_body["numbers"] == ["4915112340001", "4915112340002"]
        assert sent[-1].request_body["description"] == "Join us on Monday"
        chats = demo_server.state.instances[INSTANCE].chats
        for number in ("4915112340001", "4915112340002"):
            assert chats[f"{number}@s.whatsapp.net"].messages[-1].text.endswith(url)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ParticipantsScreen)
        assert "sent to 2 numbers" in screen_text(app)


@pytest.mark.in_process
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


@pytest.mark.in_process
async def test_a_subject_over_100_characters_is_refused_live_and_never_sent(app_for, demo_server):
    group = next(iter(demo_server.state.instances[INSTANCE].groups))
    app = app_for()
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        app.push_screen(ParticipantsScreen(INSTANCE, group))
        await wait_for(pilot, lambda: isinstance(app.screen, ParticipantsScreen))
        await pilot.pause()
        await pilot.press("s")
        await wait_for(pilot, lambda: isinstance(app.screen, SubjectScreen))
        dialog = app.screen
        error = dialog.query_one("#subject-error", Static)
        await pilot.press("ctrl+u", "enter")  # empty: said when saving…
        await pilot.pause()
        assert "cannot be empty" in str(error.render())
        await pilot.press("A")  # …and gone at the next keystroke
        await pilot.pause()
        assert str(error.render()) == ""
        await pilot.press(*("b" * 100))
        await pilot.pause()
        assert "at most 100" in str(error.render())
        assert "101/100" in str(dialog.query_one("#subject-count").render())
        writes = len(demo_server.state.writes)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, SubjectScreen)
        assert len(demo_server.state.writes) == writes


async def test_the_invite_dialog_fits_80x24_its_buttons_in_view(app_for):
    """The form scrolls on a short terminal; the buttons stay in view, the description field is
    brought into view when it takes the cursor, and so is the result of a send."""
    from textual.widgets import TextArea

    from gateway_tui.tui.screens.group_modals import InviteScreen

    app = app_for()
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        dialog = InviteScreen("sales-eu", "120363012345678901@g.us", "EU Sales — all hands")
        app.push_screen(dialog)
        await wait_for(pilot, lambda: app.screen is dialog and dialog.is_mounted)
        await pilot.press(*"+49 1511 2340001", "enter", *"4915112340001, 12345")
        await wait_for(pilot, lambda: "duplicate" in screen_text(app))
        text = screen_text(app)
        send = f"Send ({dialog.key_for('invite.send')})"
        assert send in text and "Close (esc)" in text, text
        await pilot.press("tab")
        await wait_for(pilot, lambda: "Join the group" in screen_text(app))
        assert send in screen_text(app)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: "nothing was sent" in screen_text(app))
        assert send in screen_text(app)
        dialog.query_one("#invite-numbers", TextArea).load_text("+49 1511 2340001")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: "Link sent" in screen_text(app))
        assert send in screen_text(app)


@pytest.mark.parametrize("description", ["", "   "])
async def test_an_invite_without_description_is_refused_before_sending(
    demo_server, description: str
) -> None:
    async with GatewayClient(demo_server.url, demo_server.api_key) as client:
        with pytest.raises(InvalidRequest) as info:
            await client.groups.send_invite(OPEN, BIG, [JONAS], description)
    assert [p.field for p in info.value.problems] == ["description"]
    assert not demo_server.state.writes


async def test_the_invite_dialog_starts_with_a_description_and_will_not_send_a_blank_one(
    app_for, demo_server
) -> None:
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        app.push_screen(InviteScreen(OPEN, BIG, "EU Sales"))
        await pilot.pause()
        description = app.screen.query_one("#invite-description", Input)
        assert description.value == "Join the group “EU Sales” on WhatsApp:"
        app.screen.query_one("#invite-numbers", TextArea).insert(JONAS)
        description.value = "  "
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "a description is required" in screen_text(app)
        assert description.has_focus and not demo_server.state.writes
        description.value = "Monday's meeting"
        await pilot.press("ctrl+s")
        invite = app.state.invite_of(OPEN, BIG)
        await wait_for(pilot, lambda: invite.last_sent is not None)
        sent = [c for c in app.state.calls if c.path.startswith("/group/sendInvite")]
        assert [c.request_body["description"] for c in sent] == ["Monday's meeting"]


async def test_an_invite_from_a_closed_instance_says_it_is_not_connected(app_for) -> None:
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        app.push_screen(InviteScreen(CLOSED, BIG))
        await pilot.pause()
        app.screen.query_one("#invite-numbers", TextArea).insert(JONAS)
        await pilot.press("ctrl+s")
        invite_calls = lambda: [c for c in app.state.calls if "sendInvite" in c.path]  # noqa: E731
        await wait_for(pilot, lambda: bool(invite_calls()) and not app.screen.busy)
        await pilot.pause()
        text = screen_text(app)
        # The gateway says only "No send invite"; the app knows the instance is close.
        assert "No send invite" in text
        assert f"The instance {CLOSED} is not connected (status: close)" in text
        assert "must be an admin" not in text


@pytest.mark.parametrize("status", ["open", None])
def test_no_send_invite_from_an_open_or_unknown_instance_keeps_its_own_reason(status) -> None:
    error = _body("POST", "/group/sendInvite/x", 404, ["No send invite"])
    title, advice = explain_group_error(
        error, operation="send_invite", instance="x", instance_status=status
    )
    assert title == "The invite was not sent" and "admin" in advice


def test_validation_errors_of_a_closed_instance_keep_their_explanation() -> None:
    error = _body("GET", "/group/participants/x", 400, [{"property": "groupJid", "message": "m"}])
    title, _ = explain_group_error(
        error, operation="participants", instance="x", instance_status="close"
    )
    assert "not connected" not in title


@pytest.mark.in_process
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


@pytest.mark.in_process
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


@pytest.mark.in_process
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


@pytest.mark.in_process
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


@pytest.mark.in_process
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


async def test_the_participants_export_is_offered_in_the_apps_folder_not_the_working_one(
    app_for, demo_server, tmp_path, monkeypatch
):
    from textual.widgets import Input

    from gateway_tui.core.files.storage import data_dir
    from gateway_tui.tui.screens.group_modals import ExportScreen
    from tests.navigation import open_participants

    monkeypatch.chdir(tmp_path)  # a git checkout, say
    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        await open_participants(app, pilot)
        await pilot.press("e")
        await pilot.pause()
        assert isinstance(app.screen, ExportScreen)
        offered = app.screen.query_one("#export-path", Input).value
        assert offered.startswith(str(data_dir() / "exports") + "/"), offered
        await pilot.press("enter")
        await pilot.pause()
    assert list(tmp_path.iterdir()) == []
    assert len(list((data_dir() / "exports").glob("*.csv"))) == 1


@pytest.mark.in_process
async def test_the_subject_dialog_names_one_key_for_saving_and_that_key_saves(app_for, demo_server):
    """The button, help and the key that saves agree (the button once said enter while help
    said ^s)."""
    from textual.widgets import Button

    from gateway_tui.tui.screens.help import key_rows

    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        await open_participants(app, pilot)
        await pilot.press("s")
        await wait_for(pilot, lambda: isinstance(app.screen, SubjectScreen))
        dialog = app.screen
        key = dialog.key_for("subject.save")
        assert key == "⏎"
        assert f"({key})" in str(dialog.query_one("#subject-save", Button).label)
        # Help (f1) lists the same key first for saving.
        rows = {row.binding_id: row.keys for row in key_rows(dialog)}
        assert rows["subject.save"].split(" / ")[0] == key
        dialog.query_one("#subject-input", Input).value = "EU Sales — keys agree"
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ParticipantsScreen))
        assert demo_group(demo_server).subject == "EU Sales — keys agree"
        # Enter on the focused Cancel button cancels: nothing is written.
        await pilot.press("s")
        await wait_for(pilot, lambda: isinstance(app.screen, SubjectScreen))
        app.screen.query_one("#subject-input", Input).value = "not this one"
        app.screen.query_one("#subject-cancel", Button).focus()
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ParticipantsScreen))
        assert demo_group(demo_server).subject == "EU Sales — keys agree"
