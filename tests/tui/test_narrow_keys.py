"""Issue 23 items 9 and 10: a narrow terminal keeps its keys, and keys do what they say."""

from __future__ import annotations

import pytest

from tests.support import screen_text, wait_for


def footer_line(app) -> str:
    return screen_text(app).rstrip("\n").splitlines()[-1]


@pytest.mark.parametrize("screen", ["instances", "instance", "chats", "composer"])
async def test_the_global_keys_stay_in_the_footer_at_80_columns(app_for, screen):
    app = app_for()
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        if screen == "instance":
            app.open_instance("sales-eu")
        elif screen == "chats":
            app.open_chats("sales-eu")
        elif screen == "composer":
            app.open_composer("sales-eu")
        await pilot.pause()
        await pilot.pause()
        line = footer_line(app)
        # q quits where no text field takes it (the composer's fields do).
        keys = ("f1 Keys", "f12 ", "^p palette") + (() if screen == "composer" else ("q Quit",))
        for said in keys:
            assert said in line, line


# --- 10. keys that do what they say ------------------------------------------------------------


async def test_q_on_a_composer_widget_that_is_not_text_does_not_quit(app_for):
    from textual.widgets import Select

    from gateway_tui.tui.screens.composer import ComposerScreen
    from tests.support import notices, open_composer_on

    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        screen = await open_composer_on(app, pilot, "sales-eu")
        screen.query_one("#f-presence", Select).focus()
        await pilot.pause()
        await pilot.press("q")
        await pilot.pause()
        assert app.is_running and isinstance(app.screen, ComposerScreen)
        assert any("^q quits" in n for n in notices(app))


async def test_a_burst_ending_in_ctrl_s_on_the_connect_form_reads_the_whole_key(demo_server):
    """URL, tab, key and ctrl+s typed in one burst: ctrl+s (a priority binding) acts once the
    letters before it are in their fields (it used to say "Enter the API key." 7 runs in 8)."""
    from gateway_tui.core.files.config import load_config, read_config_file
    from gateway_tui.tui.app import GatewayApp
    from gateway_tui.tui.screens.connect import ConnectScreen
    from tests.tui.test_type_ahead import burst

    app = GatewayApp(load_config())
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ConnectScreen))
        burst(app, *demo_server.url, "tab", *demo_server.api_key, "ctrl+s")
        said = ("Saved profile", "Enter the API key.", "✕")
        await wait_for(pilot, lambda: any(s in screen_text(app) for s in said))
        assert "Enter the API key." not in screen_text(app)
        saved = read_config_file()[0].profiles["default"]
        assert saved.api_key.get_secret_value() == demo_server.api_key
