"""Events that came one way and not the other: the same instance's socket.io stream beside
its webhook. An event waits ``grace`` seconds for its twin (the gateway stamps an event once and
sends the same data each way, record.fingerprint); one still alone after that is flagged."""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from gateway_tui.core.events.record import WEBHOOK, EventRecord, fingerprint
from gateway_tui.core.text.i18n import N_, _

GRACE_SECONDS = 10.0
MAX_WAITING = 10_000
# Codes (``webhook-listen --json`` writes them as ``flag``); said with ``_()`` to people.
ONLY_WEBHOOK = N_("only by webhook")
ONLY_SOCKET = N_("only on the websocket")


@dataclass(frozen=True, slots=True)
class OneWay:
    record: EventRecord
    why: str  # ONLY_WEBHOOK or ONLY_SOCKET

    def said(self) -> str:
        """``why`` in the current language."""
        return _(self.why)


class Crosscheck:
    def __init__(self, grace: float = GRACE_SECONDS, clock: Callable[[], float] = time.monotonic):
        self.grace = grace
        self.clock = clock
        self.matched = 0
        self.one_way = 0
        # fingerprint → (side, record, arrived); oldest first
        self._waiting: OrderedDict[tuple, tuple[bool, EventRecord, float]] = OrderedDict()

    def add(self, record: EventRecord) -> None:
        key = fingerprint(record)
        by_hook = record.via == WEBHOOK
        twin = self._waiting.get(key)
        if twin is not None and twin[0] != by_hook:
            del self._waiting[key]
            self.matched += 1
            return
        # The same event twice the same way waits under a key of its own.
        slot = key if twin is None else (*key, record.number)
        self._waiting[slot] = (by_hook, record, self.clock())

    def expired(self) -> list[OneWay]:
        """The events whose twin did not come within the grace (each told once)."""
        now = self.clock()
        out = []
        while self._waiting:
            key, (by_hook, record, at) = next(iter(self._waiting.items()))
            if now - at < self.grace and len(self._waiting) <= MAX_WAITING:
                break
            del self._waiting[key]
            out.append(OneWay(record, ONLY_WEBHOOK if by_hook else ONLY_SOCKET))
        self.one_way += len(out)
        return out

    @property
    def waiting(self) -> int:
        return len(self._waiting)
