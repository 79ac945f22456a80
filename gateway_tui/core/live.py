"""Live events from the gateway's socket.io server, for the app (no Textual here).

One connection per gateway, with the namespaces of the instances being followed: a 1.7.1
emits only on ``/<instance>`` (and a 2.x there too), so that works on both lines. The key goes
in the ``apikey`` header (2.x reads it at the handshake; 1.7.1 needs none), never in the URL,
so no log line of the socket.io libraries can hold it. Each event's own ``apikey`` (the
instance's key) is dropped the moment the event arrives.

python-socketio reconnects by itself with backoff (1 s doubling to 30 s, jittered). When the
socket cannot be had at all — the server's websocket is off (``/socket.io/`` answers 404), or
the key is refused (403) — ``on_status`` says so once, in plain words, and the app keeps
polling as before.

Events are handed over in batches: the first waiting event calls ``on_arrival``; the app then
takes all that arrived until its next frame and applies them in one go.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

RECONNECT_FIRST = 1.0
RECONNECT_MAX = 30.0
# A real 1.7.1's namespace exists only once it has emitted to it: "Invalid namespace" until
# then. Tried again at this pace.
NAMESPACE_RETRY_SECONDS = 5.0


@dataclass(frozen=True, slots=True)
class LiveEvent:
    event: str  # "messages.upsert", "send.message", "connection.update", …
    instance: str
    data: Any  # the event's ``data``: server data, never markup


def _event_from(namespace: str, payload: Any) -> LiveEvent | None:
    if not isinstance(payload, dict):
        return None
    payload.pop("apikey", None)  # the instance's own key: never kept, shown or logged
    event = payload.get("event")
    instance = payload.get("instance") or namespace.lstrip("/")
    if not isinstance(event, str) or not isinstance(instance, str):
        return None
    return LiveEvent(event, instance, payload.get("data"))


_UNREACHED = "the websocket could not be reached"


def why_not(error: BaseException) -> str:
    """The plain reason a socket could not be had (no key in it: the key is in no URL)."""
    text = str(error)
    if "404" in text:
        return "the gateway's websocket is off (/socket.io/ answers 404)"
    if "403" in text or "401" in text:
        return "the gateway refused the key for its websocket"
    if "Invalid namespace" in text:
        return "the instance has no event stream yet (its websocket events are off?)"
    return f"{_UNREACHED} ({text or type(error).__name__})"


class LiveLink:
    """The socket.io connection; ``run()`` is a long-lived task of the app."""

    def __init__(
        self,
        url: str,
        api_key: str,
        on_arrival: Callable[[], None],
        on_status: Callable[[bool, str | None], None],
    ) -> None:
        """``on_arrival`` is called when events are waiting (``take()`` them, once per frame);
        ``on_status`` with (live, why not) when that changes."""
        self.url = url.rstrip("/")
        self._headers = {"apikey": api_key}
        self._on_arrival = on_arrival
        self._on_status = on_status
        self.instances: set[str] = set()
        self.live = False
        self._changed = asyncio.Event()
        self._pending: list[LiveEvent] = []
        self._stopped = False

    def follow(self, instance: str) -> None:
        """Receive ``instance``'s events too (the connection is made again with it)."""
        if instance not in self.instances:
            self.instances.add(instance)
            self._changed.set()

    def stop(self) -> None:
        self._stopped = True
        self._changed.set()

    def _received(self, namespace: str, payload: Any) -> None:
        event = _event_from(namespace, payload)
        if event is not None:
            self._pending.append(event)
            if len(self._pending) == 1:
                self._on_arrival()

    def take(self) -> list[LiveEvent]:
        """The events received since the last call (the app calls this once per frame)."""
        events, self._pending = self._pending, []
        return events

    async def run(self) -> None:
        import socketio  # after the first frame: start-up does not need it

        # Its loggers would print to the terminal the TUI owns.
        for name in ("socketio", "engineio", "socketio.client", "engineio.client"):
            logging.getLogger(name).setLevel(logging.CRITICAL)
        while not self._stopped:
            await self._changed.wait()
            self._changed.clear()
            if self._stopped or not self.instances:
                continue
            client = socketio.AsyncClient(
                reconnection=True,
                reconnection_delay=RECONNECT_FIRST,
                reconnection_delay_max=RECONNECT_MAX,
                randomization_factor=0.5,
                logger=False,
                engineio_logger=False,
            )
            namespaces = [f"/{name}" for name in sorted(self.instances)]
            for namespace in namespaces:
                client.on(
                    "*",
                    lambda event, data, ns=namespace: self._received(ns, data),
                    namespace=namespace,
                )
            client.on("connect", lambda: self._status(True, None), namespace=namespaces[0])
            client.on(
                "disconnect",
                lambda *_: self._status(False, "the websocket dropped: reconnecting"),
                namespace=namespaces[0],
            )
            try:
                await client.connect(
                    self.url,
                    namespaces=namespaces,
                    headers=self._headers,
                    # Polling first, then the upgrade: a refusal then comes with its status.
                    transports=["polling", "websocket"],
                    wait_timeout=10,
                )
            except Exception as error:  # noqa: BLE001 - any failure means: poll instead
                why = why_not(error)
                if why.startswith(_UNREACHED):
                    # The client's text does not always carry the status: ask the server.
                    why = await self._probe() or why
                self._status(False, why)
                with contextlib.suppress(Exception):
                    await client.disconnect()
                if "Invalid namespace" in str(error):
                    await asyncio.sleep(NAMESPACE_RETRY_SECONDS)
                    self._changed.set()
                continue
            await self._changed.wait()  # a new instance to follow, or stop
            with contextlib.suppress(Exception):
                await client.disconnect()
        self._status(False, None)

    async def _probe(self) -> str | None:
        """Why the socket.io handshake fails, from its status (None: it did not say)."""
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
            return why_not(Exception(str(answer.status_code)))
        return None

    def _status(self, live: bool, why: str | None) -> None:
        self.live = live
        self._on_status(live, why)
