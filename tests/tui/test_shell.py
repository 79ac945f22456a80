"""The shell: header, help, request log, key remapping, profiles, connect screen, settings."""

from __future__ import annotations

from gateway_tui.core.api.events import KEY_PLACEHOLDER
from gateway_tui.core.files.config import Profile, load_config, save_profile
from gateway_tui.tui.app import DARK_THEME, LIGHT_THEME, GatewayApp
from gateway_tui.tui.screens.confirm import ConfirmScreen
from gateway_tui.tui.screens.connect import ConnectScreen
from gateway_tui.tui.screens.help import HelpScreen
from gateway_tui.tui.screens.instance import InstanceScreen
from gateway_tui.tui.screens.instances import InstancesScreen
from gateway_tui.tui.screens.request_log import RequestLogScreen
from tests.support import notices, screen_text, wait_for


def loaded(app) -> bool:
    return isinstance(app.screen, InstancesScreen) and bool(app.state.instances.value)


async def test_header_shows_url_masked_key_and_health(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_for(pilot, lambda: loaded(app))
        text = screen_text(app)
        assert demo_server.url in text
        assert "••••" + demo_server.api_key[-4:] in text
        assert demo_server.api_key not in text
        assert "● ok" in text


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


async def test_request_log_lists_calls_without_the_key(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=(160, 40)) as pilot:
        await wait_for(pilot, lambda: loaded(app))
        await pilot.press("f12")
        await pilot.pause()
        assert isinstance(app.screen, RequestLogScreen)
        text = screen_text(app)
        assert "/instance/fetchInstances" in text and "200" in text
        assert demo_server.api_key not in text
        await pilot.press("Y")
        curl = app.clipboard
        assert curl.startswith("curl ") and KEY_PLACEHOLDER in curl
        assert demo_server.url + "/instance/fetchInstances" in curl
        assert demo_server.api_key not in curl


async def test_request_log_shows_failed_calls_with_their_lines(app_for):
    app = app_for(api_key="wrong-key-123456")
    async with app.run_test(size=(160, 40)) as pilot:
        await wait_for(pilot, lambda: app.state.instances.error is not None)
        await pilot.press("f12")
        await pilot.pause()
        text = screen_text(app)
        assert "401" in text and "Unauthorized" in text
        assert "wrong-key-123456" not in text


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


async def test_nothing_configured_opens_the_connect_screen(demo_server):
    app = GatewayApp(load_config())
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ConnectScreen)
        await pilot.click("#url")
        await pilot.press(*demo_server.url)
        await pilot.click("#api-key")
        await pilot.press(*"wrong-key")
        await pilot.press("ctrl+r")  # test connection
        await wait_for(pilot, lambda: "refused the API key" in screen_text(app))
        assert "wrong-key" not in screen_text(app)  # a password field: never echoed
        app.screen.query_one("#api-key").value = demo_server.api_key
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: "Connected" in screen_text(app))
        await pilot.press("ctrl+s")  # save as profile
        await pilot.pause()
        saved = load_config()
        assert saved.url == demo_server.url
        assert saved.api_key.get_secret_value() == demo_server.api_key
        await pilot.press("ctrl+o")  # connect
        await wait_for(pilot, lambda: loaded(app))


async def test_connect_screen_explains_a_bad_url_next_to_the_field():
    app = GatewayApp(load_config())
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.click("#url")
        await pilot.press(*"ftp://nope")
        await pilot.press("ctrl+o")
        await pilot.pause()
        assert isinstance(app.screen, ConnectScreen)
        assert "http" in str(app.screen.query_one("#url-error").render())


async def test_theme_toggles(app_for):
    app = app_for()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        first = app.theme
        await pilot.press("ctrl+t")
        assert app.theme != first and app.theme in (DARK_THEME, LIGHT_THEME)


async def test_toggle_setting_writes_and_rereads(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_for(pilot, lambda: loaded(app))
        app.open_instance("sales-eu")
        await wait_for(pilot, lambda: app.state.settings_of("sales-eu").value is not None)
        assert isinstance(app.screen, InstanceScreen)
        before = demo_server.state.instances["sales-eu"].settings["reject_call"]
        await pilot.press("space")  # first setting: reject_call
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await wait_for(
            pilot, lambda: demo_server.state.instances["sales-eu"].settings["reject_call"] != before
        )
        await wait_for(
            pilot, lambda: app.state.settings_of("sales-eu").value.reject_call is (not before)
        )


async def test_settings_write_reads_not_supported_on_a_gateway_without_it(app_for, demo_server):
    demo_server.faults.add("missing_route", method="POST", path_prefix="/settings/set")
    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_for(pilot, lambda: loaded(app))
        app.open_instance("sales-eu")
        await wait_for(pilot, lambda: app.state.settings_of("sales-eu").value is not None)
        await pilot.press("space")
        await pilot.pause()
        await pilot.press("y")
        await wait_for(pilot, lambda: "editing not supported here" in screen_text(app))
        assert any("Not supported here" in line for line in notices(app))
        assert not any("failed" in line for line in notices(app))  # not reported as an error
        await pilot.press("space")  # asks no more: says it is not supported
        await pilot.pause()
        assert isinstance(app.screen, InstanceScreen)


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


async def test_the_connect_screen_from_the_palette_has_a_way_back(app_for):
    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_for(pilot, lambda: loaded(app))
        app._open_connect()
        await pilot.pause()
        assert isinstance(app.screen, ConnectScreen)
        await pilot.press("escape")  # the URL field has focus; escape still goes back
        await pilot.pause()
        assert isinstance(app.screen, InstancesScreen)
