"""After an outage every screen calls again by itself, and the bar says the gateway is back
(issue 29, item 5): the instance view, participants, the groups picker and the composer."""

from __future__ import annotations

import contextlib

import pytest

from gateway_tui.core.api.errors import GatewayError
from gateway_tui.core.state import Health
from gateway_tui.demo.server import DemoServer
from tests.support import make_app, make_config, wait_for

INSTANCE = "sales-eu"


async def _outage(app, pilot, first: DemoServer, read) -> None:
    """Stop the gateway and fail one read of the screen's (as its own refresh would)."""
    first.stop()
    with contextlib.suppress(GatewayError):
        await read()
    assert app.state.health is Health.UNREACHABLE


def _open(app, screen: str, jid: str) -> None:
    if screen == "instance":
        app.open_instance(INSTANCE)
    elif screen == "groups":
        app.open_groups(INSTANCE)
    elif screen == "participants":
        from gateway_tui.tui.screens.participants import ParticipantsScreen

        app.push_screen(ParticipantsScreen(INSTANCE, jid))
    else:
        app.open_composer(INSTANCE)


@pytest.mark.parametrize("screen", ["instance", "groups", "participants", "composer"])
async def test_the_screen_recovers_by_itself(screen: str) -> None:
    first = DemoServer().start()
    port = first.port
    app = make_app(make_config(first, refresh_interval=1.0))
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        groups = await app.actions.groups.load_groups(INSTANCE)
        jid = groups[0].id
        _open(app, screen, jid)
        await pilot.pause()
        top = app.screen
        reads = {
            "instance": lambda: app.actions.instances.load_settings(INSTANCE),
            "groups": lambda: app.actions.groups.load_groups(INSTANCE),
            "participants": lambda: app.actions.groups.load_participants(INSTANCE, jid),
            "composer": lambda: app.actions.instances.refresh_instances(),
        }
        await _outage(app, pilot, first, reads[screen])
        with DemoServer(port=port):
            # No key pressed: the screen asks again, the bar follows.
            await wait_for(pilot, lambda: app.state.health is Health.OK)
            assert app.screen is top
            if screen != "composer":
                await wait_for(pilot, lambda: top.data_error() is None)
