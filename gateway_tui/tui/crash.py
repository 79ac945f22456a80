"""What the user sees when something unexpected goes wrong: no local variables, no secret.

Textual's own crash report prints each frame's local variables, and the connect screen's and the
client's frames hold the API key in clear. Here the report is the traceback without locals, with
every known secret masked, and shown as plain text (never markup, never a control sequence).
"""

from __future__ import annotations

import traceback
from collections.abc import Iterable

from rich.text import Text

from gateway_tui.core.text.sanitize import printable

MASK = "••••"
# Shorter keys are masked too, but a secret shorter than this cannot be told from ordinary text.
_MIN_SECRET_LENGTH = 4


def scrub(text: str, secrets: Iterable[str]) -> str:
    """``text`` with every secret in it replaced by a mask (longest first)."""
    for secret in sorted(
        {s for s in secrets if len(s) >= _MIN_SECRET_LENGTH}, key=len, reverse=True
    ):
        text = text.replace(secret, MASK)
    return text


def describe(error: BaseException, secrets: Iterable[str]) -> str:
    """One line for a notification: the error's type and message, secrets masked."""
    return printable(scrub(f"{type(error).__name__}: {error}", secrets))


def crash_report(error: BaseException, secrets: Iterable[str]) -> Text:
    """The report printed when the app has to stop: the traceback without locals."""
    secrets = list(secrets)
    lines = traceback.format_exception(error, limit=30)
    body = scrub("".join(lines), secrets)
    text = Text(
        "gateway-tui stopped on an unexpected error (a bug: please report it).\n", "bold red"
    )
    text.append(printable(body, multiline=True))
    return text
