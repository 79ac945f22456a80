"""A socket that goes silent without closing (half-closed after a flood: no packet, no ping, no
disconnect) is noticed: the bar stops saying live, the screens poll, and the link opens it
again once the gateway answers (issue 29, item 6)."""

from __future__ import annotations

import asyncio
import contextlib
from urllib.parse import urlsplit

from gateway_tui.demo.server import DemoServer
from tests.support import make_app, make_config, wait_for

INSTANCE = "sales-eu"


class BlackHole:
    """A TCP relay to the gateway that, while held, passes no byte either way and closes
    nothing: what a half-closed socket looks like from the app."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.flowing = asyncio.Event()  # cleared: held
        self.flowing.set()
        self.server: asyncio.base_events.Server | None = None
        self.tasks: set[asyncio.Task[None]] = set()

    async def start(self) -> int:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        return self.server.sockets[0].getsockname()[1]

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(Exception):
            while data := await reader.read(65536):
                await self.flowing.wait()
                writer.write(data)
                await writer.drain()
        with contextlib.suppress(Exception):
            writer.close()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if not self.flowing.is_set():  # a new connection while held: accepted, not answered
            self.tasks.add(asyncio.current_task())  # type: ignore[arg-type]
            await self.flowing.wait()
        up_reader, up_writer = await asyncio.open_connection(*self.target)
        for task in (
            asyncio.create_task(self._pipe(reader, up_writer)),
            asyncio.create_task(self._pipe(up_reader, writer)),
        ):
            self.tasks.add(task)

    async def close(self) -> None:
        self.flowing.set()
        for task in self.tasks:
            task.cancel()
        if self.server is not None:
            self.server.close()


async def test_a_silent_socket_is_not_said_live_and_is_opened_again():
    with DemoServer() as server:
        # The gateway pings every second and waits a second for the answer (socket.io's own
        # defaults are 25 s and 20 s: the test would take minutes).
        server.events.sio.eio.ping_interval = 1
        server.events.sio.eio.ping_timeout = 1
        target = urlsplit(server.url)
        hole = BlackHole(target.hostname or "127.0.0.1", target.port or 80)
        port = await hole.start()
        try:
            app = make_app(make_config(server, url=f"http://127.0.0.1:{port}"))
            async with app.run_test(size=(120, 36)) as pilot:
                await wait_for(pilot, lambda: bool(app.state.instances.value))
                app.open_chats(INSTANCE)
                await wait_for(pilot, lambda: app.state.live is True)
                reconnects = app.session.link.reconnects
                hole.flowing.clear()  # silence: no packet either way, nothing closed
                await wait_for(pilot, lambda: app.state.live is False)
                hole.flowing.set()
                await wait_for(pilot, lambda: app.state.live is True, within=90)
                assert app.session.link.reconnects > reconnects
        finally:
            await hole.close()
