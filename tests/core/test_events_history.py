"""History sync progress from 2.3.7's messages.set and 2.4's messaging-history.set, and a sync
that stops early said as such with what upstream #2644 says helps."""

from __future__ import annotations

from gateway_tui.core.events.history import STALL_SECONDS, HistoryBook, HistorySync
from gateway_tui.core.events.record import from_envelope


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def batch(count: int, progress, latest: bool, instance: str = "sales-eu"):
    messages = [{"key": {"remoteJid": "1@s.whatsapp.net", "id": str(n)}} for n in range(count)]
    payload = {"event": "messages.set", "instance": instance, "data": messages, "isLatest": latest}
    payload["progress"] = progress
    return from_envelope(payload)


def completed(**counts):
    return from_envelope({"event": "messaging-history.set", "instance": "sales-eu", "data": counts})


def test_a_sync_that_stops_early_says_where_and_what_helps():
    clock = Clock()
    sync = HistorySync(clock)
    assert sync.line() is None
    sync.feed(batch(500, 10, False))
    sync.feed(batch(487, 40, False))
    assert sync.state == "running"
    assert sync.line() == "History sync: 40 % · 987 messages in 2 batches"
    # #2644: "isLatest: true with progress: null" long before the history is in
    sync.feed(batch(12, None, True))
    assert sync.state == "stopped"
    line = sync.line()
    assert line.startswith("History sync stopped at 40 %: the gateway called a batch the latest")
    assert "restart of the instance pulls the next batch" in line and "#2644" in line
    # a restart pulls another batch: the sync goes on, counted on
    sync.feed(batch(300, 60, False))
    assert sync.state == "running"
    assert sync.line() == "History sync: 60 % · 1,299 messages in 4 batches"


def test_batches_that_stop_coming_below_100_are_a_stop():
    clock = Clock()
    sync = HistorySync(clock)
    sync.feed(batch(100, 30, False))
    clock.now += STALL_SECONDS - 1
    assert sync.state == "running"
    clock.now += 2
    assert sync.state == "stopped"
    assert "stopped at 30 %: no batch came for a while" in sync.line()


def test_a_complete_sync_of_2_4_gives_its_counts():
    sync = HistorySync(Clock())
    sync.feed(batch(100, 90, False))
    sync.feed(completed(messageCount=1420, chatCount=350, contactCount=500, progress=100))
    assert sync.state == "done"
    assert sync.line() == "History sync done: 1,420 messages, 350 chats, 500 contacts"


def test_progress_100_is_done_and_a_new_sync_starts_afresh():
    sync = HistorySync(Clock())
    sync.feed(batch(10, 100, True))
    assert sync.state == "done" and sync.line() == "History sync done: 10 messages in 1 batch"
    sync.feed(batch(5, 5, False))
    assert sync.line() == "History sync: 5 % · 5 messages in 1 batch"


def test_the_book_keeps_one_sync_per_instance_and_ignores_other_events():
    book = HistoryBook(Clock())
    other = from_envelope({"event": "messages.upsert", "instance": "sales-eu", "data": {}})
    assert book.feed(other) is False
    assert book.line("sales-eu") is None
    assert book.feed(batch(3, 20, False, instance="support"))
    assert book.line("support") == "History sync: 20 % · 3 messages in 1 batch"
    assert book.line("sales-eu") is None
