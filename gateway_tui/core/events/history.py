"""History sync progress from the events: 2.3.7's ``messages.set`` (``isLatest`` and
``progress`` at the top level of the payload, the batch's messages in ``data``) and 2.4's
``messaging-history.set`` (``messageCount``, ``chatCount``, ``contactCount``, ``progress``;
sent when the sync completes).

A sync that ends early is said plainly: "stopped at N %". Upstream issue #2644 (2.3.7,
syncFullHistory): a batch comes with ``isLatest: true`` and no progress long before the whole
history is in, and each restart of the instance pulls another batch. A sync whose batches stop
coming for ``STALL_SECONDS`` below 100 % is taken as stopped too.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from gateway_tui.core.events.record import EventRecord, setting_name
from gateway_tui.core.events.summary import count_of, history_figures
from gateway_tui.core.text.i18n import N_, _, ngettext, number

STALL_SECONDS = 120.0
ADVICE = N_("A restart of the instance pulls the next batch (gateway issue #2644).")
BATCH = "MESSAGES_SET"
COMPLETE = "MESSAGING_HISTORY_SET"

IDLE, RUNNING, DONE, STOPPED = "idle", "running", "done", "stopped"


@dataclass
class HistorySync:
    """One instance's sync, as the events tell it."""

    clock: Callable[[], float] = time.monotonic
    stall_seconds: float = STALL_SECONDS
    progress: int | None = None
    latest: bool = False
    complete: bool = False
    batches: int = 0
    messages: int = 0  # in the batches seen
    totals: dict[str, int] = field(default_factory=dict)  # messaging-history.set's counts
    last_at: float | None = None

    def feed(self, record: EventRecord) -> bool:
        """Take ``record`` in when it is a history sync event; True when it was one."""
        name = setting_name(record.event)
        if name not in (BATCH, COMPLETE):
            return False
        figures = history_figures(record)
        if name == BATCH and self.state == DONE:
            self.__init__(self.clock, self.stall_seconds)  # a new sync
        self.last_at = self.clock()
        if "progress" in figures:
            self.progress = max(0, min(100, figures["progress"]))
        if name == BATCH:
            self.batches += 1
            self.messages += figures.get("messages", 0)
            # After a stop, a restart pulls the next batch: the sync goes on, counted on.
            self.latest = figures.get("isLatest") is True
        else:
            self.complete = self.progress in (None, 100)
            for key in ("messageCount", "chatCount", "contactCount"):
                if key in figures:
                    self.totals[key] = figures[key]
        return True

    @property
    def state(self) -> str:
        if self.last_at is None:
            return IDLE
        if self.complete or self.progress == 100:
            return DONE
        if self.latest or self.clock() - self.last_at > self.stall_seconds:
            return STOPPED
        return RUNNING

    def line(self) -> str | None:
        """The progress line for the instance view (None while no sync was seen)."""
        state = self.state
        if state == IDLE:
            return None
        got = ngettext("{messages} in {n} batch", "{messages} in {n} batches", self.batches).format(
            messages=count_of("messages", self.messages),
            n=number(self.batches),
        )
        if state == DONE:
            if self.totals:
                parts = [
                    count_of(what, self.totals[key])
                    for key, what in (
                        ("messageCount", "messages"),
                        ("chatCount", "chats"),
                        ("contactCount", "contacts"),
                    )
                    if key in self.totals
                ]
                return _("History sync done: {figures}").format(figures=", ".join(parts))
            return _("History sync done: {figures}").format(figures=got)
        if state == STOPPED:
            if self.progress is None and self.latest:
                said = _(
                    "History sync stopped early (no progress given): the gateway called a "
                    "batch the latest, {figures}. {advice}"
                )
            elif self.progress is None:
                said = _(
                    "History sync stopped early (no progress given): no batch came for a "
                    "while, {figures}. {advice}"
                )
            elif self.latest:
                said = _(
                    "History sync stopped at {progress} %: the gateway called a batch the "
                    "latest, {figures}. {advice}"
                )
            else:
                said = _(
                    "History sync stopped at {progress} %: no batch came for a while, "
                    "{figures}. {advice}"
                )
            return said.format(progress=self.progress, figures=got, advice=_(ADVICE))
        if self.progress is not None:
            return _("History sync: {progress} % · {figures}").format(
                progress=self.progress, figures=got
            )
        return _("History sync: progress not given · {figures}").format(figures=got)


class HistoryBook:
    """The syncs of every instance seen."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.syncs: dict[str, HistorySync] = {}

    def feed(self, record: EventRecord) -> bool:
        sync = self.syncs.get(record.instance)
        if sync is None:
            if setting_name(record.event) not in (BATCH, COMPLETE):
                return False
            sync = self.syncs[record.instance] = HistorySync(self.clock)
        return sync.feed(record)

    def line(self, instance: str) -> str | None:
        sync = self.syncs.get(instance)
        return sync.line() if sync else None

    def stopped(self, instance: str) -> bool:
        sync = self.syncs.get(instance)
        return sync is not None and sync.state == STOPPED
