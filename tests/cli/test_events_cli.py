"""``gateway-tui events``: a line per event from the demo gateway's socket.io stream, JSON
lines for programs, a clean end on --count, --for, Ctrl-C and a closed pipe; never the key."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from gateway_tui.demo.server import DemoServer
from tests.data import INSTANCE, newest_person_chat
from tests.support import PROCESS_LIMIT, cli_env

# The installed command, as a user runs it.
GATEWAY_TUI_DIR = Path(sys.executable).parent
GATEWAY_TUI = [str(GATEWAY_TUI_DIR / "gateway-tui")]


class Writer:
    """A contact writes into the demo every ``every`` seconds until stopped (as
    ``demo-server --incoming-every`` does), to the given instances in turn."""

    def __init__(self, server, instances=(INSTANCE,), text="incoming", every=0.2):
        self.server, self.instances, self.text, self.every = server, instances, text, every
        self.stop = threading.Event()
        self.count = 0
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self):
        while not self.stop.wait(self.every):
            if self.server.events.loop is None:
                continue  # socket.io serves once the first request came
            instance = self.instances[self.count % len(self.instances)]
            jid = newest_person_chat(self.server, instance)
            self.server.write(instance, jid, f"{self.text} {self.count}")
            self.count += 1

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *_):
        self.stop.set()
        self.thread.join(30)


def run(argv, server, home, **kwargs):
    return subprocess.run(
        [*GATEWAY_TUI, *argv],
        env=cli_env(server, home),
        capture_output=True,
        text=True,
        timeout=PROCESS_LIMIT,
        **kwargs,
    )


def no_secret_in(server, *texts):
    keys = [server.api_key, *(i.apikey for i in server.state.instances.values())]
    for text in texts:
        for key in keys:
            assert key not in text


def test_json_piped_into_head_prints_three_lines_and_ends_clean(demo_server, tmp_path):
    with Writer(demo_server):
        done = subprocess.run(
            ["bash", "-c", "set -o pipefail; timeout 500 gateway-tui events --json | head -3"],
            env={
                **cli_env(demo_server, tmp_path),
                "PATH": f"{GATEWAY_TUI_DIR}:{os.environ['PATH']}",
            },
            capture_output=True,
            text=True,
            timeout=PROCESS_LIMIT,
        )
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(lines) == 3
    for line in lines:
        assert {"event", "instance", "time", "data"} <= set(line)
        assert line["event"] == "messages.upsert" and line["instance"] == INSTANCE
    assert done.returncode == 141  # the status a shell gives a writer whose reader went away
    assert "Traceback" not in done.stderr and "Error" not in done.stderr
    no_secret_in(demo_server, done.stdout, done.stderr)


def test_count_instance_and_event_filter_the_lines(demo_server, tmp_path):
    others = (INSTANCE, "support")
    with Writer(demo_server, instances=others):
        done = run(
            ["events", "--instance", INSTANCE, "--event", "MESSAGES_UPSERT", "--count", "2"],
            demo_server,
            tmp_path,
        )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 2
    for line in lines:
        assert f"  {INSTANCE}  messages.upsert  " in line and "incoming" in line
    assert "following the events of 1 instance" in done.stderr
    no_secret_in(demo_server, done.stdout, done.stderr)


def test_an_event_not_asked_for_is_not_printed(demo_server, tmp_path):
    with Writer(demo_server):
        done = run(["events", "--event", "connection.update", "--for", "2"], demo_server, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""


def test_server_text_never_reaches_the_terminal_raw(demo_server, tmp_path):
    with Writer(demo_server, text="\x1b]52;c;SGk=\x07\x1b[2J\x9b31m evil"):
        text = run(["events", "--count", "1"], demo_server, tmp_path)
        as_json = run(["events", "--count", "1", "--json"], demo_server, tmp_path)
    for done in (text, as_json):
        assert done.returncode == 0, done.stderr
        assert "\x1b" not in done.stdout and "\x9b" not in done.stdout and "\x07" not in done.stdout
    assert "evil" in text.stdout
    assert "\x1b]52;c;SGk=\x07" in json.loads(as_json.stdout)["data"]["message"]["conversation"]


def test_ctrl_c_ends_it_quietly(demo_server, tmp_path):
    process = subprocess.Popen(
        [*GATEWAY_TUI, "events"],
        env=cli_env(demo_server, tmp_path),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        first = process.stderr.readline()
        assert "following the events" in first
        with Writer(demo_server):
            line = process.stdout.readline()  # one event came: it is following
        assert "messages.upsert" in line
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=PROCESS_LIMIT)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130
    assert "Traceback" not in err and "KeyboardInterrupt" not in err


@pytest.mark.parametrize("version", ["1.7.1", "2.3.6"])
def test_a_websocket_that_is_off_is_said_and_ends_it(tmp_path, version):
    with DemoServer(websocket=False, api_version=version) as server:
        done = run(["events"], server, tmp_path)
    assert done.returncode == 1
    assert "the gateway's websocket is off (/socket.io/ answers 404)" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_global_stream_of_a_2x_gateway_is_followed(tmp_path):
    with DemoServer(api_version="2.3.6", global_events=True) as server:
        with Writer(server):
            done = run(["events", "--json", "--count", "2"], server, tmp_path)
    assert done.returncode == 0, done.stderr
    assert "and the gateway's global stream" in done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    texts = [line["data"]["message"]["conversation"] for line in lines]
    assert len(texts) == 2 and len(set(texts)) == 2  # two events, each once


def test_no_gateway_is_said(tmp_path, demo_server):
    env = {**cli_env(demo_server, tmp_path)}
    del env["GATEWAY_URL"]
    done = subprocess.run(
        [*GATEWAY_TUI, "events"], env=env, capture_output=True, text=True, timeout=PROCESS_LIMIT
    )
    assert done.returncode == 1 and "no gateway" in done.stderr


def test_it_imports_no_textual(demo_server, tmp_path):
    from tests.support import run_cli_without_textual

    with Writer(demo_server):
        done = run_cli_without_textual(["events", "--count", "1"], demo_server, tmp_path)
    assert done.returncode == 0, done.stderr
    assert "messages.upsert" in done.stdout
