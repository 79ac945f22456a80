"""Run the demo gateway on loopback: in a background thread (``DemoServer``) or in the
foreground (``serve``, for ``gateway-tui demo-server``)."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import socket
import sys
import threading
import time
from collections.abc import Iterable
from types import TracebackType
from typing import Any, Self

import uvicorn

from gateway_tui.demo import conditions
from gateway_tui.demo.app import DemoGateway
from gateway_tui.demo.conditions import Flapper
from gateway_tui.demo.data import (
    DEFAULT_INSTANCE_COUNT,
    DEFAULT_SEED,
    DEMO_API_KEY,
    DemoState,
    build_state,
)
from gateway_tui.demo.events import DemoEvents, Incoming
from gateway_tui.demo.faults import FaultInjector

__all__ = ["DEMO_API_KEY", "DemoServer", "serve"]

HOST = "127.0.0.1"
# Generous: a busy machine starts uvicorn slowly; a server that fails to start ends the wait
# at once (its thread is gone).
_START_TIMEOUT = 120.0
_STOP_TIMEOUT = 5.0


class DemoServer:
    """The demo gateway served by uvicorn in a daemon thread with its own event loop.

    The world (``state``) is built at construction, so it can be inspected before ``start()``.
    Tests add fault rules (``faults``) and read ``state`` from their own thread while it runs.
    """

    def __init__(
        self,
        instances: int = DEFAULT_INSTANCE_COUNT,
        latency_ms: int = 0,
        port: int = 0,
        api_key: str = DEMO_API_KEY,
        seed: int = DEFAULT_SEED,
        hostile: bool = False,
        not_on_whatsapp: Iterable[str] = (),
        drop_share: float = 0.0,
        chats: int | None = None,
        big_chat: int = 0,
        api_version: str = "1.7.1",
        incoming_every: float | None = None,
        websocket: bool = True,
        strict_namespaces: bool = False,
        global_events: bool = False,
        licence: str | None = None,
        metrics: bool = False,
        metrics_auth: tuple[str, str] | None = None,
        zombie: Iterable[str] = (),
        flapping: Iterable[str] = (),
        flap_seconds: float = 3.0,
        history_sync: bool = False,
        history_stop_at: int | None = None,
        webhook_timeout: float = 5.0,
    ) -> None:
        """``websocket``: serve socket.io (False: /socket.io/ answers 404, as a real server
        with its websocket off); ``strict_namespaces``: an instance's namespace exists only
        once an event was emitted to it, as on a real server; ``global_events``: as 2.x
        (only) started with WEBSOCKET_GLOBAL_EVENTS=true, every event on ``/`` too.
        ``incoming_every``: seconds
        between the messages a contact writes to each open instance's most recent chat
        (demo/events.py).
        ``not_on_whatsapp``: numbers a send is refused for; ``drop_share``: the share of
        sends whose connection is dropped after the message went out (outcome unknown).
        ``chats`` / ``big_chat``: history chats per open instance and one extra chat of
        that many messages (the benchmarks' knobs; see demo/chats.py). ``api_version``: the
        release imitated: "1.7.1", "2.3.6" (also "2"), "2.3.7" or "2.4.0" (demo/versions.py).
        ``licence``: a 2.4's, "active" (the default) or "inactive" (answers as the recorded
        2.4.0-rc2 without a licence key). ``metrics``: serve Prometheus /metrics (2.x), behind
        basic auth with ``metrics_auth`` (user, password). ``zombie`` / ``flapping``: instances
        (created open when the seed has none of that name) listed open with a closed session,
        or cycling open/close/connecting every ``flap_seconds`` (demo/conditions.py).
        ``history_sync``: each pairing is followed by a history sync (demo/events.py), which
        stops early at ``history_stop_at`` percent when given. ``webhook_timeout``: seconds a
        webhook POST may take (demo/webhooks.py)."""
        from gateway_tui.demo.versions import LICENCES, release

        self.api_version = release(api_version)
        two_four = self.api_version.startswith("2.4")
        if licence is not None and (licence not in LICENCES or not two_four):
            raise ValueError(f"a licence ({licence!r}) is for 2.4: active or inactive")
        self.licence = (licence or "active") if two_four else None
        if (metrics or metrics_auth) and self.api_version.startswith("1"):
            raise ValueError("1.7.1 has no /metrics (2.x has, with PROMETHEUS_METRICS=true)")
        self.metrics = bool(metrics or metrics_auth)
        self.metrics_auth = tuple(metrics_auth) if metrics_auth else None
        self._zombie, self._flapping = tuple(zombie), tuple(flapping)
        self._history = (history_sync or history_stop_at is not None, history_stop_at)
        self.api_key = api_key
        self.seed = seed
        self.hostile = hostile  # serve the hostile data set (demo/hostile.py)
        self._instance_count = instances
        self._chats, self._big_chat = chats, big_chat
        self._initial_latency_ms = latency_ms
        self.faults = FaultInjector(seed=seed)
        self._gateway = DemoGateway(self._fresh_state(), self.faults, latency_ms)
        self.events = DemoEvents(
            lambda: self._gateway.state, strict_namespaces, global_events, webhook_timeout
        )
        self._gateway.state.events = self.events
        self.websocket = websocket
        self.incoming = (
            Incoming(self.events, lambda: self._gateway.state, incoming_every)
            if incoming_every
            else None
        )
        self.flapper = (
            Flapper(lambda: self._gateway.state, lambda: self.events.loop, flap_seconds)
            if self._flapping
            else None
        )
        self._not_on_whatsapp = set(not_on_whatsapp)
        self._drop_share = drop_share
        self._apply_knobs()
        self._requested_port = port
        self._port: int | None = None
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None

    @property
    def state(self) -> DemoState:
        return self._gateway.state

    @property
    def latency_ms(self) -> int:
        return self._gateway.latency_ms

    @latency_ms.setter
    def latency_ms(self, value: int) -> None:
        self._gateway.latency_ms = value

    @property
    def requests(self) -> Any:
        """The HTTP requests served so far: (monotonic time, method, path), newest last."""
        return self._gateway.requests

    def on_loop(self, coroutine: Any) -> Any:
        """Run ``coroutine`` on the server's loop (from another thread): its future."""
        if self.events.loop is None:
            raise RuntimeError("socket.io has not started yet (no request came)")
        return asyncio.run_coroutine_threadsafe(coroutine, self.events.loop)

    def write(self, instance: str, jid: str, text: str, timestamp: int | None = None) -> str:
        """A contact writes ``text`` into the chat, pushed over socket.io: the message's id."""

        async def write() -> str:
            written = self.events.write(self.state.instances[instance], jid, text, timestamp)
            return written.key["id"]

        return self.on_loop(write()).result(30)

    def history_sync(self, instance: str, *, batches: int = 4, stop_at: int | None = None) -> int:
        """Start a history sync of ``instance`` now (DemoEvents.history_sync): the number of
        batches that will come."""

        async def sync() -> int:
            return self.events.history_sync(
                self.state.instances[instance], batches=batches, stop_at=stop_at
            )

        return self.on_loop(sync()).result(30)

    def flood(self, instance: str, jid: str, rate: int, count: int) -> Any:
        """``count`` events at ``rate`` a second into the chat (DemoEvents.flood): a future of
        the new messages' ids."""
        return self.on_loop(self.events.flood(instance, jid, rate, count))

    def flood_chats(self, instance: str, rate: int, count: int, first: int = 0) -> Any:
        """``count`` new messages at ``rate`` a second, each into a new chat
        (DemoEvents.flood_chats): a future of how many were emitted."""
        return self.on_loop(self.events.flood_chats(instance, rate, count, first))

    @property
    def port(self) -> int:
        if self._port is None:
            raise RuntimeError("the demo server is not started")
        return self._port

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}"

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> Self:
        """Listen on 127.0.0.1 (a free port when port is 0) and return once serving."""
        if self.running:
            return self
        # proto=IPPROTO_TCP matters: asyncio turns off Nagle's algorithm only on sockets that
        # say so, and with Nagle on each keep-alive response waits ~40 ms for a delayed ACK.
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((HOST, self._requested_port))
        except OSError:
            sock.close()
            raise
        self._port = sock.getsockname()[1]
        self.state.server_url = self.url
        self._gateway.closing.clear()
        config = uvicorn.Config(
            self.events.asgi(self._gateway) if self.websocket else self._gateway,
            log_config=None,  # leave the host program's logging alone (the TUI owns the terminal)
            log_level="warning",
            access_log=False,
            lifespan="off",
            timeout_graceful_shutdown=1,
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(
            target=self._server.run, kwargs={"sockets": [sock]}, name="demo-gateway", daemon=True
        )
        self._thread.start()
        deadline = time.monotonic() + _START_TIMEOUT
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                sock.close()
                raise RuntimeError(f"the demo gateway did not start on {self.url}")
            time.sleep(0.005)
        if self.incoming is not None:
            self.incoming.start()
        if self.flapper is not None:
            self.flapper.start()
        return self

    def reset(self) -> None:
        """Back to the seeded world: fresh state, no fault rules, the initial latency."""
        state = self._fresh_state()
        state.server_url = self.state.server_url
        state.events = self.events
        self._gateway.state = state
        self._gateway.latency_ms = self._initial_latency_ms
        self.faults.clear()
        self._apply_knobs()

    def _apply_knobs(self) -> None:
        self.state.not_on_whatsapp |= self._not_on_whatsapp
        if self._drop_share > 0:
            self.faults.add(
                "drop_after_read",
                method="POST",
                path_prefix="/message/",
                probability=self._drop_share,
            )

    def _fresh_state(self) -> DemoState:
        state = build_state(
            self._instance_count,
            seed=self.seed,
            api_key=self.api_key,
            chats=self._chats,
            big_chat=self._big_chat,
        )
        state.api_version = self.api_version
        state.licence, state.metrics = self.licence, self.metrics
        state.metrics_auth = self.metrics_auth
        state.history_sync, state.history_stop_at = self._history
        for name in self._zombie:
            conditions.ensure(state, name, zombie=True)
        for name in self._flapping:
            conditions.ensure(state, name, flapping=True)
        if self.hostile:
            from gateway_tui.demo.hostile import make_hostile

            make_hostile(state)
        return state

    def stop(self) -> None:
        """Shut down; stalled requests are released so this takes well under a second."""
        if self.incoming is not None:
            self.incoming.stop()
        if self.flapper is not None:
            self.flapper.stop()
        if self._server is None or self._thread is None:
            return
        self._gateway.closing.set()
        loop = self.events.loop
        if loop is not None and loop.is_running():
            # Webhook POSTs still waiting are cancelled, their connections closed.
            with contextlib.suppress(Exception):
                self.on_loop(self.events.webhooks.close()).result(_STOP_TIMEOUT)
        self._server.should_exit = True
        self._thread.join(_STOP_TIMEOUT)
        if self._thread.is_alive():
            self._server.force_exit = True
            self._thread.join(_STOP_TIMEOUT)
        self._server = None
        self._thread = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()


def serve(
    port: int,
    *,
    instances: int = DEFAULT_INSTANCE_COUNT,
    latency_ms: int = 0,
    incoming_every: float | None = None,
    **options: Any,
) -> int:
    """Serve the demo gateway on 127.0.0.1:``port`` until Ctrl-C; return an exit status.
    ``options``: DemoServer's other arguments."""
    server = DemoServer(
        instances=instances,
        latency_ms=latency_ms,
        port=port,
        incoming_every=incoming_every,
        **options,
    )
    try:
        server.start()
    except OSError as exc:
        print(f"demo-server: cannot listen on {HOST}:{port}: {exc.strerror}", file=sys.stderr)
        return 1
    print(f"Demo gateway (Evolution API {server.api_version}) listening on {server.url}")
    print(f"Global API key: {server.api_key}")
    print(
        f"{len(server.state.instances)} instances, {latency_ms} ms added latency. Ctrl-C to stop."
    )
    if incoming_every:
        print(f"A contact writes to each open instance every {incoming_every:g} s (socket.io).")
    for line in _cases_said(server):
        print(line)
    print(f"Try: curl -H 'apikey: {server.api_key}' {server.url}/instance/fetchInstances")
    sys.stdout.flush()
    return _until_stopped([server])


def _cases_said(server: DemoServer) -> list[str]:
    lines = []
    if server.licence == "inactive":
        lines.append("Licence inactive: every business route answers 503 LICENSE_REQUIRED.")
    if server.metrics:
        auth = f" (basic auth, user {server.metrics_auth[0]})" if server.metrics_auth else ""
        lines.append(f"Prometheus metrics at {server.url}/metrics{auth}.")
    for name in server.state.instances:
        instance = server.state.instances[name]
        if instance.zombie:
            lines.append(f"{name}: a zombie (listed open, its session closed).")
        if instance.flapping:
            lines.append(f"{name}: flapping (open/close/connecting on a cycle).")
    return lines


def serve_fleet() -> int:
    """Serve the demo fleet (demo/fleet.py) until Ctrl-C: one line per gateway."""
    from gateway_tui.demo.fleet import start_fleet

    fleet = start_fleet()
    for gateway in fleet.gateways:
        cases = ", ".join(gateway.cases) or "healthy"
        version = gateway.api_version or "-"
        print(f"{gateway.name:<18} {gateway.url:<24} {version:<7} key {gateway.api_key or '-'}")
        print(f"{'':<18} {cases}")
    print("Ctrl-C to stop.")
    sys.stdout.flush()
    return _until_stopped([g.server for g in fleet.gateways if g.server is not None])


def _until_stopped(servers: list[DemoServer]) -> int:
    previous = _stop_on_signals()
    try:
        while all(server.running for server in servers):
            time.sleep(0.2)
    except KeyboardInterrupt:
        pass
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        for server in servers:
            server.stop()
    return 0


def _stop_on_signals() -> dict[int, Any]:
    """Ctrl-C and SIGTERM stop the server, even when started with SIGINT ignored (a shell's
    background job is): the handlers are set here, not inherited. Returns the ones replaced."""
    if threading.current_thread() is not threading.main_thread():
        return {}

    def stop(_signum: int, _frame: object) -> None:
        raise KeyboardInterrupt

    return {signum: signal.signal(signum, stop) for signum in (signal.SIGINT, signal.SIGTERM)}
