"""Asking before what cannot be undone (delete, leave, revoke): a question on the terminal,
``--yes`` to skip it; without a terminal and without ``--yes`` the command is refused."""

from __future__ import annotations

import sys

from gateway_tui.cli.commands import CommandError
from gateway_tui.core.text.sanitize import line


def confirm(question: str, *, yes: bool, answer: str = "y") -> None:
    """Go on when ``yes`` or when the person at the terminal types ``answer``; else raise
    CommandError (nothing was done). ``answer`` other than "y" is typed in full (a group's
    subject before leaving it)."""
    if yes:
        return
    if not sys.stdin.isatty():
        raise CommandError(
            "not done: this cannot be undone and there is no terminal to ask; add --yes"
        )
    wanted = "[y/N]" if answer == "y" else f"(type {line(answer)!r} to go on)"
    try:
        print(f"{line(question)} {wanted} ", end="", file=sys.stderr, flush=True)
        typed = sys.stdin.readline().strip()
    except (KeyboardInterrupt, EOFError):
        typed = ""
    ok = typed.lower() in ("y", "yes") if answer == "y" else typed == answer
    if not ok:
        raise CommandError("not done: not confirmed")
