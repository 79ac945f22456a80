"""The monitor's memory: the last N events (a ring: the oldest go first), counted per event,
instance and way of arrival however many the ring has let go."""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Iterable, Iterator

from gateway_tui.core.events.record import EventRecord, setting_name

DEFAULT_CAPACITY = 5_000


class EventRing:
    """At most ``capacity`` events, newest last. ``total`` counts every event ever added and
    ``dropped`` those the ring let go; ``seen`` counts by setting name (``MESSAGES_UPSERT``)
    and way (socket, global, webhook), the asked-versus-arrived panel's figures."""

    def __init__(self, capacity: int = DEFAULT_CAPACITY) -> None:
        if capacity < 1:
            raise ValueError("a ring holds at least one event")
        self.capacity = capacity
        self._events: deque[EventRecord] = deque(maxlen=capacity)
        self.total = 0
        self.seen: Counter[tuple[str, str]] = Counter()  # (setting name, via) → count

    @property
    def dropped(self) -> int:
        return self.total - len(self._events)

    def add(self, record: EventRecord) -> None:
        self._events.append(record)
        self.total += 1
        self.seen[(setting_name(record.event), record.via)] += 1

    def extend(self, records: Iterable[EventRecord]) -> None:
        for record in records:
            self.add(record)

    def clear(self) -> None:
        """Forget the events kept (the counts of what arrived stay: they are the panel's)."""
        self.total -= len(self._events)
        self._events.clear()

    def count(self, setting: str, via: str | None = None) -> int:
        """How many ``setting`` events arrived (by ``via`` only, when given)."""
        counts = self.seen.items()
        return sum(n for (name, way), n in counts if name == setting and via in (None, way))

    def __len__(self) -> int:
        return len(self._events)

    def __iter__(self) -> Iterator[EventRecord]:
        return iter(self._events)

    def __getitem__(self, index: int) -> EventRecord:
        return self._events[index]

    def capacity_line(self) -> str:
        """What the ring keeps, said on screen."""
        from gateway_tui.core.text.i18n import ngettext, number

        figures = {
            "kept": number(len(self)),
            "n": number(self.capacity),
            "total": number(self.total),
            "dropped": number(self.dropped),
        }
        if self.dropped:
            return ngettext(
                "{kept} of the last {n} event kept ({total} arrived: {dropped} dropped from "
                "the ring)",
                "{kept} of the last {n} events kept ({total} arrived: {dropped} dropped from "
                "the ring)",
                self.capacity,
            ).format(**figures)
        return ngettext(
            "{kept} of the last {n} event kept", "{kept} of the last {n} events kept", self.capacity
        ).format(**figures)
