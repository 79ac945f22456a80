"""How values read on screen. Pure functions, shared by the screens."""

from __future__ import annotations

from datetime import datetime

from rich.text import Text

from gateway_tui.api.models import InstanceStatus

# ITU zones whose country codes have three digits (e.g. 351 Portugal, 971 UAE).
_THREE_DIGIT_ZONES = frozenset(
    "21 22 23 24 25 26 29 35 37 38 42 50 59 67 68 69 80 85 87 88 96 97 99".split()
)

STATUS_LOOK: dict[InstanceStatus, tuple[str, str]] = {
    InstanceStatus.OPEN: ("●", "green"),
    InstanceStatus.CONNECTING: ("◐", "yellow"),
    InstanceStatus.CLOSE: ("○", "bright_black"),
    InstanceStatus.REFUSED: ("✕", "red"),
    InstanceStatus.UNKNOWN: ("?", "magenta"),
}


def format_number(digits: str) -> str:
    """International digits for reading: "5511999887766" → "+55 119 9988 7766"."""
    if not digits.isdigit() or len(digits) < 8:
        return digits
    if digits[0] in "17":
        cc_len = 1
    elif digits[:2] in _THREE_DIGIT_ZONES:
        cc_len = 3
    else:
        cc_len = 2
    country, rest = digits[:cc_len], digits[cc_len:]
    return f"+{country} " + " ".join(p for p in _group_national(rest) if p)


def _group_national(rest: str) -> list[str]:
    if len(rest) == 9:
        return [rest[:3], rest[3:6], rest[6:]]
    if len(rest) == 10:
        return [rest[:3], rest[3:6], rest[6:]]
    return [rest[:-8], rest[-8:-4], rest[-4:]]


def status_cell(raw: str, kind: InstanceStatus) -> str:
    symbol, _ = STATUS_LOOK[kind]
    return f"{symbol} {raw}"


def status_style(kind: InstanceStatus) -> str:
    return STATUS_LOOK[kind][1]


def status_text(raw: str, kind: InstanceStatus) -> Text:
    return Text(status_cell(raw, kind), style=status_style(kind))


def clock(moment: datetime | None) -> str:
    return moment.strftime("%H:%M:%S") if moment else "never"
