"""Live updates that are partial are said as such (issue 29): "No live updates" only when none
come; a websocket live without new messages is polled for them; a webhook on with the
websocket off is named."""

from __future__ import annotations

import httpx

from gateway_tui.demo.server import DemoServer
from gateway_tui.tui.screens.messages import MessagesScreen
from tests.data import newest_person_chat
from tests.support import make_app, make_config, notices, wait_for

INSTANCE = "sales-eu"
SIZE = (140, 40)


async def _set(server: DemoServer, what: str, body: dict) -> None:
    async with httpx.AsyncClient(base_url=server.url) as http:
        answer = await http.post(
            f"/{what}/set/{INSTANCE}", headers={"apikey": server.api_key}, json=body
        )
        assert answer.status_code in (200, 201), answer.text


def finds(app) -> int:
    return sum(1 for e in app.state.calls if e.path.startswith("/chat/findMessages/"))


async def test_a_socket_live_without_new_messages_says_partial_and_the_conversation_polls():
    with DemoServer() as server:
        await _set(server, "websocket", {"enabled": True, "events": ["CONNECTION_UPDATE"]})
        jid = newest_person_chat(server, INSTANCE)
        app = make_app(make_config(server, refresh_interval=1))
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: bool(app.state.instances.value))
            app.push_screen(MessagesScreen(INSTANCE, jid))
            await wait_for(pilot, lambda: any("Live updates from" in n for n in notices(app)))
            (told,) = [n for n in notices(app) if "Live updates from" in n]
            assert "No live updates" not in told
            assert "partial: its websocket sends connection changes, but not new messages" in told
            assert "the chats and the conversation read new messages again" in told
            await wait_for(pilot, lambda: app.live_for(INSTANCE))
            assert not app.live_messages_for(INSTANCE)
            # The socket is up, yet its messages do not come: the conversation reads again.
            read = finds(app)
            await wait_for(pilot, lambda: finds(app) >= read + 2)


async def test_the_websocket_off_and_the_webhook_on_is_named():
    with DemoServer() as server:
        await _set(server, "websocket", {"enabled": False, "events": []})
        hook = {"url": "http://127.0.0.1:9/hook", "enabled": True, "events": ["MESSAGES_UPSERT"]}
        await _set(server, "webhook", hook)
        jid = newest_person_chat(server, INSTANCE)
        app = make_app(make_config(server))
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: bool(app.state.instances.value))
            app.push_screen(MessagesScreen(INSTANCE, jid))
            await wait_for(pilot, lambda: any("No live updates from" in n for n in notices(app)))
            (told,) = [n for n in notices(app) if "No live updates from" in n]
            assert "its websocket is off (its webhook is on, but this app listens on the " in told


def bar_text(app) -> str:
    from gateway_tui.tui.widgets.gateway_bar import GatewayBar

    return app.screen.query_one(GatewayBar).render().plain


async def test_the_bar_says_partial_where_the_notice_does():
    with DemoServer() as server:
        await _set(server, "websocket", {"enabled": True, "events": ["CONNECTION_UPDATE"]})
        jid = newest_person_chat(server, INSTANCE)
        app = make_app(make_config(server))
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: bool(app.state.instances.value))
            app.open_instance(INSTANCE)
            app.push_screen(MessagesScreen(INSTANCE, jid))
            await wait_for(pilot, lambda: any("are partial" in n for n in notices(app)))
            await wait_for(pilot, lambda: app.live_for(INSTANCE))
            await wait_for(pilot, lambda: "⚡ partial" in bar_text(app))
            assert "⚡ live" not in bar_text(app)


async def test_the_bar_says_live_when_every_event_comes():
    with DemoServer() as server:
        jid = newest_person_chat(server, INSTANCE)
        app = make_app(make_config(server))
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: bool(app.state.instances.value))
            app.open_instance(INSTANCE)
            app.push_screen(MessagesScreen(INSTANCE, jid))
            await wait_for(pilot, lambda: app.live_for(INSTANCE))
            await wait_for(pilot, lambda: "⚡ live" in bar_text(app))
            assert "partial" not in bar_text(app)


async def test_a_failed_check_of_the_live_settings_is_said():
    """The websocket settings could not be read: said in a notice (live updates may not come),
    never swallowed."""
    from tests.navigation import open_chats

    with DemoServer() as server:
        rule = server.faults.add("status", status=500, path_prefix=f"/websocket/find/{INSTANCE}")
        app = make_app(make_config(server))
        async with app.run_test(size=SIZE) as pilot:
            await open_chats(app, pilot)
            await wait_for(pilot, lambda: rule.hits > 0)
            wanted = f"Checking the live-update settings of {INSTANCE} failed"
            await wait_for(pilot, lambda: any(wanted in n for n in notices(app)))
