"""Screenshot scenarios of every screen (run by `make screenshots`, checked by snapshot tests)."""

from __future__ import annotations

from gateway_tui.screenshots.base import Scenario


def all_scenarios() -> list[Scenario]:
    from gateway_tui.screenshots import admin, campaign, chats, compose, groups, lifecycle, shell

    scenarios = [
        *shell.SCENARIOS,
        *groups.SCENARIOS,
        *compose.SCENARIOS,
        *lifecycle.SCENARIOS,
        *campaign.SCENARIOS,
        *chats.SCENARIOS,
        *admin.SCENARIOS,
    ]
    return scenarios + in_portuguese(scenarios)


# The main screens again in Brazilian Portuguese (issue 35): the same steps, the app in pt-BR.
IN_PORTUGUESE = (
    "instances",
    "instance-settings",
    "help",
    "chats",
    "compose",
    "compose-80-columns",
    "participants",
    "campaign-setup",
    "connect-qr-80x24",
)


def in_portuguese(scenarios: list[Scenario]) -> list[Scenario]:
    from dataclasses import replace

    by_name = {scenario.name: scenario for scenario in scenarios}
    return [
        replace(by_name[name], name=f"{name}-pt-br", language="pt_BR") for name in IN_PORTUGUESE
    ]
