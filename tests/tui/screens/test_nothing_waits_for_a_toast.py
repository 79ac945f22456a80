"""Nothing in the suite waits for what expires (issue 29, item 14).

`test_screen_snapshot[campaign-setup]` once waited 60 s for a "Draft restored" toast that a
busy machine let expire (a toast lasts 5 s). Scenarios wait on lasting conditions; tests read
the record of every notice an app posted (tests/support.py NOTICES), never the toasts still
shown.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gateway_tui.demo.server import DemoServer
from gateway_tui.screenshots import all_scenarios
from gateway_tui.screenshots.base import build_app
from gateway_tui.tui.textual_private import notifications_of
from tests.support import notices, screen_text, wait_for

ROOT = Path(__file__).resolve().parents[3]
COMPOSER_SCENARIOS = ["campaign-setup", "compose"]


@pytest.mark.parametrize("name", COMPOSER_SCENARIOS)
async def test_a_scenario_finishes_when_every_toast_expires_at_once(name: str) -> None:
    (scenario,) = [s for s in all_scenarios() if s.name == name]
    with DemoServer(**scenario.server_options) as server:
        app = build_app(server, scenario)
        app.NOTIFICATION_TIMEOUT = 0.0  # a machine so busy that every toast is gone when read
        async with app.run_test(size=scenario.size) as pilot:
            await scenario.run(pilot)
            assert "Draft restored" not in screen_text(app)


async def test_the_record_of_notices_outlasts_the_toast(app_for) -> None:
    app = app_for()
    async with app.run_test(size=(100, 30)) as pilot:
        app.notify("Gone in a blink", timeout=0.01)
        await wait_for(pilot, lambda: bool(notices(app)))
        await wait_for(pilot, lambda: not notifications_of(app))
        assert any("Gone in a blink" in line for line in notices(app))
        app.clear_notifications()
        assert notices(app) == []


def test_no_test_or_scenario_reads_the_toasts_still_shown() -> None:
    """The toasts still shown are read only where that is what is tested (textual_private's
    own test); everything else reads the lasting record."""
    allowed = {
        "tests/tui/test_textual_private.py",
        "tests/tui/screens/test_nothing_waits_for_a_toast.py",
    }
    readers = [
        str(path.relative_to(ROOT))
        for folder in (ROOT / "tests", ROOT / "gateway_tui" / "screenshots")
        for path in sorted(folder.rglob("*.py"))
        if str(path.relative_to(ROOT)) not in allowed
        and re.search(r"\bnotifications_of\(", path.read_text())
    ]
    assert readers == []
