"""The server's known rules, checked before a request is sent.

Each check returns a list of ``Problem`` (empty when fine) so forms can show the reason next to
the field; the client raises ``InvalidRequest`` with them instead of sending.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from gateway_tui.core.api.errors import Problem
from gateway_tui.core.api.models import ListMessage, MessageKey, Presence
from gateway_tui.core.text.i18n import _, ngettext, number

JID_SUFFIXES = ("@s.whatsapp.net", "@g.us", "@lid", "@broadcast")
# [0-9], not \d: \d also matches other scripts' digits ("١٢٣", "²"), which the server rejects.
GROUP_JID = re.compile(r"[0-9]+(-[0-9]+)?@g\.us")
_BARE_GROUP_ID = re.compile(r"[0-9]+(-[0-9]+)?")
_DIGITS = re.compile(r"[0-9]+")
# Characters a real server strips from a number before using it.
_NUMBER_NOISE = re.compile(r"[+\s()\-]")
MIN_INVITE_DIGITS = 10

# What WhatsApp clients display; past these the composer warns but still sends.
BUTTON_TEXT_LIMIT = 20
TITLE_LIMIT = 24
ROW_DESCRIPTION_LIMIT = 72
TOTAL_ROWS_LIMIT = 10
LIST_TITLE_LIMIT = 60  # the message's header line
LIST_DESCRIPTION_LIMIT = 1024  # the body of an interactive message
FOOTER_LIMIT = 60
# What WhatsApp accepts at all: a longer group subject is refused, so it is an error here.
SUBJECT_LIMIT = 100


def is_digits(value: str) -> bool:
    """ASCII digits only (``str.isdigit`` also accepts "²" and other scripts' digits)."""
    return _DIGITS.fullmatch(value) is not None


_PRINTABLE_ASCII = re.compile(r"[\x20-\x7e]*")


def check_api_key(key: str) -> list[Problem]:
    """A key travels in a header: printable ASCII only (surrounding spaces are dropped)."""
    if not _PRINTABLE_ASCII.fullmatch(key.strip()):
        return [Problem("api_key", _("an API key holds printable ASCII characters only"))]
    return []


def check_instance_name(name: str) -> list[Problem]:
    if not name.strip():
        return [Problem("instance", _("choose an instance"))]
    return []


def normalise_number(raw: str) -> str:
    """Digits of a phone number as the server reads it; a full JID passes unchanged."""
    value = raw.strip()
    if value.endswith(JID_SUFFIXES):
        return value
    return _NUMBER_NOISE.sub("", value)


def check_recipient(raw: str, field_name: str = "number") -> list[Problem]:
    """A recipient: international digits, or a JID the server passes through."""
    value = normalise_number(raw)
    if not value:
        return [Problem(field_name, _("enter a number with its country code, or a group JID"))]
    if value.endswith("@g.us"):
        return check_group_jid(value, field_name)
    if value.endswith(JID_SUFFIXES):
        return []
    if not is_digits(value):
        return [Problem(field_name, _("a number has digits only (spaces, +, ( ) and - are fine)"))]
    if len(value) < 8:
        return [Problem(field_name, _("too short for an international number with country code"))]
    return []


def group_jid_from(raw: str) -> str:
    """The JID a real server would use for this input: a bare id gets ``@g.us`` appended."""
    value = raw.strip()
    if _BARE_GROUP_ID.fullmatch(value):
        return f"{value}@g.us"
    return value


def check_group_jid(raw: str, field_name: str = "groupJid") -> list[Problem]:
    value = group_jid_from(raw)
    if not value:
        return [Problem(field_name, _("enter a group id or a group JID (digits@g.us)"))]
    if not GROUP_JID.fullmatch(value):
        return [
            Problem(
                field_name,
                _("a group JID is digits, optionally -digits, then @g.us (e.g. {example})").format(
                    example="120363012345678901@g.us"
                ),
            )
        ]
    return []


def check_subject(subject: str) -> list[Problem]:
    if not subject.strip():
        return [Problem("subject", _("the subject cannot be empty"))]
    if len(subject.strip()) > SUBJECT_LIMIT:
        return [
            Problem(
                "subject",
                _("WhatsApp allows at most {limit} characters (this one has {n})").format(
                    limit=number(SUBJECT_LIMIT), n=number(len(subject.strip()))
                ),
            )
        ]
    return []


@dataclass(frozen=True)
class InviteNumbers:
    """The result of reading invite numbers typed one per line or comma-separated."""

    numbers: list[str] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    duplicates_removed: int = 0


def parse_invite_numbers(text: str) -> InviteNumbers:
    """One number per line (or comma-separated): normalised to international digits, checked
    with phonenumbers (possible and valid for its country), duplicates dropped however they are
    written; each invalid entry is listed by its line. Two numbers on one line without a comma
    are refused (too long), never joined into one."""
    from gateway_tui.core.text.phone import number_problem, person_digits

    numbers: list[str] = []
    problems: list[Problem] = []
    seen: set[str] = set()
    duplicates = 0
    for line_no, line in enumerate(text.splitlines(), start=1):
        for entry in line.split(","):
            if not entry.strip():
                continue
            digits = person_digits(entry)
            where = _("line {n}").format(n=line_no)
            if digits is None or not is_digits(digits):
                problems.append(
                    Problem(where, _("{entry} is not a number").format(entry=repr(entry.strip())))
                )
            elif problem := number_problem(digits):
                problems.append(Problem(where, f"{entry.strip()!r}: {problem}"))
            elif digits in seen:
                duplicates += 1
            else:
                seen.add(digits)
                numbers.append(digits)
    if not numbers and not problems:
        problems.append(Problem("numbers", _("enter at least one number")))
    return InviteNumbers(numbers, problems, duplicates)


def normalise_invite_numbers(numbers: Iterable[str]) -> list[str]:
    """Invite numbers as the server reads them: +, spaces, ( ) and - stripped."""
    return [_NUMBER_NOISE.sub("", number) for number in numbers]


def check_invite_numbers(numbers: Iterable[str]) -> list[Problem]:
    """The server's rule for ``sendInvite.numbers``: >= 1, each >= 10 digits, no duplicates.

    Numbers are compared as the server reads them, so "+55 11 91234-5678" and "5511912345678"
    are the same number.
    """
    problems: list[Problem] = []
    listed = list(numbers)
    if not listed:
        return [Problem("numbers", _("enter at least one number"))]
    seen: set[str] = set()
    normalised = normalise_invite_numbers(listed)
    for index, (raw, digits) in enumerate(zip(listed, normalised, strict=True)):
        where = f"numbers[{index}]"
        if not is_digits(digits) or len(digits) < MIN_INVITE_DIGITS:
            problems.append(
                Problem(
                    where,
                    _("{number} must be at least {n} digits").format(
                        number=repr(raw), n=MIN_INVITE_DIGITS
                    ),
                )
            )
        elif digits in seen:
            problems.append(Problem(where, _("{number} is listed twice").format(number=digits)))
        seen.add(digits)
    return problems


def check_invite_description(description: str) -> list[Problem]:
    """sendInvite's description is required and may not be empty (a real 1.7.1 refuses both).

    Blank is refused too: it would send the link under an empty line.
    """
    if not description.strip():
        return [Problem("description", _("a description is required (it is sent above the link)"))]
    return []


def parse_delay(text: str) -> tuple[int | None, list[Problem]]:
    """Delay in whole milliseconds; empty means none. The server rejects floats and text."""
    value = text.strip()
    if not value:
        return None, []
    if not is_digits(value):
        return None, [
            Problem(
                "delay", _("a whole number of milliseconds (e.g. {example})").format(example=1200)
            )
        ]
    return int(value), []


def check_delay(value: object) -> list[Problem]:
    """``options.delay``: whole milliseconds; the server rejects a float or a string."""
    if value is None:
        return []
    if isinstance(value, bool) or not isinstance(value, int):
        return [
            Problem(
                "delay", _("a whole number of milliseconds (e.g. {example})").format(example=1200)
            )
        ]
    if value < 0:
        return [Problem("delay", _("cannot be negative"))]
    return []


def check_message_key(key: MessageKey) -> list[Problem]:
    """A message key the server accepts: ``id`` and ``remoteJid`` present and not empty."""
    problems: list[Problem] = []
    if not key.remote_jid.strip():
        problems.append(Problem("key.remoteJid", _("the chat of the message is missing")))
    if not key.id.strip():
        problems.append(Problem("key.id", _("the message id is missing")))
    return problems


def check_presence(value: str | None) -> list[Problem]:
    if value in (None, ""):
        return []
    allowed = [p.value for p in Presence]
    if value not in allowed:
        return [Problem("presence", _("one of {values}").format(values=", ".join(allowed)))]
    return []


@dataclass(frozen=True)
class ListCheck:
    errors: list[Problem]
    warnings: list[Problem]

    @property
    def ok(self) -> bool:
        return not self.errors


def _shows_at_most(limit: int) -> str:
    return _("WhatsApp shows at most {limit} characters").format(limit=limit)


def check_list_message(
    message: ListMessage, *, footer_required: bool = False, description_required: bool = True
) -> ListCheck:
    """The server's list-message rules (errors) and WhatsApp's display limits (warnings).

    1.7.1 requires a description and no footer; 2.x the other way round (the flags come from
    the line's dialect, ``api/dialects``).
    """
    errors: list[Problem] = []
    warnings: list[Problem] = []
    required = [("title", message.title), ("buttonText", message.button_text)]
    if description_required:
        required.insert(1, ("description", message.description))
    if footer_required:
        required.append(("footerText", message.footer_text or ""))
    for name, value in required:
        if not value.strip():
            errors.append(Problem(name, _("cannot be empty")))
    for name, value, limit in (
        ("title", message.title, LIST_TITLE_LIMIT),
        ("description", message.description, LIST_DESCRIPTION_LIMIT),
        ("buttonText", message.button_text, BUTTON_TEXT_LIMIT),
        ("footerText", message.footer_text or "", FOOTER_LIMIT),
    ):
        if len(value) > limit:
            warnings.append(Problem(name, _shows_at_most(limit)))
    if not message.sections:
        errors.append(Problem("sections", _("add at least one section")))
    seen_sections: set[str] = set()
    # A reply names the chosen row by rowId, so a rowId should be unique in the whole message.
    seen_ids: set[str] = set()
    total_rows = 0
    for s_index, section in enumerate(message.sections):
        where = f"sections[{s_index}]"
        if not section.title.strip():
            errors.append(Problem(f"{where}.title", _("a section needs a title")))
        if len(section.title) > TITLE_LIMIT:
            warnings.append(Problem(f"{where}.title", _shows_at_most(TITLE_LIMIT)))
        section_key = section.model_dump_json()
        if section_key in seen_sections:
            errors.append(Problem(where, _("is identical to an earlier section")))
        seen_sections.add(section_key)
        if not section.rows:
            errors.append(Problem(f"{where}.rows", _("a section needs at least one row")))
        seen_rows: set[tuple[str, str, str]] = set()
        for r_index, row in enumerate(section.rows):
            total_rows += 1
            row_where = f"{where}.rows[{r_index}]"
            if not row.title.strip():
                errors.append(Problem(f"{row_where}.title", _("a row needs a title")))
            # The server accepts both (it only requires the field and refuses identical rows),
            # but a reply could not be told apart: warnings, not errors.
            if not row.row_id:
                errors.append(Problem(f"{row_where}.rowId", _("cannot be empty")))
            elif not row.row_id.strip():
                warnings.append(
                    Problem(
                        f"{row_where}.rowId", _("without a rowId, a reply cannot name this row")
                    )
                )
            elif row.row_id in seen_ids:
                warnings.append(
                    Problem(
                        f"{row_where}.rowId",
                        _("rowId {row_id} is used twice").format(row_id=repr(row.row_id)),
                    )
                )
            seen_ids.add(row.row_id)
            row_key = (row.title, row.description, row.row_id)
            if row_key in seen_rows:
                errors.append(Problem(row_where, _("is identical to an earlier row")))
            seen_rows.add(row_key)
            if len(row.title) > TITLE_LIMIT:
                warnings.append(Problem(f"{row_where}.title", _shows_at_most(TITLE_LIMIT)))
            if len(row.description) > ROW_DESCRIPTION_LIMIT:
                warnings.append(
                    Problem(f"{row_where}.description", _shows_at_most(ROW_DESCRIPTION_LIMIT))
                )
    if total_rows > TOTAL_ROWS_LIMIT:
        warnings.append(
            Problem(
                "sections",
                ngettext(
                    "{n} row: WhatsApp shows at most {limit}",
                    "{n} rows: WhatsApp shows at most {limit}",
                    total_rows,
                ).format(n=number(total_rows), limit=TOTAL_ROWS_LIMIT),
            )
        )
    return ListCheck(errors, warnings)
