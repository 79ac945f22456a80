"""A raw subscription to the gateway's socket.io events: every event of the namespaces asked
for, as EventRecords (the command line's ``events``, the webhook receiver's comparison).

It connects through the app's own code for it (core/live.py's follow_namespace, which the
app's LiveLink uses too): one python-socketio AsyncClient per namespace (a 1.7.1 and a 2.x
emit on ``/<instance>``; a 2.x started with WEBSOCKET_GLOBAL_EVENTS also on ``/``), the key in
the ``apikey`` header (never in a URL), tried with backoff until the namespace exists and
opened again whenever it ends. The same event on ``/`` and on ``/<instance>`` is handed over
once.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections import OrderedDict, deque
from collections.abc import Callable, Iterable
from typing import Any

from gateway_tui.core.events.record import GLOBAL, SOCKET, EventRecord, fingerprint, from_envelope
from gateway_tui.core.live import follow_namespace, quiet_socketio_loggers
from gateway_tui.core.text.i18n import _

ROOT = "/"
_SEEN_KEPT = 2048  # fingerprints kept to hand an event over once


class EventStream:
    """Follows ``instances`` (``/<name>`` each) and, with ``global_stream``, ``/``.

    ``on_record`` gets each event once; ``on_status`` a line when a namespace connects, drops
    or cannot be had. A refusal no retry can mend (404: websocket off, 403: key refused) ends
    the stream: ``failed`` says why and ``run()`` returns."""

    def __init__(
        self,
        url: str,
        api_key: str,
        on_record: Callable[[EventRecord], None],
        *,
        instances: Iterable[str] = (),
        global_stream: bool = False,
        on_status: Callable[[str], None] = lambda _line: None,
    ) -> None:
        self.url = url.rstrip("/")
        self._headers = {"apikey": api_key}
        self._on_record = on_record
        self._on_status = on_status
        self.namespaces = [f"/{name}" for name in dict.fromkeys(instances)]
        if global_stream:
            self.namespaces.append(ROOT)
        self.connected: set[str] = set()
        self.failed: str | None = None
        self.drops = 0  # times a namespace that was up dropped (not by us): events may be lost
        # (fingerprint, way) → events of it handed over whose twin has not come yet
        self._seen: OrderedDict[tuple[tuple[str, str, str, str], str], int] = OrderedDict()
        self._done = asyncio.Event()
        self._stopping = False

    def received(self, namespace: str, payload: Any) -> None:
        """One envelope from ``namespace`` (python-socketio's catch-all handler)."""
        via = GLOBAL if namespace == ROOT else SOCKET
        record = from_envelope(payload, via=via, namespace=None if via == GLOBAL else namespace)
        if record is None:
            return
        if len({namespace == ROOT for namespace in self.namespaces}) < 2:
            self._on_record(record)  # one way only: no twin to wait for
            return
        # The same event on "/" and on "/<instance>" is handed over once: an event is dropped
        # only when its twin came the other way (two alike the same way are two events).
        key = fingerprint(record)
        twin = (key, SOCKET if via == GLOBAL else GLOBAL)
        if self._seen.get(twin):
            self._seen[twin] -= 1
            if not self._seen[twin]:
                del self._seen[twin]
            return
        mine = (key, via)
        self._seen[mine] = self._seen.pop(mine, 0) + 1
        if len(self._seen) > _SEEN_KEPT:
            self._seen.popitem(last=False)
        self._on_record(record)

    async def run(self) -> None:
        """Follow until cancelled (or refused for good)."""
        quiet_socketio_loggers()
        tasks = [asyncio.create_task(self._follow(namespace)) for namespace in self.namespaces]
        try:
            await self._done.wait()
        finally:
            self._stopping = True  # the disconnects that follow are ours: nothing to say
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    def _fail(self, why: str) -> None:
        if self.failed is None:
            self.failed = why
        self._done.set()

    async def _follow(self, namespace: str) -> None:
        await follow_namespace(
            self.url,
            self._headers,
            namespace,
            on_event=self.received,
            on_up=lambda up: self._up(namespace, up),
            on_refused=self._fail,
            on_retry=lambda why: self._on_status(
                _("{namespace}: {problem}; trying again").format(namespace=namespace, problem=why)
            ),
        )

    def _up(self, namespace: str, up: bool) -> None:
        if up:
            self.connected.add(namespace)
            self._on_status(_("{namespace}: following").format(namespace=namespace))
        elif namespace in self.connected:
            self.connected.discard(namespace)
            if not self._stopping:
                self.drops += 1
                self._on_status(_("{namespace}: dropped, reconnecting").format(namespace=namespace))


class StreamThread:
    """An EventStream on a loop of its own, in a thread: the socket is read, and the server's
    pings answered, however long the caller's loop is busy (a screen's frames). A server
    that sends faster than its client reads queues the events, its pings behind them; a ping
    answered more than its timeout (20 s) after it was sent ends the connection, and every
    event still queued is lost (a flood of 1,000 a second into the monitor did that).

    Records wait in a deque (appended in the thread, taken on the caller's loop: O(1) each);
    ``wake`` is called, on the caller's loop, when the first record waits after a ``take``
    (the caller then takes them all at its next frame). ``on_status`` too is called on the
    caller's loop."""

    def __init__(
        self,
        url: str,
        api_key: str,
        wake: Callable[[], None],
        *,
        instances: Iterable[str] = (),
        global_stream: bool = False,
        on_status: Callable[[str], None] = lambda _line: None,
    ) -> None:
        self._wake = wake
        self._status = on_status
        self._waiting: deque[EventRecord] = deque()
        self._woken = False
        self._caller: asyncio.AbstractEventLoop | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._task: asyncio.Task[None] | None = None
        self._stopping = False
        self.stream = EventStream(
            url,
            api_key,
            self._received,
            instances=instances,
            global_stream=global_stream,
            on_status=self._said,
        )

    def _received(self, record: EventRecord) -> None:  # in the thread
        self._waiting.append(record)
        if not self._woken and self._caller is not None:
            self._woken = True
            with contextlib.suppress(RuntimeError):  # the caller's loop is closed
                self._caller.call_soon_threadsafe(self._wake)

    def _said(self, line: str) -> None:  # in the thread
        if self._caller is not None:
            with contextlib.suppress(RuntimeError):
                self._caller.call_soon_threadsafe(self._status, line)

    def take(self) -> list[EventRecord]:
        """Every record waiting (on the caller's loop)."""
        self._woken = False
        waiting = self._waiting
        return [waiting.popleft() for _index in range(len(waiting))]

    def _run(self, ended: asyncio.Future[None]) -> None:
        async def main() -> None:
            self._loop = asyncio.get_running_loop()
            self._task = asyncio.current_task()
            if not self._stopping:  # else stopped before it began
                await self.stream.run()

        try:
            asyncio.run(main())
        except (asyncio.CancelledError, Exception):  # noqa: BLE001 - said by stream.failed
            pass
        finally:
            caller = self._caller
            if caller is not None:
                with contextlib.suppress(RuntimeError):
                    caller.call_soon_threadsafe(lambda: ended.done() or ended.set_result(None))

    async def run(self) -> None:
        """Follow until cancelled (or refused for good: ``stream.failed`` says why)."""
        self._caller = asyncio.get_running_loop()
        ended: asyncio.Future[None] = self._caller.create_future()
        thread = threading.Thread(target=self._run, args=(ended,), name="events", daemon=True)
        thread.start()
        try:
            await asyncio.shield(ended)
        finally:
            self._stop()

    def _stop(self) -> None:
        self._stopping = True
        loop, task = self._loop, self._task
        if loop is not None and task is not None:
            with contextlib.suppress(RuntimeError):  # its loop has ended already
                loop.call_soon_threadsafe(task.cancel)
