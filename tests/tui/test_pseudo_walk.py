"""Every screen in the pseudo-locale: a sentence nobody marked for translation fails (issue 35).
The walk itself is gateway_tui/screenshots/pseudo_walk.py (also a command: a list per screen)."""

from __future__ import annotations

import pytest

from gateway_tui.core.text.i18n import PSEUDO, _, set_language
from gateway_tui.screenshots import all_scenarios
from gateway_tui.screenshots.pseudo_walk import unmarked, walk


def test_the_check_finds_an_unmarked_sentence_and_passes_a_marked_one():
    set_language(PSEUDO)
    assert unmarked(_("Refresh the instances"), set()) == []
    assert unmarked("Refresh the instances", set()) == ["Refresh", "instances"]
    assert unmarked("sales-eu", {"sales", "eu"}) == []
    assert unmarked("payme…", {"payment"}) == []  # data cut at a cell's edge
    assert unmarked("payme", {"payment"}) == ["payme"]


@pytest.mark.slow
@pytest.mark.parametrize(
    "scenario", [s for s in all_scenarios() if s.language == "en"], ids=lambda s: s.name
)
async def test_every_sentence_on_screen_is_marked(scenario):
    left, text = await walk(scenario)
    assert left == [], f"unmarked on {scenario.name}: {left}\n{text}"
