"""A webhook receiver: the gateway's POSTs, as EventRecords (``gateway-tui webhook-listen``,
and the app's "listen here").

The gateway posts ``{event, instance, data, destination, date_time, sender, server_url,
apikey}`` to the webhook's URL, or with ``webhook_by_events`` to ``<url>/<event-name>``
(``/messages-upsert``); 2.3.7 adds the headers ``X-Instance-ID``, ``X-Instance-Name``,
``X-Event-Type`` and ``X-Timestamp``. Every path and method is taken. A body is read up to
``max_body`` bytes (a larger one is drained and said, not kept); the answer is always a small
200, whatever came: the gateway retries on anything else, and a receiver that echoes or fails
tells a sender nothing it should know. Nothing received is printed here; the caller shows it
through sanitize, and the envelope's ``apikey`` is never kept (record.py).
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import socket
from collections.abc import Callable
from typing import Any

from gateway_tui.core.events.record import WEBHOOK, WEBHOOK_HEADERS, EventRecord, from_envelope
from gateway_tui.core.text.i18n import _, ngettext, number

MAX_BODY = 2 * 1024 * 1024
ANSWER = b'{"ok":true}'
METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]


class WebhookReceiver:
    """The receiver's ASGI app (``app``) and what it has seen: ``on_record`` gets each event;
    ``on_problem`` a line for a body that was not an event (too big, not JSON)."""

    def __init__(
        self,
        on_record: Callable[[EventRecord], None],
        *,
        on_problem: Callable[[str], None] = lambda _line: None,
        max_body: int = MAX_BODY,
    ) -> None:
        from starlette.applications import Starlette
        from starlette.routing import Route

        self.on_record = on_record
        self.on_problem = on_problem
        self.max_body = max_body
        self.received = 0  # requests
        self.unreadable = 0  # bodies that were no event
        self.app = Starlette(routes=[Route("/{path:path}", self._take, methods=METHODS)])

    async def _take(self, request: Any) -> Any:
        from starlette.responses import Response

        self.received += 1
        try:
            await self._read(request)
        except Exception as error:  # noqa: BLE001 - whatever came, the answer is the same
            self.unreadable += 1
            self.on_problem(
                _("a request could not be read ({error})").format(error=type(error).__name__)
            )
        return Response(ANSWER, status_code=200, media_type="application/json")

    async def _read(self, request: Any) -> None:
        if request.method != "POST":
            return
        headers = {
            name: request.headers[name] for name in WEBHOOK_HEADERS if name in request.headers
        }
        body = bytearray()
        async for chunk in request.stream():
            body += chunk
            if len(body) > self.max_body:
                break  # the rest is not read at all
        path = request.url.path
        if len(body) > self.max_body:
            self.unreadable += 1
            what = headers.get("X-Event-Type") or path
            said = request.headers.get("content-length", "")
            limit = number(self.max_body)
            if said.isdigit():
                problem = ngettext(
                    "a body of {n} byte ({what}) was over the {limit}-byte limit: not read",
                    "a body of {n} bytes ({what}) was over the {limit}-byte limit: not read",
                    int(said),
                ).format(n=number(int(said)), what=what, limit=limit)
            else:
                problem = _("a body ({what}) was over the {limit}-byte limit: not read").format(
                    what=what, limit=limit
                )
            self.on_problem(problem)
            return
        try:
            payload = json.loads(bytes(body))
        except (ValueError, UnicodeDecodeError):
            self.unreadable += 1
            self.on_problem(
                ngettext(
                    "a body that is not JSON came to {path} ({n} byte)",
                    "a body that is not JSON came to {path} ({n} bytes)",
                    len(body),
                ).format(path=path, n=number(len(body)))
            )
            return
        record = from_envelope(payload, via=WEBHOOK, headers=headers, path=path)
        if record is None:
            self.unreadable += 1
            self.on_problem(_("a JSON body with no event name came to {path}").format(path=path))
            return
        self.on_record(record)


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def reach_note(host: str, port: int) -> str:
    """Who can post to the receiver, said plainly."""
    if is_loopback(host):
        return _(
            "listening on {host}:{port} (this machine only): a gateway on another machine or "
            "in a container cannot reach it; --host 0.0.0.0 listens on every address"
        ).format(host=host, port=port)
    return _(
        "listening on {host}:{port}, reachable from other machines: anyone who can reach "
        "this address can post to it, and the gateway must be able to reach it"
    ).format(host=host, port=port)


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port`` (0: a free port). Raises OSError."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(128)  # calls wait from now on, before the server has started
    except OSError:
        sock.close()
        raise
    return sock


async def serve(app: Any, sock: socket.socket, started: asyncio.Event | None = None) -> None:
    """Serve ``app`` on ``sock`` in this loop until cancelled (uvicorn, quiet; in the main
    thread Ctrl-C stops it and is then raised again for the caller)."""
    import uvicorn

    config = uvicorn.Config(
        app,
        log_config=None,
        log_level="critical",
        access_log=False,
        lifespan="off",
        timeout_graceful_shutdown=1,
    )
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve(sockets=[sock]))
    try:
        if started is not None:
            await _started(server, task)
            started.set()
        await asyncio.shield(task)
    finally:
        server.should_exit = True
        try:
            await asyncio.wait_for(asyncio.shield(task), 5)
        except BaseException:  # noqa: BLE001 - stopping: whatever it says, it is over
            task.cancel()


async def _started(server: Any, task: asyncio.Task[None]) -> None:
    """Until uvicorn says it serves (or has stopped)."""
    while not server.started and not task.done():  # noqa: ASYNC110 - uvicorn sets a flag
        await asyncio.sleep(0.01)
