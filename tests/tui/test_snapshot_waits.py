"""Issue 23 item 12: screenshot scenarios wait for what their picture shows, never a fixed time."""

from __future__ import annotations

import re
from pathlib import Path

from gateway_tui.screenshots.base import Scenario, build_app


def test_no_scenario_waits_a_fixed_time():
    """A fixed pause is beaten by a busy machine: scenarios wait on conditions."""
    folder = Path(__file__).resolve().parents[2] / "gateway_tui" / "screenshots"
    fixed = [
        f"{path.name}: {line.strip()}"
        for path in sorted(folder.glob("*.py"))
        for line in path.read_text().splitlines()
        if (re.search(r"pause\(\s*[\d.]+", line) or "sleep(" in line)
        and "polls the condition" not in line
    ]
    assert not fixed, fixed


async def _nothing(_pilot) -> None:
    return None


async def test_every_picture_waits_for_the_version_and_a_cursor_that_does_not_blink():
    """GET / answers beside the first call and may come after a scenario's own waits; a text
    cursor blinks every half second. Both are settled before any picture."""
    from textual.widgets import Input

    from gateway_tui.demo.server import DemoServer
    from gateway_tui.tui.screens.connect import ConnectScreen

    with DemoServer() as server:
        app = build_app(server, Scenario("bare", _nothing))
        async with app.run_test(size=(100, 30)) as pilot:
            await Scenario("bare", _nothing).run(pilot)
            assert app.client.server_version == "1.7.1"
    scenario = Scenario("bare-connect", _nothing, connected=False)
    with DemoServer() as server:
        app = build_app(server, scenario)
        async with app.run_test(size=(100, 30)) as pilot:
            from gateway_tui.screenshots.base import wait_until

            await wait_until(pilot, lambda: isinstance(app.screen, ConnectScreen))
            field = app.screen.query_one("#url", Input)
            field.focus()
            await wait_until(pilot, lambda: field.has_focus)
            await scenario.run(pilot)
            await pilot.pause(0.7)  # longer than a blink: the cursor must still be drawn
            assert field._cursor_visible
