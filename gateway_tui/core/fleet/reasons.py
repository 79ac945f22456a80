"""Why WhatsApp ended an instance's session, in words.

2.x stores the last disconnection of each instance: ``disconnectionReasonCode`` (the status code
of the WhatsApp library's error, Baileys' ``DisconnectReason``), ``disconnectionAt`` and
``disconnectionObject`` (that error as a JSON string: ``{"error": {"output": {"payload":
{"message": "Log out instance: lc-2"}}}, "date": …}``, recorded in v2.3.7-more/026).

The codes and their names are Baileys' own (``src/Types/index.ts``, ``enum DisconnectReason``:
408 is both ``connectionLost`` and ``timedOut``); the words are ours. A code not in the enum is
shown as it came, never given a meaning.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from gateway_tui.core.text.i18n import N_, _
from gateway_tui.core.text.sanitize import printable


@dataclass(frozen=True, slots=True)
class Reason:
    code: int
    names: tuple[str, ...]  # Baileys' member names for the code
    words: str
    # Whether a restart (or simply waiting) can bring the session back; False: the phone must
    # pair again (a new QR code), or WhatsApp refuses the account.
    recoverable: bool


REASONS: dict[int, Reason] = {
    reason.code: reason
    for reason in (
        Reason(401, ("loggedOut",), N_("logged out"), False),
        Reason(403, ("forbidden",), N_("banned or forbidden"), False),
        Reason(408, ("connectionLost", "timedOut"), N_("connection lost"), True),
        Reason(411, ("multideviceMismatch",), N_("multi-device mismatch"), False),
        Reason(428, ("connectionClosed",), N_("connection closed"), True),
        Reason(440, ("connectionReplaced",), N_("replaced by another session"), False),
        Reason(500, ("badSession",), N_("bad session"), False),
        Reason(503, ("unavailableService",), N_("WhatsApp unavailable"), True),
        Reason(515, ("restartRequired",), N_("restart required"), True),
    )
}


def _code(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    return None


def reason_words(code: Any, *, english: bool = False) -> str:
    """ "401 logged out" (in the current language, or in English for what scripts read);
    a code not in Baileys' enum as it came; "" for none."""
    if code is None or code == "":
        return ""
    number = _code(code)
    reason = REASONS.get(number) if number is not None else None
    if reason is None:
        return printable(str(code))
    return f"{reason.code} {reason.words if english else _(reason.words)}"


def object_message(raw: Any) -> str | None:
    """The error's own message in ``disconnectionObject`` ("Log out instance: lc-2"), or None
    when it holds none (it is a JSON string on 2.3.x; an object is read the same way)."""
    data = raw
    if isinstance(raw, str):
        try:
            data = json.loads(raw)
        except (ValueError, RecursionError):
            return None
    node: Any = data
    for key in ("error", "output", "payload", "message"):
        if not isinstance(node, dict):
            return None
        node = node.get(key)
    if not isinstance(node, str) or not node.strip():
        return None
    return printable(node.strip())[:200]


def parse_moment(iso: Any) -> datetime | None:
    """An ISO 8601 time from the gateway (``…Z``), aware; None when it is none or unreadable."""
    if not isinstance(iso, str) or not iso.strip():
        return None
    try:
        moment = datetime.fromisoformat(iso.strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    return moment if moment.tzinfo else None


@dataclass(frozen=True, slots=True)
class Disconnection:
    """An instance's last disconnection as 2.x stored it."""

    code: int | str | None
    at: datetime | None
    message: str | None = None

    @classmethod
    def of(cls, code: Any, at: Any, obj: Any = None) -> Disconnection | None:
        """From the row's three fields; None when the gateway stored none."""
        moment = parse_moment(at)
        message = object_message(obj)
        if code in (None, "") and moment is None and message is None:
            return None
        number = _code(code)
        return cls(number if number is not None else code, moment, message)

    @property
    def reason(self) -> Reason | None:
        return REASONS.get(self.code) if isinstance(self.code, int) else None

    @property
    def words(self) -> str:
        """ "401 logged out (Log out instance: lc-2)", in English (``health --json`` writes it);
        the time is the caller's to show."""
        words = reason_words(self.code, english=True) or "no code"
        if self.message:
            words += f" ({self.message})"
        return words

    def said(self) -> str:
        """``words`` in the current language (the gateway's own message kept as it came)."""
        words = reason_words(self.code) or _("no code")
        if self.message:
            return _("{reason} ({message})").format(reason=words, message=self.message)
        return words
