"""[keys] checked at start-up as `config validate` checks it: a bad remap is said once, naming
its line, and that binding keeps its default key; good remaps still apply."""

from __future__ import annotations

from gateway_tui.core.files.config import config_path
from gateway_tui.tui.app import GatewayApp
from gateway_tui.tui.screens.instances import InstancesScreen
from tests.support import make_config, notices, wait_for


async def test_a_colliding_remap_is_said_once_and_the_key_keeps_its_action(demo_server):
    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        '[keys]\n"instances.sort" = "f"\n"instances.nope" = "x"\n"instances.refresh" = "ctrl+b"\n'
    )
    app = GatewayApp(make_config(demo_server))
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, InstancesScreen))
        screen = app.screen
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        said = [line for line in notices(app) if "instances.sort" in line]
        assert len(said) == 1, notices(app)
        assert "f is also instances.status_filter" in said[0] and "config.toml" in said[0]
        assert sum("instances.nope" in line for line in notices(app)) == 1
        # Sort keeps s, the status filter keeps f, and the good remap applies.
        assert screen.key_for("instances.sort") == "s"
        assert screen.key_for("instances.status_filter") == "f"
        assert screen.key_for("instances.refresh") == "^b"
        await pilot.press("f")
        await wait_for(pilot, lambda: screen._status_filter is not None)
