"""Nothing typed is lost: list-message drafts, named templates and the history of sent messages.

The draft itself is ``core.draft.Draft`` (plain data); this module keeps it on disk. Files live
in the platform data dir (``storage.data_dir()``), written atomically as 0600 files in 0700
directories, so a draft survives the app being killed at any moment:

    compose/templates.json                         named templates (shared by every instance)
    compose/<gateway>/<instance>/draft.json        the draft being written, autosaved
    compose/<gateway>/<instance>/history.json      messages sent, edits, archived flags
"""

from __future__ import annotations

import hashlib
import re
import threading
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

from pydantic import ValidationError

from gateway_tui.core.api.models import SentMessage
from gateway_tui.core.draft import FORMAT_VERSION, Draft, as_text
from gateway_tui.core.files.storage import atomic_write_json, data_dir, read_json
from gateway_tui.core.state import SentRecord
from gateway_tui.core.text.i18n import _

HISTORY_LIMIT = 500
# templates.json is read, changed and written whole: one change at a time (the app saves
# templates in a worker thread), so two saves close together never lose one.
_TEMPLATES_WRITE = threading.Lock()


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
        return as_text(message.get("title")) if isinstance(message, dict) else ""

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
            sent_at = datetime.fromisoformat(as_text(data.get("sentAt")))
        except ValueError:
            sent_at = datetime.fromtimestamp(0)
        form = data.get("form")
        return cls(
            recipient=as_text(data.get("recipient")),
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
            raise ValueError(_("a template needs a name"))
        with _TEMPLATES_WRITE:
            raw = self._templates_raw()
            replaced = name in raw
            raw[name] = draft.as_template().to_json()
            atomic_write_json(self.templates_path, {"version": FORMAT_VERSION, "templates": raw})
        return replaced

    def delete_template(self, name: str) -> bool:
        with _TEMPLATES_WRITE:
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
