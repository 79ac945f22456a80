"""The shell: header, help, request log, key remapping, profiles, connect screen, settings."""

from __future__ import annotations

from gateway_tui.core.files.config import Profile, load_config
from gateway_tui.core.files.config_writer import save_profile
from gateway_tui.tui.app import DARK_THEME, LIGHT_THEME, GatewayApp
from gateway_tui.tui.screens.help import HelpScreen
from gateway_tui.tui.screens.instances import InstancesScreen
from gateway_tui.tui.screens.request_log import RequestLogScreen
from tests.support import screen_text, wait_for


def loaded(app) -> bool:
    return isinstance(app.screen, InstancesScreen) and bool(app.state.instances.value)


async def test_help_lists_the_keys_of_the_current_screen(app_for):
    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_for(pilot, lambda: loaded(app))
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = screen_text(app)
        for description in ("Filter", "Status filter", "Delete", "Copy name", "Request log"):
            assert description in text
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, InstancesScreen)


async def test_bindings_remap_by_id_from_the_config(app_for):
    app = app_for(keys={"instances.refresh": "x", "app.request_log": "f5"})
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_for(pilot, lambda: loaded(app))
        before = len(app.state.calls)
        await pilot.press("x")
        await wait_for(pilot, lambda: len(app.state.calls) > before)
        await pilot.press("f5")
        await pilot.pause()
        assert isinstance(app.screen, RequestLogScreen)


async def test_profile_switch_points_the_app_at_another_gateway(demo_server, isolated_home):
    from gateway_tui.demo.server import DemoServer

    with DemoServer(instances=3) as other:
        save_profile("main", Profile(url=demo_server.url, api_key=demo_server.api_key))
        save_profile("other", Profile(url=other.url, api_key=other.api_key))
        config = load_config(profile="main")
        config.refresh_interval = 0
        app = GatewayApp(config)
        async with app.run_test(size=(140, 40)) as pilot:
            await wait_for(pilot, lambda: loaded(app))
            assert len(app.state.instances.value) == len(demo_server.state.instances)
            app.switch_profile("other")
            await pilot.pause()
            await wait_for(pilot, lambda: loaded(app))
            assert len(app.state.instances.value) == 3
            assert other.url in screen_text(app)
            assert app.config.profile == "other"


async def test_theme_toggles(app_for):
    app = app_for()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        first = app.theme
        await pilot.press("ctrl+t")
        assert app.theme != first and app.theme in (DARK_THEME, LIGHT_THEME)


async def test_leaving_a_screen_cancels_its_call(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_for(pilot, lambda: loaded(app))
        demo_server.faults.add("stall", seconds=30, path_prefix="/settings/find")
        app.open_instance("sales-eu")
        await wait_for(pilot, lambda: app.state.settings_of("sales-eu").loading)
        screen = app.screen
        assert any(not w.is_finished for w in screen.workers)
        await pilot.press("escape")
        await wait_for(pilot, lambda: not app.state.settings_of("sales-eu").loading)
        assert isinstance(app.screen, InstancesScreen)
        assert all(w.is_cancelled or w.is_finished for w in screen.workers)
