"""Switching gateway with a live link open: two demo gateways with the same instance names (as
staging and production). After the switch nothing of the first reaches the second's screens:
its socket is closed (the first demo sees it go), its key is no longer used, and the chat
opened on the second follows the second."""

from __future__ import annotations

import pytest

from gateway_tui.demo.server import DemoServer
from gateway_tui.tui.screens.messages import MessagesScreen
from tests.data import newest_person_chat
from tests.support import make_app, make_config, wait_for

INSTANCE = "sales-eu"
SIZE = (140, 40)


@pytest.fixture
def two_gateways():
    with (
        DemoServer(api_key="GATEWAY-A-KEY-0001") as a,
        DemoServer(api_key="GATEWAY-B-KEY-0002") as b,
    ):
        yield a, b


def sockets(server: DemoServer) -> int:
    """The socket.io connections the demo holds now."""
    return len(server.events.sio.eio.sockets)


def texts(screen: MessagesScreen) -> list[str]:
    return [message.text for message in screen.view.messages]


async def open_chat(app, pilot, jid: str) -> MessagesScreen:
    await wait_for(pilot, lambda: bool(app.state.instances.value))
    conversation = MessagesScreen(INSTANCE, jid)
    app.push_screen(conversation)
    loadable = app.actions.chats.messages_of(INSTANCE, jid)
    await wait_for(pilot, lambda: loadable.value is not None and not loadable.loading)
    return conversation


async def test_switching_gateway_closes_the_old_live_link_and_follows_the_new(two_gateways):
    a, b = two_gateways
    jid = newest_person_chat(a, INSTANCE)
    assert jid == newest_person_chat(b, INSTANCE)  # the same chat on both
    app = make_app(make_config(a))
    async with app.run_test(size=SIZE) as pilot:
        on_a = await open_chat(app, pilot, jid)
        await wait_for(pilot, lambda: app.state.live is True and sockets(a) > 0)
        a.write(INSTANCE, jid, "written on A before")
        await wait_for(pilot, lambda: "written on A before" in texts(on_a))

        app.connect(b.url, b.api_key)
        await wait_for(pilot, lambda: not isinstance(app.screen, MessagesScreen))
        on_b = await open_chat(app, pilot, jid)
        await wait_for(pilot, lambda: app.live_for(INSTANCE))
        served_by_a = len(a.requests)

        a.write(INSTANCE, jid, "written on A after")
        b.write(INSTANCE, jid, "written on B")
        await wait_for(pilot, lambda: {"written on B", "written on A after"} & set(texts(on_b)))
        assert "written on A after" not in texts(on_b)  # nothing of A on B's screen
        a.write(INSTANCE, jid, "written on A later")
        b.write(INSTANCE, jid, "written on B later")
        await wait_for(pilot, lambda: "written on B later" in texts(on_b))
        shown = texts(on_b)
        assert "written on B" in shown  # B's chat follows B
        assert not [text for text in shown if "on A" in text]
        await wait_for(pilot, lambda: sockets(a) == 0)  # the first demo sees the socket go
        assert sockets(b) > 0  # B's events come over B's own socket
        assert len(a.requests) == served_by_a  # A's key is no longer used
