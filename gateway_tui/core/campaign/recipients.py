"""Recipients of a campaign, and the message each of them gets.

Recipients come as CSV (a file, or lines pasted into the campaign screen): the number first, then
optionally a name and more values. With a header row (its first cell has no digit) the columns
are named by it and each name is a placeholder: ``{name}``, ``{city}``. Without one, the columns
are ``number`` and ``name``.

A file that cannot be read as such (unbalanced quotes, more cells than the header names, not
UTF-8) is refused with the line number. A number that is not valid is listed with its line and
left out (phonenumbers: possible and valid for its country); a number seen before, however it
is written (``+``, ``00``, spaces, its JID), is left out and counted. Placeholders are filled by
plain text substitution, never ``str.format`` (which would let a template reach into Python
objects).
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path

from gateway_tui.core.api.dialects import Dialect
from gateway_tui.core.api.errors import Problem
from gateway_tui.core.api.models import SendListRequest
from gateway_tui.core.api.validation import check_recipient, normalise_number
from gateway_tui.core.draft import Draft
from gateway_tui.core.identity import NoRoute, is_lid
from gateway_tui.core.text import i18n
from gateway_tui.core.text.i18n import _, ngettext
from gateway_tui.core.text.phone import number_problem, person_digits, person_key
from gateway_tui.core.text.placeholders import column_name as _column_name
from gateway_tui.core.text.placeholders import fill, placeholders_in

MAX_FILE_BYTES = 20 * 1024 * 1024
NUMBER_COLUMN = "number"
NAME_COLUMN = "name"
_PERSON_SUFFIX = "@s.whatsapp.net"


class RecipientFileError(ValueError):
    """The recipients cannot be read at all; the message names the line."""


@dataclass(frozen=True, slots=True)
class Recipient:
    line: int  # where it came from (1-based), for messages and the report
    number: str  # as sent: digits, or a JID
    name: str = ""
    values: tuple[tuple[str, str], ...] = ()  # more placeholders: (column, value)

    def fields(self) -> dict[str, str]:
        """Every placeholder's value for this recipient."""
        return {NUMBER_COLUMN: self.number, NAME_COLUMN: self.name, **dict(self.values)}

    def to_json(self) -> list:
        return [self.line, self.number, self.name, dict(self.values)]

    @classmethod
    def from_json(cls, data: list) -> Recipient:
        line, number, name, values = data
        return cls(int(line), str(number), str(name), tuple(sorted(dict(values).items())))


@dataclass
class RecipientList:
    recipients: list[Recipient] = field(default_factory=list)
    columns: tuple[str, ...] = (NUMBER_COLUMN, NAME_COLUMN)
    invalid: list[Problem] = field(default_factory=list)  # field = "line N"
    duplicates: int = 0
    rows: int = 0  # data rows read (blank lines and the header not counted)

    def leave_out(self, numbers: set[str], reason: str) -> int:
        """Move these numbers to ``invalid`` (with ``reason``); returns how many."""
        kept = []
        for recipient in self.recipients:
            if recipient.number in numbers:
                self.invalid.append(Problem(_line(recipient.line), f"{recipient.number}: {reason}"))
            else:
                kept.append(recipient)
        left_out = len(self.recipients) - len(kept)
        self.recipients = kept
        return left_out

    def route_lids(self, route: Callable[[str], str]) -> int:
        """Each ``@lid`` recipient sent to the JID that works on the gateway (``route``: the
        @lid rule of core/identity.py, raising NoRoute with the reason): its number before
        2.4.0-rc2, else left out with the reason; one that becomes a number already listed is
        a duplicate. Returns how many were changed or left out."""
        seen: set[str] = set()
        kept: list[Recipient] = []
        changed = 0
        for recipient in self.recipients:
            number = recipient.number
            if is_lid(number):
                try:
                    target = route(number)
                except NoRoute as reason:
                    self.invalid.append(Problem(_line(recipient.line), str(reason)))
                    changed += 1
                    continue
                if target != number:
                    changed += 1
                    number = person_digits(target) or target
            key = person_key(number)
            if key in seen:  # the number of a LID also listed as a number: once
                self.duplicates += 1
                continue
            seen.add(key)
            kept.append(
                recipient if number == recipient.number else replace(recipient, number=number)
            )
        self.recipients = kept
        return changed

    def summary(self) -> str:
        count = len(self.recipients)
        parts = [ngettext("{n} recipient", "{n} recipients", count).format(n=i18n.number(count))]
        if self.duplicates:
            parts.append(
                ngettext("{n} duplicate removed", "{n} duplicates removed", self.duplicates).format(
                    n=i18n.number(self.duplicates)
                )
            )
        if self.invalid:
            parts.append(
                ngettext(
                    "{n} invalid number left out", "{n} invalid numbers left out", len(self.invalid)
                ).format(n=i18n.number(len(self.invalid)))
            )
        return ", ".join(parts)


def _recipient_number(raw: str) -> tuple[str, str]:
    """(the number as sent, why it cannot be sent ("" when it can)).

    A person's number is checked with phonenumbers (possible and valid for its country) and
    sent as international digits (``0055 11 …`` and ``…@c.us`` become ``5511…``); a person's
    ``@s.whatsapp.net`` JID is kept as written; other JIDs (groups) pass as the server reads
    them.
    """
    digits = person_digits(raw)
    if digits is None:
        problems = check_recipient(raw)
        return normalise_number(raw), problems[0].message if problems else ""
    if problem := number_problem(digits):
        return digits, problem
    number = normalise_number(raw)
    return (number if number.endswith(_PERSON_SUFFIX) else digits), ""


def _delimiter(first_line: str) -> str:
    for candidate in (",", ";", "\t"):
        if candidate in first_line:
            return candidate
    return ","


def parse_recipients(text: str) -> RecipientList:
    """Read recipients from CSV text. Raises RecipientFileError for text that is not CSV."""
    if "\x00" in text:
        line = text[: text.index("\x00")].count("\n") + 1
        raise RecipientFileError(
            _("line {line}: contains a NUL character (is this a CSV file?)").format(line=line)
        )
    lines = text.splitlines()
    first = next((line for line in lines if line.strip()), "")
    reader = csv.reader(io.StringIO(text), delimiter=_delimiter(first), strict=True)
    result = RecipientList()
    seen: set[str] = set()
    header: tuple[str, ...] | None = None
    rows = iter(reader)
    while True:
        line = reader.line_num + 1  # where the next row starts
        try:
            cells = next(rows)
        except StopIteration:
            break
        except csv.Error as exc:
            reason = str(exc)
            if "unexpected end of data" in reason:
                reason = _("a quote opened on this line is never closed")
            raise RecipientFileError(
                _("line {line}: not valid CSV ({why})").format(line=line, why=reason)
            ) from None
        cells = [cell.strip() for cell in cells]
        if not any(cells) or cells[0].startswith("#"):
            continue
        if header is None and result.rows == 0 and not re.search(r"[0-9]", cells[0]):
            header = _read_header(cells, line)
            result.columns = header
            continue
        result.rows += 1
        _add_row(result, seen, header, cells, line)
    return result


def _read_header(cells: list[str], line: int) -> tuple[str, ...]:
    names = [_column_name(cell) for cell in cells]
    while names and not names[-1]:
        names.pop()
    names[0] = NUMBER_COLUMN  # the first column is the number, whatever it is called
    for index, name in enumerate(names):
        if not name:
            raise RecipientFileError(
                _("line {line}: column {column} of the header has no name").format(
                    line=line, column=index + 1
                )
            )
        if "{" in name or "}" in name:
            raise RecipientFileError(
                _("line {line}: a column name cannot contain {open} or {close}").format(
                    line=line, open="{", close="}"
                )
            )
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise RecipientFileError(
            _("line {line}: the header names {column} twice").format(
                line=line, column=repr(repeated[0])
            )
        )
    return tuple(names)


def _add_row(
    result: RecipientList,
    seen: set[str],
    header: tuple[str, ...] | None,
    cells: list[str],
    line: int,
) -> None:
    while len(cells) > 1 and not cells[-1]:
        cells.pop()  # trailing empty cells: a spreadsheet's habit
    columns = header or (NUMBER_COLUMN, NAME_COLUMN)
    if len(cells) > len(columns):
        if header is None:
            raise RecipientFileError(
                _(
                    "line {line}: {n} columns, but without a header row only number and name "
                    "are known; add a header row naming every column (number,name,city,…)"
                ).format(line=line, n=len(cells))
            )
        raise RecipientFileError(
            _("line {line}: {n} columns, but the header names {m}").format(
                line=line, n=len(cells), m=len(columns)
            )
        )
    raw_number = cells[0]
    number, problem = _recipient_number(raw_number)
    if problem:
        result.invalid.append(Problem(_line(line), f"{raw_number!r}: {problem}"))
        return
    key = person_key(number)
    if key in seen:
        result.duplicates += 1
        return
    seen.add(key)
    values = dict(zip(columns, cells, strict=False))
    name = values.pop(NAME_COLUMN, "")
    values.pop(NUMBER_COLUMN, None)
    for column in columns[1:]:
        if column != NAME_COLUMN:
            values.setdefault(column, "")
    result.recipients.append(Recipient(line, number, name, tuple(sorted(values.items()))))


def read_recipients_file(path: str | Path) -> RecipientList:
    """Read a CSV file of recipients. Raises RecipientFileError with a plain reason."""
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise RecipientFileError(
                _("{path} is {size} MiB; a recipients file is at most {limit} MiB").format(
                    path=path,
                    size=i18n.number(size // (1024 * 1024)),
                    limit=i18n.number(MAX_FILE_BYTES // (1024 * 1024)),
                )
            )
        data = path.read_bytes()
    except OSError as exc:
        raise RecipientFileError(
            _("cannot read {path}: {why}").format(path=path, why=exc.strerror or exc)
        ) from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise RecipientFileError(
            _("{path}, line {line}: not UTF-8 text").format(path=path, line=line)
        ) from None
    try:
        return parse_recipients(text)
    except RecipientFileError as exc:
        raise RecipientFileError(f"{path}, {exc}") from None


# --- placeholders -------------------------------------------------------------------------


class MessageTemplate:
    """A draft whose text fields may hold placeholders; one request per recipient.

    rowIds are not filled in: a reply names the chosen row by its rowId, so it stays the same
    for every recipient.
    """

    def __init__(self, draft: Draft) -> None:
        self.draft = Draft.from_json(draft.to_json())
        self.draft.recipient = ""
        self.placeholders = sorted(
            {name for text in self.draft.texts() for name in placeholders_in(text)}
        )
        self._row_ids = self.draft.row_ids()
        # Without placeholders every recipient gets the same message: build it once.
        self._fixed = None if self.placeholders else self.draft.request()

    def unknown_placeholders(self, columns: Iterable[str]) -> list[str]:
        known = set(columns) | {NUMBER_COLUMN, NAME_COLUMN}
        return [name for name in self.placeholders if name not in known]

    def draft_for(self, recipient: Recipient) -> Draft:
        """The draft as this recipient gets it."""
        values = recipient.fields()
        draft = Draft.from_json(self.draft.to_json())
        draft.recipient = recipient.number
        draft.title = fill(draft.title, values)
        draft.description = fill(draft.description, values)
        draft.button_text = fill(draft.button_text, values)
        draft.footer = fill(draft.footer, values)
        for section, template_section in zip(draft.sections, self.draft.sections, strict=True):
            section.title = fill(section.title, values)
            for row, template_row in zip(section.rows, template_section.rows, strict=True):
                row.title = fill(row.title, values)
                row.description = fill(row.description, values)
                # Keep the automatic rowId of the template's title, not of the filled one.
                if not row.row_id:
                    row.row_id = self._row_ids[template_row.uid]
        return draft

    def empty_rows(self, recipients: RecipientList) -> list[tuple[Recipient, list[str]]]:
        """Recipients for whom a placeholder the message uses is empty ("Hi {name}!" would
        go out as "Hi !"), with the names of those placeholders: the set-up asks whether to
        send them as is or skip them."""
        if not self.placeholders:
            return []
        found = []
        for recipient in recipients.recipients:
            values = recipient.fields()
            empty = [name for name in self.placeholders if not values.get(name, "x").strip()]
            if empty:
                found.append((recipient, empty))
        return found

    def request(self, recipient: Recipient) -> SendListRequest:
        if self._fixed is not None:
            return self._fixed.model_copy(update={"number": recipient.number})
        return self.draft_for(recipient).request()

    def problems(self, recipients: RecipientList, line: Dialect | None = None) -> list[Problem]:
        """What would stop the campaign: the message itself, unknown placeholders, and each
        recipient whose filled-in message the server would refuse (by line). ``line``: the
        gateway's line, whose rules apply (1.7.1 if None)."""
        problems: list[Problem] = []
        unknown = self.unknown_placeholders(recipients.columns)
        if unknown:
            known = ", ".join("{" + column + "}" for column in recipients.columns)
            problems.append(
                Problem(
                    "placeholders",
                    ngettext(
                        "{names} is not a column of the recipients (known: {known})",
                        "{names} are not columns of the recipients (known: {known})",
                        len(unknown),
                    ).format(names=", ".join("{" + name + "}" for name in unknown), known=known),
                )
            )
            return problems
        probe = Draft.from_json(self.draft.to_json())
        probe.recipient = "10000000000"  # the message alone: recipients are checked on reading
        problems += probe.check(line, placeholders=True).errors
        if problems or not self.placeholders:
            return problems
        for recipient in recipients.recipients:
            errors = self.draft_for(recipient).check(line, placeholders=True).errors
            if errors:
                problems.append(
                    Problem(
                        _line(recipient.line),
                        _("once filled in, {problem}").format(problem=errors[0]),
                    )
                )
        return problems


def _line(line: int) -> str:
    """Which line of the recipients a problem is on (a problem's field)."""
    return _("line {n}").format(n=line)
