"""An instance the gateway says does not exist: the instance view says it is gone and offers
nothing that needs it (issue 29, item 7)."""

from __future__ import annotations

from gateway_tui.tui.screens.confirm import ConfirmScreen
from gateway_tui.tui.screens.instance import InstanceScreen
from tests.support import screen_text, wait_for

INSTANCE = "sales-eu"


async def test_an_instance_deleted_elsewhere_is_said_gone(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        app.open_instance(INSTANCE)
        await wait_for(pilot, lambda: app.state.settings_of(INSTANCE).value is not None)
        assert isinstance(app.screen, InstanceScreen)
        del demo_server.state.instances[INSTANCE]  # another client deleted it
        await pilot.press("r")
        await wait_for(pilot, lambda: "does not exist on the gateway" in screen_text(app))
        text = screen_text(app)
        assert "Settings" not in text and "restart" not in text
        for key in ("R", "C", "space"):
            await pilot.press(key)
            await pilot.pause()
            assert isinstance(app.screen, InstanceScreen) and not isinstance(
                app.screen, ConfirmScreen
            )
        assert not any("restart" in w.path for w in demo_server.state.writes)
