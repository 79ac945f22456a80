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

This module is the writing side (the lock, every journal line, creating and opening a campaign)
and the names the rest of the code imports. The rest, one side per module: ``model`` (errors,
statuses, the pace, the recipients on disk), ``lines`` (the journal's lines read back and
checked), ``record`` (the state replayed from them, and what reads them), ``report``
(report.csv).
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from gateway_tui.core.campaign.lines import MAX_LINE, _cut_torn_line, _index_named
from gateway_tui.core.campaign.lock import LOCK_NAME, CampaignLock, Holder, holder
from gateway_tui.core.campaign.model import (
    FORMAT_VERSION,
    CampaignBusy,
    JournalError,
    JournalRefused,
    JournalWriteError,
    Outcome,
    Pace,
    RecipientStore,
    Status,
    _why,
    campaigns_dir,
    new_campaign_id,
)
from gateway_tui.core.campaign.reasons import LINE_CUT, NO_OUTCOME, SKIPPED, Reason
from gateway_tui.core.campaign.recipients import RecipientList
from gateway_tui.core.campaign.record import CampaignRecord
from gateway_tui.core.campaign.report import REPORT_COLUMNS, write_report
from gateway_tui.core.draft import Draft
from gateway_tui.core.files.storage import (
    PRIVATE_FILE_MODE,
    atomic_file,
    atomic_write_json,
    ensure_private_dir,
)
from gateway_tui.core.text.i18n import _
from gateway_tui.core.text.sanitize import mask_secrets

# What the rest of the code imports from here, wherever it is defined.
__all__ = [
    "FORMAT_VERSION",
    "MAX_LINE",
    "REPORT_COLUMNS",
    "Campaign",
    "CampaignBusy",
    "CampaignSummary",
    "JournalError",
    "JournalRefused",
    "JournalWriteError",
    "Outcome",
    "Pace",
    "Reason",
    "RecipientStore",
    "Status",
    "campaigns_dir",
    "create_campaign",
    "list_campaigns",
    "new_campaign_id",
    "open_campaign",
]

_write = os.write  # the one call that writes journal lines (tests fill the disk through it)


class Campaign(CampaignRecord):
    """A campaign and its one writer: the lock, then every journal line, fsync'd."""

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
                _(
                    "the campaign's lock file {path} cannot be used ({why}); nothing was sent. "
                    "It should be a small file the app makes: move it away, then try again."
                ).format(path=path, why=problem.strerror or problem)
            ) from None
        if found is not None:
            raise CampaignBusy(self.id, found)
        torn = _cut_torn_line(self.journal_path)
        self._replay()
        index = _index_named(torn, None, len(self.recipients)) if torn else None
        if index is not None and self.status(index) is Status.PENDING and not self.refusal:
            # A crash cannot cut a `try` whose send started (the send waits for the whole
            # line), but damage can: what the cut line was about is held, never resent.
            self.record_done(index, Status.UNKNOWN, at=time.time(), reason=LINE_CUT)

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
            self._broken = _("{path} cannot be opened for writing: {why}").format(
                path=self.journal_path, why=_why(exc)
            )
            raise JournalWriteError(self._broken) from None
        try:
            view = memoryview(line)
            while view:  # a write to a full disk may be short before it fails
                view = view[_write(fd, view) :]
            os.fsync(fd)
        except OSError as exc:
            self._broken = _("{path} cannot be written: {why}").format(
                path=self.journal_path, why=_why(exc)
            )
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
            raise JournalError(
                _("recipient {index} is {status}, not pending").format(
                    index=index, status=self.status(index)
                )
            )
        event: dict[str, Any] = {"e": "try", "i": index, "at": at, "plan": planned, "gap": gap}
        if message_id:
            event["mid"] = message_id
        self._append(event)
        if message_id:
            self.fixed_ids[index] = message_id
        self._set(index, Status.UNKNOWN)  # until the outcome is recorded
        self.unknown[index] = (at, NO_OUTCOME)
        self.last_try_at = at

    def record_done(
        self,
        index: int,
        status: Status,
        *,
        at: float,
        message_id: str = "",
        reason: Reason | None = None,
    ) -> None:
        """Durably note ``index``'s outcome, and why (a code with parameters, never words)."""
        event: dict[str, Any] = {"e": "done", "i": index, "s": status.value, "at": at}
        # What the gateway answered is data: a key it echoes is not written to the disk.
        message_id, reason = mask_secrets(message_id), (reason or Reason()).masked()
        if message_id:
            event["id"] = message_id
        _put_reason(event, reason, "err")
        self._append(event)
        self._apply_done(index, status, at, reason)

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
                self.record_done(index, Status.SKIPPED, at=at, reason=SKIPPED)
                skipped += 1
        return skipped

    def record_stop(self, reason: Reason, *, at: float) -> None:
        event: dict[str, Any] = {"e": "stop", "at": at}
        _put_reason(event, reason.masked(), "why")
        self._append(event)

    def write_report(self) -> Path:
        """Write report.csv (atomically, streamed) and return its path."""
        return write_report(self)


def _put_reason(event: dict[str, Any], reason: Reason, old_key: str) -> None:
    """A reason goes in as its code and parameters; one without a code (words a caller gave,
    or an old journal's) under the key old journals used."""
    if reason.code:
        event["reason"] = reason.to_json()
    elif reason.text:
        event[old_key] = reason.text


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
        raise JournalError(_("the campaign has no recipients"))
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
        raise JournalError(_("no campaign {id}").format(id=repr(campaign_id)))
    directory = root / campaign_id
    try:
        meta = json.loads((directory / "campaign.json").read_text(encoding="utf-8"))
        recipients = RecipientStore(directory / "recipients.jsonl")
    except FileNotFoundError:
        raise JournalError(
            _("no campaign {id} in {folder}").format(id=repr(campaign_id), folder=root)
        ) from None
    except (OSError, ValueError) as exc:
        raise JournalError(
            _("campaign {id} cannot be read: {why}").format(id=campaign_id, why=exc)
        ) from None
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
        raise JournalError(
            _("campaign {id} is damaged: {why}").format(id=campaign_id, why=exc)
        ) from None
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
            problem = (
                str(exc)
                if isinstance(exc, JournalError)
                else _("cannot be read: {why}").format(why=repr(exc))
            )
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
