"""An instance's webhook and websocket settings: written, read back, differences said."""

from __future__ import annotations

import httpx

from gateway_tui.demo import lifecycle as demo_lifecycle
from gateway_tui.tui.screens.webhook import HookSettingsScreen
from tests.navigation import open_instance
from tests.support import screen_text, wait_for


async def _type(pilot, text: str) -> None:
    await pilot.press(*text)


SIZE = (120, 36)


async def test_webhook_written_read_back_and_differences_shown(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=(120, 40)) as pilot:
        await open_instance(pilot.app, pilot, "sales-eu")
        await pilot.press("w")
        await wait_for(pilot, lambda: isinstance(app.screen, HookSettingsScreen))
        await wait_for(pilot, lambda: "Never set" in screen_text(app))
        await _type(pilot, "https://hooks.example/in")
        app.screen.query_one("#hooks-enabled").value = True
        await pilot.press("ctrl+s")
        # None ticked means all 26: reading all 26 back is no difference (issue 23, item 6).
        await wait_for(pilot, lambda: "read back the same" in screen_text(app))
        text = screen_text(app)
        assert "keeps it differently" not in text
        assert "On the gateway: on · https://hooks.example/in · all 26 events" in text
        stored = demo_lifecycle.of(demo_server.state).webhooks["sales-eu"]
        assert stored["url"] == "https://hooks.example/in" and len(stored["events"]) == 26


async def test_websocket_written_and_read_back_the_same(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=(120, 40)) as pilot:
        await open_instance(pilot.app, pilot, "sales-eu")
        await pilot.press("W")
        await wait_for(pilot, lambda: "Never set" in screen_text(app))
        app.screen.query_one("#hooks-enabled").value = True
        app.screen.query_one("#hooks-events").select("CONNECTION_UPDATE")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: "read back the same" in screen_text(app))
        assert demo_lifecycle.of(demo_server.state).websockets["sales-eu"] == {
            "enabled": True,
            "events": ["CONNECTION_UPDATE"],
        }


async def test_bad_webhook_url_is_refused_on_the_form(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=(120, 40)) as pilot:
        await open_instance(pilot.app, pilot, "sales-eu")
        await pilot.press("w")
        await wait_for(pilot, lambda: "Never set" in screen_text(app))
        await _type(pilot, "hooks.example/in")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "a full http:// or https:// URL" in screen_text(app)
        assert app.screen.query_one("#hooks-url").value == "hooks.example/in"
        assert demo_server.state.writes == []


# --- 6. the websocket and webhook screens --------------------------------------------------------


def test_event_differences_say_what_the_gateway_did():
    from gateway_tui.core.api.lifecycle import (
        EVENT_NAMES,
        WebhookSettings,
        WebsocketSettings,
        webhook_differences,
        websocket_differences,
    )

    every = list(EVENT_NAMES)
    # No event ticked means all 26: reading all 26 back is the same thing.
    sent = WebhookSettings(url="https://hooks.example/in", enabled=True, events=[])
    found = WebhookSettings(url="https://hooks.example/in", enabled=True, events=every)
    assert webhook_differences(sent, found) == []
    # A websocket turned off keeps all 26 events: not "added 25 events".
    sent_ws = WebsocketSettings(enabled=False, events=["CONNECTION_UPDATE"])
    found_ws = WebsocketSettings(enabled=False, events=every)
    [line] = websocket_differences(sent_ws, found_ws)
    assert "added" not in line and "a disabled websocket keeps all 26" in line


async def test_the_websocket_screen_says_when_the_gateway_serves_no_websocket():
    from gateway_tui.demo.server import DemoServer
    from gateway_tui.tui.screens.instance import InstanceScreen
    from tests.support import make_app, make_config

    # A gateway without WEBSOCKET_ENABLED: /socket.io/ is a 404.
    with DemoServer(websocket=False) as server:
        app = make_app(make_config(server))
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: bool(app.state.instances.value))
            app.open_instance("sales-eu")
            await wait_for(pilot, lambda: isinstance(app.screen, InstanceScreen))
            await pilot.press("W")
            await wait_for(pilot, lambda: "Never set" in screen_text(app))
            app.screen.query_one("#hooks-enabled").value = True
            app.screen.query_one("#hooks-events").select("CONNECTION_UPDATE")
            await pilot.press("ctrl+s")
            await wait_for(pilot, lambda: "Written" in screen_text(app))
            await wait_for(pilot, lambda: "websocket channel" in screen_text(app))
            text = " ".join(screen_text(app).split())
            assert "1 event ·" in text and "1 events" not in text
            assert "✓ Written" not in text  # stored as sent, but nothing will be delivered
            assert "this gateway serves no websocket channel" in text


class _ChannelCheckFails(httpx.AsyncBaseTransport):
    """The demo gateway, except that its /socket.io/ check fails: with ``status`` as its
    answer, or (None) as a connection that breaks."""

    def __init__(self, status: int | None) -> None:
        self.status = status
        self.real = httpx.AsyncHTTPTransport()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.path.startswith("/socket.io/"):
            if self.status is None:
                raise httpx.ReadError("connection reset by peer", request=request)
            return httpx.Response(self.status, json={"status": self.status}, request=request)
        return await self.real.handle_async_request(request)

    async def aclose(self) -> None:
        await self.real.aclose()


async def _websocket_screen_with_channel_check(demo_server, status: int | None):
    """The websocket settings screen's text and the notices, the channel check failing."""
    from gateway_tui.tui.app import GatewayApp
    from tests.support import make_config, notices

    app = GatewayApp(make_config(demo_server), transport=_ChannelCheckFails(status))
    said = "could not check whether this gateway serves its websocket channel"
    async with app.run_test(size=(120, 40)) as pilot:
        await open_instance(pilot.app, pilot, "sales-eu")
        await pilot.press("W")
        await wait_for(pilot, lambda: isinstance(app.screen, HookSettingsScreen))
        await wait_for(pilot, lambda: said in " ".join(screen_text(app).split()))
        await wait_for(pilot, lambda: "Never set" in screen_text(app))  # the settings were read
        if status is not None:
            await wait_for(pilot, lambda: any("websocket channel" in n for n in notices(app)))
        return " ".join(screen_text(app).split()), notices(app)


async def test_a_failed_websocket_channel_check_is_said_in_a_lasting_line(demo_server):
    """The /socket.io/ check beside the websocket settings' read: a failure is said on the
    screen (it was swallowed: the screen claimed nothing and said nothing)."""
    text, told = await _websocket_screen_with_channel_check(demo_server, None)
    assert "the read failed; nothing was changed, safe to try again" in text
    assert "serves no websocket channel" not in text  # nothing claimed either way
    assert not [n for n in told if "websocket channel" in n]  # a lasting line, no notice


async def test_a_refused_key_at_the_websocket_channel_check_is_told_at_once(demo_server):
    text, told = await _websocket_screen_with_channel_check(demo_server, 401)
    assert "The API key was not accepted" in text
    [notice] = [n for n in told if "websocket channel" in n]
    assert notice.startswith("Checking the gateway's websocket channel failed")
