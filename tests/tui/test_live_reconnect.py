"""A socket the gateway ends is opened again, with backoff, and what came meanwhile is read
again; while the socket is not live the screens poll (issue 29, item 6)."""

from __future__ import annotations

from gateway_tui.demo.server import DemoServer
from gateway_tui.tui.screens.chats import ChatsScreen
from tests.data import newest_person_chat
from tests.support import PROCESS_LIMIT, make_app, make_config, wait_for

INSTANCE = "sales-eu"
SIZE = (140, 40)


def kick_everyone(server: DemoServer) -> int:
    """The gateway ends every socket.io connection (a server-side disconnect)."""

    async def kick() -> int:
        sio = server.events.sio
        ended = 0
        for namespace in list(sio.manager.rooms):
            for sid, _eio in list(sio.manager.get_participants(namespace, None)):
                await sio.disconnect(sid, namespace=namespace)
                ended += 1
        return ended

    return server.on_loop(kick()).result(PROCESS_LIMIT)


def last_text(app, jid: str) -> str:
    book = app.actions.chats.chat_book(INSTANCE).value
    last = book.last.get(jid) if book is not None else None
    return last.text if last is not None else ""


async def test_a_socket_the_gateway_ends_is_opened_again_and_events_come_again():
    with DemoServer() as server:
        jid = newest_person_chat(server, INSTANCE)
        app = make_app(make_config(server))
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: bool(app.state.instances.value))
            app.push_screen(ChatsScreen(INSTANCE))
            book = app.actions.chats.chat_book(INSTANCE)
            await wait_for(pilot, lambda: book.value is not None and not book.loading)
            await wait_for(pilot, lambda: app.state.live is True)
            assert kick_everyone(server) >= 1
            await wait_for(pilot, lambda: app.state.live is False)  # said at once
            await wait_for(pilot, lambda: app.state.live is True)  # and opened again
            assert app.session.link.reconnects >= 1
            # Events come again over the new socket: no key pressed.
            server.write(INSTANCE, jid, "after the reconnect")
            await wait_for(pilot, lambda: "after the reconnect" in last_text(app, jid))


async def test_while_not_live_the_chats_screen_polls():
    with DemoServer(websocket=False) as server:
        app = make_app(make_config(server, refresh_interval=1.0))
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: bool(app.state.instances.value))
            app.push_screen(ChatsScreen(INSTANCE))
            book = app.actions.chats.chat_book(INSTANCE)
            await wait_for(pilot, lambda: book.value is not None and not book.loading)
            await wait_for(pilot, lambda: app.state.live is False)
            first = book.updated_at
            await wait_for(pilot, lambda: book.updated_at != first)  # read again, no key
