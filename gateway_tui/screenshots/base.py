"""How a screenshot scenario runs: a fresh demo gateway, the app on it, keys, then a picture.

The same scenarios drive the snapshot tests (tests/snapshots/test_snapshots.py) and
`make screenshots`.
The app is shown a fixed loopback URL and a fixed clock so pictures do not change from run to
run, while every call still goes over real HTTP to the demo gateway's actual port.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any

import httpx
from textual.pilot import Pilot

from gateway_tui.core.files.config import load_config
from gateway_tui.core.text.i18n import set_language
from gateway_tui.tui.app import GatewayApp

DISPLAY_URL = "http://127.0.0.1:8080"
FIXED_NOW = datetime(2026, 11, 21, 9, 30, 0)

Steps = Callable[[Pilot], Awaitable[None]]


class RedirectTransport(httpx.AsyncBaseTransport):
    """Sends every request to the demo gateway's real port, whatever URL the app shows."""

    def __init__(self, port: int) -> None:
        self._port = port
        self._inner = httpx.AsyncHTTPTransport()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        # A new request: the original keeps the URL the app shows (the request log reads it).
        redirected = httpx.Request(
            request.method,
            request.url.copy_with(scheme="http", host="127.0.0.1", port=self._port),
            headers=request.headers,
            stream=request.stream,
            extensions=request.extensions,
        )
        return await self._inner.handle_async_request(redirected)

    async def aclose(self) -> None:
        await self._inner.aclose()


@dataclass(frozen=True)
class Scenario:
    name: str
    steps: Steps
    size: tuple[int, int] = (120, 34)
    connected: bool = True  # False: nothing configured (the connect screen)
    server_options: dict[str, Any] = field(default_factory=dict)
    live: bool = False  # live events from the demo's socket (its real port); steps get it too
    language: str = "en"  # the app's language for this picture (core/text/i18n.py)

    async def run(self, pilot: Pilot) -> None:
        """The steps, then what every picture shows settled (the snapshot tests and
        `make screenshots` run this)."""
        await self.steps(pilot)
        await settle(pilot, connected=self.connected)


def build_app(server: Any, scenario: Scenario) -> GatewayApp:
    set_language(scenario.language)  # before the app: its first screen speaks it too
    if scenario.connected:
        config = load_config(url=DISPLAY_URL, api_key=server.api_key)
    else:
        config = load_config()
    config.refresh_interval = 0
    server.state.server_url = DISPLAY_URL  # what the gateway says of itself, in every picture
    server.state.auto_scan_seconds = None  # no demo phone scanning mid-picture
    port = int(server.url.rsplit(":", 1)[1])
    app = GatewayApp(config, transport=RedirectTransport(port), clock=lambda: FIXED_NOW)
    if scenario.live:
        app.live_beside_transport = True
        app.live_url = server.url
        DEMO_OF[app] = server
    return app


# The demo gateway behind a live scenario's app: its steps make contacts write (server.write).
DEMO_OF: weakref.WeakKeyDictionary[GatewayApp, Any] = weakref.WeakKeyDictionary()


async def wait_until(pilot: Pilot, condition: Callable[[], bool], within: float = 240.0) -> None:
    """Let the app run until ``condition()`` holds: calls finish in their own time.

    The limit is generous on purpose: a busy machine may be slow, and that is no failure (the
    suite runs on a busy two-core machine, beside other processes). It only ends a wait for
    what will never come.
    """
    try:
        async with asyncio.timeout(within):
            while not condition():
                await pilot.pause(0.02)  # polls the condition: not a fixed wait
    except TimeoutError:
        raise TimeoutError(f"condition not met within {within}s") from None
    await pilot.pause()


async def settle(pilot: Pilot, *, connected: bool) -> None:
    """What every picture shows, waited for: the gateway's version in the bar (GET / is asked
    beside the first call and may answer after the scenario's own waits), and text cursors
    that do not blink (a picture taken half a second after the last key caught one hidden)."""
    app: Any = pilot.app
    if connected:
        await wait_until(pilot, lambda: app.client.server_version is not None)
    from textual.widgets import Input, TextArea

    for screen in app.screen_stack:
        for widget in screen.query(Input):
            widget.cursor_blink = False
        for widget in screen.query(TextArea):
            widget.cursor_blink = False
    await pilot.pause()


def shown(pilot: Pilot, screen_type: type) -> Callable[[], bool]:
    """A condition: a screen of ``screen_type`` is on top and mounted."""
    app = pilot.app
    return lambda: isinstance(app.screen, screen_type) and app.screen.is_mounted


def _steady_headers(headers: tuple[tuple[str, str], ...], request_id: str):
    """Headers that change from run to run (the date, the request id), made fixed."""
    fixed = {"date": FIXED_NOW.strftime("%a, %d %b %Y %H:%M:%S GMT"), "x-request-id": request_id}
    return tuple((name, fixed.get(name.lower(), value)) for name, value in headers)


def steady_request_log(app: GatewayApp) -> None:
    """Give logged calls fixed times and durations, so a picture of the log is repeatable."""
    calls = list(app.state.calls)
    app.state.calls.clear()
    for index, event in enumerate(calls):
        at = FIXED_NOW + timedelta(milliseconds=137 * index)
        request_id = f"{index:08x}"
        steady = replace(
            event,
            started_at=at,
            elapsed_ms=3.0 + index,
            request_id=request_id,
            request_headers=_steady_headers(event.request_headers, request_id),
            response_headers=_steady_headers(event.response_headers, request_id),
        )
        app.state.calls.append(steady)
    from gateway_tui.core.state import Topic

    app.state.notify(Topic.CALLS)
