"""Screenshot scenarios of every screen (run by `make screenshots`, checked by snapshot tests)."""

from __future__ import annotations

from gateway_tui.screenshots.base import Scenario


def all_scenarios() -> list[Scenario]:
    from gateway_tui.screenshots import admin, campaign, chats, compose, groups, lifecycle, shell

    return [
        *shell.SCENARIOS,
        *groups.SCENARIOS,
        *compose.SCENARIOS,
        *lifecycle.SCENARIOS,
        *campaign.SCENARIOS,
        *chats.SCENARIOS,
        *admin.SCENARIOS,
    ]
