"""12. A flood of new chats (issue 29, item 4): the chats screen open while the demo gateway
pushes ``messages.upsert`` events, each from a new contact into a new chat, as a history sync
after pairing does.

The demo gateway runs in this process (``DemoServer``, its own thread) and emits with
``DemoServer.flood_chats``; the app is the real GatewayApp on a pty (``python -m
bench.chats_probe chats``), a fresh process per run, its chats screen open and live.

- key → frame during the flood: a cursor key every half second, to the frame that shows the
  cursor moved (median and worst); floor: the same app's keys on the same screen just before
  the flood (at rest).
- RSS after the flood (once the chats stopped coming) beside RSS just before it, and what it
  grew by per chat arrived beside what a chat keeps in the heap (``kept_per_chat``: the newest
  message, the row and the row's parts the chats screen holds for each chat, measured with
  tracemalloc in this process on the same chats): a chat the screen lists is held, so the
  growth is judged against what the chats are, not against the empty app. Python's allocator
  keeps freed small blocks for reuse (the flood's own packets and dicts), so RSS grows by more
  than the live objects; up to twice what the chats keep is that, more would be a leak.
- chats arrived: the rows the chats screen gained, beside the chats the gateway emitted.

The issue's figure is 100,000 messages over 100,000 chats at 1,000 a second; a run of that
takes minutes, so each run here floods ``FLOOD_CHATS`` (``BENCH_FLOOD_CHATS`` to change it, e.g.
100000) at ``FLOOD_RATE`` a second. ``BENCH_FLOOD_LISTED`` (e.g. 10000) first stores that many
chats on the gateway, before the app opens: the flood's new chats then arrive beside a list
that large (a gateway that already holds many chats, as a second sync over one does).
"""

from __future__ import annotations

import os
import tempfile
import time

import httpx

from bench._proc import KEY_DOWN, ProbeProcess, child_env
from bench.chats import ChatsProbe
from bench.report import Figure, Report, Row, at_most_ratio
from bench.tables import SETTLE

INSTANCE = "sales-eu"
FLOOD_RATE = 1_000
FLOOD_CHATS = int(os.environ.get("BENCH_FLOOD_CHATS", "10000"))
LISTED = int(os.environ.get("BENCH_FLOOD_LISTED", "0"))
KEY_UP = b"\x1b[A"
KEYS_AT_REST = 10
QUIET = 20.0  # seconds without a new row: the chats stopped coming


def _key(probe: ProbeProcess) -> float | None:
    """One cursor key (down, or up at the last row) → the frame with the cursor moved (ms);
    None when no frame answered it within 30 s."""
    last = probe.last("frame")
    at_end = last["cursor"] is not None and last["cursor"] >= last["visible"] - 1
    sent = probe.send(KEY_UP if at_end else KEY_DOWN)
    try:
        frame = probe.wait(
            "frame", after=sent, timeout=30, test=lambda r, b=last["cursor"]: r["cursor"] != b
        )
    except TimeoutError:
        return None
    return (frame["t"] - sent) * 1000


def kept_per_chat(chats: int) -> float:
    """Bytes the heap keeps per chat once ``chats`` new chats came live: each one's newest
    message in the chat book, its unread count, its row and the row's parts (tracemalloc,
    in this process, on messages shaped as the demo's flood sends them)."""
    import gc
    import tracemalloc

    from gateway_tui.core.api.chat_models import StoredMessage
    from gateway_tui.core.chat_book import ChatBook, chat_rows

    book = ChatBook(chats=[], names={}, last={})
    unread: dict[str, int] = {}
    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        for n in range(chats):
            jid = f"{5519900000000 + n}@s.whatsapp.net"
            message = StoredMessage.read(
                {
                    "key": {"remoteJid": jid, "fromMe": False, "id": f"3EB0{n:016X}"},
                    "pushName": f"Contact {n}",
                    "message": {"conversation": f"flood chat {n}"},
                    "messageType": "conversation",
                    "messageTimestamp": 1_764_000_000 + n,
                }
            )
            if message is not None:
                book.last[jid] = message
                unread[jid] = 1
        rows = chat_rows(book, {}, lambda _jid: None)
        gc.collect()
        kept = tracemalloc.get_traced_memory()[0] - base
    finally:
        tracemalloc.stop()
    del rows
    return kept / max(1, chats)


def _arrived(probe: ProbeProcess, before: int, sent: int) -> int:
    """The rows gained once they stop coming (all arrived, or none for ``QUIET`` seconds)."""
    rows = probe.last("frame")["rows"]
    quiet_since = time.monotonic()
    while rows - before < sent and time.monotonic() - quiet_since < QUIET:
        time.sleep(0.5)
        now = probe.last("frame")["rows"]
        if now != rows:
            rows, quiet_since = now, time.monotonic()
    return rows - before


def run(report: Report, runs: int) -> None:
    from gateway_tui.demo.server import DemoServer

    keys, keys_at_rest, unanswered, dropped = [], [], 0, 0
    rss_before, rss_after, arrived, sent = [], [], [], []
    for _run in range(runs):
        # A fresh gateway each run: every run floods the same chats list (a few dozen chats).
        with (
            DemoServer(instances=8) as demo,
            tempfile.TemporaryDirectory(prefix="bench-flood-") as home,
        ):
            env = child_env(home)
            httpx.get(f"{demo.url}/")  # socket.io's loop is known from the first request
            if LISTED:  # stored before the app opens (emitted to no one): already listed
                demo.flood_chats(INSTANCE, 1_000_000, LISTED).result(600)
            args = ["--url", demo.url, "--key", demo.api_key, "--instance", INSTANCE]
            with ChatsProbe("chats", args, env) as probe:
                probe.wait("frame", screen="ChatsScreen", timeout=180, test=lambda r: r["rows"])
                probe.wait("frame", timeout=120, test=lambda r: r["live"] is True)
                time.sleep(SETTLE)
                for _ in range(KEYS_AT_REST):
                    if (at_rest := _key(probe)) is not None:
                        keys_at_rest.append(at_rest)
                time.sleep(SETTLE)
                before_rows = probe.last("frame")["rows"]
                rss_before.append(probe.pty.rss_kib() / 1024)
                flood = demo.flood_chats(INSTANCE, FLOOD_RATE, FLOOD_CHATS, first=LISTED)
                began = time.monotonic()
                while not flood.done():
                    time.sleep(0.5)
                    answered = _key(probe)
                    if answered is None:
                        unanswered += 1
                    else:
                        keys.append(answered)
                sent.append(flood.result(60))
                # Did the socket drop meanwhile (the app says not live)?
                dropped += any(
                    r["event"] == "frame" and r["t"] > began and r["live"] is False
                    for r in list(probe.records)
                )
                arrived.append(_arrived(probe, before_rows, FLOOD_CHATS))
                time.sleep(1.0)  # what the app does after the last event is counted
                rss_after.append(probe.pty.rss_kib() / 1024)
    section = f"12. A flood of new chats ({FLOOD_CHATS:,} at {FLOOD_RATE:,}/s, chats screen open)"
    if LISTED:
        section += f", {LISTED:,} chats already listed"
    report.add(
        Row(
            section,
            Figure("key → frame during the flood, median", keys),
            Figure("the same keys at rest, just before it", keys_at_rest),
            note=f"{len(keys)} keys; worst {max(keys, default=0):.0f} ms; "
            f"not answered within 30 s: {unanswered}; runs whose socket dropped: {dropped}",
        )
    )
    report.add(
        Row(
            section,
            Figure("key → frame during the flood, worst", keys, summary=max),
            Figure("the same keys at rest, worst", keys_at_rest, summary=max),
        )
    )
    report.add(
        Row(
            section,
            Figure("RSS after the flood", rss_after, unit="MiB"),
            Figure("RSS before it", rss_before, unit="MiB"),
        )
    )
    grown = [
        (after - before) * 1024 * 1024 / max(1, came)
        for before, after, came in zip(rss_before, rss_after, arrived, strict=True)
    ]
    report.add(
        Row(
            section,
            Figure("RSS grown per chat arrived", grown, unit="B"),
            Figure(
                "heap a chat keeps (its message, row and row parts)",
                [kept_per_chat(FLOOD_CHATS)],
                unit="B",
            ),
            target="≤ 2× floor",
            check=at_most_ratio(2.0),
        )
    )
    report.add(
        Row(
            section,
            Figure("chats arrived (rows gained), per run", arrived, unit="count"),
            Figure("chats the gateway emitted, per run", sent, unit="count"),
            target="all",
            check=lambda value, floor: floor is not None and value >= floor,
            note="arrived/emitted: "
            + ", ".join(f"{a:,}/{s:,}" for a, s in zip(arrived, sent, strict=True)),
        )
    )
