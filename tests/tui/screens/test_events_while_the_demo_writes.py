"""Issue 31's "done when", as written: with the demo writing every second by itself (its own
``incoming_every`` writer, as ``demo-server --incoming-every 1`` runs it, nothing written on
demand by the test), the event monitor shows the events as they come, the filter narrows them
and the export writes what the filter shows; on both lines."""

from __future__ import annotations

import json

import pytest

from gateway_tui.demo.server import DemoServer
from gateway_tui.tui.screens.event_monitor import EventMonitorScreen
from tests.navigation import open_instance
from tests.support import make_app, make_config, screen_text, wait_for

SIZE = (140, 40)


def incoming(screen: EventMonitorScreen) -> list[str]:
    """The texts of the demo's own writes the monitor's table shows, newest first."""
    texts = []
    for row in screen.table.visible_rows:
        message = (row.data or {}).get("message") or {}
        text = message.get("conversation") or ""
        if row.event == "messages.upsert" and text.startswith("incoming "):
            texts.append(text)
    return texts


@pytest.mark.parametrize("version", ["1.7.1", "2.3.7"])
async def test_the_monitor_follows_a_demo_writing_every_second(version, tmp_path):
    with DemoServer(api_version=version, incoming_every=1.0) as server:
        app = make_app(make_config(server))
        async with app.run_test(size=SIZE) as pilot:
            await open_instance(app, pilot)
            await pilot.press("E")
            await wait_for(pilot, lambda: isinstance(app.screen, EventMonitorScreen))
            screen = app.screen
            await wait_for(pilot, lambda: screen.stream is not None and screen.stream.connected)
            # three of the demo's writes arrive one after another, newest first, each drawn
            await wait_for(pilot, lambda: len(incoming(screen)) >= 3, within=120)
            shown = incoming(screen)
            numbers = [int(text.split()[1]) for text in shown]
            assert numbers == sorted(numbers, reverse=True), shown
            assert shown[0] in screen_text(app)

            # the filter keeps one write (its text closed by the JSON's quote, so "incoming 3"
            # is not also "incoming 30"); the next writes keep coming but stay filtered out
            one = shown[-1]
            number = one.split()[1]
            await pilot.press("slash", *"incoming", "space", *number, '"', "enter")
            await wait_for(pilot, lambda: incoming(screen) == [one])
            before = screen.ring.total
            await wait_for(pilot, lambda: screen.ring.total >= before + 2, within=120)
            assert incoming(screen) == [one]

            # the export writes what the filter shows, and no key
            await pilot.press("x")
            await wait_for(pilot, lambda: screen.exported is not None)
            exported = screen.exported.read_text()
            lines = [json.loads(line) for line in exported.splitlines()]
            assert len(lines) == 1
            assert lines[0]["event"] == "messages.upsert"
            assert lines[0]["data"]["message"]["conversation"] == one
            assert server.api_key not in exported
