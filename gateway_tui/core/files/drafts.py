"""Nothing typed is lost: list-message drafts, named templates and the history of sent messages.

``Draft`` is the composer's form as plain data (no Textual): it builds the exact request body,
checks it the way the server does (``api.validation``), and round-trips through JSON.

Files live in the platform data dir (``storage.data_dir()``), written atomically as 0600 files in
0700 directories, so a draft survives the app being killed at any moment:

    compose/templates.json                         named templates (shared by every instance)
    compose/<gateway>/<instance>/draft.json        the draft being written, autosaved
    compose/<gateway>/<instance>/history.json      messages sent, edits, archived flags
"""

from __future__ import annotations

import hashlib
import itertools
import re
import unicodedata
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

from pydantic import ValidationError

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
    SentMessage,
)
from gateway_tui.core.api.validation import (
    check_delay,
    check_list_message,
    check_presence,
    check_recipient,
    normalise_number,
    parse_delay,
)
from gateway_tui.core.files.storage import atomic_write_json, data_dir, read_json
from gateway_tui.core.state import SentRecord

FORMAT_VERSION = 1
HISTORY_LIMIT = 500
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


def _text(value: Any) -> str:
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

    def check(self, line: Dialect | None = None) -> DraftCheck:
        """The rules of a gateway of ``line`` (errors; 1.7.1 if None) and WhatsApp's display
        limits (warnings)."""
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
                    title=_text(raw_row.get("title")),
                    description=_text(raw_row.get("description")),
                    row_id=_text(raw_row.get("rowId")),
                )
                for raw_row in raw_section.get("rows") or ()
                if isinstance(raw_row, dict)
            ]
            sections.append(DraftSection(title=_text(raw_section.get("title")), rows=rows))
        delay = data.get("delay")
        return cls(
            recipient=_text(data.get("recipient")),
            title=_text(data.get("title")),
            description=_text(data.get("description")),
            button_text=_text(data.get("buttonText")),
            footer=_text(data.get("footer")),
            delay=str(delay)
            if isinstance(delay, int) and not isinstance(delay, bool)
            else _text(delay),
            presence=_text(data.get("presence")) if data.get("presence") in PRESENCES else "",
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


# --- where the files are --------------------------------------------------------------------


def compose_dir() -> Path:
    return data_dir() / "compose"


def _safe_name(text: str, fallback: str) -> str:
    """A file name for ``text``: readable, unique (a short hash), never "." or ".."."""
    label = re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("._") or fallback
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    return f"{label[:48]}-{digest}"


def gateway_dir_name(url: str | None) -> str:
    """Drafts and history are per gateway: the same instance name elsewhere is another account."""
    url = (url or "").rstrip("/")
    parts = urlsplit(url)
    return _safe_name(parts.netloc + parts.path if parts.netloc else url, "gateway")


def instance_dir_name(instance: str) -> str:
    quoted = quote(instance, safe="")
    return _safe_name(quoted, "instance")


# --- history ----------------------------------------------------------------------------------


@dataclass
class HistoryEntry:
    """One sent message as kept on disk: what was sent, what the gateway answered, the form."""

    recipient: str
    body: dict[str, Any]
    result: dict[str, Any]
    sent_at: datetime
    form: dict[str, Any] | None = None

    @property
    def message_id(self) -> str | None:
        key = self.result.get("key")
        value = key.get("id") if isinstance(key, dict) else None
        return value if isinstance(value, str) else None

    @property
    def title(self) -> str:
        message = self.body.get("listMessage")
        return _text(message.get("title")) if isinstance(message, dict) else ""

    def draft(self) -> Draft:
        """The message as a new draft (the form as typed when it was kept, else from the body)."""
        return Draft.from_json(self.form) if self.form else Draft.from_body(self.body)

    def record(self, instance: str) -> SentRecord | None:
        try:
            result = SentMessage.model_validate(self.result)
        except ValidationError:
            return None
        return SentRecord(
            instance=instance,
            recipient=self.recipient,
            result=result,
            body=self.body,
            sent_at=self.sent_at,
        )

    @classmethod
    def from_record(cls, record: SentRecord, form: dict[str, Any] | None = None) -> HistoryEntry:
        return cls(
            recipient=record.recipient,
            body=record.body,
            result=record.result.model_dump(by_alias=True, mode="json", exclude_none=True),
            sent_at=record.sent_at,
            form=form,
        )

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "recipient": self.recipient,
            "body": self.body,
            "result": self.result,
            "sentAt": self.sent_at.isoformat(),
        }
        if self.form is not None:
            data["form"] = self.form
        return data

    @classmethod
    def from_json(cls, data: Any) -> HistoryEntry | None:
        if not isinstance(data, dict):
            return None
        body, result = data.get("body"), data.get("result")
        if not isinstance(body, dict) or not isinstance(result, dict):
            return None
        try:
            sent_at = datetime.fromisoformat(_text(data.get("sentAt")))
        except ValueError:
            sent_at = datetime.fromtimestamp(0)
        form = data.get("form")
        return cls(
            recipient=_text(data.get("recipient")),
            body=body,
            result=result,
            sent_at=sent_at,
            form=form if isinstance(form, dict) else None,
        )


@dataclass
class StoredChats:
    """What the history file says about chats: sent messages, edited texts, archived flags."""

    records: list[SentRecord]
    texts: dict[str, str]
    archived: dict[str, bool]


class ComposeStore:
    """The draft and history of one instance of one gateway (and the shared templates)."""

    def __init__(self, gateway: str | None, instance: str, root: Path | None = None) -> None:
        """``gateway``: the gateway's identity (its URL, or a stable name such as the demo's)."""
        self.instance = instance
        self.root = root if root is not None else compose_dir()
        self.dir = self.root / gateway_dir_name(gateway) / instance_dir_name(instance)

    @property
    def draft_path(self) -> Path:
        return self.dir / "draft.json"

    @property
    def history_path(self) -> Path:
        return self.dir / "history.json"

    @property
    def templates_path(self) -> Path:
        return self.root / "templates.json"

    # --- the draft ---------------------------------------------------------------------------

    def load_draft(self) -> Draft | None:
        data = read_json(self.draft_path, None)
        return Draft.from_json(data) if isinstance(data, dict) else None

    def save_draft(self, draft: Draft) -> None:
        atomic_write_json(self.draft_path, draft.to_json())

    def discard_draft(self) -> None:
        self.draft_path.unlink(missing_ok=True)

    # --- templates ---------------------------------------------------------------------------

    def _templates_raw(self) -> dict[str, Any]:
        data = read_json(self.templates_path, {})
        templates = data.get("templates") if isinstance(data, dict) else None
        return templates if isinstance(templates, dict) else {}

    def templates(self) -> dict[str, Draft]:
        """Named templates, by name, sorted by name."""
        raw = self._templates_raw()
        return {name: Draft.from_json(raw[name]) for name in sorted(raw, key=str.casefold)}

    def save_template(self, name: str, draft: Draft) -> bool:
        """Save (or replace) a template; True when one of that name was replaced."""
        name = name.strip()
        if not name:
            raise ValueError("a template needs a name")
        raw = self._templates_raw()
        replaced = name in raw
        raw[name] = draft.as_template().to_json()
        atomic_write_json(self.templates_path, {"version": FORMAT_VERSION, "templates": raw})
        return replaced

    def delete_template(self, name: str) -> bool:
        raw = self._templates_raw()
        if raw.pop(name, None) is None:
            return False
        atomic_write_json(self.templates_path, {"version": FORMAT_VERSION, "templates": raw})
        return True

    # --- history ------------------------------------------------------------------------------

    def _history_raw(self) -> dict[str, Any]:
        data = read_json(self.history_path, {})
        return data if isinstance(data, dict) else {}

    def _write_history(self, raw: dict[str, Any]) -> None:
        raw["version"] = FORMAT_VERSION
        atomic_write_json(self.history_path, raw)

    def history(self) -> list[HistoryEntry]:
        """Sent messages, oldest first."""
        entries = self._history_raw().get("entries")
        if not isinstance(entries, list):
            return []
        parsed = (HistoryEntry.from_json(item) for item in entries)
        return [entry for entry in parsed if entry is not None]

    def add_history(self, entry: HistoryEntry) -> None:
        raw = self._history_raw()
        entries = raw.get("entries") if isinstance(raw.get("entries"), list) else []
        entries.append(entry.to_json())
        raw["entries"] = entries[-HISTORY_LIMIT:]
        self._write_history(raw)

    def record_edit(self, message_id: str, text: str) -> None:
        """Keep a message's new text (by id: also for messages sent before the history)."""
        raw = self._history_raw()
        texts = raw.get("texts") if isinstance(raw.get("texts"), dict) else {}
        texts[message_id] = text
        raw["texts"] = texts
        self._write_history(raw)

    def record_archived(self, jid: str, archived: bool) -> None:
        raw = self._history_raw()
        flags = raw.get("archived") if isinstance(raw.get("archived"), dict) else {}
        flags[jid] = archived
        raw["archived"] = flags
        self._write_history(raw)

    def stored_chats(self) -> StoredChats:
        """The history as state records, for the chat list of a new run."""
        records = [r for r in (e.record(self.instance) for e in self.history()) if r is not None]
        raw = self._history_raw()
        return StoredChats(
            records, _mapping(raw.get("texts"), str), _mapping(raw.get("archived"), bool)
        )


def _mapping(value: Any, kind: type) -> dict[str, Any]:
    """A JSON object of ``kind`` values; entries of another type are dropped."""
    if not isinstance(value, dict):
        return {}
    return {key: item for key, item in value.items() if isinstance(item, kind)}
