"""The webhook and websocket form (issue 29): tick boxes read as the settings' do (`[x]` /
`[ ]`, item 13), the events line says what is ticked, and a URL problem is shown under the URL.
"""

from __future__ import annotations

import pytest
from textual.widgets import Static

from gateway_tui.tui.screens.webhook import HookSettingsScreen
from tests.navigation import open_instance
from tests.support import screen_text, wait_for

pytestmark = pytest.mark.in_process

SIZE = (120, 40)


async def _open(app, pilot, key: str) -> HookSettingsScreen:
    await open_instance(app, pilot, "sales-eu")
    await pilot.press(key)
    await wait_for(pilot, lambda: isinstance(app.screen, HookSettingsScreen))
    await wait_for(pilot, lambda: "Never set" in screen_text(app))
    return app.screen  # type: ignore[return-value]


@pytest.mark.parametrize("key", ["w", "W"], ids=["webhook", "websocket"])
async def test_tick_boxes_read_x_when_ticked_and_blank_when_not(app_for, key) -> None:
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        screen = await _open(app, pilot, key)
        text = screen_text(app)
        assert "[ ] Enabled" in text and "[ ] MESSAGES_UPSERT" in text
        assert "▐" not in text and "▌" not in text
        screen.query_one("#hooks-enabled").value = True
        screen.query_one("#hooks-events").select("MESSAGES_UPSERT")
        await wait_for(pilot, lambda: "[x] Enabled" in screen_text(app))
        await wait_for(pilot, lambda: "[x] MESSAGES_UPSERT" in screen_text(app))
        assert "[ ] MESSAGES_UPDATE" in screen_text(app)


async def test_the_events_line_follows_what_is_ticked(app_for) -> None:
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        screen = await _open(app, pilot, "w")
        assert "none ticked: the gateway subscribes to all 26" in screen_text(app)
        screen.query_one("#hooks-events").select("MESSAGES_UPSERT")
        await wait_for(pilot, lambda: "1 of 26 ticked" in screen_text(app))
        assert "none ticked" not in screen_text(app)
        await pilot.press("ctrl+n")  # untick all
        await wait_for(pilot, lambda: "none ticked" in screen_text(app))


async def test_a_url_problem_is_shown_under_the_url(app_for, demo_server) -> None:
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        screen = await _open(app, pilot, "w")
        screen.query_one("#hooks-events").focus()
        await pilot.press("ctrl+s")
        url = screen.query_one("#hooks-url")
        problem = screen.query_one("#hooks-url-problem", Static)
        await wait_for(pilot, lambda: "enter the URL" in str(problem.render()))
        await wait_for(pilot, lambda: url.has_focus)
        assert problem.region.y == url.region.bottom  # the next line under the field
        assert demo_server.state.writes == []
