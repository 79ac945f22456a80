"""Live events from the gateway's socket.io server, for the app (no Textual here).

A 1.7.1 emits only on ``/<instance>`` (a 2.x there too): one stream per instance followed,
each its own connection, so one instance whose namespace does not exist yet holds back no
other. A 2.x whose server sets global events also emits every instance's events on ``/``:
on that line the default namespace is followed as well, and once an event has come there it
carries every instance (the per-instance streams are ended, new instances need none). The key
goes in the ``apikey`` header (2.x reads it at the handshake; 1.7.1 needs none), never in the
URL, so no log line of the socket.io libraries can hold it. Each event's own ``apikey`` (the
instance's key) is dropped the moment the event arrives.

A namespace exists only once the server has emitted to it ("Invalid namespace" until then):
tried again with backoff (1 s doubling to 30 s, jittered) until it connects. A stream that
ends — the server disconnected it, or its pings stopped — is opened again the same way (the
link's own loop: python-socketio would not reconnect after a server-side disconnect). When
the socket cannot be had at all — the server's websocket is off (``/socket.io/`` answers
404), or the key is refused (403) — ``on_status`` says so once, in plain words, and the app
keeps polling as before.

Events are handed over in batches: the first waiting event calls ``on_arrival``; the app then
takes all that arrived until its next frame and applies them in one go.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

RECONNECT_FIRST = 1.0
RECONNECT_MAX = 30.0
GLOBAL = "/"  # 2.x with WEBSOCKET_GLOBAL_EVENTS: every instance's events
_backoff = asyncio.sleep  # the wait between tries (a test watches it)


# The events live updates need an instance's websocket to send: new messages (received and
# sent), delivery marks, connection changes and QR codes.
LIVE_EVENTS = (
    "MESSAGES_UPSERT",
    "SEND_MESSAGE",
    "MESSAGES_UPDATE",
    "CONNECTION_UPDATE",
    "QRCODE_UPDATED",
)
OFF = "ENABLED"  # what live_events_missing names when the websocket itself is off


def live_events_missing(configured: bool, enabled: bool, events: list[str]) -> list[str]:
    """What an instance's websocket settings lack for live updates: ``[OFF]`` when they say it
    is off, else the events not ticked (no events ticked: the gateway sends all). Settings
    never written (``configured`` False) claim nothing: [] (the stream itself tells)."""
    if not configured:
        return []
    if not enabled:
        return [OFF]
    return [name for name in LIVE_EVENTS if events and name not in events]


# What each of LIVE_EVENTS brings, in words.
LIVE_EVENT_WORDS = {
    "MESSAGES_UPSERT": "new messages",
    "SEND_MESSAGE": "messages sent from elsewhere",
    "MESSAGES_UPDATE": "delivery marks",
    "CONNECTION_UPDATE": "connection changes",
    "QRCODE_UPDATED": "new QR codes",
}


def live_gap(instance: str, missing: list[str], *, webhook_on: bool = False) -> str:
    """What really comes live from ``instance`` given what its websocket settings lack
    (``live_events_missing``), and what the app does instead: none ("No live updates") only
    when the websocket is off; else partial, naming what comes and what does not."""
    if missing == [OFF]:
        why = "its websocket is off"
        if webhook_on:
            why += " (its webhook is on, but this app listens on the websocket only)"
        return f"No live updates from {instance}: {why}; the screens read again instead"
    comes = [LIVE_EVENT_WORDS[name] for name in LIVE_EVENTS if name not in missing]
    lacks = [f"{LIVE_EVENT_WORDS.get(name, name)} ({name})" for name in missing]
    instead = []
    if "MESSAGES_UPSERT" in missing:
        instead.append("the chats and the conversation read new messages again")
    if "MESSAGES_UPDATE" in missing:
        instead.append("the conversation reads delivery marks again")
    if not instead:
        instead.append("the rest shows on the next read")
    return (
        f"Live updates from {instance} are partial: its websocket sends "
        f"{', '.join(comes) or 'none of what the screens need'}, but not {', '.join(lacks)}; "
        f"{' and '.join(instead)} at the refresh interval"
    )


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
    """The socket.io streams; ``run()`` is a long-lived task of the app."""

    def __init__(
        self,
        url: str,
        api_key: str,
        on_arrival: Callable[[], None],
        on_status: Callable[[bool, str | None], None],
        is_v2: Callable[[], bool] = lambda: False,
    ) -> None:
        """``on_arrival`` is called when events are waiting (``take()`` them, once per frame);
        ``on_status`` with (live, why not) when that changes; ``is_v2``: whether the gateway
        is known to be of the 2.x line (its global stream is then tried)."""
        self.url = url.rstrip("/")
        self._headers = {"apikey": api_key}
        self._on_arrival = on_arrival
        self._on_status = on_status
        self._is_v2 = is_v2
        self.instances: set[str] = set()
        self.connected: set[str] = set()  # namespaces connected now
        self.global_stream = False  # an event came on "/": it carries every instance
        self.live = False
        self._why: str | None = None
        self._changed = asyncio.Event()
        self._pending: list[LiveEvent] = []
        self._stopped = False
        self._streams: dict[str, asyncio.Task[None]] = {}
        self._refused = False  # 404 / 403: no stream will be had; the app polls
        self.reconnects = 0  # streams that ended and were opened again

    def follow(self, instance: str) -> None:
        """Receive ``instance``'s events too."""
        if instance not in self.instances:
            self.instances.add(instance)
            self._changed.set()

    def live_for(self, instance: str) -> bool:
        """Whether ``instance``'s events come now."""
        return (GLOBAL in self.connected and self.global_stream) or f"/{instance}" in self.connected

    def stop(self) -> None:
        self._stopped = True
        self._changed.set()

    def _received(self, namespace: str, payload: Any) -> None:
        event = _event_from(namespace, payload)
        if event is None:
            return
        if namespace == GLOBAL:
            if not self.global_stream:
                self.global_stream = True
                self._changed.set()  # the per-instance streams are not needed any more
        elif self.global_stream and GLOBAL in self.connected:
            return  # the global stream brings it
        self._pending.append(event)
        if len(self._pending) == 1:
            self._on_arrival()

    def take(self) -> list[LiveEvent]:
        """The events received since the last call (the app calls this once per frame)."""
        events, self._pending = self._pending, []
        return events

    def _wanted(self) -> set[str]:
        if self._refused or not self.instances:
            return set()
        wanted = {GLOBAL} if self._is_v2() else set()
        if not (self.global_stream and GLOBAL in self.connected):
            wanted |= {f"/{name}" for name in self.instances}
        return wanted

    async def run(self) -> None:
        import socketio  # noqa: F401 - after the first frame: start-up does not need it

        # Its loggers would print to the terminal the TUI owns.
        for name in ("socketio", "engineio", "socketio.client", "engineio.client"):
            logging.getLogger(name).setLevel(logging.CRITICAL)
        try:
            while not self._stopped:
                await self._changed.wait()
                self._changed.clear()
                if self._stopped:
                    break
                wanted = self._wanted()
                for namespace in set(self._streams) - wanted:
                    self._streams.pop(namespace).cancel()
                for namespace in wanted - set(self._streams):
                    self._streams[namespace] = asyncio.create_task(self._stream(namespace))
        finally:
            for task in self._streams.values():
                task.cancel()
            await asyncio.gather(*self._streams.values(), return_exceptions=True)
            self._streams.clear()
            self.connected.clear()
            self._status(False, None)

    async def _stream(self, namespace: str) -> None:
        """One namespace's connection, tried with backoff until it connects, and again with
        backoff each time it ends — whoever ended it (python-socketio reconnects by itself
        only after a lost transport, never after the server's own disconnect)."""
        import socketio

        delay = RECONNECT_FIRST
        while True:
            client = socketio.AsyncClient(reconnection=False, logger=False, engineio_logger=False)
            refusals: list[str] = []
            ended = asyncio.Event()

            def dropped(*_: Any, ended: asyncio.Event = ended) -> None:
                ended.set()
                self._connected(namespace, False)

            client.on("*", lambda _e, data: self._received(namespace, data), namespace=namespace)
            client.on("connect", lambda: self._connected(namespace, True), namespace=namespace)
            client.on("disconnect", dropped, namespace=namespace)
            client.on(
                "connect_error",
                lambda *data, said=refusals: said.append(" ".join(map(str, data))),
                namespace=namespace,
            )
            try:
                await client.connect(
                    self.url,
                    namespaces=[namespace],
                    headers=self._headers,
                    # Polling first, then the upgrade: a refusal then comes with its status.
                    transports=["polling", "websocket"],
                    wait_timeout=10,
                )
            except asyncio.CancelledError:
                with contextlib.suppress(Exception):
                    await client.disconnect()
                raise
            except Exception as error:  # noqa: BLE001 - any failure means: poll meanwhile
                with contextlib.suppress(Exception):
                    await client.disconnect()
                # A namespace not there yet: "Invalid namespace" from a real (node) server,
                # "Unable to connect" from a python-socketio one.
                said = " ".join([*refusals, str(error)]).lower()
                if "invalid namespace" in said or "unable to connect" in said:
                    why = why_not(Exception("Invalid namespace"))
                else:
                    why = why_not(error)
                    if why.startswith(_UNREACHED):
                        # The client's text does not always carry the status: ask the server.
                        why = await self._probe() or why
                if "404" in why or "refused the key" in why:
                    self._refused = True  # no stream will be had: the app polls
                    self._status(False, why)
                    return
                if namespace != GLOBAL:  # "/" need not carry anything: no reason to tell
                    self._status(self.live, why)
                await _backoff(delay * random.uniform(0.5, 1.0))  # noqa: S311 - jitter
                delay = min(delay * 2, RECONNECT_MAX)
                continue
            delay = RECONNECT_FIRST  # it connected: the next drop starts the backoff afresh
            try:
                await ended.wait()  # the server ended it, or its pings stopped
            finally:
                with contextlib.suppress(Exception):
                    await client.disconnect()
                self._connected(namespace, False)
            self.reconnects += 1
            await _backoff(delay * random.uniform(0.5, 1.0))  # noqa: S311 - jitter

    def _connected(self, namespace: str, up: bool) -> None:
        if up:
            self.connected.add(namespace)
        else:
            self.connected.discard(namespace)
        if namespace == GLOBAL and self.global_stream:
            self._changed.set()  # per-instance streams: not needed, or needed again
        streams = self.connected - ({GLOBAL} if not self.global_stream else set())
        if streams:
            self._status(True, None)
        elif not up and not self._stopped:
            self._status(False, "the websocket dropped: reconnecting")

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
        if (live, why) == (self.live, self._why):
            return
        self.live, self._why = live, why
        self._on_status(live, why)
