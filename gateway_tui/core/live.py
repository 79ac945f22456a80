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

The sockets are read on a loop of their own, in a thread (``LiveLink``): a server's pings are
answered however long the app's loop is busy drawing. Events are handed over in batches: the
first waiting event calls ``on_arrival`` (on the app's loop); the app then takes all that
arrived until its next frame and applies them in one go.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import threading
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from gateway_tui.core.text.i18n import N_, _

RECONNECT_FIRST = 1.0
RECONNECT_MAX = 30.0
CLOSE_SECONDS = 5.0  # a polite close of a socket, then its transport is dropped
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
    "MESSAGES_UPSERT": N_("new messages"),
    "SEND_MESSAGE": N_("messages sent from elsewhere"),
    "MESSAGES_UPDATE": N_("delivery marks"),
    "CONNECTION_UPDATE": N_("connection changes"),
    "QRCODE_UPDATED": N_("new QR codes"),
}


def live_gap(instance: str, missing: list[str], *, webhook_on: bool = False) -> str:
    """What really comes live from ``instance`` given what its websocket settings lack
    (``live_events_missing``), and what the app does instead: none ("No live updates") only
    when the websocket is off; else partial, naming what comes and what does not. In the
    reader's language."""
    if missing == [OFF]:
        if webhook_on:
            return _(
                "No live updates from {instance}: its websocket is off (its webhook is on, but "
                "this app listens on the websocket only); the screens read again instead"
            ).format(instance=instance)
        return _(
            "No live updates from {instance}: its websocket is off; the screens read again instead"
        ).format(instance=instance)
    comes = [_(LIVE_EVENT_WORDS[name]) for name in LIVE_EVENTS if name not in missing]
    lacks = [
        _("{what} ({event})").format(what=_(LIVE_EVENT_WORDS[name]), event=name)
        if name in LIVE_EVENT_WORDS
        else name
        for name in missing
    ]
    if "MESSAGES_UPSERT" in missing and "MESSAGES_UPDATE" in missing:
        instead = _(
            "the chats and the conversation read new messages again and the conversation reads "
            "delivery marks again at the refresh interval"
        )
    elif "MESSAGES_UPSERT" in missing:
        instead = _(
            "the chats and the conversation read new messages again at the refresh interval"
        )
    elif "MESSAGES_UPDATE" in missing:
        instead = _("the conversation reads delivery marks again at the refresh interval")
    else:
        instead = _("the rest shows on the next read at the refresh interval")
    if not comes:
        return _(
            "Live updates from {instance} are partial: its websocket sends none of what the "
            "screens need, but not {lacks}; {instead}"
        ).format(instance=instance, lacks=", ".join(lacks), instead=instead)
    return _(
        "Live updates from {instance} are partial: its websocket sends {comes}, but not "
        "{lacks}; {instead}"
    ).format(instance=instance, comes=", ".join(comes), lacks=", ".join(lacks), instead=instead)


@dataclass(frozen=True, slots=True)
class LiveEvent:
    event: str  # "messages.upsert", "send.message", "connection.update", …
    instance: str
    data: Any  # the event's ``data``: server data, never markup
    # The envelope's other top-level fields, as the event records keep them (2.3.7's
    # messages.set has ``isLatest`` and ``progress`` there: the history line reads them).
    extra: Mapping[str, Any] = field(default_factory=dict)


_ENVELOPE = frozenset({"event", "instance", "data", "apikey"})


def _event_from(namespace: str, payload: Any) -> LiveEvent | None:
    if not isinstance(payload, dict):
        return None
    payload.pop("apikey", None)  # the instance's own key: never kept, shown or logged
    event = payload.get("event")
    instance = payload.get("instance") or namespace.lstrip("/")
    if not isinstance(event, str) or not isinstance(instance, str):
        return None
    extra = {key: value for key, value in payload.items() if key not in _ENVELOPE}
    return LiveEvent(event, instance, payload.get("data"), extra)


_UNREACHED = "the websocket could not be reached"
# why_not's reasons: kept in English where they are decided (refused() reads them, the thread
# that follows the socket hands them over), said in the reader's language by said_why.
_WEBSOCKET_OFF = N_("the gateway's websocket is off (/socket.io/ answers 404)")
_KEY_REFUSED = N_("the gateway refused the key for its websocket")
_NO_STREAM = N_("the instance has no event stream yet (its websocket events are off?)")
_DROPPED = N_("the websocket dropped: reconnecting")


def why_not(error: BaseException | str) -> str:
    """The plain reason a socket could not be had (no key in it: the key is in no URL), in
    English (``said_why`` says it in the reader's language).
    A namespace not there yet: "Invalid namespace" from a real (node) server, "Unable to
    connect" from a python-socketio one."""
    text = str(error)
    lowered = text.lower()
    if "404" in text:
        return _WEBSOCKET_OFF
    if "403" in text or "401" in text:
        return _KEY_REFUSED
    if "invalid namespace" in lowered or "unable to connect" in lowered:
        return _NO_STREAM
    if not text and isinstance(error, BaseException):
        text = type(error).__name__
    return f"{_UNREACHED} ({text})"


def said_why(why: str) -> str:
    """``why`` (a reason of ``why_not``) in the reader's language; the error it quotes, as
    it came."""
    if why in (_WEBSOCKET_OFF, _KEY_REFUSED, _NO_STREAM, _DROPPED):
        return _(why)
    if why.startswith(f"{_UNREACHED} (") and why.endswith(")"):
        error = why[len(_UNREACHED) + 2 : -1]
        return _("the websocket could not be reached ({error})").format(error=error)
    return why


def refused(why: str) -> bool:
    """Whether no retry can mend ``why`` (the websocket is off, the key refused)."""
    return "404" in why or "refused the key" in why


def quiet_socketio_loggers() -> None:
    """Their loggers would print to the terminal the TUI owns (or into a script's output)."""
    for name in ("socketio", "engineio", "socketio.client", "engineio.client"):
        logging.getLogger(name).setLevel(logging.CRITICAL)


async def follow_namespace(
    url: str,
    headers: dict[str, str],
    namespace: str,
    *,
    on_event: Callable[[str, Any], None],
    on_up: Callable[[bool], None],
    on_refused: Callable[[str], None],
    on_retry: Callable[[str], None] = lambda _why: None,
    on_reopen: Callable[[], None] = lambda: None,
) -> None:
    """One namespace's connection, until cancelled or refused for good: the one way this app
    follows a socket.io namespace (the app's LiveLink, the monitor's and the command line's
    EventStream). Tried with backoff until it connects, and again with backoff each time it
    ends, whoever ended it (python-socketio reconnects by itself only after a lost
    transport, never after the server's own disconnect).

    ``on_event(namespace, payload)`` for each event; ``on_up`` when it connects or drops;
    ``on_refused(why)`` when no retry can mend it (then it returns); ``on_retry(why)`` before
    each wait after a failed try; ``on_reopen`` when a connection that ended is opened again."""
    import socketio

    delay = RECONNECT_FIRST
    while True:
        client = socketio.AsyncClient(
            reconnection=False,
            logger=False,
            engineio_logger=False,
            handle_sigint=False,  # Ctrl-C is the caller's (it would cancel every task)
        )
        refusals: list[str] = []
        ended = asyncio.Event()

        def dropped(*_args: Any, ended: asyncio.Event = ended) -> None:
            ended.set()
            on_up(False)

        client.on("*", lambda _e, data=None: on_event(namespace, data), namespace=namespace)
        client.on("connect", lambda: on_up(True), namespace=namespace)
        client.on("disconnect", dropped, namespace=namespace)
        client.on(
            "connect_error",
            lambda *data, said=refusals: said.append(" ".join(map(str, data))),
            namespace=namespace,
        )
        try:
            await client.connect(
                url,
                namespaces=[namespace],
                headers=headers,
                # Polling first, then the upgrade: a refusal then comes with its status.
                transports=["polling", "websocket"],
                wait_timeout=10,
            )
        except asyncio.CancelledError:
            await _close(client)
            raise
        except Exception as error:  # noqa: BLE001 - every failure is said, then retried
            await _close(client)
            if _stop_asked():
                raise asyncio.CancelledError from None
            why = why_not(" ".join([*refusals, str(error)]))
            if why.startswith(_UNREACHED):
                # The client's text does not always carry the status: ask the server.
                why = await _probe(url, headers) or why
            if refused(why):
                on_refused(why)
                return
            on_retry(why)
            await _backoff(delay * random.uniform(0.5, 1.0))  # noqa: S311 - jitter
            delay = min(delay * 2, RECONNECT_MAX)
            continue
        if _stop_asked():
            await _close(client)
            raise asyncio.CancelledError
        delay = RECONNECT_FIRST  # it connected: the next drop starts the backoff afresh
        try:
            await ended.wait()  # the server ended it, or its pings stopped
        finally:
            await _close(client)
            on_up(False)
        on_reopen()
        await _backoff(delay * random.uniform(0.5, 1.0))  # noqa: S311 - jitter


def _stop_asked() -> bool:
    """Whether this task was cancelled and the cancellation was lost on the way. Python
    3.11's ``asyncio.wait_for`` drops a cancellation that comes as the wait it guards ends,
    and python-socketio's ``connect`` waits for the namespace with it: the connect then
    returned as if nothing was asked, and the stream followed on (the command line, its
    last line printed, never ended; reproduced at exit with eight namespaces connecting)."""
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


async def _close(client: Any) -> None:
    """Close ``client``; the polite close (python-socketio waits for its read loop to end)
    is given ``CLOSE_SECONDS``, then the transport is dropped: a close must not hold the
    caller on a connection caught half-way."""
    try:
        await asyncio.wait_for(client.disconnect(), CLOSE_SECONDS)
    except Exception:  # noqa: BLE001 - closing: nothing left to tell (TimeoutError included)
        with contextlib.suppress(Exception):
            await client.eio.disconnect(abort=True)


async def _probe(url: str, headers: dict[str, str]) -> str | None:
    """Why the socket.io handshake fails, from its status (None: it did not say)."""
    import httpx

    try:
        async with httpx.AsyncClient(timeout=10) as http:
            answer = await http.get(
                f"{url}/socket.io/",
                params={"EIO": "4", "transport": "polling"},
                headers=headers,
            )
    except httpx.HTTPError:
        return None
    if answer.status_code in (401, 403, 404):
        return why_not(str(answer.status_code))
    return None


class LiveLink:
    """The socket.io streams, read on a loop of their own in a thread (as the monitor's
    StreamThread): the sockets are read, and the server's pings answered, however long the
    app's loop is busy drawing. Read on the app's loop, a flood held the pongs behind the
    frames, the server timed the client out, and the events it still had queued were lost.

    ``run()`` is a long-lived task of the app: it starts the thread and lasts as long as it.
    Everything the app is told (``on_arrival``, ``on_status``) is called on the app's loop;
    ``follow``, ``stop``, ``take`` and ``live_for`` are called there too."""

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
        # Appended in the thread, taken on the app's loop: O(1) each, no lock.
        self._pending: deque[LiveEvent] = deque()
        self._woken = False
        self._stopped = False
        self._streams: dict[str, asyncio.Task[None]] = {}
        self._refused = False  # 404 / 403: no stream will be had; the app polls
        self.reconnects = 0  # streams that ended and were opened again
        self._app: asyncio.AbstractEventLoop | None = None  # the app's loop (run's)
        self._loop: asyncio.AbstractEventLoop | None = None  # the thread's loop
        self._changed: asyncio.Event | None = None  # the thread's: what is wanted changed

    # --- on the app's loop -----------------------------------------------------------------

    def follow(self, instance: str) -> None:
        """Receive ``instance``'s events too."""
        if instance not in self.instances:
            self.instances.add(instance)
            self._poke()

    def live_for(self, instance: str) -> bool:
        """Whether ``instance``'s events come now."""
        return (GLOBAL in self.connected and self.global_stream) or f"/{instance}" in self.connected

    def stop(self) -> None:
        self._stopped = True
        self._poke()

    def take(self) -> list[LiveEvent]:
        """The events received since the last call (the app calls this once per frame)."""
        self._woken = False
        pending = self._pending
        return [pending.popleft() for _event in range(len(pending))]

    def _poke(self) -> None:
        """Tell the thread that what is wanted changed (before it started, it looks anyway)."""
        loop = self._loop
        if loop is not None:
            with contextlib.suppress(RuntimeError):  # the thread's loop has ended
                loop.call_soon_threadsafe(self._changed_set)

    def _changed_set(self) -> None:
        if self._changed is not None:
            self._changed.set()

    def _tell(self, callback: Callable[..., None], *args: Any) -> None:
        """Call ``callback`` on the app's loop (from the thread)."""
        app = self._app
        if app is not None:
            with contextlib.suppress(RuntimeError):  # the app's loop is closed: nobody to tell
                app.call_soon_threadsafe(callback, *args)

    async def run(self) -> None:
        """Follow until cancelled (or stopped): the sockets live in a thread of their own."""
        import socketio  # noqa: F401 - after the first frame: start-up does not need it

        quiet_socketio_loggers()
        self._app = asyncio.get_running_loop()
        ended: asyncio.Future[None] = self._app.create_future()
        thread = threading.Thread(target=self._thread, args=(ended,), name="live", daemon=True)
        thread.start()
        try:
            await asyncio.shield(ended)
        finally:
            self.stop()
            if not ended.done():
                # The sockets are closed in the thread: given a moment, so none outlives
                # the session (a bound, not a wait that matters: the thread is a daemon).
                with contextlib.suppress(asyncio.CancelledError, TimeoutError, Exception):
                    await asyncio.wait_for(asyncio.shield(ended), 5)

    # --- in the thread ---------------------------------------------------------------------

    def _thread(self, ended: asyncio.Future[None]) -> None:
        error: BaseException | None = None
        try:
            asyncio.run(self._follow_all())
        except Exception as bug:  # noqa: BLE001 - a bug of ours: the app reports it
            error = bug

        def done() -> None:
            if not ended.done():
                if error is None:
                    ended.set_result(None)
                else:
                    ended.set_exception(error)

        self._tell(done)

    async def _follow_all(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._changed = asyncio.Event()
        self._changed.set()  # what was followed before the thread began
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

    def _received(self, namespace: str, payload: Any) -> None:
        event = _event_from(namespace, payload)
        if event is None:
            return
        if namespace == GLOBAL:
            if not self.global_stream:
                self.global_stream = True
                self._changed_set()  # the per-instance streams are not needed any more
        elif self.global_stream and GLOBAL in self.connected:
            return  # the global stream brings it
        self._pending.append(event)
        if not self._woken:
            self._woken = True
            self._tell(self._on_arrival)

    def _wanted(self) -> set[str]:
        if self._refused or not self.instances:
            return set()
        wanted = {GLOBAL} if self._is_v2() else set()
        if not (self.global_stream and GLOBAL in self.connected):
            wanted |= {f"/{name}" for name in set(self.instances)}
        return wanted

    async def _stream(self, namespace: str) -> None:
        """One namespace's connection (follow_namespace: tried and reopened with backoff)."""

        def refused_for_good(why: str) -> None:
            self._refused = True  # no stream will be had: the app polls
            self._status(False, why)

        def retry(why: str) -> None:
            if namespace != GLOBAL:  # "/" need not carry anything: no reason to tell
                self._status(self.live, why)

        def reopened() -> None:
            self.reconnects += 1

        await follow_namespace(
            self.url,
            self._headers,
            namespace,
            on_event=self._received,
            on_up=lambda up: self._connected(namespace, up),
            on_refused=refused_for_good,
            on_retry=retry,
            on_reopen=reopened,
        )

    def _connected(self, namespace: str, up: bool) -> None:
        if up:
            self.connected.add(namespace)
        else:
            self.connected.discard(namespace)
        if namespace == GLOBAL and self.global_stream:
            self._changed_set()  # per-instance streams: not needed, or needed again
        streams = self.connected - ({GLOBAL} if not self.global_stream else set())
        if streams:
            self._status(True, None)
        elif not up and not self._stopped:
            self._status(False, _DROPPED)

    def _status(self, live: bool, why: str | None) -> None:
        if (live, why) == (self.live, self._why):
            return
        self.live, self._why = live, why
        self._tell(self._on_status, live, why)
