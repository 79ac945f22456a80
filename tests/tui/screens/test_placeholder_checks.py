"""Placeholders on screen: the composer refuses a single send with an unfilled {placeholder}
(it does not say "ready to send"); the campaign set-up flags rows that leave one empty and asks
whether to send them as they are or skip them."""

from __future__ import annotations

import pytest
from textual.widgets import Select, Static, TextArea

from gateway_tui.tui.screens.campaign_setup import CampaignSetupScreen
from gateway_tui.tui.screens.confirm import ConfirmScreen
from tests.data import good_draft
from tests.navigation import open_campaign_setup, open_composer_with
from tests.support import screen_text, wait_for


@pytest.mark.in_process
async def test_the_composer_refuses_a_single_send_with_a_placeholder(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=(140, 44)) as pilot:
        screen = await open_composer_with(app, pilot, demo_server, good_draft(title="Hi {name}"))
        status = screen.query_one("#composer-draft-status", Static)
        await wait_for(pilot, lambda: "ready to send" not in str(status.render()))
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: "{name} is a placeholder" in screen_text(app))
        assert "Not sent" in screen_text(app)
    assert not [e for e in app.state.calls if e.path.startswith("/message/")]
    assert not demo_server.state.sends_by_number


@pytest.mark.in_process
async def test_rows_with_an_empty_placeholder_are_flagged_then_sent_or_skipped(
    app_for, demo_server
):
    app = app_for()
    async with app.run_test(size=(140, 44)) as pilot:
        setup = await open_campaign_setup(app, pilot, demo_server)
        pasted = "number,name,city\n4917300000001,Ana,Berlin\n4917300000002,,Paris\n"
        setup.query_one("#c-paste", TextArea).text = pasted
        await wait_for(pilot, lambda: setup.recipients is not None)
        await wait_for(pilot, lambda: "1 row leaves a placeholder empty" in screen_text(app))
        assert "line 3 (4917300000002): {name} empty" in screen_text(app)
        assert setup.query_one("#c-empty-field").display
        # Not ready until the user chooses.
        assert "Not ready" in screen_text(app)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, CampaignSetupScreen)

        setup.query_one("#c-empty", Select).value = "skip"
        await wait_for(pilot, lambda: "Ready: ctrl+s asks" in screen_text(app))
        assert [r.number for r in setup.recipients_to_send().recipients] == ["4917300000001"]
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert "to 1 recipient from" in screen_text(app)
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is setup)

        setup.query_one("#c-empty", Select).value = "send"
        await wait_for(pilot, lambda: len(setup.recipients_to_send().recipients) == 2)
    assert not demo_server.state.sends_by_number
