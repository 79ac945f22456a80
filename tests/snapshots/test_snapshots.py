"""Snapshots of every screen: the same scenarios `make screenshots` draws.

Update them after an intended change with
`pytest tests/snapshots/test_snapshots.py --snapshot-update`, then look at the pictures
(`make screenshots` writes the same ones as SVG files).
"""

from __future__ import annotations

import pytest

from gateway_tui.screenshots import all_scenarios
from gateway_tui.screenshots.base import build_app


@pytest.mark.parametrize("scenario", all_scenarios(), ids=lambda s: s.name)
def test_screen_snapshot(scenario, snap_compare):
    from gateway_tui.demo.server import DemoServer

    with DemoServer(**scenario.server_options) as server:
        app = build_app(server, scenario)
        assert snap_compare(app, terminal_size=scenario.size, run_before=scenario.run)
