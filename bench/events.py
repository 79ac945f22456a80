"""11. The event monitor (issue 31): the app headless in this process (Textual's Pilot, no pty)
the monitor of one instance open.

- event → monitor row, p50: from just before the demo emits a ``messages.upsert`` to the frame
  after the monitor's table holds it as its newest row. Floor: a bare python-socketio client on
  the same namespace receiving the same event (bench/live.py's SocketFloor).
- keys answered and RSS during a minute at 1,000 events a second (DemoEvents.flood): a cursor
  key every half second, from the key posted to the frame after the table moved its cursor
  (not Pilot's press: it waits until the process is idle, which a flood never lets it be,
  so it measured Pilot's own limit of a second per wait); the process's VmRSS before and
  after; how many of the events the monitor took in by the flood's end, and once the demo's
  queued emits have come (until none for CATCH_UP seconds). Floor: the same key with no
  events coming.

Not the pty probe of sections 1-9: the figures include no terminal I/O. The demo runs in a
process of its own, driven through a pipe (a demo flooding in the app's process took the GIL
from it: keys then waited seconds). The ring bounds what the monitor keeps (5,000).
"""

from __future__ import annotations

import asyncio
import tempfile
import time

from bench.live import INSTANCE, SocketFloor
from bench.report import Figure, Report, Row, at_most_ratio

WRITES_PER_RUN = 10
FLOOD_RATE = 1_000
MINUTE = 60.0
KEY_EVERY = 0.5
CATCH_UP = 10.0  # seconds without a new event after the flood: what came, came


def _rss_mib() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def _demo_child(conn) -> None:  # noqa: ANN001 - a multiprocessing Connection
    """The demo gateway in a process of its own (the app's process then shares its GIL with
    nothing but itself), run by commands: ("write", text) → (id, emitted at), ("flood",
    rate, count) → when done."""
    import httpx

    from gateway_tui.demo.server import DemoServer

    with DemoServer(instances=8) as demo:
        httpx.get(f"{demo.url}/")  # socket.io's loop is known from the first request
        # The server's side of a lost flood: a client it timed out (its pings unanswered
        # within ping_timeout) loses every event queued for it.
        closed: list[str] = []
        eio = demo.events.sio.eio
        handler = eio.handlers["disconnect"]

        async def counted(sid: str, reason: object) -> None:  # noqa: ANN001
            closed.append(str(reason))
            await handler(sid, reason)

        eio.handlers["disconnect"] = counted
        chats = demo.state.instances[INSTANCE].chats.values()
        people = [c for c in chats if not c.jid.endswith("@g.us")]
        jid = max(people, key=lambda c: c.messages[-1].timestamp).jid
        conn.send((demo.url, demo.api_key))
        while True:
            command = conn.recv()
            if command[0] == "write":
                start = time.monotonic()
                conn.send((demo.write(INSTANCE, jid, command[1]), start))
            elif command[0] == "flood":
                emitted, were = demo.events.emitted, len(closed)
                demo.flood(INSTANCE, jid, command[1], command[2]).result(3600)
                # asked of the server (some still queued), and the clients it closed meanwhile
                conn.send((demo.events.emitted - emitted, closed[were:]))
            else:
                return


async def _measure(conn, url: str, key: str, runs: int, minute: float) -> dict[str, list[float]]:  # noqa: ANN001
    from gateway_tui.core.files.config import load_config
    from gateway_tui.tui.app import GatewayApp
    from gateway_tui.tui.screens.event_monitor import EventMonitorScreen

    app = GatewayApp(load_config(url=url, api_key=key))
    out: dict[str, list[float]] = {"row": [], "floor": [], "keys": [], "idle": [], "rss": []}

    def newest_is(screen: EventMonitorScreen, message_id: str) -> bool:
        rows = screen.table.visible_rows
        return bool(rows) and rows[0].data.get("key", {}).get("id") == message_id

    async def key(pilot, name: str) -> float:  # noqa: ANN001 - Textual's Pilot
        """Milliseconds from posting ``name`` to the frame after the table handled it."""
        table = screen.table
        answered = asyncio.Event()
        handled: list[float] = []
        action = {"up": "action_cursor_up", "down": "action_cursor_down"}[name]
        original = getattr(table, action)

        def stamped() -> None:
            original()
            setattr(table, action, original)
            table.call_after_refresh(lambda: (handled.append(time.monotonic()), answered.set()))

        setattr(table, action, stamped)
        began = time.monotonic()
        app.simulate_key(name)
        await asyncio.wait_for(answered.wait(), 120)
        return (handled[0] - began) * 1000

    async with app.run_test(size=(140, 40)) as pilot:
        while not app.state.instances.value:
            await pilot.pause(0.05)
        screen = EventMonitorScreen(INSTANCE)
        app.push_screen(screen)
        while screen.stream is None or not screen.stream.connected:
            await pilot.pause(0.05)
        with SocketFloor(url) as floor:
            for run in range(runs):
                for index in range(WRITES_PER_RUN):
                    conn.send(("write", f"bench {run}.{index}"))
                    message_id, start = await asyncio.to_thread(conn.recv)
                    while not newest_is(screen, message_id):  # noqa: ASYNC110 - a frame's
                        await asyncio.sleep(0.001)
                    await pilot.pause()  # the frame that shows it
                    out["row"].append((time.monotonic() - start) * 1000)
                    arrived = await asyncio.to_thread(floor.wait, message_id)
                    out["floor"].append((arrived - start) * 1000)
        for index in range(20):
            out["idle"].append(await key(pilot, "down" if index % 2 else "up"))
            await asyncio.sleep(0.05)
        out["rss"].append(_rss_mib())
        before_flood = screen.ring.total
        conn.send(("flood", FLOOD_RATE, int(FLOOD_RATE * minute)))
        done = asyncio.ensure_future(asyncio.to_thread(conn.recv))
        while not done.done():
            out["keys"].append(await key(pilot, "down" if len(out["keys"]) % 2 else "up"))
            await asyncio.sleep(KEY_EVERY)
        out["rss"].append(_rss_mib())
        taken_at_end = screen.ring.total - before_flood
        # The demo's emits are queued on its loop: the last ones leave after its flood ends.
        # The monitor is given until nothing has come for CATCH_UP seconds.
        (emitted, closed), ended = done.result(), time.monotonic()
        last, quiet_since = -1, time.monotonic()
        while screen.ring.total - before_flood < emitted:
            if screen.ring.total != last:
                last, quiet_since = screen.ring.total, time.monotonic()
            elif time.monotonic() - quiet_since > CATCH_UP:
                break
            await asyncio.sleep(0.1)
        out["catch_up"] = [time.monotonic() - ended]
        out["kept"] = [float(len(screen.ring)), float(screen.ring.total)]
        out["drops"] = [float(screen.stream.drops)]  # the monitor's socket, seen by the app
        out["closed"] = closed  # type: ignore[assignment] - the demo's side
        out["taken"] = [
            float(taken_at_end),
            float(screen.ring.total - before_flood),
            float(emitted),
        ]
    return out


def run(report: Report, runs: int, minute: float = MINUTE) -> None:
    import multiprocessing
    import os

    parent, child = multiprocessing.Pipe()
    demo = multiprocessing.get_context("spawn").Process(target=_demo_child, args=(child,))
    demo.start()
    try:
        with tempfile.TemporaryDirectory(prefix="bench-events-") as home:
            os.environ["GATEWAY_TUI_HOME"] = home
            url, key = parent.recv()
            out = asyncio.run(_measure(parent, url, key, runs, minute))
    finally:
        parent.send(("stop",))
        demo.join(30)
        if demo.is_alive():
            demo.kill()
    section = "11. Event monitor (headless, in this process)"
    at_end, taken, sent = out["taken"]
    report.add(
        Row(
            section,
            Figure("socket event → monitor row (frame), p50", out["row"]),
            Figure("bare socket.io client: emit → received", out["floor"]),
            note=f"{len(out['row'])} messages",
        )
    )
    report.add(
        Row(
            section,
            Figure(f"key answered while {FLOOD_RATE:,} events a second arrive", out["keys"]),
            Figure("the same key with no events coming", out["idle"]),
            note=f"{len(out['keys'])} keys in {minute:g} s; worst {max(out['keys']):.0f} ms; "
            f"taken in: {at_end:,.0f} by the flood's end, {taken:,.0f} of the {sent:,.0f} "
            f"emitted {out['catch_up'][0]:.0f} s later; the socket dropped "
            f"{out['drops'][0]:.0f} times (the demo closed {len(out['closed'])} clients"
            f"{': ' + ', '.join(sorted(set(out['closed']))) if out['closed'] else ''})",
        )
    )
    kept, total = out["kept"]
    report.add(
        Row(
            section,
            Figure(f"RSS after {minute:g} s at {FLOOD_RATE:,}/s", [out["rss"][1]], unit="MiB"),
            Figure("RSS before it", [out["rss"][0]], unit="MiB"),
            target="≤ 1.10× floor",
            check=at_most_ratio(1.10),
            note=f"one run; the app alone; ring kept {kept:,.0f} of {total:,.0f}",
        )
    )
