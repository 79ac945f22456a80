"""Shell completion (argcomplete): ``gateway-tui completion bash|zsh|fish`` prints the script.

The script asks ``gateway-tui`` itself on each tab: argcomplete walks the same argparse tree the
command line parses (commands, options, choices), and the completers below add the names the
parser cannot know, from files only (no network call): the config file's profiles, and the
instance names each gateway had when the app or ``gateway-tui instances`` last listed them
(core/files/known_instances.py).
"""

from __future__ import annotations

import argparse
import os
from typing import Any

PROG = "gateway-tui"
SHELLS = ("bash", "zsh", "fish")


def answer_if_asked(parser: argparse.ArgumentParser) -> None:
    """When the shell asks for completions, answer and exit; otherwise return at once."""
    if "_ARGCOMPLETE" not in os.environ:
        return
    import argcomplete

    argcomplete.autocomplete(parser, always_complete_options=False)


def script(shell: str) -> str:
    """The completion script for ``shell``."""
    import argcomplete

    return argcomplete.shellcode([PROG], shell=shell)


def completion(args: argparse.Namespace, config: Any) -> int:
    """``gateway-tui completion SHELL``: print the script to load (README: Shell completion)."""
    from gateway_tui.cli.output import write

    write(script(args.shell), flush=True)
    return 0


def profile_names(prefix: str = "", **_: Any) -> list[str]:
    """The config file's profile names."""
    from gateway_tui.core.files.config import read_config_file

    config_file, _problems = read_config_file()
    return [name for name in sorted(config_file.profiles) if name.startswith(prefix)]


def instance_names(prefix: str = "", parsed_args: Any = None, **_: Any) -> list[str]:
    """The instance names last listed for the gateway the command line names (--url,
    --profile, the environment, the default profile), or for every gateway when it names none
    that was listed."""
    from gateway_tui.core.files.config import load_config
    from gateway_tui.core.files.known_instances import known_instances

    config = load_config(
        url=getattr(parsed_args, "url", None), profile=getattr(parsed_args, "profile", None)
    )
    return [name for name in known_instances(config.gateway_identity) if name.startswith(prefix)]


def complete_with(action: argparse.Action, completer: Any) -> argparse.Action:
    """Give ``action`` (an add_argument result) its completer; returns it."""
    action.completer = completer  # type: ignore[attr-defined]  # argcomplete reads it
    return action
