"""9. Live events: a conversation of 10,000 messages open while the demo gateway pushes events.

The demo gateway runs in this process (a thread of its own, ``DemoServer``), so the bench can
make it emit at a known moment and read its request log; the app is the real GatewayApp on a pty
(``python -m bench.chats_probe conversation``), one fresh process per run, with the big chat of
``demo-server --big-chat 10000`` open.

- event → frame: a contact writes into the open chat (``messages.upsert``); from just before
  the demo emits to the first frame whose newest bubble is that message, drawn. Floor: a bare
  python-socketio client on the same namespace, in this process, receiving the same events
  (the socket round trip alone).
- polling requests per minute while the socket is up: the HTTP requests in the demo's request
  log over a window of ``WINDOW`` seconds with the conversation open and live. Floor: the same
  app and window on its instances list (which checks the states of the rows in view and reads
  the list again every refresh interval): what the app polls where it polls.
- RSS after 10,000 events: the app's resident set (VmRSS) before and after a flood of 10,000
  events at 1,000 a second into the open chat (DemoEvents.flood: delivery marks, known messages
  sent again, connection updates, one new message in a hundred), once its last message shows.
  While it floods, a cursor key is typed every half second: key → frame, beside the bare
  Textual app's page key.
- The full minute (the last run only): 60,000 events at 1,000 a second, RSS before and after
  and the keys typed meanwhile.
"""

from __future__ import annotations

import asyncio
import tempfile
import threading
import time
from collections.abc import Callable

import httpx

from bench._proc import KEY_DOWN, ProbeProcess, child_env
from bench.chats import ChatsProbe
from bench.report import Figure, Report, Row, at_most_ms, at_most_ratio
from bench.tables import SETTLE, _bare_run

INSTANCE = "sales-eu"
BIG_CHAT = 10_000
WRITES_PER_RUN = 10
WINDOW = 15.0  # seconds of watching the demo's request log, per run
FLOOD_RATE = 1_000
FLOOD_EVENTS = 10_000
MINUTE_EVENTS = 60_000
KEY_UP = b"\x1b[A"
UNANSWERED: list[float] = []  # keys not answered within 30 s during a flood


class SocketFloor:
    """A bare python-socketio client on the instance's namespace, in a thread: when each
    message id arrived (monotonic)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.arrived: dict[str, float] = {}
        self._ready = threading.Event()
        self._stop: asyncio.Event | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread = threading.Thread(target=asyncio.run, args=(self._run(),), daemon=True)

    async def _run(self) -> None:
        import socketio

        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        client = socketio.AsyncClient()

        def received(event: str, payload: dict) -> None:
            if event == "messages.upsert":
                self.arrived.setdefault(payload["data"]["key"]["id"], time.monotonic())

        client.on("*", received, namespace=f"/{INSTANCE}")
        await client.connect(self.url, namespaces=[f"/{INSTANCE}"], transports=["websocket"])
        self._ready.set()
        await self._stop.wait()
        await client.disconnect()

    def __enter__(self) -> SocketFloor:
        self._thread.start()
        if not self._ready.wait(60):
            raise RuntimeError("the floor's socket.io client did not connect")
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self._loop is not None and self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(10)

    def wait(self, message_id: str, timeout: float = 60.0) -> float:
        deadline = time.monotonic() + timeout
        while message_id not in self.arrived:
            if time.monotonic() > deadline:
                raise TimeoutError(f"the floor client never got {message_id}")
            time.sleep(0.002)
        return self.arrived[message_id]


def _open(demo, env: dict[str, str]) -> ProbeProcess:  # noqa: ANN001 - a DemoServer
    from gateway_tui.demo.chats import BIG_CHAT_JID

    args = ["--url", demo.url, "--key", demo.api_key, "--jid", BIG_CHAT_JID]
    probe = ChatsProbe("conversation", args, env)
    try:
        probe.wait(
            "frame",
            screen="MessagesScreen",
            timeout=180,
            test=lambda r: r["messages"] >= BIG_CHAT and r["last_shown"],
        )
    except BaseException:
        probe.close()
        raise
    return probe


def _requests_per_minute(demo, probe: ProbeProcess, window: float) -> float:  # noqa: ANN001
    began = time.monotonic()
    time.sleep(window)
    ended = time.monotonic()
    assert probe.pty.proc.poll() is None, "the app ended"
    count = sum(1 for t, _method, _path in list(demo.requests) if began <= t < ended)
    return count * 60 / (ended - began)


def _shown(message_id: str) -> Callable[[dict], bool]:
    return lambda r: r["last_id"] == message_id and r["last_shown"]


def _flood(demo, probe: ProbeProcess, count: int) -> tuple[float, float, list[float]]:  # noqa: ANN001
    """RSS before and after ``count`` events (MiB), and key → frame (ms) meanwhile."""
    from gateway_tui.demo.chats import BIG_CHAT_JID

    time.sleep(SETTLE)
    before = probe.pty.rss_kib() / 1024
    flood = demo.flood(INSTANCE, BIG_CHAT_JID, FLOOD_RATE, count)
    keys = []
    while not flood.done():
        time.sleep(0.5)
        last = probe.last("frame")
        # Up, unless the cursor is not on the newest message: then down (a key that moves).
        at_end = last["index"] == last["messages"] - 1
        sent = probe.send(KEY_UP if at_end else KEY_DOWN)
        try:
            frame = probe.wait(
                "frame", after=sent, test=lambda r, b=last["index"]: r["index"] != b, timeout=30
            )
        except TimeoutError:
            UNANSWERED.append(sent)  # reported beside the figure: a key the screen never took
            continue
        keys.append((frame["t"] - sent) * 1000)
    last = flood.result(60)[-1]
    probe.wait("frame", test=lambda r: r["last_id"] == last, timeout=120)
    time.sleep(1.0)  # what the app does after the last event (a collection, say) is counted
    after = probe.pty.rss_kib() / 1024
    return before, after, keys


def run(report: Report, runs: int) -> None:
    from gateway_tui.demo.chats import BIG_CHAT_JID
    from gateway_tui.demo.server import DemoServer

    latencies, floors, polled, polled_off = [], [], [], []
    rss_before, rss_after, keys, bare_keys = [], [], [], []
    minute: tuple[float, float, list[float]] | None = None
    with (
        DemoServer(instances=8, big_chat=BIG_CHAT) as demo,
        tempfile.TemporaryDirectory(prefix="bench-live-") as home,
    ):
        env = child_env(home)
        httpx.get(f"{demo.url}/")  # socket.io's loop is known from the first request
        demo.write(INSTANCE, BIG_CHAT_JID, "hello")  # and the namespace has had an event
        with SocketFloor(demo.url) as floor:
            for run_number in range(runs):
                bare_keys += _bare_run(env)[0]
                with _open(demo, env) as probe:
                    probe.wait("frame", test=lambda r: r["live"] is True, timeout=120)
                    time.sleep(SETTLE)
                    for index in range(WRITES_PER_RUN):
                        start = time.monotonic()
                        text = f"live {run_number}.{index}"
                        message_id = demo.write(INSTANCE, BIG_CHAT_JID, text)
                        frame = probe.wait("frame", after=start, test=_shown(message_id))
                        latencies.append((frame["t"] - start) * 1000)
                        floors.append((floor.wait(message_id) - start) * 1000)
                        time.sleep(SETTLE)
                    polled.append(_requests_per_minute(demo, probe, WINDOW))
                    before, after, during = _flood(demo, probe, FLOOD_EVENTS)
                    rss_before.append(before)
                    rss_after.append(after)
                    keys += during
                    if run_number == runs - 1:
                        minute = _flood(demo, probe, MINUTE_EVENTS)
                args = ["--url", demo.url, "--key", demo.api_key]
                with ProbeProcess("instances", args, env) as probe:
                    probe.wait("frame", screen="InstancesScreen", test=lambda r: r["visible"] > 0)
                    time.sleep(SETTLE)
                    polled_off.append(_requests_per_minute(demo, probe, WINDOW))
    section = f"9. Live events (a conversation of {BIG_CHAT:,} messages open)"
    report.add(
        Row(
            section,
            Figure("socket event → frame with its bubble, p50", latencies),
            Figure("bare socket.io client: emit → received", floors),
            target="≤ 50 ms",
            check=at_most_ms(50),
            note=f"{len(latencies)} messages",
        )
    )
    report.add(
        Row(
            section,
            Figure("HTTP requests per minute while the socket is up", polled, unit="/min"),
            Figure("the same app on its instances list (it polls)", polled_off, unit="/min"),
            target="0",
            check=lambda value, _floor: value == 0,
            note=f"{WINDOW:g} s windows",
        )
    )
    report.add(
        Row(
            section,
            Figure(f"RSS after {FLOOD_EVENTS:,} events (1,000/s)", rss_after, unit="MiB"),
            Figure("RSS before them", rss_before, unit="MiB"),
            target="≤ 1.10× floor",
            check=at_most_ratio(1.10),
        )
    )
    report.add(
        Row(
            section,
            Figure("key → frame while 1,000 events a second arrive", keys),
            Figure("bare DataTable page key", bare_keys),
            note=f"{len(keys)} keys; worst {max(keys):.0f} ms; not answered: {len(UNANSWERED)}",
        )
    )
    if minute is not None:
        before, after, during = minute
        report.add(
            Row(
                section,
                Figure(f"RSS after a minute of it ({MINUTE_EVENTS:,} events)", [after], unit="MiB"),
                Figure("RSS before it", [before], unit="MiB"),
                target="≤ 1.10× floor",
                check=at_most_ratio(1.10),
                note="one run",
            )
        )
        report.add(
            Row(
                section,
                Figure("key → frame during that minute", during),
                Figure("bare DataTable page key", bare_keys),
                note=f"{len(during)} keys; worst {max(during):.0f} ms",
            )
        )
