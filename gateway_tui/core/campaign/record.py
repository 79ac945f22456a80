"""A campaign as read: its settings, its recipients, and their state replayed from the journal
(the reading side; ``journal.Campaign`` adds the one runner that writes)."""

from __future__ import annotations

import stat
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gateway_tui.core.campaign.lines import MAX_PROBLEMS, _lines, reason_of
from gateway_tui.core.campaign.lock import CampaignLock
from gateway_tui.core.campaign.model import (
    _CODES,
    _STATUSES,
    FORMAT_VERSION,
    Outcome,
    Pace,
    RecipientStore,
    Status,
    _why,
)
from gateway_tui.core.campaign.reasons import JOURNAL_CANNOT_TELL, NO_OUTCOME, Reason
from gateway_tui.core.draft import Draft
from gateway_tui.core.text.i18n import _, number


@dataclass
class CampaignRecord:
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
    unknown: dict[int, tuple[float, Reason]] = field(default_factory=dict)
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

    def _apply_done(self, index: int, status: Status, at: float, reason: Reason) -> None:
        self._set(index, status)
        if status is Status.UNKNOWN:
            self.unknown[index] = (at, reason)
        else:
            self.unknown.pop(index, None)
            if status is not Status.PENDING:
                self.fixed_ids.pop(index, None)

    def _hold(self, index: int, at: float, why: Reason) -> None:
        self._set(index, Status.UNKNOWN)
        self.unknown[index] = (at, why)

    # --- reading the journal -------------------------------------------------------------------

    def events(self) -> Iterator[dict[str, Any]]:
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
        return (event for event in self.events() if event["e"] == "try")

    def schedule(self) -> list[dict[str, Any]]:
        """Every ``try`` event (for checks of the pacing)."""
        return list(self.tries())

    def sent(self) -> Iterator[tuple[int, float, str]]:
        """(index, time, message id) of every recipient sent, in the order they were sent."""
        for event in self.events():
            if event["e"] == "done" and event["s"] == Status.SENT.value:
                yield event["i"], float(event["at"]), str(event.get("id") or "")

    def latest_outcomes(self, limit: int) -> list[tuple[int, Outcome]]:
        """The last ``limit`` outcomes recorded, oldest first (a screen's log of recent sends;
        the journal is read a line at a time, only ``limit`` kept)."""
        found: deque[tuple[int, Outcome]] = deque(maxlen=max(limit, 0))
        for event in self.events():
            if event["e"] == "done":
                outcome = Outcome(
                    Status(event["s"]),
                    float(event["at"]),
                    str(event.get("id") or ""),
                    reason_of(event),
                )
                found.append((int(event["i"]), outcome))
        return list(found)

    def outcome(self, index: int) -> Outcome | None:
        """The last recorded outcome of ``index`` (reads the journal: for reports and checks)."""
        found = None
        for event in self.events():
            if event.get("i") != index:
                continue
            if event["e"] == "done":
                found = Outcome(
                    Status(event["s"]),
                    float(event["at"]),
                    str(event.get("id") or ""),
                    reason_of(event),
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
                self.refusal = _(
                    "{path} is missing: whom this campaign has sent to cannot be known, so it "
                    "will not send (was the journal deleted or moved?)"
                ).format(path=path)
        except OSError as exc:
            self.refusal = _("{path} cannot be read ({why}): the campaign will not send").format(
                path=path, why=_why(exc)
            )
        if self.refusal:
            # Never "not sent" by default: everyone without a known outcome is held.
            for index in list(self.pending()):
                self._hold(index, 0.0, JOURNAL_CANNOT_TELL)

    def _replay_lines(self, count: int) -> None:
        path = self.journal_path
        if not stat.S_ISREG(path.stat().st_mode):
            raise OSError(_("it is not a file"))
        expect_head = self.version >= 2
        for line_no, event, problem, index in _lines(path, count):
            if expect_head:
                expect_head = False
                why = problem or self._head_problem(event)
                if why:
                    self.refusal = _(
                        "{path}, line {line}: not this campaign's journal ({why}); the "
                        "campaign will not send"
                    ).format(path=path, line=number(line_no), why=why)
                    return
                continue
            if event is None:
                if len(self.problems) < MAX_PROBLEMS:
                    self.problems.append(
                        _("{path}, line {line}: unreadable ({why})").format(
                            path=path, line=number(line_no), why=problem
                        )
                    )
                else:  # a journal of millions of bad lines: counted, not kept
                    self.problems_left_out += 1
                if index is None:
                    self.refusal = _(
                        "{path}, line {line}: unreadable ({why}) and it does not say which "
                        "recipient; the campaign will not send until the line is mended"
                    ).format(path=path, line=number(line_no), why=problem)
                    return
                self._hold(index, 0.0, Reason("line_unreadable", {"line": line_no}))
                continue
            kind = event["e"]
            if kind in ("stop", "head"):
                continue
            index, at = event["i"], float(event["at"])
            if kind == "try":
                self._hold(index, at, NO_OUTCOME)
                self.last_try_at = at
                if event.get("mid"):
                    self.fixed_ids[index] = event["mid"]
            elif kind == "done":
                self._apply_done(index, Status(event["s"]), at, reason_of(event))
            elif kind == "release":
                self._set(index, Status.PENDING)
                self.unknown.pop(index, None)
        if expect_head:
            self.refusal = _(
                "{path} is empty: whom this campaign has sent to cannot be known, so it will "
                "not send"
            ).format(path=path)

    def _head_problem(self, event: dict[str, Any] | None) -> str:
        if event is None or event["e"] != "head":
            return _("its first line is not the campaign's head line")
        if event.get("campaign") != self.id:
            return _("it names campaign {campaign}").format(campaign=repr(event.get("campaign")))
        if event.get("recipients") != self.recipients.digest:
            return _("recipients.jsonl was changed after the campaign was made")
        return ""
