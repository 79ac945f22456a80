"""The campaign screens: set-up from the composer (f5), per-recipient preview, running, held."""

from __future__ import annotations

from datetime import datetime

import pytest
from textual.widgets import DataTable, Input, TextArea

from gateway_tui.core.campaign.journal import Pace, Status, create_campaign, open_campaign
from gateway_tui.core.campaign.recipients import parse_recipients
from gateway_tui.core.files.drafts import ComposeStore
from gateway_tui.tui.screens.campaign_run import CampaignRunScreen
from gateway_tui.tui.screens.campaign_setup import CampaignSetupScreen
from gateway_tui.tui.screens.compose_modals import LibraryScreen
from gateway_tui.tui.screens.composer import ComposerScreen
from gateway_tui.tui.screens.confirm import ConfirmScreen
from tests.data import PASTED, SETUP_DRAFT
from tests.navigation import open_campaign_setup
from tests.support import make_app, make_config, screen_text, wait_for

# The demo runs in the test's event loop (tests/in_process.py): these tests need no socket.
pytestmark = pytest.mark.in_process


async def test_pasted_recipients_are_counted_and_previewed_one_by_one(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=(140, 44)) as pilot:
        setup = await open_campaign_setup(app, pilot, demo_server)
        setup.query_one("#c-paste", TextArea).text = PASTED
        await wait_for(pilot, lambda: setup.recipients is not None)
        text = screen_text(app)
        assert "2 recipient(s), 1 duplicate(s) removed" in text
        assert "Hello Ana" in text and "Menu for Berlin" in text
        table = setup.query_one("#c-recipients", DataTable)
        table.focus()
        await pilot.press("down")
        await wait_for(pilot, lambda: "Hello Bo" in screen_text(app))
        assert "Menu for Paris" in screen_text(app)
        assert "Ready: ctrl+s asks" in screen_text(app)


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


async def test_a_campaign_runs_from_the_setup_to_its_report(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=(140, 44)) as pilot:
        setup = await open_campaign_setup(app, pilot, demo_server)
        setup.query_one("#c-paste", TextArea).text = PASTED
        await wait_for(pilot, lambda: setup.recipients is not None)
        setup.query_one("#c-rate", Input).value = "0"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))  # instance checked
        await pilot.press("y")
        await wait_for(pilot, lambda: isinstance(app.screen, CampaignRunScreen))
        run = app.screen
        await wait_for(pilot, lambda: run.runner is not None and not run.running)
        await wait_for(pilot, lambda: "✓ Finished." in screen_text(app))
        text = screen_text(app)
        assert "Sent 2" in text and "Left 0" in text
        assert "report.csv" in text
        assert dict(demo_server.state.sends_by_number) == {"4917300000001": 1, "4917300000002": 1}
        chat = demo_server.state.instances["sales-eu"].chats["4917300000002@s.whatsapp.net"]
        assert chat.messages[-1].list_message["description"] == "Menu for Paris"


async def test_held_recipients_are_listed_and_resent_only_when_asked(app_for, demo_server):
    demo_server.faults.add("drop_after_read", method="POST", path_prefix="/message/", times=1)
    campaign = create_campaign(
        gateway=demo_server.url,
        instance="sales-eu",
        draft=SETUP_DRAFT,
        recipients=parse_recipients(PASTED),
        pace=Pace(0),
        now=datetime(2026, 11, 23, 10, 0),
    )
    app = app_for()
    async with app.run_test(size=(140, 44)) as pilot:
        app.push_screen(CampaignRunScreen(campaign, start=True))
        await pilot.pause()
        run = app.screen
        await wait_for(pilot, lambda: run.runner is not None and not run.running)
        await wait_for(pilot, lambda: "Held — outcome unknown (1)" in screen_text(app))
        assert demo_server.state.sends_by_number["4917300000001"] == 1
        await pilot.press("r")  # nothing is left: the held one is not resent by resuming
        await pilot.pause()
        assert demo_server.state.sends_by_number["4917300000001"] == 1
        await pilot.press("u")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        await pilot.press("r")
        await wait_for(pilot, lambda: demo_server.state.sends_by_number["4917300000001"] == 2)
        await wait_for(pilot, lambda: run.runner is not None and not run.running)
    assert open_campaign(campaign.id).status(0) is Status.SENT


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
        assert "1 recipient(s), 1 duplicate(s) removed, 1 invalid number(s) left out" in text
        assert "4917300000002: not on WhatsApp" in text


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
