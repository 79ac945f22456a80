"""Issue 23 item 5: a campaign's screen says only what is so (rate, time left, its dialogs)."""

from __future__ import annotations

import asyncio
from datetime import datetime

import pytest
from textual.widgets import Input, TextArea

from gateway_tui.core.api.client import GatewayClient
from gateway_tui.core.campaign.journal import Pace, Status, create_campaign, open_campaign
from gateway_tui.core.campaign.recipients import parse_recipients
from gateway_tui.core.campaign.runner import RATE_MIN_SENDS, CampaignRunner, RunState
from gateway_tui.tui.screens.campaign_run import CampaignRunScreen
from gateway_tui.tui.screens.confirm import ConfirmScreen
from tests.data import PASTED, SETUP_DRAFT
from tests.navigation import open_campaign_setup
from tests.support import FakeTime, new_campaign, screen_text, wait_for


def run_collecting(server, campaign, *, cancel_at: int | None = None):
    fake = FakeTime()
    seen = []
    box: list[CampaignRunner] = []

    def on_attempt(attempt):
        if cancel_at is not None and attempt.index == cancel_at:
            box[0].cancel()

    async def go():
        async with GatewayClient(server.url, server.api_key) as client:
            runner = CampaignRunner(
                campaign,
                client,
                clock=fake.clock,
                sleep=fake.sleep,
                monotonic=fake.monotonic,
                on_attempt=on_attempt,
                on_progress=seen.append,
            )
            box.append(runner)
            return await runner.run()

    return asyncio.run(go()), seen


async def _run_screen(app_for, demo_server, pace: Pace, *, drop_first: bool = False):
    from datetime import datetime

    from gateway_tui.core.campaign.journal import create_campaign
    from gateway_tui.core.campaign.recipients import parse_recipients
    from tests.data import PASTED, SETUP_DRAFT

    if drop_first:
        demo_server.faults.add("drop_after_read", method="POST", path_prefix="/message/", times=1)
    campaign = create_campaign(
        gateway=demo_server.url,
        instance="sales-eu",
        draft=SETUP_DRAFT,
        recipients=parse_recipients(PASTED),
        pace=pace,
        now=datetime(2026, 11, 23, 10, 0),
    )
    return campaign, app_for()


def test_no_rate_is_claimed_from_a_couple_of_sends(demo_server):
    campaign = new_campaign(demo_server, count=8, pace=Pace(per_minute=20, jitter=0.3))
    final, seen = run_collecting(demo_server, campaign)
    assert final.state is RunState.FINISHED
    early = [p for p in seen if p.total - p.left < RATE_MIN_SENDS]  # tried so far
    assert early and all(p.rate_per_minute == 0 for p in early)
    late = [p for p in seen if p.sent >= RATE_MIN_SENDS and p.state is RunState.WAITING]
    assert late and all(0 < p.rate_per_minute < 30 for p in late)


def test_a_cancelled_campaign_has_no_rate_and_no_time_left(demo_server):
    campaign = new_campaign(demo_server, count=12, pace=Pace(per_minute=20, jitter=0.3))
    final, _seen = run_collecting(demo_server, campaign, cancel_at=7)
    assert final.state is RunState.CANCELLED and final.left > 0
    assert final.rate_per_minute == 0 and final.eta_seconds is None


async def test_resending_held_recipients_sends_them_without_a_further_key(app_for, demo_server):
    from gateway_tui.core.campaign.journal import Status, open_campaign
    from gateway_tui.tui.screens.campaign_run import CampaignRunScreen
    from gateway_tui.tui.screens.confirm import ConfirmScreen
    from tests.support import screen_text, wait_for

    campaign, app = await _run_screen(app_for, demo_server, Pace(0), drop_first=True)
    async with app.run_test(size=(140, 44)) as pilot:
        app.push_screen(CampaignRunScreen(campaign, start=True))
        await pilot.pause()
        run = app.screen
        await wait_for(pilot, lambda: run.runner is not None and not run.running)
        await wait_for(pilot, lambda: "Held — outcome unknown (1)" in screen_text(app))
        await pilot.press("u")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_for(pilot, lambda: demo_server.state.sends_by_number["4917300000001"] == 2)
        await wait_for(pilot, lambda: run.runner is not None and not run.running)
    assert open_campaign(campaign.id).status(0) is Status.SENT


async def test_the_cancel_dialog_has_one_cancel_button(app_for, demo_server):
    from textual.widgets import Button

    from gateway_tui.tui.screens.campaign_run import CampaignRunScreen
    from gateway_tui.tui.screens.confirm import ConfirmScreen
    from tests.support import wait_for

    campaign, app = await _run_screen(app_for, demo_server, Pace(per_minute=1, jitter=0))
    async with app.run_test(size=(140, 44)) as pilot:
        app.push_screen(CampaignRunScreen(campaign, start=True))
        await pilot.pause()
        run = app.screen
        await wait_for(pilot, lambda: run.running and run.runner.state is RunState.WAITING)
        await pilot.press("c")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        labels = [str(button.label) for button in app.screen.query(Button)]
        assert sum("Cancel" in label for label in labels) == 1, labels
        await pilot.press("n")
        await pilot.pause()
        assert run.running  # "no" keeps it sending
        run.runner.cancel()
        await wait_for(pilot, lambda: not run.running)


@pytest.mark.in_process
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


@pytest.mark.in_process
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


async def test_campaign_sends_are_in_the_sent_history_marked_as_a_campaign(app_for):
    from datetime import datetime

    from gateway_tui.core.campaign.journal import Pace, Status, create_campaign
    from gateway_tui.core.campaign.recipients import parse_recipients
    from gateway_tui.core.draft import Draft, DraftRow, DraftSection
    from tests.navigation import open_composer

    app = app_for()
    draft = Draft(
        title="Autumn menu, {name}",
        description="Fresh today",
        button_text="See it",
        sections=[DraftSection("Soups", [DraftRow("Pumpkin")])],
    )
    campaign = create_campaign(
        gateway=app.gateway_identity or "",
        instance="sales-eu",
        draft=draft,
        recipients=parse_recipients("number,name\n4917300000001,Ana\n4917300000002,Ben\n"),
        pace=Pace(0),
        now=datetime(2026, 11, 23, 10, 0),
    )
    campaign.record_try(0, at=1.0, planned=1.0, gap=0.0)
    campaign.record_done(0, Status.SENT, at=1.5, message_id="3EB0CAFE")
    campaign.unlock()
    async with app.run_test(size=(140, 40)) as pilot:
        screen = await open_composer(app, pilot)
        await pilot.press("f8")
        await wait_for(pilot, lambda: "campaign" in screen_text(app) and app.screen is not screen)
        text = screen_text(app)
        assert "⇉ campaign: 1 of 2 sent" in text and "Autumn menu, {name}" in text, text
        assert campaign.id in text
        await pilot.press("enter")  # the form is empty: reopened at once
        await wait_for(pilot, lambda: screen.draft.title == "Autumn menu, {name}")


@pytest.mark.parametrize("key", ["ctrl+q", "q"])
async def test_quitting_while_a_campaign_runs_asks_first(app_for, demo_server, key):
    """ctrl+q (the app's quit, above every screen) and q once quit a running campaign without
    a word: both ask, say it is paused and resumable from the journal; no keeps it sending."""
    campaign, app = await _run_screen(app_for, demo_server, Pace(per_minute=1, jitter=0))
    async with app.run_test(size=(140, 44)) as pilot:
        app.push_screen(CampaignRunScreen(campaign, start=True))
        await pilot.pause()
        run = app.screen
        await wait_for(pilot, lambda: run.running and run.runner.state is RunState.WAITING)
        await pilot.press(key)
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        text = " ".join(screen_text(app).split())
        assert "The campaign is running" in text and "paused" in text
        assert "resumes from the journal" in text
        await pilot.press("ctrl+q")  # asked already: no second question, no quit behind it
        await pilot.pause()
        assert sum(isinstance(s, ConfirmScreen) for s in app.screen_stack) == 1
        await pilot.press("n")
        await wait_for(pilot, lambda: app.screen is run)
        assert run.running and app.is_running  # "no" keeps it sending
        await pilot.press(key)
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_for(pilot, lambda: not app.is_running)
    assert open_campaign(campaign.id).count(Status.PENDING) > 0  # the journal keeps the rest


async def test_the_run_screen_logs_each_recipient_as_it_goes_bounded_and_as_text(
    app_for, demo_server, monkeypatch
):
    """A live per-recipient log: who just got it, who failed and why; the latest lines only;
    names and reasons shown as they are (a name is data, never markup)."""
    from textual.widgets import RichLog

    from gateway_tui.tui.screens import campaign_run

    monkeypatch.setattr(campaign_run, "LOG_LINES", 3)
    demo_server.state.not_on_whatsapp.add("4917300000002")
    pasted = "number,name\n" + "".join(
        f"49173000000{n:02d},{'[b]Ana[/b]' if n == 1 else f'P{n}'}\n" for n in range(1, 6)
    )
    campaign = create_campaign(
        gateway=demo_server.url,
        instance="sales-eu",
        draft=SETUP_DRAFT,
        recipients=parse_recipients(pasted),
        pace=Pace(0),
        now=datetime(2026, 11, 23, 10, 0),
    )
    app = app_for()
    seen: list[str] = []
    real_line = campaign_run.attempt_line

    def line_of(attempt):
        line = real_line(attempt)
        seen.append(line.plain)
        return line

    monkeypatch.setattr(campaign_run, "attempt_line", line_of)
    async with app.run_test(size=(140, 44)) as pilot:
        app.push_screen(CampaignRunScreen(campaign, start=True))
        await pilot.pause()
        run = app.screen
        log = run.query_one("#run-log", RichLog)
        await wait_for(pilot, lambda: run.runner is not None and not run.running)
        await wait_for(pilot, lambda: len(log.lines) == 3)
        shown = "\n".join(strip.text for strip in log.lines)
    # Every recipient had its line as it went; the screen keeps the latest three.
    assert len(seen) == 5, seen
    first = next(line for line in seen if "4917300000001" in line.replace(" ", ""))
    assert "✓ sent" in first and "[b]Ana[/b]" in first  # the name as typed, not bold
    refused = next(line for line in seen if "P2" in line)
    assert "✕ failed" in refused and "—" in refused  # with the gateway's reason
    assert "P5" in shown and "P2" not in shown


async def test_a_resumed_campaign_opens_with_its_latest_outcomes_in_the_log(app_for, demo_server):
    """The live log starts from the journal: a campaign opened again shows who got it last."""
    from textual.widgets import RichLog

    demo_server.state.not_on_whatsapp.add("4917300000002")
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
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is not run)
        app.push_screen(CampaignRunScreen(open_campaign(campaign.id)))
        await wait_for(pilot, lambda: isinstance(app.screen, CampaignRunScreen))
        log = app.screen.query_one("#run-log", RichLog)
        await wait_for(pilot, lambda: len(log.lines) >= 2)
        shown = "\n".join(strip.text for strip in log.lines)
        assert "✓ sent" in shown and "(Ana)" in shown
        assert "✕ failed" in shown and "(Bo)" in shown


async def test_a_campaign_sent_in_english_shows_its_reasons_in_the_readers_language(
    app_for, language
):
    """Issue 35 item 3: the log and the held table read the journal's codes in the language
    the screen is opened in; the gateway's own words stay as it said them."""
    from gateway_tui.core.campaign.reasons import NO_OUTCOME, Reason

    app = app_for()
    campaign = create_campaign(
        gateway=app.gateway_identity or "",
        instance="sales-eu",
        draft=SETUP_DRAFT,
        recipients=parse_recipients("number,name\n4917300000001,Ana\n4917300000002,Ben\n"),
        pace=Pace(0),
        now=datetime(2026, 11, 23, 10, 0),
    )
    refused = Reason("server_error", {"status": 500, "message": "Injected fault: status 500"})
    campaign.record_try(0, at=1.0, planned=1.0, gap=0.0)
    campaign.record_done(0, Status.FAILED, at=1.5, reason=refused)
    campaign.record_try(1, at=2.0, planned=2.0, gap=0.0)  # then the process died: held
    campaign.unlock()
    assert NO_OUTCOME.render() == "no outcome recorded"  # written in an English run
    language("pt_BR")
    async with app.run_test(size=(160, 44)) as pilot:
        app.push_screen(CampaignRunScreen(open_campaign(campaign.id)))
        await wait_for(pilot, lambda: "nenhum resultado registrado" in screen_text(app))
        text = " ".join(screen_text(app).split())
        # The log wraps its line inside its border: the sentence is checked in its two parts.
        assert "— O gateway teve um" in text and "erro interno: Injected fault: status 500" in text
        assert "no outcome recorded" not in text and "internal error" not in text
