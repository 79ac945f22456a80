"""A campaign on disk: its folder, its append-only journal, its final report.

    campaigns/<id>/campaign.json     what to send, where, at what pace (written once, atomically)
    campaigns/<id>/recipients.jsonl  who, one recipient per line (written once, atomically)
    campaigns/<id>/journal.jsonl     what happened, one event per line, fsync'd after each
    campaigns/<id>/report.csv        number, name, status, message id, time, error

Before each send the journal gets a ``try`` line and is fsync'd; after it, a ``done`` line with
the outcome, fsync'd again. Replaying the journal therefore tells, after any crash, which
recipients were sent, which failed, and which were *tried without a known outcome*: those are
held as "unknown" and never sent again unless the user releases them (a ``release`` line).

A line torn by a crash mid-write can only be the last one, and only a ``try`` whose send never
started (the send waits for the fsync): it is cut off when the journal is opened again.
"""

from __future__ import annotations

import csv
import json
import os
import secrets
from array import array
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from pathlib import Path
from typing import Any

from gateway_tui.campaign.recipients import Recipient, RecipientList
from gateway_tui.drafts import Draft
from gateway_tui.storage import (
    PRIVATE_FILE_MODE,
    atomic_write_json,
    data_dir,
    ensure_private_dir,
)

FORMAT_VERSION = 1
REPORT_COLUMNS = ("number", "name", "status", "message_id", "time", "error")


class JournalError(ValueError):
    """The campaign's files cannot be used; the message says which and why."""


class Status(StrEnum):
    PENDING = "pending"  # not tried yet, or tried and refused before anything was sent
    SENT = "sent"
    FAILED = "failed"  # the gateway refused this recipient (its reason is kept)
    UNKNOWN = "unknown"  # tried, outcome unknown: held, never resent on its own
    SKIPPED = "skipped"  # a held recipient the user chose not to send to


# One byte per recipient in memory: the state of a 10,000-recipient campaign is 10 kB.
_CODES = {status: index for index, status in enumerate(Status)}
_STATUSES = list(Status)


def campaigns_dir() -> Path:
    return data_dir() / "campaigns"


@dataclass(slots=True)
class Outcome:
    status: Status
    at: float
    message_id: str = ""
    error: str = ""


@dataclass
class Pace:
    """Messages per minute (0: as fast as the gateway answers), with random jitter (0-0.9)."""

    per_minute: float = 20.0
    jitter: float = 0.3

    def bounds(self) -> tuple[float, float]:
        """The shortest and longest gap between two sends, in seconds."""
        if self.per_minute <= 0:
            return 0.0, 0.0
        mean = 60.0 / self.per_minute
        return mean * (1 - self.jitter), mean * (1 + self.jitter)

    def to_json(self) -> dict[str, float]:
        return {"per_minute": self.per_minute, "jitter": self.jitter}

    @classmethod
    def from_json(cls, data: Any) -> Pace:
        data = data if isinstance(data, dict) else {}
        return cls(float(data.get("per_minute", 20.0)), float(data.get("jitter", 0.3)))

    def describe(self) -> str:
        if self.per_minute <= 0:
            return "full speed (no pause between sends)"
        low, high = self.bounds()
        return f"{self.per_minute:g}/min, one every {low:.1f}–{high:.1f} s"


class RecipientStore:
    """A campaign's recipients, read from recipients.jsonl when needed.

    Memory holds one file offset per recipient (8 bytes), so a long campaign's footprint does
    not grow with its recipients. Every line is checked when the store is opened.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._offsets = array("q")
        offset = 0
        with path.open("rb") as file:
            for number, line in enumerate(file, start=1):
                if line.strip():
                    try:
                        Recipient.from_json(json.loads(line))
                    except (ValueError, TypeError) as exc:
                        raise JournalError(f"{path}, line {number}: damaged ({exc})") from None
                    self._offsets.append(offset)
                offset += len(line)

    def __len__(self) -> int:
        return len(self._offsets)

    def __getitem__(self, index: int) -> Recipient:
        with self.path.open("rb") as file:
            file.seek(self._offsets[index])
            return Recipient.from_json(json.loads(file.readline()))

    def __iter__(self) -> Iterator[Recipient]:
        with self.path.open("rb") as file:
            for line in file:
                if line.strip():
                    yield Recipient.from_json(json.loads(line))


def new_campaign_id(now: datetime) -> str:
    return f"{now:%Y%m%d-%H%M%S}-{secrets.token_hex(2)}"


@dataclass
class Campaign:
    """One campaign: its settings, its recipients, and their state replayed from the journal."""

    id: str
    dir: Path
    gateway: str
    instance: str
    draft: Draft
    pace: Pace
    seed: int
    created: str
    recipients: RecipientStore
    codes: bytearray = field(default_factory=bytearray)
    # Held recipients only (outcome unknown): when, and what happened. Everything else about
    # an outcome stays in the journal, so memory does not grow with the campaign.
    unknown: dict[int, tuple[float, str]] = field(default_factory=dict)
    last_try_at: float | None = None
    _file: Any = field(default=None, repr=False)

    # --- files ---------------------------------------------------------------------------------

    @property
    def journal_path(self) -> Path:
        return self.dir / "journal.jsonl"

    @property
    def report_path(self) -> Path:
        return self.dir / "report.csv"

    # --- state ---------------------------------------------------------------------------------

    def status(self, index: int) -> Status:
        return _STATUSES[self.codes[index]]

    def _set(self, index: int, status: Status) -> None:
        self.codes[index] = _CODES[status]

    def count(self, status: Status) -> int:
        return self.codes.count(_CODES[status])

    def counts(self) -> dict[str, int]:
        return {status.value: self.count(status) for status in Status}

    def pending(self) -> Iterator[int]:
        """Indexes still to send, in order."""
        code = _CODES[Status.PENDING]
        start = 0
        while (index := self.codes.find(code, start)) != -1:
            yield index
            start = index + 1

    def held(self) -> list[int]:
        """Recipients whose outcome is unknown, in order."""
        return sorted(self.unknown)

    @property
    def finished(self) -> bool:
        return self.count(Status.PENDING) == 0

    # --- the journal ---------------------------------------------------------------------------

    def _append(self, event: dict[str, Any]) -> None:
        """Write one event and make it durable before returning."""
        if self._file is None:
            fd = os.open(
                self.journal_path,
                os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_CLOEXEC", 0),
                PRIVATE_FILE_MODE,
            )
            self._file = os.fdopen(fd, "ab", buffering=0)
        line = json.dumps(event, ensure_ascii=False, separators=(",", ":")) + "\n"
        self._file.write(line.encode("utf-8"))
        os.fsync(self._file.fileno())

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def record_try(self, index: int, *, at: float, planned: float, gap: float) -> None:
        """Durably note that ``index`` is about to be sent. Call before sending."""
        if self.status(index) is not Status.PENDING:
            raise JournalError(f"recipient {index} is {self.status(index)}, not pending")
        self._append({"e": "try", "i": index, "at": at, "plan": planned, "gap": gap})
        self._set(index, Status.UNKNOWN)  # until the outcome is recorded
        self.unknown[index] = (at, "no outcome recorded")
        self.last_try_at = at

    def record_done(
        self, index: int, status: Status, *, at: float, message_id: str = "", error: str = ""
    ) -> None:
        event: dict[str, Any] = {"e": "done", "i": index, "s": status.value, "at": at}
        if message_id:
            event["id"] = message_id
        if error:
            event["err"] = error
        self._append(event)
        self._apply_done(index, status, at, message_id, error)

    def _apply_done(
        self, index: int, status: Status, at: float, message_id: str, error: str
    ) -> None:
        self._set(index, status)
        if status is Status.UNKNOWN:
            self.unknown[index] = (at, error)
        else:
            self.unknown.pop(index, None)

    def release(self, indexes: list[int], *, at: float) -> int:
        """The user's decision: send these held recipients again. Returns how many."""
        released = 0
        for index in indexes:
            if self.status(index) is Status.UNKNOWN:
                self._append({"e": "release", "i": index, "at": at})
                self._set(index, Status.PENDING)
                self.unknown.pop(index, None)
                released += 1
        return released

    def skip(self, indexes: list[int], *, at: float) -> int:
        """The user's decision: do not send these held recipients. Returns how many."""
        skipped = 0
        for index in indexes:
            if self.status(index) is Status.UNKNOWN:
                self.record_done(index, Status.SKIPPED, at=at, error="held, then skipped")
                skipped += 1
        return skipped

    def record_stop(self, reason: str, *, at: float) -> None:
        self._append({"e": "stop", "why": reason, "at": at})

    def tries(self) -> Iterator[dict[str, Any]]:
        """The ``try`` events of the journal, in order."""
        return (event for event in _read_events(self.journal_path) if event.get("e") == "try")

    def schedule(self) -> list[dict[str, Any]]:
        """Every ``try`` event (for checks of the pacing)."""
        return list(self.tries())

    def sent(self) -> Iterator[tuple[int, float, str]]:
        """(index, time, message id) of every recipient sent, in the order they were sent."""
        for event in _read_events(self.journal_path):
            if event.get("e") == "done" and event.get("s") == Status.SENT.value:
                yield int(event["i"]), float(event.get("at") or 0), str(event.get("id") or "")

    def outcome(self, index: int) -> Outcome | None:
        """The last recorded outcome of ``index`` (reads the journal: for reports and checks)."""
        found = None
        for event in _read_events(self.journal_path):
            if event.get("i") != index:
                continue
            if event.get("e") == "done":
                found = Outcome(
                    Status(event.get("s")),
                    float(event.get("at") or 0),
                    str(event.get("id") or ""),
                    str(event.get("err") or ""),
                )
            elif event.get("e") in ("try", "release"):
                found = None
        return found

    def _replay(self) -> None:
        self.codes = bytearray(len(self.recipients))
        self.unknown = {}
        count = len(self.recipients)
        for number, event in enumerate(_read_events(self.journal_path), start=1):
            kind, index = event.get("e"), event.get("i")
            if kind == "stop":
                continue
            if not isinstance(index, int) or not 0 <= index < count:
                raise JournalError(f"{self.journal_path}, line {number}: unknown recipient")
            at = float(event.get("at") or 0)
            if kind == "try":
                self._set(index, Status.UNKNOWN)
                self.unknown[index] = (at, "no outcome recorded")
                self.last_try_at = at
            elif kind == "done":
                try:
                    status = Status(event.get("s"))
                except ValueError:
                    raise JournalError(
                        f"{self.journal_path}, line {number}: unknown status"
                    ) from None
                self._apply_done(
                    index, status, at, str(event.get("id") or ""), str(event.get("err") or "")
                )
            elif kind == "release":
                self._set(index, Status.PENDING)
                self.unknown.pop(index, None)

    # --- the report ----------------------------------------------------------------------------

    def write_report(self) -> Path:
        """Write report.csv (atomically, streamed) and return its path.

        Rows come in the order recipients were settled (as the journal has them), then those
        without a recorded outcome (held or still pending).
        """
        written = bytearray(len(self.recipients))

        def row(index: int, at: float, message_id: str, error: str) -> tuple[str, ...]:
            recipient = self.recipients[index]
            when = datetime.fromtimestamp(at).isoformat(timespec="seconds") if at else ""
            status = self.status(index).value
            return (recipient.number, _cell(recipient.name), status, message_id, when, _cell(error))

        with _atomic_file(self.report_path) as out:
            writer = csv.writer(out)
            writer.writerow(REPORT_COLUMNS)
            for event in _read_events(self.journal_path):
                index = event.get("i")
                if event.get("e") != "done" or written[index]:
                    continue
                status = self.status(index)
                if status is Status.UNKNOWN or event.get("s") != status.value:
                    continue  # held: its latest word is in self.unknown; or since superseded
                written[index] = 1
                writer.writerow(
                    row(
                        index,
                        float(event.get("at") or 0),
                        str(event.get("id") or ""),
                        str(event.get("err") or ""),
                    )
                )
            for index in range(len(self.recipients)):
                if not written[index]:
                    at, error = self.unknown.get(index, (0.0, ""))
                    writer.writerow(row(index, at, "", error))
        return self.report_path


class _atomic_file:
    """A text file written beside ``path`` and renamed over it once complete and fsync'd."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.temp = path.parent / f".{path.name}.{secrets.token_hex(8)}.tmp"

    def __enter__(self):
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
        fd = os.open(self.temp, flags, PRIVATE_FILE_MODE)
        self.file = os.fdopen(fd, "w", encoding="utf-8", newline="")
        return self.file

    def __exit__(self, exc_type, exc, traceback) -> None:
        try:
            if exc_type is None:
                self.file.flush()
                os.fsync(self.file.fileno())
            self.file.close()
            if exc_type is None:
                os.replace(self.temp, self.path)
                _fsync_dir(self.path.parent)
        finally:
            self.temp.unlink(missing_ok=True)


def _fsync_dir(directory: Path) -> None:
    """Persist a rename in ``directory`` (not possible on Windows)."""
    if os.name == "nt":
        return
    fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _cell(text: str) -> str:
    """A spreadsheet would run a cell starting with = + - @ as a formula: keep it text."""
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text


def _read_events(path: Path) -> Iterator[dict[str, Any]]:
    """The journal's events, one line at a time (a partial last line is left out: it is a
    ``try`` that was never completed, so never sent)."""
    try:
        file = path.open("rb")
    except FileNotFoundError:
        return
    with file:
        for number, raw in enumerate(file, start=1):
            if not raw.endswith(b"\n"):
                return  # torn by a crash mid-write
            if not raw.strip():
                continue
            try:
                event = json.loads(raw)
            except ValueError:
                raise JournalError(
                    f"{path}, line {number}: damaged, cannot resume safely"
                ) from None
            if not isinstance(event, dict):
                raise JournalError(f"{path}, line {number}: damaged, cannot resume safely")
            yield event


def _cut_torn_line(path: Path) -> None:
    """Drop a partial last line, so the next event starts on a line of its own."""
    try:
        file = path.open("r+b")
    except FileNotFoundError:
        return
    with file:
        end = file.seek(0, os.SEEK_END)
        if end == 0:
            return
        file.seek(end - 1)
        if file.read(1) == b"\n":
            return
        # Read backwards to the last newline: the journal may be large, the torn line is short.
        position = end
        while position > 0:
            start = max(0, position - 4096)
            file.seek(start)
            newline = file.read(position - start).rfind(b"\n")
            if newline != -1:
                position = start + newline + 1
                break
            position = start
        file.truncate(position)
        file.flush()
        os.fsync(file.fileno())


# --- creating and opening -------------------------------------------------------------------


def create_campaign(
    *,
    gateway: str,
    instance: str,
    draft: Draft,
    recipients: RecipientList,
    pace: Pace,
    now: datetime,
    root: Path | None = None,
    seed: int | None = None,
    campaign_id: str | None = None,
) -> Campaign:
    """Write a new campaign's folder and return it, ready to run."""
    if not recipients.recipients:
        raise JournalError("the campaign has no recipients")
    root = campaigns_dir() if root is None else root
    campaign_id = campaign_id or new_campaign_id(now)
    directory = ensure_private_dir(root / campaign_id)
    message = Draft.from_json(draft.to_json())
    message.recipient = ""
    seed = secrets.randbits(32) if seed is None else seed
    with _atomic_file(directory / "recipients.jsonl") as out:
        for recipient in recipients.recipients:
            out.write(json.dumps(recipient.to_json(), ensure_ascii=False) + "\n")
    meta = {
        "version": FORMAT_VERSION,
        "id": campaign_id,
        "created": now.isoformat(timespec="seconds"),
        "gateway": gateway,
        "instance": instance,
        "draft": message.to_json(),
        "pace": pace.to_json(),
        "seed": seed,
        "recipients": len(recipients.recipients),
        "duplicates_removed": recipients.duplicates,
        "invalid_left_out": len(recipients.invalid),
    }
    # Written last: a folder without campaign.json is an unfinished creation, never listed.
    atomic_write_json(directory / "campaign.json", meta)
    return open_campaign(campaign_id, root=root)


def open_campaign(campaign_id: str, *, root: Path | None = None) -> Campaign:
    """Load a campaign and replay its journal. Raises JournalError."""
    root = campaigns_dir() if root is None else root
    if not campaign_id or "/" in campaign_id or campaign_id in (".", ".."):
        raise JournalError(f"no campaign {campaign_id!r}")
    directory = root / campaign_id
    try:
        meta = json.loads((directory / "campaign.json").read_text(encoding="utf-8"))
        recipients = RecipientStore(directory / "recipients.jsonl")
    except FileNotFoundError:
        raise JournalError(f"no campaign {campaign_id!r} in {root}") from None
    except (OSError, ValueError) as exc:
        raise JournalError(f"campaign {campaign_id} cannot be read: {exc}") from None
    try:
        campaign = Campaign(
            id=campaign_id,
            dir=directory,
            gateway=str(meta["gateway"]),
            instance=str(meta["instance"]),
            draft=Draft.from_json(meta["draft"]),
            pace=Pace.from_json(meta.get("pace")),
            seed=int(meta.get("seed", 0)),
            created=str(meta.get("created", "")),
            recipients=recipients,
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise JournalError(f"campaign {campaign_id} is damaged: {exc}") from None
    _cut_torn_line(campaign.journal_path)
    campaign._replay()
    return campaign


@dataclass(frozen=True)
class CampaignSummary:
    id: str
    instance: str
    created: str
    counts: dict[str, int]


def list_campaigns(*, root: Path | None = None) -> list[CampaignSummary]:
    """Every readable campaign, newest first."""
    root = campaigns_dir() if root is None else root
    found = []
    for directory in sorted(root.glob("*/campaign.json"), reverse=True):
        try:
            campaign = open_campaign(directory.parent.name, root=root)
        except JournalError:
            continue
        found.append(
            CampaignSummary(campaign.id, campaign.instance, campaign.created, campaign.counts())
        )
    return found
