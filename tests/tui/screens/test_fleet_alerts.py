"""A campaign that finishes is an alert as the fleet's are: a notice and a line of the alert
log, with its time."""

from __future__ import annotations

import pytest
from textual.widgets import Input, TextArea

from gateway_tui.tui.screens.campaign_run import CampaignRunScreen
from gateway_tui.tui.screens.confirm import ConfirmScreen
from tests.data import PASTED
from tests.navigation import open_campaign_setup
from tests.support import wait_for


@pytest.mark.in_process
async def test_a_finished_campaign_is_an_alert(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=(140, 44)) as pilot:
        setup = await open_campaign_setup(app, pilot, demo_server)
        setup.query_one("#c-paste", TextArea).text = PASTED
        await wait_for(pilot, lambda: setup.recipients is not None)
        setup.query_one("#c-rate", Input).value = "0"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_for(pilot, lambda: isinstance(app.screen, CampaignRunScreen))
        await wait_for(pilot, lambda: bool(app.fleet.alerts))  # the log, not a toast
        (alert,) = app.fleet.alerts
        assert alert.kind.value == "campaign finished" and alert.instance == "sales-eu"
        assert app.screen.campaign.id in alert.text
