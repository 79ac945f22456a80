"""Shell completion: the scripts load in bash, zsh and fish, and complete commands, options,
profile names and the instance names last listed, without a network call."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gateway_tui.core.files.config import config_path
from gateway_tui.core.files.known_instances import known_instances, remember_instances
from gateway_tui.main import main
from tests.support import PROCESS_LIMIT

BIN = Path(sys.executable).parent
SHELLS = ("bash", "zsh", "fish")


def _script(shell: str, capsys) -> str:
    assert main(["completion", shell]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("shell", SHELLS)
def test_the_script_is_valid_in_its_shell(shell, capsys, tmp_path):
    # The Makefile installs zsh and fish (make test): a missing shell fails here, not skips.
    assert shutil.which(shell), f"{shell} is not installed (make test installs it)"
    path = tmp_path / f"gateway-tui.{shell}"
    path.write_text(_script(shell, capsys))
    checked = subprocess.run([shell, "-n", str(path)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    assert "gateway-tui" in path.read_text()


def _config_with_profiles() -> None:
    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        '[profiles.prod]\nurl = "https://gw.example.com"\n'
        '[profiles.staging]\nurl = "https://staging.example.com"\n'
    )


def _env() -> dict[str, str]:
    # No gateway is reachable: a completion that made a call would hang or fail, not answer.
    return {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"}


def _bash_complete(script: Path, words: list[str]) -> list[str]:
    line = " ".join(words)
    program = (
        f"source {script}\n"
        f"COMP_LINE={line!r}; COMP_POINT=${{#COMP_LINE}}\n"
        f"COMP_WORDS=({' '.join(repr(w) for w in words)}); COMP_CWORD={len(words) - 1}\n"
        "_python_argcomplete gateway-tui\n"
        'printf "%s\\n" "${COMPREPLY[@]}"\n'
    )
    done = subprocess.run(
        ["bash", "-c", program], capture_output=True, text=True, env=_env(), timeout=PROCESS_LIMIT
    )
    assert done.returncode == 0, done.stderr
    return [word.strip() for word in done.stdout.splitlines() if word.strip()]


def test_bash_completes_commands_options_profiles_and_known_instances(capsys, tmp_path):
    _config_with_profiles()
    remember_instances("https://gw.example.com", ["sales-eu", "support"])
    remember_instances("https://staging.example.com", ["stage-1"])
    script = tmp_path / "c.bash"
    script.write_text(_script("bash", capsys))

    assert sorted(_bash_complete(script, ["gateway-tui", "ins"])) == ["instance", "instances"]
    assert _bash_complete(script, ["gateway-tui", "instances"]) == ["instances"]
    assert "--instance" in _bash_complete(script, ["gateway-tui", "send-list", "--inst"])
    assert _bash_complete(script, ["gateway-tui", "--profile", ""]) == ["prod", "staging"]
    assert _bash_complete(script, ["gateway-tui", "--color", ""]) == ["auto", "always", "never"]
    # The instances of the gateway the command line names, from the last listing.
    words = ["gateway-tui", "--profile", "prod", "chats", ""]
    assert _bash_complete(script, words) == ["sales-eu", "support"]
    words = ["gateway-tui", "--profile", "staging", "participants", ""]
    assert _bash_complete(script, words) == ["stage-1"]
    words = ["gateway-tui", "--profile", "prod", "send-poll", ""]
    assert _bash_complete(script, words) == ["sales-eu", "support"]


def test_every_instance_positional_completes_the_known_names():
    """Each command that takes an INSTANCE offers the names last listed (cli/arguments.py's
    instance_argument), send-audio … poll-votes as much as chats and the nouns."""
    import argparse

    from gateway_tui.cli.completion import instance_names
    from gateway_tui.cli.parser import build_parser

    def commands(parser: argparse.ArgumentParser, path: str):
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    yield f"{path} {name}".strip(), sub
                    yield from commands(sub, f"{path} {name}")

    taking = {
        name: action
        for name, sub in commands(build_parser(), "")
        for action in sub._actions
        if not action.option_strings and action.dest == "instance"
    }
    assert {"chats", "instance", "send-poll", "send-audio", "poll-votes"} <= set(taking)
    missing = [
        name for name, a in taking.items() if getattr(a, "completer", None) is not instance_names
    ]
    assert missing == []


def test_fish_completes_profile_names(capsys, tmp_path):
    _config_with_profiles()
    script = tmp_path / "c.fish"
    script.write_text(_script("fish", capsys))
    done = subprocess.run(
        ["fish", "--no-config", "-c", f"source {script}; complete -C 'gateway-tui --profile '"],
        capture_output=True,
        text=True,
        env=_env(),
        timeout=PROCESS_LIMIT,
    )
    assert done.returncode == 0, done.stderr
    assert [line.split("\t")[0] for line in done.stdout.splitlines()] == ["prod", "staging"]


def test_the_instances_command_keeps_the_names_for_completion(gateway, capsys):
    assert known_instances(gateway.url) == []
    assert main(["instances", "--json"]) == 0
    listed = sorted(row["name"] for row in __import__("json").loads(capsys.readouterr().out))
    assert listed and known_instances(gateway.url) == listed


def test_a_broken_names_file_offers_nothing_and_breaks_nothing(isolated_home):
    from gateway_tui.core.files.known_instances import known_instances_path

    path = known_instances_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('{"version": 1, "gateways": {"x": "not a list"')
    assert known_instances("x") == []
    remember_instances("x", ["a"])
    assert known_instances("x") == ["a"]
