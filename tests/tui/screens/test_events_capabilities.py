"""The events screens say what the gateway's version refuses in an event list or cannot emit
(core/api/capabilities.py): messaging-history.set before 2.4.0, on the webhook and websocket
settings and in the event monitor's "asked for versus arrived"; not on a version without it."""

from __future__ import annotations

import pytest

from gateway_tui.demo.server import DemoServer
from gateway_tui.tui.screens.webhook import HookSettingsScreen
from tests.navigation import open_instance
from tests.support import make_app, make_config, screen_text, wait_for


async def open_monitor(app, pilot) -> None:
    from gateway_tui.tui.screens.event_monitor import EventMonitorScreen

    await open_instance(app, pilot)
    await pilot.press("E")
    await wait_for(pilot, lambda: isinstance(app.screen, EventMonitorScreen))


REFUSED = "messaging-history.set (MESSAGING_HISTORY_SET) is refused"


@pytest.mark.parametrize(("version", "said"), [("2.3.7", True), ("2.4.0", False)])
async def test_the_webhook_form_says_what_the_version_refuses(version, said) -> None:
    with DemoServer(api_version=version) as server:
        app = make_app(make_config(server))
        async with app.run_test(size=(140, 50)) as pilot:
            await open_instance(app, pilot, "sales-eu")
            await wait_for(pilot, lambda: app.gateway_version == version)
            await pilot.press("w")
            await wait_for(pilot, lambda: isinstance(app.screen, HookSettingsScreen))
            await wait_for(pilot, lambda: "Never set" in screen_text(app))
            found = app.screen.query("#hooks-capabilities")
            assert bool(found) is said
            if said:
                assert REFUSED in str(found.first().render())
                assert "2.3.7: " in str(found.first().render())


async def test_the_monitor_says_it_beside_asked_versus_arrived(app_for) -> None:
    app = app_for()
    async with app.run_test(size=(140, 50)) as pilot:
        await open_monitor(app, pilot)
        version = app.gateway_version
        assert version and version.startswith("1.7")
        coverage = app.screen.query_one("#events-coverage")
        await wait_for(pilot, lambda: "Asked for versus arrived" in str(coverage.render()))
        await wait_for(pilot, lambda: REFUSED in str(coverage.render()))
