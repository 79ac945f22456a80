"""A list message being written: the composer's form as plain data (no Textual, no files).

``Draft`` builds the exact request body for the gateway's line, checks it the way the server does
(``api.validation``), and round-trips through JSON. Where drafts are kept (autosaved, templates,
the sent history) is ``core.files.drafts``.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from gateway_tui.core.api import dialects
from gateway_tui.core.api.dialects import Dialect
from gateway_tui.core.api.errors import Problem
from gateway_tui.core.api.models import (
    ListMessage,
    ListRow,
    ListSection,
    Presence,
    SendListOptions,
    SendListRequest,
)
from gateway_tui.core.api.validation import (
    check_delay,
    check_list_message,
    check_presence,
    check_recipient,
    normalise_number,
    parse_delay,
)
from gateway_tui.core.text.placeholders import unfilled_problem

FORMAT_VERSION = 1
SLUG_LIMIT = 40
PRESENCES = tuple(p.value for p in Presence)

_uids = itertools.count(1)
# Letters that do not decompose into ASCII ones, spelled the usual way.
_SPELLED_OUT = str.maketrans(
    {"ß": "ss", "æ": "ae", "Æ": "AE", "ø": "o", "Ø": "O", "ł": "l", "Ł": "L"}
)


def _uid() -> int:
    """An id for a section or row that stays the same while it moves (widget ids use it)."""
    return next(_uids)


def slugify(text: str) -> str:
    """A rowId from a title: ASCII words joined by "-" ("Pão de Queijo" → "pao-de-queijo")."""
    spelled = text.translate(_SPELLED_OUT)
    ascii_text = unicodedata.normalize("NFKD", spelled).encode("ascii", "ignore").decode("ascii")
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")
    if len(slug) > SLUG_LIMIT:
        slug = slug[:SLUG_LIMIT].rsplit("-", 1)[0] or slug[:SLUG_LIMIT]
    return slug


def as_text(value: Any) -> str:
    """``value`` if it is a string, else "" (what a hand-edited file holds is data)."""
    return value if isinstance(value, str) else ""


# --- the form ---------------------------------------------------------------------------------


@dataclass
class DraftRow:
    title: str = ""
    description: str = ""
    # What the user typed as rowId; "" means automatic (a unique slug of the title).
    row_id: str = ""
    uid: int = field(default_factory=_uid, compare=False, repr=False)

    @property
    def is_empty(self) -> bool:
        return not (self.title or self.description or self.row_id)


@dataclass
class DraftSection:
    title: str = ""
    rows: list[DraftRow] = field(default_factory=lambda: [DraftRow()])
    uid: int = field(default_factory=_uid, compare=False, repr=False)

    @property
    def is_empty(self) -> bool:
        return not self.title and all(row.is_empty for row in self.rows)


@dataclass(frozen=True)
class DraftCheck:
    """Problems that block sending, and warnings past what WhatsApp clients display."""

    errors: list[Problem]
    warnings: list[Problem]

    @property
    def ok(self) -> bool:
        return not self.errors


@dataclass
class Draft:
    recipient: str = ""
    title: str = ""
    description: str = ""
    button_text: str = ""
    footer: str = ""
    delay: str = ""  # as typed: the check says when it is not whole milliseconds
    presence: str = ""  # "" or one of PRESENCES
    sections: list[DraftSection] = field(default_factory=lambda: [DraftSection()])

    # --- reading ---------------------------------------------------------------------------

    @property
    def is_empty(self) -> bool:
        """Nothing typed at all (a fresh draft)."""
        scalars = (self.recipient, self.title, self.description, self.button_text, self.footer)
        return (
            not any(scalars)
            and not self.delay
            and not self.presence
            and all(section.is_empty for section in self.sections)
        )

    @property
    def row_count(self) -> int:
        return sum(len(section.rows) for section in self.sections)

    def row_ids(self) -> dict[int, str]:
        """The rowId each row is sent with, by row uid.

        A typed rowId is kept as it is; an automatic one is the title's slug, made unique in
        the message ("cola", "cola-2") because a reply names the chosen row by its rowId.
        """
        rows = [row for section in self.sections for row in section.rows]
        used = {row.row_id for row in rows if row.row_id}
        ids: dict[int, str] = {}
        for row in rows:
            if row.row_id:
                ids[row.uid] = row.row_id
                continue
            base = slugify(row.title) or "row"
            candidate, number = base, 2
            while candidate in used:
                candidate, number = f"{base}-{number}", number + 1
            used.add(candidate)
            ids[row.uid] = candidate
        return ids

    def find_row(self, uid: int) -> tuple[int, int] | None:
        for s_index, section in enumerate(self.sections):
            for r_index, row in enumerate(section.rows):
                if row.uid == uid:
                    return s_index, r_index
        return None

    def find_section(self, uid: int) -> int | None:
        for s_index, section in enumerate(self.sections):
            if section.uid == uid:
                return s_index
        return None

    # --- the request -----------------------------------------------------------------------

    def list_message(self) -> ListMessage:
        ids = self.row_ids()
        return ListMessage(
            title=self.title,
            description=self.description,
            button_text=self.button_text,
            footer_text=self.footer or None,
            sections=[
                ListSection(
                    title=section.title,
                    rows=[
                        ListRow(title=row.title, description=row.description, row_id=ids[row.uid])
                        for row in section.rows
                    ],
                )
                for section in self.sections
            ],
        )

    def options(self) -> SendListOptions | None:
        """The options as sent; a delay that is not whole milliseconds is left out."""
        delay, _ = parse_delay(self.delay)
        presence = self.presence if self.presence in PRESENCES else None
        if delay is None and presence is None:
            return None
        return SendListOptions(delay=delay, presence=Presence(presence) if presence else None)

    def request(self) -> SendListRequest:
        """The request for the client; send it only when ``check().ok``."""
        return SendListRequest(
            number=normalise_number(self.recipient),
            list_message=self.list_message(),
            options=self.options(),
        )

    def body(self, line: Dialect | None = None) -> dict[str, Any]:
        """The exact JSON body that will be sent to a gateway of ``line`` (1.7.1 if None)."""
        return (line or dialects.V1).send_list_body(self.request())

    @property
    def delay_ms(self) -> int:
        delay, _ = parse_delay(self.delay)
        return delay or 0

    def named_texts(self) -> list[tuple[str, str]]:
        """Every text of the message a person reads, by its field in the request (rowIds are
        not read, and never filled)."""
        texts = [
            ("title", self.title),
            ("description", self.description),
            ("buttonText", self.button_text),
            ("footerText", self.footer),
        ]
        for s_index, section in enumerate(self.sections):
            texts.append((f"sections[{s_index}].title", section.title))
            for r_index, row in enumerate(section.rows):
                where = f"sections[{s_index}].rows[{r_index}]"
                texts += [(f"{where}.title", row.title), (f"{where}.description", row.description)]
        return texts

    def texts(self) -> list[str]:
        return [text for _, text in self.named_texts()]

    def check(self, line: Dialect | None = None, *, placeholders: bool = False) -> DraftCheck:
        """The rules of a gateway of ``line`` (errors; 1.7.1 if None) and WhatsApp's display
        limits (warnings). ``placeholders``: whether ``{name}`` is filled later (a campaign);
        else one left in the message is an error, named."""
        line = line or dialects.V1
        listed = check_list_message(
            self.list_message(),
            footer_required=line.footer_required,
            description_required=line.description_required,
        )
        delay, delay_problems = parse_delay(self.delay)
        errors = (
            check_recipient(self.recipient)
            + listed.errors
            + delay_problems
            + check_delay(delay)
            + check_presence(self.presence or None)
        )
        if not placeholders:
            for name, text in self.named_texts():
                if unfilled := unfilled_problem([text]):
                    errors.append(Problem(name, unfilled))
        return DraftCheck(errors, listed.warnings)

    # --- JSON --------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {
            "version": FORMAT_VERSION,
            "recipient": self.recipient,
            "title": self.title,
            "description": self.description,
            "buttonText": self.button_text,
            "footer": self.footer,
            "delay": self.delay,
            "presence": self.presence,
            "sections": [
                {
                    "title": section.title,
                    "rows": [
                        {"title": row.title, "description": row.description, "rowId": row.row_id}
                        for row in section.rows
                    ],
                }
                for section in self.sections
            ],
        }

    @classmethod
    def from_json(cls, data: Any) -> Draft:
        """A draft from its saved form; anything missing or of the wrong type reads as empty."""
        if not isinstance(data, dict):
            return cls()
        sections = []
        for raw_section in data.get("sections") or ():
            if not isinstance(raw_section, dict):
                continue
            rows = [
                DraftRow(
                    title=as_text(raw_row.get("title")),
                    description=as_text(raw_row.get("description")),
                    row_id=as_text(raw_row.get("rowId")),
                )
                for raw_row in raw_section.get("rows") or ()
                if isinstance(raw_row, dict)
            ]
            sections.append(DraftSection(title=as_text(raw_section.get("title")), rows=rows))
        delay = data.get("delay")
        return cls(
            recipient=as_text(data.get("recipient")),
            title=as_text(data.get("title")),
            description=as_text(data.get("description")),
            button_text=as_text(data.get("buttonText")),
            footer=as_text(data.get("footer")),
            delay=str(delay)
            if isinstance(delay, int) and not isinstance(delay, bool)
            else as_text(delay),
            presence=as_text(data.get("presence")) if data.get("presence") in PRESENCES else "",
            sections=sections if isinstance(data.get("sections"), list) else [DraftSection()],
        )

    @classmethod
    def from_body(cls, body: Any) -> Draft:
        """A draft from a sent request body (history of a message sent without its form).

        rowIds are kept as typed values, so the reopened message has the same ids.
        """
        if not isinstance(body, dict):
            return cls()
        message = body.get("listMessage") if isinstance(body.get("listMessage"), dict) else {}
        options = body.get("options") if isinstance(body.get("options"), dict) else {}
        form = {
            "recipient": body.get("number"),
            "title": message.get("title"),
            "description": message.get("description"),
            "buttonText": message.get("buttonText"),
            "footer": message.get("footerText"),
            "delay": options.get("delay"),
            "presence": options.get("presence"),
            "sections": message.get("sections")
            if isinstance(message.get("sections"), list)
            else [],
        }
        return cls.from_json(form)

    def as_template(self) -> Draft:
        """The message without its recipient: what a template keeps."""
        copy = Draft.from_json(self.to_json())
        copy.recipient = ""
        return copy
