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

    from gateway_tui.screens.composer import ComposerScreen
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
