"""Live events on the demo: a contact writes (demo-server --incoming-every) and the message
appears in the open conversation and the chat list without a key; a gateway whose websocket
is off is polled as before, and the app says why once."""

from __future__ import annotations

import asyncio

import pytest

from gateway_tui.demo.server import DemoServer
from gateway_tui.tui.screens.chats import ChatsScreen
from gateway_tui.tui.screens.messages import MessagesScreen
from tests.data import newest_person_chat
from tests.support import make_app, make_config, notices, screen_text, wait_for

INSTANCE = "sales-eu"
SIZE = (140, 40)


@pytest.fixture
def writing_server():
    with DemoServer(incoming_every=0.5) as server:
        yield server


def finds(app) -> int:
    return sum(1 for e in app.state.calls if e.path.startswith("/chat/findMessages/"))


async def test_incoming_messages_appear_without_a_key(writing_server):
    server = writing_server
    jid = newest_person_chat(server, INSTANCE)
    app = make_app(make_config(server))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        chats = ChatsScreen(INSTANCE)
        app.push_screen(chats)
        book = app.actions.chats.chat_book(INSTANCE)
        await wait_for(pilot, lambda: book.value is not None and not book.loading)
        conversation = MessagesScreen(INSTANCE, jid)
        app.push_screen(conversation)
        loadable = app.actions.chats.messages_of(INSTANCE, jid)
        await wait_for(pilot, lambda: loadable.value is not None and not loadable.loading)
        await wait_for(pilot, lambda: app.state.live is True)
        reads = finds(app)
        # No key pressed from here on.
        await wait_for(
            pilot,
            lambda: (
                conversation.view.messages
                and conversation.view.messages[-1].text.startswith("incoming")
            ),
        )
        first = conversation.view.messages[-1].text
        await wait_for(pilot, lambda: conversation.view.messages[-1].text != first)
        await pilot.pause()
        latest = conversation.view.messages[-1].text
        assert conversation.view.selected.text == latest  # the view follows the newest
        assert latest in screen_text(app) and "⚡ live" in screen_text(app)
        assert finds(app) == reads  # brought by the socket, not read again
        instance = server.state.instances[INSTANCE]
        assert instance.apikey not in screen_text(app)  # each event's key is dropped
        app.pop_screen()
        await pilot.pause()
        await wait_for(pilot, lambda: chats.table.visible_rows[0].jid == jid)
        await wait_for(pilot, lambda: chats.table.visible_rows[0].last_text.startswith("incoming"))
        await wait_for(pilot, lambda: "new" in screen_text(app))


async def test_a_gateway_without_websocket_is_polled_and_says_why_once():
    with DemoServer(websocket=False) as server:
        app = make_app(make_config(server))
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: bool(app.state.instances.value))
            jid = newest_person_chat(server, INSTANCE)
            app.push_screen(MessagesScreen(INSTANCE, jid))
            await wait_for(pilot, lambda: app.state.live is False)
            assert "404" in (app.state.live_why or "")
            await wait_for(pilot, lambda: "⟳ polling" in screen_text(app))
            app.pop_screen()
            app.push_screen(ChatsScreen(INSTANCE))
            await pilot.pause()
            told = [n for n in notices(app) if "No live updates" in n]
            assert len(told) == 1 and "websocket is off" in told[0]


async def test_the_demo_emits_events_as_a_real_1_7_1():
    """The payload and namespace of the recorded 1.7.1 stream (events-001): the instance's own
    namespace, {event, instance, data, server_url, date_time, apikey}."""
    import json

    import socketio

    from tests.recorded.gateway import recordings_dir

    stream = json.loads(
        (recordings_dir() / "v1.7.1-more" / "events-001-lifecycle-qrcode-false.json").read_text()
    )
    real = next(e for e in stream["events"] if e["event"] == "connection.update")
    with DemoServer(incoming_every=0.2) as server:
        got: list = []
        client = socketio.AsyncClient()
        client.on("*", lambda event, data: got.append((event, data)), namespace=f"/{INSTANCE}")
        await client.connect(server.url, namespaces=[f"/{INSTANCE}"])  # no auth, as 1.7.1
        try:
            for _ in range(600):
                if got:
                    break
                await asyncio.sleep(0.1)
        finally:
            await client.disconnect()
    event, payload = got[0]
    assert event == "messages.upsert" and set(payload) == set(real["data"])
    assert real["namespace"] == "/ws-1" and payload["instance"] == INSTANCE
    assert payload["data"]["message"]["conversation"].startswith("incoming")
    assert payload["apikey"] == server.state.instances[INSTANCE].apikey


async def test_a_namespace_not_there_yet_is_tried_again_with_backoff_until_it_connects(
    monkeypatch,
):
    """As on a real server, an instance's namespace exists only once the server emitted to it:
    "Invalid namespace" until then. The app tries again, each wait longer than the last, and is
    live as soon as it exists; the app polls meanwhile and says why."""
    from gateway_tui.core import live

    waits: list[float] = []
    real_sleep = asyncio.sleep

    async def watched(seconds: float) -> None:
        waits.append(seconds)
        await real_sleep(0.05)  # the test need not wait the real backoff

    monkeypatch.setattr(live, "_backoff", watched)
    with DemoServer(strict_namespaces=True) as server:
        jid = newest_person_chat(server, INSTANCE)
        app = make_app(make_config(server))
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: bool(app.state.instances.value))
            conversation = MessagesScreen(INSTANCE, jid)
            app.push_screen(conversation)
            await wait_for(pilot, lambda: server.events.sio.refused >= 4)
            assert not app.live_for(INSTANCE) and app.state.live is False
            assert "no event stream yet" in (app.state.live_why or "")
            # Backoff: 1 s doubling to 30 s, each less up to half its length (jitter).
            for number, waited in enumerate(waits):
                nominal = min(live.RECONNECT_FIRST * 2**number, live.RECONNECT_MAX)
                assert nominal / 2 <= waited <= nominal, waits
            # The server emits to the instance: its namespace exists; the next try connects.
            server.write(INSTANCE, jid, "first over the socket")
            await wait_for(pilot, lambda: app.live_for(INSTANCE))
            sent = server.write(INSTANCE, jid, "now live")
            await wait_for(pilot, lambda: conversation.view.find(sent) is not None)
