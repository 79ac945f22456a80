"""The running campaign's screen tells the truth (issue 29): a campaign with outcomes unknown
does not end in a green "Finished", one another process sends offers no resume (its counts
follow that process's journal), and a pause shows no rate or time left, nor slows the rate
measured after it."""

from __future__ import annotations

import asyncio
import os

import pytest

from gateway_tui.core.api import GatewayClient
from gateway_tui.core.campaign.journal import Pace, Status, open_campaign
from gateway_tui.core.campaign.runner import RATE_MIN_SENDS, CampaignRunner, RunState
from gateway_tui.tui.screens.campaign_run import CampaignRunScreen
from tests.support import FakeTime, new_campaign, screen_text, wait_for

SIZE = (140, 44)


async def test_outcomes_unknown_end_in_no_green_finished(app_for, demo_server) -> None:
    demo_server.faults.add("drop_after_read", method="POST", path_prefix="/message/", times=2)
    campaign = new_campaign(demo_server, count=4)
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        run = CampaignRunScreen(campaign, start=True)
        app.push_screen(run)
        await wait_for(pilot, lambda: run.runner is not None and not run.running)
        await wait_for(pilot, lambda: "Held — outcome unknown (2)" in screen_text(app))
        text = screen_text(app)
        assert run.runner.state is RunState.FINISHED
        assert "✓ Finished" not in text
        assert "2 outcome unknown (held below: check their chats)" in text


async def test_a_campaign_another_process_sends_is_followed_not_offered(
    app_for, demo_server
) -> None:
    campaign = new_campaign(demo_server, count=3)
    campaign.unlock()
    elsewhere = open_campaign(campaign.id)
    elsewhere.lock()  # e.g. `send-list --resume` from cron
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        run = CampaignRunScreen(open_campaign(campaign.id))
        app.push_screen(run)
        await wait_for(pilot, lambda: f"Being sent by process {os.getpid()}" in screen_text(app))
        assert "resumes" not in screen_text(app)
        await pilot.press("r")
        await pilot.pause()
        assert run.runner is None and sum(demo_server.state.sends_by_number.values()) == 0
        # The other process sends one: the counts here follow its journal.
        elsewhere.record_try(0, at=1.0, planned=1.0, gap=0.0)
        elsewhere.record_done(0, Status.SENT, at=1.5, message_id="3EB0ELSEWHERE")
        await wait_for(pilot, lambda: "Left 2" in screen_text(app))
        assert "Sent 1" in screen_text(app)
        elsewhere.unlock()  # it ended: resuming is offered here again
        await wait_for(pilot, lambda: "2 left to send — r resumes" in screen_text(app))


@pytest.mark.parametrize("pause_seconds", [30.0, 600.0])
def test_a_pause_shows_no_rate_and_does_not_slow_the_rate_after_it(
    demo_server, pause_seconds
) -> None:
    pace = Pace(per_minute=30, jitter=0)  # one every 2 s
    campaign = new_campaign(demo_server, count=30, pace=pace)
    fake = FakeTime()
    box: list[CampaignRunner] = []
    paused: list = []
    after: list = []

    def on_attempt(attempt) -> None:
        if attempt.index == 15:
            box[0].pause()

    def on_progress(progress) -> None:
        if progress.state is RunState.PAUSED:
            paused.append(progress)
            fake.now += pause_seconds  # the user comes back later
            fake.mono += pause_seconds
            box[0].resume()
        elif paused and progress.state is RunState.SENDING:
            after.append(progress)

    async def go():
        async with GatewayClient(demo_server.url, demo_server.api_key) as client:
            runner = CampaignRunner(
                campaign,
                client,
                clock=fake.clock,
                sleep=fake.sleep,
                monotonic=fake.monotonic,
                on_attempt=on_attempt,
                on_progress=on_progress,
            )
            box.append(runner)
            return await runner.run()

    final = asyncio.run(go())
    assert final.sent == 30
    assert paused and all(p.rate_per_minute == 0 and p.eta_seconds is None for p in paused)
    # Measured again from the sends after the pause: the pace's 30 a minute.
    since = paused[0].sent + RATE_MIN_SENDS
    measured = [p.rate_per_minute for p in after if p.sent >= since]
    assert measured and all(25 <= rate <= 35 for rate in measured), measured
