"""Phone numbers of people: one key for every way of writing a number, and whether it can exist.

``person_key`` reads the forms people and programs write: ``+55 (11) 91111-0001``,
``0055 11 911110001`` (00 is the international prefix), ``5511911110001`` and the JID forms
(``5511911110001@s.whatsapp.net``, ``…@c.us``); all give ``5511911110001``. ``number_problem``
asks phonenumbers whether the number is possible (its length for its country) and valid (in
its country's numbering plan): two numbers run together on one line are too long, and say so.

No Textual, no pydantic; phonenumbers is imported on first use (not at start-up).
"""

from __future__ import annotations

import re

from gateway_tui.core.text.i18n import _

PERSON_SUFFIXES = ("@s.whatsapp.net", "@c.us")
# What people put between digits; a real server strips + ( ) - and spaces too.
_NOISE = re.compile(r"[+\s()\-./]")
_DIGITS = re.compile(r"[0-9]+")
MAX_DIGITS = 15  # E.164: no phone number is longer


def person_digits(raw: str) -> str | None:
    """The international digits of a person's number or JID, or None when it is not one."""
    value = raw.strip()
    lowered = value.lower()
    for suffix in PERSON_SUFFIXES:
        if lowered.endswith(suffix):
            value = value[: -len(suffix)].split(":", 1)[0]  # a device part: 5511…:12@s.…
            break
    else:
        if "@" in value:
            return None  # a group, a broadcast list, a lid: not a phone number
    digits = _NOISE.sub("", value)
    if not _DIGITS.fullmatch(digits):
        return None
    if digits.startswith("00"):
        digits = digits[2:]  # the international call prefix, as dialled in most countries
    return digits


def person_key(raw: str) -> str:
    """The same person, however the number is written (for finding duplicates)."""
    digits = person_digits(raw)
    return digits if digits is not None else raw.strip()


def number_problem(digits: str) -> str:
    """Why these international digits cannot be anyone's number ("" when they can)."""
    import phonenumbers
    from phonenumbers import ValidationResult

    if len(digits) > MAX_DIGITS:
        return _(
            "{count} digits is too long for any phone number (at most {most}; "
            "two numbers run together? one number per line)"
        ).format(count=len(digits), most=MAX_DIGITS)
    no_country = _("no country has this code: write the number with its country code")
    try:
        number = phonenumbers.parse("+" + digits)
    except phonenumbers.NumberParseException as exc:
        if exc.error_type == phonenumbers.NumberParseException.INVALID_COUNTRY_CODE:
            return no_country
        return _("too short for a phone number with its country code")
    reason = phonenumbers.is_possible_number_with_reason(number)
    country = f"+{number.country_code}"
    if reason == ValidationResult.INVALID_COUNTRY_CODE:
        return no_country
    if reason == ValidationResult.TOO_LONG:
        return _("too long for a number of {country} (two numbers run together?)").format(
            country=country
        )
    if reason in (ValidationResult.TOO_SHORT, ValidationResult.IS_POSSIBLE_LOCAL_ONLY):
        return _("too short for a number of {country} (is the country code there?)").format(
            country=country
        )
    if reason == ValidationResult.INVALID_LENGTH:
        return _("not a possible length for a number of {country}").format(country=country)
    if not phonenumbers.is_valid_number(number):
        return _("not a number in use in the numbering plan of {country}").format(country=country)
    return ""
