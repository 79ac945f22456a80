"""Keep-alive: the client lets an idle connection go before the server closes it.

A real gateway (Node) and the demo (uvicorn) close a keep-alive connection after 5 s idle. A
request sent on it just then is lost with the connection: a GET is retried, a write ends with an
unknown outcome. The app checks instance states every few seconds, so it would meet that moment
often. The server here plays that moment out: a request that arrives on a connection idle for
longer than ``SERVER_IDLE_LIMIT`` is dropped unanswered, as if the server had just closed it.
"""

from __future__ import annotations

import asyncio
import time

from gateway_tui.core.api.client import KEEPALIVE_EXPIRY, GatewayClient
from gateway_tui.core.api.events import CallEvent
from gateway_tui.core.client_factory import transport_for as _transport_for

SERVER_IDLE_LIMIT = KEEPALIVE_EXPIRY + 0.3
BODY = b'{"instance":{"instanceName":"a","state":"open"}}'


class ClosingServer:
    def __init__(self) -> None:
        self.connections = 0
        self.dropped = 0

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        last = time.monotonic()
        try:
            while True:
                try:
                    await reader.readuntil(b"\r\n\r\n")
                except (asyncio.IncompleteReadError, ConnectionError):
                    return
                if time.monotonic() - last > SERVER_IDLE_LIMIT:
                    self.dropped += 1  # "closed" while the request was on its way
                    return
                writer.write(
                    b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n"
                    b"content-length: %d\r\n\r\n%s" % (len(BODY), BODY)
                )
                await writer.drain()
                last = time.monotonic()
        finally:
            writer.close()


async def _two_calls_apart(transport_for_url: bool) -> tuple[ClosingServer, list[CallEvent]]:
    closing = ClosingServer()
    server = await asyncio.start_server(closing.handle, "127.0.0.1", 0)
    url = f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}"
    events: list[CallEvent] = []
    transport = _transport_for(url) if transport_for_url else None
    try:
        async with GatewayClient(url, "key1234", timeout=60.0, transport=transport) as client:
            client.subscribe(events.append)
            await client.instances.connection_state("a")
            await asyncio.sleep(SERVER_IDLE_LIMIT + 0.2)  # idle past the server's limit
            await client.instances.connection_state("a")
    finally:
        server.close()
    return closing, events


async def test_an_idle_connection_is_not_reused_past_the_keepalive_expiry():
    closing, events = await _two_calls_apart(transport_for_url=False)
    assert closing.dropped == 0
    assert [e.error for e in events] == [None, None]  # two calls, one attempt each
    assert closing.connections == 2


async def test_the_apps_plain_http_transport_lets_idle_connections_go_too():
    closing, events = await _two_calls_apart(transport_for_url=True)
    assert closing.dropped == 0 and [e.error for e in events] == [None, None]
