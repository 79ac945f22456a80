"""Colour on the command line: on a terminal by default, never with NO_COLOR or --color never,
never in a pipe unless --color always; every coloured state is also a word."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.support import PROCESS_LIMIT, cli_env

ESC = "\x1b["


def _on_a_terminal(argv: list[str], env: dict[str, str]) -> str:
    """What ``gateway-tui argv`` writes to a pseudo-terminal (stdout and stderr)."""
    master, slave = os.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "gateway_tui", *argv],
        stdin=subprocess.DEVNULL,
        stdout=slave,
        stderr=slave,
        env=env,
    )
    os.close(slave)
    chunks = []
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the writer closed the terminal
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(master)
    assert process.wait(timeout=PROCESS_LIMIT) == 0
    return b"".join(chunks).decode()


def _piped(argv: list[str], env: dict[str, str]) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "gateway_tui", *argv],
        capture_output=True,
        text=True,
        env=env,
        timeout=PROCESS_LIMIT,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_terminal_gets_colour_and_no_color_takes_it_away(demo_server, isolated_home):
    env = {k: v for k, v in cli_env(demo_server, isolated_home).items() if k != "NO_COLOR"}
    env["TERM"] = "xterm-256color"
    coloured = _on_a_terminal(["instances"], env)
    assert f"{ESC}32mopen{ESC}0m" in coloured  # the state in colour, and in words

    plain = _on_a_terminal(["instances"], {**env, "NO_COLOR": "1"})
    assert ESC not in plain
    assert "open" in plain
    assert ESC not in _on_a_terminal(["--color", "never", "instances"], env)
    assert ESC not in _on_a_terminal(["instances", "--color", "never"], env)
    # The words are the same with and without colour.
    assert plain.replace("\r", "") == coloured.replace("\r", "").replace(f"{ESC}0m", "").replace(
        f"{ESC}32m", ""
    ).replace(f"{ESC}31m", "").replace(f"{ESC}33m", "")


def test_a_pipe_gets_no_colour_unless_asked(demo_server, isolated_home):
    env = {k: v for k, v in cli_env(demo_server, isolated_home).items() if k != "NO_COLOR"}
    assert ESC not in _piped(["instances"], env)
    assert f"{ESC}32mopen" in _piped(["--color", "always", "instances"], env)
    # JSON and CSV are for programs: never coloured.
    assert ESC not in _piped(["--color", "always", "instances", "--json"], env)
    assert ESC not in _piped(["--color", "always", "instances", "--csv"], env)


def test_an_error_prefix_is_coloured_on_a_terminal_only(isolated_home):
    env = {**os.environ, "GATEWAY_TUI_HOME": str(isolated_home), "TERM": "xterm"}
    env.pop("NO_COLOR", None)
    done = subprocess.run(
        [sys.executable, "-m", "gateway_tui", "--color", "always", "instances"],
        capture_output=True,
        text=True,
        env=env,
        timeout=PROCESS_LIMIT,
    )
    assert done.returncode == 1
    assert f"gateway-tui: {ESC}1;31merror:{ESC}0m no gateway" in done.stderr
    env["NO_COLOR"] = "1"
    done = subprocess.run(
        [sys.executable, "-m", "gateway_tui", "instances"],
        capture_output=True,
        text=True,
        env=env,
        timeout=PROCESS_LIMIT,
    )
    assert done.stderr.startswith("gateway-tui: error: no gateway")
