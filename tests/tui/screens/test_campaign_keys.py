"""A key means one thing a keystroke apart (issue 29): in the composer f9 starts a new empty
draft; the campaign set-up, one f5 away, must not use it for something else."""

from __future__ import annotations

from textual.binding import Binding

from gateway_tui.tui.screens.campaign_setup import CampaignSetupScreen
from gateway_tui.tui.screens.composer import ComposerScreen


def _keys(screen: type) -> dict[str, str]:
    found = {}
    for binding in screen.BINDINGS:
        if isinstance(binding, Binding):
            for key in binding.key.split(","):
                found[key.strip()] = binding.id or binding.action
    return found


def test_the_composers_new_draft_key_means_nothing_else_in_the_set_up() -> None:
    composer, setup = _keys(ComposerScreen), _keys(CampaignSetupScreen)
    new_draft = [key for key, what in composer.items() if what == "composer.new_draft"]
    assert new_draft and all(key not in setup for key in new_draft)


def test_the_set_ups_campaigns_are_on_the_composers_history_key() -> None:
    # Both list what was sent (the composer's history shows the campaigns too).
    composer, setup = _keys(ComposerScreen), _keys(CampaignSetupScreen)
    (campaigns,) = [key for key, what in setup.items() if what == "campaign_setup.campaigns"]
    assert composer[campaigns] == "composer.history"
