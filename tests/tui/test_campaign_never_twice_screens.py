"""Never twice, in the app (issue 22): a closed instance is said before the campaign starts
(and the app offers to connect it); a campaign sent by another process shows as such."""

from __future__ import annotations

import os
from datetime import datetime

import pytest
from textual.widgets import Input, TextArea

from gateway_tui.core.campaign.journal import Pace, create_campaign, list_campaigns, open_campaign
from gateway_tui.core.campaign.recipients import parse_recipients
from gateway_tui.tui.screens.campaign_run import CampaignRunScreen
from gateway_tui.tui.screens.confirm import ConfirmScreen
from gateway_tui.tui.screens.pairing import PairingScreen
from tests.data import PASTED, SETUP_DRAFT, sent_writes
from tests.navigation import open_campaign_setup, open_invite
from tests.support import notices, screen_text, wait_for

# The demo runs in the test's event loop (tests/in_process.py): these tests need no socket.
pytestmark = pytest.mark.in_process


async def test_4_a_closed_instance_is_said_at_start_and_the_app_offers_to_connect(
    app_for, demo_server
):
    app = app_for()
    async with app.run_test(size=(140, 44)) as pilot:
        setup = await open_campaign_setup(app, pilot, demo_server)
        setup.query_one("#c-paste", TextArea).text = PASTED
        await wait_for(pilot, lambda: setup.recipients is not None)
        setup.query_one("#c-rate", Input).value = "0"
        demo_server.state.instances["sales-eu"].status = "close"  # closed since the last poll
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        text = screen_text(app)
        assert "Instance not connected" in text and "Connect (y)" in text
        assert "Not started: instance sales-eu is not connected (its state:" in text
        await pilot.press("y")
        await wait_for(pilot, lambda: isinstance(app.screen, PairingScreen))
    assert list_campaigns() == []  # nothing created, nobody tried
    assert not demo_server.state.sends_by_number


async def test_1_a_campaign_sent_by_another_process_shows_as_such(app_for, demo_server):
    campaign = create_campaign(
        gateway=demo_server.url,
        instance="sales-eu",
        draft=SETUP_DRAFT,
        recipients=parse_recipients(PASTED),
        pace=Pace(0),
        now=datetime(2026, 11, 24, 19, 0),
    )
    elsewhere = open_campaign(campaign.id)
    elsewhere.lock()  # e.g. `send-list --resume` from cron
    app = app_for()
    async with app.run_test(size=(160, 44)) as pilot:
        setup = await open_campaign_setup(app, pilot, demo_server)
        await pilot.press("f8")
        await wait_for(pilot, lambda: campaign.id in screen_text(app))
        text = screen_text(app)  # the detail line wraps after "running"
        assert "left · running" in text
        assert f"elsewhere (process {os.getpid()}, sending since" in text
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, CampaignRunScreen))
        run = app.screen
        await wait_for(pilot, lambda: f"Being sent by process {os.getpid()}" in screen_text(app))
        await pilot.press("r")  # not offered, and refused: it is sent elsewhere
        await wait_for(pilot, lambda: any("sends this campaign" in n for n in notices(app)))
        assert not run.running and run.runner is None
    assert not demo_server.state.sends_by_number
    elsewhere.unlock()
    del setup


async def test_5_two_numbers_on_one_line_of_the_invite_dialog_are_refused_not_joined(
    app_for, demo_server
):

    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        await open_invite(app, pilot)
        app.screen.query_one("#invite-numbers", TextArea).insert(
            "4915112340001 5511912345678\n"  # two numbers run together on one line
            "123456789012345678\n"  # 18 digits
            "0049 151 12340002\n"
            "+49 151 1234 0002\n"  # the same person again
        )
        await pilot.pause()
        text = screen_text(app)
        assert "✓ 1 number(s) ready" in text
        assert "line 1: '4915112340001 5511912345678': 26 digits is too long" in text
        assert "line 2: '123456789012345678': 18 digits is too long" in text
        assert "1 duplicate(s) removed" in text
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "nothing was sent" in screen_text(app)
        assert sent_writes(demo_server, "/group/sendInvite") == []
