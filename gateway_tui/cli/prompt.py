"""Asking before what cannot be undone (delete, leave, revoke): a question on the terminal,
``--yes`` to skip it; without a terminal and without ``--yes`` the command is refused."""

from __future__ import annotations

import sys

from gateway_tui.cli.commands import CommandError
from gateway_tui.core.text.i18n import _
from gateway_tui.core.text.sanitize import line


def confirm(question: str, *, yes: bool, answer: str = "y") -> None:
    """Go on when ``yes`` or when the person at the terminal types ``answer``; else raise
    CommandError (nothing was done). ``answer`` other than "y" is typed in full (a group's
    subject before leaving it)."""
    if yes:
        return
    if not sys.stdin.isatty():
        raise CommandError(
            _("not done: this cannot be undone and there is no terminal to ask; add --yes")
        )
    wanted = (
        _("[y/N]")
        if answer == "y"
        else _("(type {answer} to go on)").format(answer=repr(line(answer)))
    )
    try:
        print(f"{line(question)} {wanted} ", end="", file=sys.stderr, flush=True)
        typed = sys.stdin.readline().strip()
    except (KeyboardInterrupt, EOFError):
        typed = ""
    ok = typed.lower() in _yes_words() if answer == "y" else typed == answer
    if not ok:
        raise CommandError(_("not done: not confirmed"))


def _yes_words() -> set[str]:
    """What counts as yes: y/yes always, and the run's language's (s/sim, s/sí)."""
    # Translators: the answers, lower case and separated by spaces, that mean yes to [y/N].
    return {"y", "yes", *_("y yes").split()}
