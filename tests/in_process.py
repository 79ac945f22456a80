"""The demo gateway without a socket: the app talks to it through httpx's ASGI transport, in the
test's own event loop (no port, no server thread).

For Pilot tests that need no socket (``@pytest.mark.in_process`` on the test or module): the
``demo_server`` fixture is then an ``InProcessDemo`` and ``app_for`` gives the app its transport.
Tests that need a real socket keep ``DemoServer``: live events (socket.io; an app given a
transport makes no live connection and polls), subprocesses and the command line, outages and
restarts, the connect screen's probe (it builds its own client on the URL).
"""

from __future__ import annotations

import asyncio
from typing import Self

import httpx

from gateway_tui.demo.faults import ConnectionDropped
from gateway_tui.demo.server import DemoServer

# Nothing listens there: anything that bypassed the transport fails at once, never silently.
IN_PROCESS_URL = "http://127.0.0.1:9"


class DemoTransport(httpx.ASGITransport):
    """The demo's ASGI app as a transport, failing the way its socket would: a connection the
    demo drops is httpx's RemoteProtocolError, an answer slower than the read timeout is
    httpx's ReadTimeout (the ASGI transport alone would raise the demo's own exception and
    wait for ever)."""

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        limit = request.extensions.get("timeout", {}).get("read")
        try:
            async with asyncio.timeout(limit):
                return await super().handle_async_request(request)
        except TimeoutError:
            raise httpx.ReadTimeout("the demo did not answer in time", request=request) from None
        except ConnectionDropped:
            raise httpx.RemoteProtocolError(
                "peer closed connection without sending complete message body", request=request
            ) from None


class InProcessDemo(DemoServer):
    """A DemoServer that is never served: the same ``state``, ``faults``, ``reset()``,
    ``latency_ms``, ``requests``, ``url`` and ``api_key``, plus ``transport()`` for an app."""

    @property
    def url(self) -> str:
        return IN_PROCESS_URL

    @property
    def running(self) -> bool:
        return False

    def start(self) -> Self:
        self.state.server_url = self.url
        self._gateway.closing.clear()
        return self

    def stop(self) -> None:
        self._gateway.closing.set()

    def transport(self) -> DemoTransport:
        return DemoTransport(app=self._gateway)
