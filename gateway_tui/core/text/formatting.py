"""How values read on screen. Pure functions, shared by the screens."""

from __future__ import annotations

from datetime import datetime
from functools import lru_cache

from rich.text import Text

from gateway_tui.core.api.models import InstanceStatus
from gateway_tui.core.text.i18n import _, current_language, date_time

STATUS_LOOK: dict[InstanceStatus, tuple[str, str]] = {
    InstanceStatus.OPEN: ("●", "green"),
    InstanceStatus.CONNECTING: ("◐", "yellow"),
    InstanceStatus.CLOSE: ("○", "bright_black"),
    InstanceStatus.REFUSED: ("✕", "red"),
    InstanceStatus.UNKNOWN: ("?", "magenta"),
}


# Big enough for a list of 10,000 instances or chats: a smaller cache thrashes on every redraw
# of such a list (libphonenumber takes about 30 µs a number).
def format_number(digits: str) -> str:
    """International digits for reading, the way the country writes them (libphonenumber):
    "447700900123" → "+44 7700 900123", "5511999999999" → "+55 11 99999-9999".

    A number libphonenumber can fit to no pattern of its country is said so, its country code
    set apart when there is one: "341785919681" → "+34 1785919681 (invalid)" (beside grouped
    numbers, an ungrouped one would pass for a number written differently). Fewer than 8
    digits, or not digits: as it came.
    """
    return _format_number(digits, current_language())


@lru_cache(maxsize=65536)
def _format_number(digits: str, language: str) -> str:
    """format_number's work, cached per language ("(invalid)" is said in it)."""
    if not digits.isdigit() or len(digits) < 8:
        return digits
    # Imported on first use: the first frame is drawn before any number is.
    import phonenumbers

    try:
        number = phonenumbers.parse("+" + digits)
    except phonenumbers.NumberParseException:
        return _("+{digits} (invalid)").format(digits=digits)
    shown = phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.INTERNATIONAL)
    national = phonenumbers.national_significant_number(number)
    if phonenumbers.is_valid_number(number) or shown != f"+{number.country_code} {national}":
        return shown  # valid, or in a pattern of its country (a drama range: +44 7700 900123)
    return _("{number} (invalid)").format(number=shown)


def status_cell(raw: str, kind: InstanceStatus) -> str:
    symbol, _style = STATUS_LOOK[kind]
    return f"{symbol} {raw}"


def status_style(kind: InstanceStatus) -> str:
    return STATUS_LOOK[kind][1]


def status_text(raw: str, kind: InstanceStatus) -> Text:
    return Text(status_cell(raw, kind), style=status_style(kind))


def clock(moment: datetime | None) -> str:
    return moment.strftime("%H:%M:%S") if moment else _("never")


def disconnect_reason(code: str | None) -> str:
    """ "401 logged out" (Baileys' reason codes: core/fleet/reasons.py); the bare code when
    unknown; "" when there is none."""
    from gateway_tui.core.fleet.reasons import reason_words

    return reason_words(code)


def moment_text(iso: str | None) -> str:
    """An ISO 8601 time from the gateway, in local time to the minute; as sent when unreadable."""
    if not iso:
        return ""
    try:
        moment = datetime.fromisoformat(iso.replace("Z", "+00:00"))
    except ValueError:
        return iso
    return date_time(moment.astimezone())


def disconnect_text(code: str | None, at: str | None) -> str:
    """The instance's last disconnection: reason and time, "" when the gateway gave none."""
    return " · ".join(part for part in (disconnect_reason(code), moment_text(at)) if part)


class Phrases:
    """Phrases joined by `` · ``, wrapped between phrases, never inside one, to the width they
    are drawn at (a header of counts and keys that wrapped mid-phrase read as nonsense). A
    phrase wider than the whole line is wrapped at its words, as any text."""

    SEPARATOR = " · "

    def __init__(self, parts: list[str]) -> None:
        self.parts = [part for part in parts if part]

    def __rich_console__(self, console, options):
        width = options.max_width
        line = Text()
        for part in self.parts:
            if line and line.cell_len + len(self.SEPARATOR) + Text(part).cell_len > width:
                yield line
                line = Text()
            if line:
                line.append(self.SEPARATOR)
            line.append(part)
        if line:
            yield line
