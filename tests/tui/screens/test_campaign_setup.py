"""The campaign screens: set-up from the composer (f5), per-recipient preview, running, held."""

from __future__ import annotations

import os
from datetime import datetime

import pytest
from textual.widgets import DataTable, Input, TextArea

from gateway_tui.core.campaign.journal import (
    Pace,
    create_campaign,
    list_campaigns,
    open_campaign,
)
from gateway_tui.core.campaign.recipients import parse_recipients
from gateway_tui.core.files.drafts import ComposeStore
from gateway_tui.tui.screens.campaign_run import CampaignRunScreen
from gateway_tui.tui.screens.campaign_setup import CampaignSetupScreen
from gateway_tui.tui.screens.compose_modals import LibraryScreen
from gateway_tui.tui.screens.composer import ComposerScreen
from gateway_tui.tui.screens.confirm import ConfirmScreen
from gateway_tui.tui.screens.pairing import PairingScreen
from tests.data import PASTED, SETUP_DRAFT
from tests.navigation import open_campaign_setup
from tests.support import make_app, make_config, notices, screen_text, wait_for


@pytest.mark.in_process
async def test_pasted_recipients_are_counted_and_previewed_one_by_one(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=(140, 44)) as pilot:
        setup = await open_campaign_setup(app, pilot, demo_server)
        setup.query_one("#c-paste", TextArea).text = PASTED
        await wait_for(pilot, lambda: setup.recipients is not None)
        text = screen_text(app)
        assert "2 recipients, 1 duplicate removed" in text
        assert "Hello Ana" in text and "Menu for Berlin" in text
        table = setup.query_one("#c-recipients", DataTable)
        table.focus()
        await pilot.press("down")
        await wait_for(pilot, lambda: "Hello Bo" in screen_text(app))
        assert "Menu for Paris" in screen_text(app)
        assert "Ready: ctrl+s asks" in screen_text(app)


@pytest.mark.in_process
async def test_an_unknown_placeholder_keeps_the_campaign_from_starting(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=(140, 44)) as pilot:
        setup = await open_campaign_setup(app, pilot, demo_server)
        setup.query_one("#c-paste", TextArea).text = "4917300000001,Ana\n"
        await wait_for(pilot, lambda: setup.recipients is not None)
        assert "{city} is not a column of the recipients" in screen_text(app)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, CampaignSetupScreen)  # no confirmation, nothing sent
        assert not demo_server.state.sends_by_number


@pytest.mark.in_process
async def test_recipient_names_are_shown_as_typed_never_as_markup(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=(140, 44)) as pilot:
        setup = await open_campaign_setup(app, pilot, demo_server)
        setup.query_one(
            "#c-paste", TextArea
        ).text = "number,name,city\n4917300000001,[red]Ana[/red],[b]Berlin\n"
        await wait_for(pilot, lambda: setup.recipients is not None)
        text = screen_text(app)
        left_pane = [line.split("│")[0] for line in text.splitlines()]
        # The table's row (the pasted line in the text area above it has commas).
        table_line = next(line for line in left_pane if "4917300000001 " in line)
        assert "[red]Ana[/red]" in table_line and "[b]Berlin" in table_line


@pytest.mark.in_process
async def test_f4_leaves_out_numbers_not_on_whatsapp(app_for, demo_server):
    demo_server.state.not_on_whatsapp.add("4917300000002")
    app = app_for()
    async with app.run_test(size=(140, 44)) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        setup = await open_campaign_setup(app, pilot, demo_server)
        setup.query_one("#c-paste", TextArea).text = PASTED
        await wait_for(pilot, lambda: setup.recipients is not None)
        await pilot.press("f4")
        await wait_for(pilot, lambda: len(setup.recipients.recipients) == 1)
        text = screen_text(app)
        assert "1 recipient, 1 duplicate removed, 1 invalid number left out" in text
        assert "4917300000002: not on WhatsApp" in text


@pytest.mark.in_process
async def test_a_delay_that_is_not_whole_milliseconds_keeps_it_from_starting(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=(140, 44)) as pilot:
        setup = await open_campaign_setup(app, pilot, demo_server)
        setup.query_one("#c-paste", TextArea).text = PASTED
        await wait_for(pilot, lambda: setup.recipients is not None)
        setup.query_one("#c-delay", Input).value = "1.5"
        await pilot.pause()
        assert "Not ready: delay: a whole number of milliseconds" in screen_text(app)
        setup.query_one("#c-delay", Input).value = "1500"
        await pilot.pause()
        assert "Ready: ctrl+s asks" in screen_text(app)
        setup.query_one("#c-rate", Input).value = "0"
        await pilot.pause()
        # Full speed, but one at a time: two sends held 1.5 s each by the gateway.
        assert "full speed (no pause between sends) · 2 recipients take about 3 s" in (
            screen_text(app)
        )


@pytest.mark.in_process
async def test_a_demo_campaign_is_offered_again_after_a_relaunch_on_another_port(demo_server):
    earlier = create_campaign(
        gateway="demo",  # the demo's identity: its port changes with every run
        instance="sales-eu",
        draft=SETUP_DRAFT,
        recipients=parse_recipients(PASTED),
        pace=Pace(0),
        now=datetime(2026, 11, 23, 10, 0),
    )
    config = make_config(demo_server)
    app = make_app(config.with_gateway(demo_server.url, config.api_key, identity="demo"))
    async with app.run_test(size=(140, 44)) as pilot:
        ComposeStore("demo", "sales-eu").save_draft(SETUP_DRAFT)
        app.push_screen(ComposerScreen("sales-eu"))
        await pilot.pause()
        await pilot.press("f5")
        await wait_for(pilot, lambda: isinstance(app.screen, CampaignSetupScreen))
        await pilot.press("f8")
        await wait_for(pilot, lambda: isinstance(app.screen, LibraryScreen))
        assert earlier.id in screen_text(app)


@pytest.mark.in_process
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


@pytest.mark.in_process
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


async def test_the_campaign_setup_at_80_columns_gives_its_form_the_width(app_for):
    """Below 100 columns the preview steps aside (as in the composer), f3 shows it below."""
    from gateway_tui.core.draft import Draft
    from gateway_tui.tui.screens.campaign_setup import CampaignSetupScreen

    app = app_for()
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        screen = CampaignSetupScreen("sales-eu", Draft(title="Lunch"))
        app.push_screen(screen)
        await wait_for(pilot, lambda: app.screen is screen and screen.is_mounted)
        form, pane = screen.query_one("#campaign-form"), screen.query_one("#campaign-preview-pane")
        await wait_for(pilot, lambda: form.size.width > 70)
        assert not pane.display or pane.size.width == 0
        await pilot.press("f3")
        await wait_for(pilot, lambda: pane.size.height > 0)
        assert form.size.width > 70 and pane.region.y > form.region.y
        assert "(button text)" in screen_text(app) or "Lunch" in screen_text(app)
