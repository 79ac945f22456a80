"""A raw subscription to the gateway's socket.io events: every event of the namespaces asked
for, as EventRecords (the command line's ``events``, the webhook receiver's comparison).

It connects as core/live.py does: one python-socketio AsyncClient per namespace (a 1.7.1 and
a 2.x emit on ``/<instance>``; a 2.x started with WEBSOCKET_GLOBAL_EVENTS also on ``/``), the
key in the ``apikey`` header (2.x reads it at the handshake, 1.7.1 needs none; never in a URL),
polling first so a refusal comes with its status. A namespace exists on a real server only
once something was emitted to it: it is tried again with backoff until it connects. The same
event on ``/`` and on ``/<instance>`` is handed over once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import Any

from gateway_tui.core.events.record import GLOBAL, SOCKET, EventRecord, fingerprint, from_envelope

ROOT = "/"
FIRST_DELAY = 1.0
MAX_DELAY = 30.0
_SEEN_KEPT = 2048  # fingerprints kept to hand an event over once
_backoff = asyncio.sleep


def why_not(error: BaseException | str) -> str:
    """The plain reason a namespace could not be had."""
    text = str(error)
    lowered = text.lower()
    if "404" in text:
        return "the gateway's websocket is off (/socket.io/ answers 404)"
    if "403" in text or "401" in text:
        return "the gateway refused the key for its websocket"
    if "invalid namespace" in lowered or "unable to connect" in lowered:
        return "no event stream yet (nothing was emitted to it: its websocket events off?)"
    return f"the websocket could not be reached ({text or type(error).__name__})"


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
        for name in ("socketio", "engineio", "socketio.client", "engineio.client"):
            logging.getLogger(name).setLevel(logging.CRITICAL)
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
        import socketio

        delay = FIRST_DELAY
        while True:
            client = socketio.AsyncClient(
                reconnection=True,
                reconnection_delay=FIRST_DELAY,
                reconnection_delay_max=MAX_DELAY,
                randomization_factor=0.5,
                logger=False,
                engineio_logger=False,
                handle_sigint=False,  # Ctrl-C is the caller's (it would cancel every task)
            )
            said: list[str] = []
            client.on("*", lambda _event, data=None: self.received(namespace, data), namespace)
            client.on("connect", lambda: self._up(namespace, True), namespace)
            client.on("disconnect", lambda *_: self._up(namespace, False), namespace)
            client.on(
                "connect_error",
                lambda *data, said=said: said.append(" ".join(map(str, data))),
                namespace,
            )
            try:
                await client.connect(
                    self.url,
                    namespaces=[namespace],
                    headers=self._headers,
                    transports=["polling", "websocket"],
                    wait_timeout=10,
                )
            except asyncio.CancelledError:
                with contextlib.suppress(Exception):
                    await client.disconnect()
                raise
            except Exception as error:  # noqa: BLE001 - every failure is said, then retried
                with contextlib.suppress(Exception):
                    await client.disconnect()
                why = why_not(" ".join([*said, str(error)]))
                if why.startswith("the websocket could not be reached"):
                    why = await self._probe() or why
                if "404" in why or "refused the key" in why:
                    self._fail(why)
                    return
                self._on_status(f"{namespace}: {why}; trying again")
                await _backoff(delay * random.uniform(0.5, 1.0))  # noqa: S311 - jitter
                delay = min(delay * 2, MAX_DELAY)
                continue
            try:
                await asyncio.Event().wait()  # until cancelled: reconnection is the client's
            finally:
                with contextlib.suppress(Exception):
                    await client.disconnect()

    def _up(self, namespace: str, up: bool) -> None:
        if up:
            self.connected.add(namespace)
            self._on_status(f"{namespace}: following")
        elif namespace in self.connected:
            self.connected.discard(namespace)
            if not self._stopping:
                self._on_status(f"{namespace}: dropped, reconnecting")

    async def _probe(self) -> str | None:
        """Why the handshake fails, from its status (None when it does not say)."""
        import httpx

        try:
            async with httpx.AsyncClient(timeout=10) as http:
                answer = await http.get(
                    f"{self.url}/socket.io/",
                    params={"EIO": "4", "transport": "polling"},
                    headers=self._headers,
                )
        except httpx.HTTPError:
            return None
        if answer.status_code in (401, 403, 404):
            return why_not(str(answer.status_code))
        return None
