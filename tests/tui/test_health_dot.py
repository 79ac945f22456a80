"""The bar's health dot follows the gateway without a socket (issue 29, item 6): once the
gateway dies the dot says so by itself, and says ok again once it is back — on a screen that
makes no call of its own (the instance view) and on the list. Before, it said `● ok` until
something happened to call."""

from __future__ import annotations

import pytest

from gateway_tui.core.state import Health
from gateway_tui.demo.server import DemoServer
from tests.support import make_app, make_config, screen_text, wait_for

INSTANCE = "sales-eu"


def _bar(app) -> str:
    return screen_text(app).splitlines()[0]


@pytest.mark.parametrize("screen", ["instance", "list"])
async def test_the_dot_follows_a_gateway_that_dies_and_comes_back(screen: str) -> None:
    first = DemoServer().start()
    port = first.port
    app = make_app(make_config(first, refresh_interval=1.0))
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        if screen == "instance":
            app.open_instance(INSTANCE)
            await wait_for(pilot, lambda: type(app.screen).__name__ == "InstanceScreen")
        assert app.state.live is not True  # no socket tells this screen anything
        top = app.screen
        await wait_for(pilot, lambda: "● ok" in _bar(app))
        first.stop()
        # No key pressed, no read forced: the dot turns by itself.
        await wait_for(pilot, lambda: "● unreachable" in _bar(app))
        assert app.state.health is Health.UNREACHABLE
        with DemoServer(port=port):
            await wait_for(pilot, lambda: "● ok" in _bar(app))
            assert app.screen is top
