"""send-audio, send-poll, send-location, send-contact: checked as the real server checks them
before anything is sent (the reason printed, exit 1, no request), and sent on the demo."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from gateway_tui.cli import send_kinds
from gateway_tui.cli.output import EXIT_PIPE_CLOSED
from gateway_tui.core.api import message_kinds
from gateway_tui.main import main
from tests.support import cli_env

TO = "4917000000001"


def sends(server) -> list:
    return [r for r in server.requests if r[1] == "POST" and r[2].startswith("/message/")]


def test_the_formats_said_on_the_command_line_are_the_cores() -> None:
    assert send_kinds.VOICE_FORMATS_TEXT == message_kinds.VOICE_FORMATS_TEXT


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["send-poll", "sales-eu", TO, "Lunch?", "Pizza"], "values does not meet minimum length"),
        (["send-poll", "sales-eu", TO, "Lunch?", "A", "A"], "contains duplicate item"),
        (["send-location", "sales-eu", TO, "91", "0"], "latitude: between -90 and 90"),
        (
            ["send-contact", "sales-eu", TO, "--contact", "Bob=123"],
            "contact[0].phoneNumber does not meet minimum length of 10",
        ),
        (["send-contact", "sales-eu", TO, "--contact", "no phone"], "write NAME=PHONE"),
        (["send-audio", "sales-eu", TO, "/nonexistent/memo.ogg"], "cannot read"),
    ],
)
def test_a_refused_message_is_said_and_nothing_is_sent(gateway, capsys, args, said) -> None:
    assert main(args) == 1
    assert said in capsys.readouterr().err
    assert not sends(gateway)


def test_a_voice_note_must_be_an_audio_file(gateway, capsys, tmp_path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("not audio")
    assert main(["send-audio", "sales-eu", TO, str(notes)]) == 1
    assert "a voice note is ogg/opus" in capsys.readouterr().err
    assert not sends(gateway)


def test_poll_votes_on_24_and_refused_before(monkeypatch, capsys) -> None:
    from gateway_tui.demo.server import DemoServer
    from gateway_tui.demo.session import extras

    jonas = "4915112340001@s.whatsapp.net"
    for line in ("1.7.1", "2.3.6"):
        with DemoServer(api_version=line) as server:
            monkeypatch.setenv("GATEWAY_URL", server.url)
            monkeypatch.setenv("GATEWAY_API_KEY", server.api_key)
            assert main(["poll-votes", "sales-eu", jonas, "3EB0AAAA"]) == 1
            assert "2.4 or later is needed for reading a poll's votes" in capsys.readouterr().err
            assert not [r for r in server.requests if "getPollVote" in r[2]]
    with DemoServer(api_version="2.4.0") as server:
        monkeypatch.setenv("GATEWAY_URL", server.url)
        monkeypatch.setenv("GATEWAY_API_KEY", server.api_key)
        assert main(["send-poll", "sales-eu", "4915112340001", "Lunch?", "Yes", "No"]) == 0
        poll_id = capsys.readouterr().out.strip()
        extras(server.state).poll_votes[poll_id] = {"4915112340002@s.whatsapp.net": ["No"]}
        assert main(["poll-votes", "sales-eu", "4915112340001", poll_id]) == 0
        out = capsys.readouterr().out
        assert "Lunch?: 1 voter" in out and "No: 1 (4915112340002@s.whatsapp.net)" in out
        assert "Yes: 0" in out


def test_poll_votes_on_237_are_counted_from_the_stored_votes(monkeypatch, capsys) -> None:
    """2.3.7 has no getPollVote, but keeps each vote in the store (pollUpdateMessage): the
    command counts them as the conversation does, a changed vote moved, not counted twice."""
    from gateway_tui.demo.interactive import receive_poll_vote
    from gateway_tui.demo.server import DemoServer

    jonas = "4915112340001@s.whatsapp.net"
    with DemoServer(api_version="2.3.7") as server:
        monkeypatch.setenv("GATEWAY_URL", server.url)
        monkeypatch.setenv("GATEWAY_API_KEY", server.api_key)
        assert main(["send-poll", "sales-eu", "4915112340001", "Lunch?", "Yes", "No"]) == 0
        poll_id = capsys.readouterr().out.strip()
        chat = server.state.instances["sales-eu"].chats[jonas]
        receive_poll_vote(server.state, chat, poll_id, jonas, ["Yes"])
        receive_poll_vote(server.state, chat, poll_id, jonas, ["No"])  # Jonas changes his mind
        assert main(["poll-votes", "sales-eu", "4915112340001", poll_id]) == 0
        out = capsys.readouterr().out
        assert "Lunch?: 1 voter" in out
        assert "Yes: 0" in out and f"No: 1 ({jonas})" in out
        assert not [r for r in server.requests if "getPollVote" in r[2]]
        assert main(["poll-votes", "sales-eu", "4915112340001", "3EB0NOPE"]) == 1
        assert "no poll 3EB0NOPE among the stored messages" in capsys.readouterr().err


# --- what a send writes goes through cli/output.py ---------------------------------------------


def test_a_send_whose_reader_went_away_ends_quietly(demo_server, tmp_path) -> None:
    """``send-poll … | head -0``: the poll is sent once, then the command ends as Unix tools do
    (status 141), with no traceback and no "Exception ignored" from Python's flush at exit."""
    env = cli_env(demo_server, tmp_path)
    env.pop("PYTHONUNBUFFERED", None)  # stdout buffered, as a user's shell has it
    process = subprocess.Popen(
        [sys.executable, "-m", "gateway_tui", "send-poll", "sales-eu", TO, "Lunch?", "A", "B"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()  # the reader is gone before the command writes
    err = process.stderr.read().decode("utf-8", "replace")
    assert process.wait(timeout=300) == EXIT_PIPE_CLOSED, err
    assert "Traceback" not in err and "Exception ignored" not in err, err
    assert len(sends(demo_server)) == 1


def test_what_the_gateway_echoes_passes_the_display_boundary(gateway, capsys) -> None:
    """The gateway's answer echoes the poll's question: its controls reach the terminal
    escaped in JSON (and read back the same), never raw."""
    question = "Lunch\x1b]52;c;eA==\x07\x9b31m\u202e?"
    assert main(["send-poll", "sales-eu", TO, question, "Yes", "No", "--json"]) == 0
    out = capsys.readouterr().out
    assert not any(raw in out for raw in ("\x1b", "\x07", "\x9b", "\u202e")), repr(out)
    assert json.loads(out)["message"]["pollCreationMessage"]["name"] == question


def test_a_text_that_is_not_utf8_is_refused_before_sending(gateway, capsys) -> None:
    """``--name "$(printf 'Off\\x9bice')"``: a byte that is not UTF-8 reaches Python as a lone
    surrogate, which no request can carry: said with the argument's name, nothing sent, no
    traceback."""
    name = b"Off\x9bice".decode("utf-8", "surrogateescape")
    assert main(["send-location", "sales-eu", TO, "1.5", "2.5", "--name", name]) == 1
    err = capsys.readouterr().err
    assert "NAME is not valid UTF-8 text" in err and "Traceback" not in err
    assert not sends(gateway)
