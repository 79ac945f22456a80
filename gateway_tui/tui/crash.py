"""What the user sees when something unexpected goes wrong: no local variables, no secret.

Textual's own crash report prints each frame's local variables, and the connect screen's and the
client's frames hold the API key in clear. Here the report is the traceback without locals, with
every known secret masked, and shown as plain text (never markup, never a control sequence).
"""

from __future__ import annotations

import traceback
from collections.abc import Iterable

from rich.text import Text

from gateway_tui.core.text.i18n import _
from gateway_tui.core.text.sanitize import mask_secrets, printable


def scrub(text: str, secrets: Iterable[str]) -> str:
    """``text`` with every known secret and each of ``secrets`` replaced by a mask."""
    return mask_secrets(text, secrets)


def describe(error: BaseException, secrets: Iterable[str]) -> str:
    """One line for a notification: the error's type and message, secrets masked."""
    return printable(scrub(f"{type(error).__name__}: {error}", secrets))


def crash_report(error: BaseException, secrets: Iterable[str]) -> Text:
    """The report printed when the app has to stop: the traceback without locals."""
    secrets = list(secrets)
    lines = traceback.format_exception(error, limit=30)
    body = scrub("".join(lines), secrets)
    text = Text(
        _("gateway-tui stopped on an unexpected error (a bug: please report it).") + "\n",
        "bold red",
    )
    text.append(printable(body, multiline=True))
    return text
