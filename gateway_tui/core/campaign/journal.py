"""A campaign on disk: its folder, its append-only journal, its final report.

    campaigns/<id>/campaign.json     what to send, where, at what pace (written once, atomically)
    campaigns/<id>/recipients.jsonl  who, one recipient per line (written once, atomically)
    campaigns/<id>/journal.jsonl     what happened, one event per line, fsync'd after each
    campaigns/<id>/report.csv        number, name, status, message id, time, error

Before each send the journal gets a ``try`` line and is fsync'd; after it, a ``done`` line with
the outcome, fsync'd again. Replaying the journal therefore tells, after any crash, which
recipients were sent, which failed, and which were *tried without a known outcome*: those are
held as "unknown" and never sent again unless the user releases them (a ``release`` line).

A line torn by a crash mid-write can only be the last one: a ``try`` whose send never started
(the send waits for the fsync), or an outcome, whose recipient then reads as unknown (held). It
is cut off by the next runner (which holds the campaign's lock: ``lock.py``); when the cut line
names its recipient and that recipient would be pending, it is held instead (damage, unlike a
crash, can cut a ``try`` whose send happened).

The journal knows itself: its first line (``head``) names the campaign and the digest of
recipients.jsonl, and is written before campaign.json. What was sent is therefore never inferred
from a journal that is missing, empty or not this campaign's: such a campaign refuses to send
(``Campaign.refusal``, with the reason and the path). A line that cannot be read, or whose
fields have the wrong types, is reported with its number; its recipient, when the line names
one, is held as unknown, and when it does not, the whole campaign refuses to send.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import secrets
import stat
import time
from array import array
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from pathlib import Path
from typing import Any

from gateway_tui.core.campaign.lock import LOCK_NAME, CampaignLock, Holder, holder
from gateway_tui.core.campaign.recipients import Recipient, RecipientList
from gateway_tui.core.draft import Draft
from gateway_tui.core.files.export import CsvWriter
from gateway_tui.core.files.storage import (
    PRIVATE_FILE_MODE,
    atomic_file,
    atomic_write_json,
    data_dir,
    ensure_private_dir,
)
from gateway_tui.core.text.sanitize import mask_secrets

FORMAT_VERSION = 2  # 2: the journal starts with a ``head`` line (1: no head line)
_write = os.write  # the one call that writes journal lines (tests fill the disk through it)
REPORT_COLUMNS = ("number", "name", "status", "message_id", "time", "error")


class JournalError(ValueError):
    """The campaign's files cannot be used; the message says which and why."""


class CampaignBusy(JournalError):
    """Another process (or another runner of this one) is sending this campaign."""

    def __init__(self, campaign_id: str, holder: Holder) -> None:
        self.campaign_id = campaign_id
        self.holder = holder
        super().__init__(
            f"campaign {campaign_id} is being sent by {holder.describe()}; "
            "nothing was sent from here (one runner per campaign)"
        )


class JournalRefused(JournalError):
    """The journal cannot tell what was sent: the campaign will not send."""


class JournalWriteError(JournalError):
    """An event could not be made durable (disk full, I/O error): stop sending."""


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
        digest = hashlib.sha256()
        with path.open("rb") as file:
            for number, line in enumerate(file, start=1):
                digest.update(line)
                if line.strip():
                    try:
                        Recipient.from_json(json.loads(line))
                    except (ValueError, TypeError) as exc:
                        raise JournalError(f"{path}, line {number}: damaged ({exc})") from None
                    self._offsets.append(offset)
                offset += len(line)
        self.digest = "sha256:" + digest.hexdigest()

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
    # On a gateway that takes the sender's messageId (2.4): the id each recipient's message
    # was given in its ``try`` line, kept until its outcome is known. A resend of a held
    # recipient reuses it, so the gateway cannot make a second message.
    fixed_ids: dict[int, str] = field(default_factory=dict)
    last_try_at: float | None = None
    version: int = FORMAT_VERSION
    # Lines of the journal that could not be read, as "path, line N: why" (their recipients,
    # when known, are held), and why the campaign will not send at all ("" when it can).
    problems: list[str] = field(default_factory=list)  # the first MAX_PROBLEMS
    problems_left_out: int = 0  # unreadable lines beyond those
    refusal: str = ""
    _file: Any = field(default=None, repr=False)
    _lock: CampaignLock | None = field(default=None, repr=False)
    _broken: str = field(default="", repr=False)  # why the journal cannot be written to

    # --- files ---------------------------------------------------------------------------------

    @property
    def journal_path(self) -> Path:
        return self.dir / "journal.jsonl"

    @property
    def report_path(self) -> Path:
        return self.dir / "report.csv"

    # --- one runner ----------------------------------------------------------------------------

    @property
    def locked(self) -> bool:
        return self._lock is not None and self._lock.held

    def lock(self) -> None:
        """Become this campaign's only writer, then read the journal again (another process
        may have sent since it was opened). Raises CampaignBusy, naming the holder."""
        if self.locked:
            return
        if self._lock is None:
            self._lock = CampaignLock(self.dir)
        try:
            found = self._lock.acquire()
        except OSError as problem:  # a folder where the lock file goes, no permission, …
            path = self.dir / LOCK_NAME
            raise JournalError(
                f"the campaign's lock file {path} cannot be used "
                f"({problem.strerror or problem}); nothing was sent. It should be a small "
                "file the app makes: move it away, then try again."
            ) from None
        if found is not None:
            raise CampaignBusy(self.id, found)
        torn = _cut_torn_line(self.journal_path)
        self._replay()
        index = _index_named(torn, None, len(self.recipients)) if torn else None
        if index is not None and self.status(index) is Status.PENDING and not self.refusal:
            # A crash cannot cut a `try` whose send started (the send waits for the whole
            # line), but damage can: what the cut line was about is held, never resent.
            self.record_done(
                index, Status.UNKNOWN, at=time.time(), error="its journal line was cut short: held"
            )

    def unlock(self) -> None:
        self.close()
        if self._lock is not None:
            self._lock.release()

    def running_elsewhere(self) -> Holder | None:
        """Who else is sending this campaign now (None when nobody is, or this object is)."""
        return None if self.locked else holder(self.dir)

    def check_can_send(self) -> None:
        """Raise JournalError when the campaign must not send (say why, with the path)."""
        if self.refusal:
            raise JournalRefused(self.refusal)
        if self._broken:
            raise JournalWriteError(self._broken)

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
        """Write one event and make it durable before returning (JournalWriteError if not).

        Only the holder of the lock writes. A write that fails (a full disk) is taken back
        where possible, and nothing more is written by this object: a line cut short stays the
        last one, which the next runner cuts off (an outcome cut off reads as unknown).
        """
        self.lock()
        self.check_can_send()
        line = (json.dumps(event, ensure_ascii=False, separators=(",", ":")) + "\n").encode()
        try:
            if self._file is None:
                fd = os.open(
                    self.journal_path,
                    os.O_WRONLY | os.O_APPEND | getattr(os, "O_CLOEXEC", 0),
                    PRIVATE_FILE_MODE,
                )
                self._file = os.fdopen(fd, "ab", buffering=0)
            fd = self._file.fileno()
            start = os.fstat(fd).st_size
        except OSError as exc:
            self._broken = f"{self.journal_path} cannot be opened for writing: {_why(exc)}"
            raise JournalWriteError(self._broken) from None
        try:
            view = memoryview(line)
            while view:  # a write to a full disk may be short before it fails
                view = view[_write(fd, view) :]
            os.fsync(fd)
        except OSError as exc:
            self._broken = f"{self.journal_path} cannot be written: {_why(exc)}"
            try:
                os.ftruncate(fd, start)  # take the partial line back
                os.fsync(fd)
            except OSError:
                pass  # left as a torn last line: the next runner cuts it
            raise JournalWriteError(self._broken) from None

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def message_id_for(self, index: int) -> str:
        """The messageId of recipient ``index``'s message: the one a ``try`` line fixed, else
        a new one (derived from the campaign and the recipient, so it is the same on any
        machine that replays this journal)."""
        if index in self.fixed_ids:
            return self.fixed_ids[index]
        digest = hashlib.sha256(f"{self.id}:{self.seed}:{index}".encode()).hexdigest()
        return "3EB0" + digest[:20].upper()

    def record_try(
        self, index: int, *, at: float, planned: float, gap: float, message_id: str = ""
    ) -> None:
        """Durably note that ``index`` is about to be sent (with ``message_id``, when the
        gateway takes one: fixed here, before the call). Call before sending."""
        self.lock()
        if self.status(index) is not Status.PENDING:
            raise JournalError(f"recipient {index} is {self.status(index)}, not pending")
        event: dict[str, Any] = {"e": "try", "i": index, "at": at, "plan": planned, "gap": gap}
        if message_id:
            event["mid"] = message_id
        self._append(event)
        if message_id:
            self.fixed_ids[index] = message_id
        self._set(index, Status.UNKNOWN)  # until the outcome is recorded
        self.unknown[index] = (at, "no outcome recorded")
        self.last_try_at = at

    def record_done(
        self, index: int, status: Status, *, at: float, message_id: str = "", error: str = ""
    ) -> None:
        event: dict[str, Any] = {"e": "done", "i": index, "s": status.value, "at": at}
        # What the gateway answered is data: a key it echoes is not written to the disk.
        message_id, error = mask_secrets(message_id), mask_secrets(error)
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
            if status is not Status.PENDING:
                self.fixed_ids.pop(index, None)

    def _hold(self, index: int, at: float, why: str) -> None:
        self._set(index, Status.UNKNOWN)
        self.unknown[index] = (at, why)

    def release(self, indexes: list[int], *, at: float) -> int:
        """The user's decision: send these held recipients again. Returns how many."""
        self.lock()
        self.check_can_send()
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
        self.lock()
        self.check_can_send()
        skipped = 0
        for index in indexes:
            if self.status(index) is Status.UNKNOWN:
                self.record_done(index, Status.SKIPPED, at=at, error="held, then skipped")
                skipped += 1
        return skipped

    def record_stop(self, reason: str, *, at: float) -> None:
        self._append({"e": "stop", "why": mask_secrets(reason), "at": at})

    def _events(self) -> Iterator[dict[str, Any]]:
        """The journal's readable events, in order (what cannot be read is in ``problems``)."""
        count = len(self.recipients)
        try:
            for _number, event, _problem, _index in _lines(self.journal_path, count):
                if event is not None:
                    yield event
        except OSError:
            return

    def tries(self) -> Iterator[dict[str, Any]]:
        """The ``try`` events of the journal, in order."""
        return (event for event in self._events() if event["e"] == "try")

    def schedule(self) -> list[dict[str, Any]]:
        """Every ``try`` event (for checks of the pacing)."""
        return list(self.tries())

    def sent(self) -> Iterator[tuple[int, float, str]]:
        """(index, time, message id) of every recipient sent, in the order they were sent."""
        for event in self._events():
            if event["e"] == "done" and event["s"] == Status.SENT.value:
                yield event["i"], float(event["at"]), str(event.get("id") or "")

    def latest_outcomes(self, limit: int) -> list[tuple[int, Outcome]]:
        """The last ``limit`` outcomes recorded, oldest first (a screen's log of recent sends;
        the journal is read a line at a time, only ``limit`` kept)."""
        found: deque[tuple[int, Outcome]] = deque(maxlen=max(limit, 0))
        for event in self._events():
            if event["e"] == "done":
                outcome = Outcome(
                    Status(event["s"]),
                    float(event["at"]),
                    str(event.get("id") or ""),
                    str(event.get("err") or ""),
                )
                found.append((int(event["i"]), outcome))
        return list(found)

    def outcome(self, index: int) -> Outcome | None:
        """The last recorded outcome of ``index`` (reads the journal: for reports and checks)."""
        found = None
        for event in self._events():
            if event.get("i") != index:
                continue
            if event["e"] == "done":
                found = Outcome(
                    Status(event["s"]),
                    float(event["at"]),
                    str(event.get("id") or ""),
                    str(event.get("err") or ""),
                )
            elif event["e"] in ("try", "release"):
                found = None
        return found

    def _replay(self) -> None:
        count = len(self.recipients)
        self.codes = bytearray(count)
        self.unknown = {}
        self.fixed_ids = {}
        self.problems = []
        self.problems_left_out = 0
        self.refusal = ""
        self.last_try_at = None
        path = self.journal_path
        try:
            self._replay_lines(count)
        except FileNotFoundError:
            if self.version >= 2:
                self.refusal = (
                    f"{path} is missing: whom this campaign has sent to cannot be known, so it "
                    "will not send (was the journal deleted or moved?)"
                )
        except OSError as exc:
            self.refusal = f"{path} cannot be read ({_why(exc)}): the campaign will not send"
        if self.refusal:
            # Never "not sent" by default: everyone without a known outcome is held.
            for index in list(self.pending()):
                self._hold(index, 0.0, "the journal cannot tell")

    def _replay_lines(self, count: int) -> None:
        path = self.journal_path
        if not stat.S_ISREG(path.stat().st_mode):
            raise OSError("it is not a file")
        expect_head = self.version >= 2
        for number, event, problem, index in _lines(path, count):
            if expect_head:
                expect_head = False
                why = problem or self._head_problem(event)
                if why:
                    self.refusal = (
                        f"{path}, line {number}: not this campaign's journal ({why}); the "
                        "campaign will not send"
                    )
                    return
                continue
            if event is None:
                if len(self.problems) < MAX_PROBLEMS:
                    self.problems.append(f"{path}, line {number}: unreadable ({problem})")
                else:  # a journal of millions of bad lines: counted, not kept
                    self.problems_left_out += 1
                if index is None:
                    self.refusal = (
                        f"{path}, line {number}: unreadable ({problem}) and it does not say "
                        "which recipient; the campaign will not send until the line is mended"
                    )
                    return
                self._hold(index, 0.0, f"journal line {number} unreadable")
                continue
            kind = event["e"]
            if kind in ("stop", "head"):
                continue
            index, at = event["i"], float(event["at"])
            if kind == "try":
                self._hold(index, at, "no outcome recorded")
                self.last_try_at = at
                if event.get("mid"):
                    self.fixed_ids[index] = event["mid"]
            elif kind == "done":
                self._apply_done(
                    index,
                    Status(event["s"]),
                    at,
                    str(event.get("id") or ""),
                    str(event.get("err") or ""),
                )
            elif kind == "release":
                self._set(index, Status.PENDING)
                self.unknown.pop(index, None)
        if expect_head:
            self.refusal = (
                f"{path} is empty: whom this campaign has sent to cannot be known, so it will "
                "not send"
            )

    def _head_problem(self, event: dict[str, Any] | None) -> str:
        if event is None or event["e"] != "head":
            return "its first line is not the campaign's head line"
        if event.get("campaign") != self.id:
            return f"it names campaign {event.get('campaign')!r}"
        if event.get("recipients") != self.recipients.digest:
            return "recipients.jsonl was changed after the campaign was made"
        return ""

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
            return (recipient.number, recipient.name, status, message_id, when, error)

        with atomic_file(self.report_path) as out:
            writer = CsvWriter(out)  # every cell: formulas defused, controls cleaned
            writer.writerow(REPORT_COLUMNS)
            for event in self._events():
                if event["e"] != "done" or written[event["i"]]:
                    continue
                index = event["i"]
                status = self.status(index)
                if status is Status.UNKNOWN or event.get("s") != status.value:
                    continue  # held: its latest word is in self.unknown; or since superseded
                written[index] = 1
                writer.writerow(
                    row(
                        index,
                        float(event["at"]),
                        str(event.get("id") or ""),
                        str(event.get("err") or ""),
                    )
                )
            for index in range(len(self.recipients)):
                if not written[index]:
                    at, error = self.unknown.get(index, (0.0, ""))
                    writer.writerow(row(index, at, "", error))
        return self.report_path


def _why(exc: OSError) -> str:
    return exc.strerror or str(exc) or type(exc).__name__


_KINDS = ("head", "try", "done", "release", "stop")
_STATUS_VALUES = {status.value for status in Status}
_INDEX_IN_LINE = re.compile(rb'"i"\s*:\s*([0-9]{1,9})\s*[,}]')
_LATEST_TIME = 1e11  # a time past the year 5000 is not one this journal wrote


def _is_time(value: Any) -> bool:
    return (
        isinstance(value, int | float)
        and not isinstance(value, bool)
        and 0 <= value < _LATEST_TIME  # also refuses NaN
    )


def _event_problem(event: Any, count: int) -> str:
    """Why an event cannot be used ("" when it can): every field has the type it was written
    with (``"i": true`` is not recipient 1, ``"at": "x"`` not a time)."""
    if not isinstance(event, dict):
        return "not an event"
    kind = event.get("e")
    if kind not in _KINDS:
        return f"unknown event {str(kind)[:20]!r}"
    if kind in ("head", "stop"):
        return "" if "at" not in event or _is_time(event["at"]) else '"at" is not a time'
    index = event.get("i")
    if not isinstance(index, int) or isinstance(index, bool):
        return '"i" is not a recipient number'
    if not 0 <= index < count:
        return f"recipient {index} is not in this campaign (it has {count})"
    if not _is_time(event.get("at")):
        return '"at" is not a time'
    if kind == "done" and event.get("s") not in _STATUS_VALUES:
        return f"unknown status {str(event.get('s'))[:20]!r}"
    for key in ("id", "err", "mid"):
        if key in event and not isinstance(event[key], str):
            return f'"{key}" is not text'
    return ""


def _index_named(raw: bytes, event: Any, count: int) -> int | None:
    """The recipient an unusable line is about, when it says so unambiguously."""
    if isinstance(event, dict):
        index = event.get("i")
        if isinstance(index, int) and not isinstance(index, bool) and 0 <= index < count:
            return index
        if "i" in event:
            return None  # it names one, but not as a recipient number
    found = {int(match) for match in _INDEX_IN_LINE.findall(raw)}
    if len(found) == 1 and (index := found.pop()) < count:
        return index
    return None


# No line of ours comes near this (an error text is cut far shorter): a longer one is damage.
MAX_LINE = 1 << 20
MAX_PROBLEMS = 1000  # unreadable lines told one by one; the rest are counted


def _lines(path: Path, count: int) -> Iterator[tuple[int, dict[str, Any] | None, str, int | None]]:
    """(line number, event or None, why not, recipient named) of every line of the journal.

    A partial last line is left out: it was cut by a crash or a full disk, so it is a ``try``
    whose send never started, or an outcome (its ``try`` then reads as unknown). Raises
    OSError when the journal cannot be opened (FileNotFoundError when there is none).
    """
    with path.open("rb") as file:
        for number, (raw, whole) in enumerate(_raw_lines(file), start=1):
            if not raw.endswith(b"\n"):
                return
            if not whole:  # never one of ours: its start may still name a recipient
                problem = f"longer than {MAX_LINE // 1024} kB"
                yield number, None, problem, _index_named(raw, None, count)
                continue
            if not raw.strip():
                continue
            try:
                event = json.loads(raw)
            except ValueError:  # also UnicodeDecodeError
                event, problem = None, "not JSON"
            else:
                problem = _event_problem(event, count)
            if problem:
                yield number, None, problem, _index_named(raw, event, count)
            else:
                yield number, event, "", None


def _raw_lines(file: Any) -> Iterator[tuple[bytes, bool]]:
    """(line, whole) of every line, each read at most MAX_LINE bytes at a time: a journal of
    gigabytes without a newline (damage, or a file put there) never sits in memory. A longer
    line is skipped to its end and given as its first MAX_LINE bytes (``whole`` False) with
    its newline; a last line without one as it is."""
    while raw := file.readline(MAX_LINE):
        if raw.endswith(b"\n") or len(raw) < MAX_LINE:
            yield raw, True
            continue
        while rest := file.readline(MAX_LINE):
            if rest.endswith(b"\n"):
                yield raw + b"\n", False
                break
        else:
            yield raw, False  # no newline to its end: a torn last line
            return


def _cut_torn_line(path: Path) -> bytes:
    """Drop a partial last line, so the next event starts on a line of its own; return it."""
    try:
        file = path.open("r+b")
    except OSError:
        return b""  # none, or not a file: the replay says so
    with file:
        end = file.seek(0, os.SEEK_END)
        if end == 0:
            return b""
        file.seek(end - 1)
        if file.read(1) == b"\n":
            return b""
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
        file.seek(position)
        torn = file.read(end - position)
        file.truncate(position)
        file.flush()
        os.fsync(file.fileno())
        return torn


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
    digest = hashlib.sha256()
    with atomic_file(directory / "recipients.jsonl") as out:
        for recipient in recipients.recipients:
            line = json.dumps(recipient.to_json(), ensure_ascii=False) + "\n"
            digest.update(line.encode("utf-8"))
            out.write(line)
    # The journal's head line, before campaign.json: a campaign never exists without it.
    head = {"e": "head", "v": FORMAT_VERSION, "campaign": campaign_id}
    head["recipients"] = "sha256:" + digest.hexdigest()
    with atomic_file(directory / "journal.jsonl") as out:
        out.write(json.dumps(head, separators=(",", ":")) + "\n")
    meta = {
        "version": FORMAT_VERSION,
        "id": campaign_id,
        "created": now.isoformat(timespec="seconds"),
        "gateway": gateway,
        "instance": instance,
        "draft": message.to_json(),
        "pace": pace.to_json(),
        "seed": seed,
        "journal": "started",  # journal.jsonl exists, with its head line
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
            version=int(meta.get("version", 1)),
        )
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise JournalError(f"campaign {campaign_id} is damaged: {exc}") from None
    # A torn last line is cut by the next runner, under the lock (lock()), not by a reader.
    campaign._replay()
    return campaign


@dataclass(frozen=True)
class CampaignSummary:
    id: str
    instance: str
    created: str
    counts: dict[str, int]
    problem: str = ""  # why it will not send, or its first unreadable journal line
    running: Holder | None = None  # the process sending it now
    gateway: str = ""  # the gateway it sends through (its identity, as drafts are filed)
    draft: Draft | None = None  # the message it sends (placeholders not filled in)


def list_campaigns(*, root: Path | None = None) -> list[CampaignSummary]:
    """Every campaign, newest first: one that cannot be read is listed with its problem."""
    root = campaigns_dir() if root is None else root
    found = []
    for directory in sorted(root.glob("*/campaign.json"), reverse=True):
        campaign_id = directory.parent.name
        running = holder(directory.parent)
        try:
            campaign = open_campaign(campaign_id, root=root)
        except Exception as exc:  # one damaged campaign never hides the others
            problem = str(exc) if isinstance(exc, JournalError) else f"cannot be read: {exc!r}"
            found.append(CampaignSummary(campaign_id, "?", "", {}, problem, running))
            continue
        problem = campaign.refusal or (campaign.problems[0] if campaign.problems else "")
        found.append(
            CampaignSummary(
                campaign.id,
                campaign.instance,
                campaign.created,
                campaign.counts(),
                problem,
                running,
                campaign.gateway,
                campaign.draft,
            )
        )
    return found
