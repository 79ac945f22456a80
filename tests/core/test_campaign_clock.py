"""A wall clock that goes back, or a journal written ahead of it, never holds a campaign up.

The pace is kept on a monotonic clock; the journal's (wall) times are only read and shown. Each
runner here is given a sleep that fails at once when asked to wait longer than the pace allows:
a runner that paced on the journal's times would wait an hour (or years) in silence.
"""

from __future__ import annotations

import asyncio
import time

import pytest

from gateway_tui.core.api import GatewayClient
from gateway_tui.core.campaign.journal import Pace, Status, open_campaign
from gateway_tui.core.campaign.runner import CampaignRunner, RunState
from tests.support import FakeTime, new_campaign

HOUR = 3600.0
YEARS = 20 * 365 * 24 * HOUR


class PaceKeeper(FakeTime):
    """Fake pacing time that refuses any wait longer than ``longest`` seconds: it cancels the
    run instead (the runner would otherwise wait that long in silence)."""

    def __init__(self, longest: float) -> None:
        super().__init__()
        self.longest = longest
        self.waits: list[float] = []
        self.refused: list[float] = []
        self.runner: CampaignRunner | None = None

    async def sleep(self, seconds: float) -> None:
        self.waits.append(seconds)
        if seconds > self.longest:
            self.refused.append(seconds)
            assert self.runner is not None
            self.runner.cancel("a wait longer than the pace")
        await super().sleep(min(seconds, self.longest))


def _run(server, campaign, keeper: PaceKeeper, clock):
    async def go():
        async with GatewayClient(server.url, server.api_key) as client:
            runner = CampaignRunner(
                campaign, client, clock=clock, sleep=keeper.sleep, monotonic=keeper.monotonic
            )
            keeper.runner = runner
            return runner, await runner.run()

    return asyncio.run(go())


def _sent_ahead(server, count: int, pace: Pace, ahead: float):
    """A campaign whose first recipient was sent by a clock ``ahead`` seconds in front."""
    campaign = new_campaign(server, count=count, pace=pace)
    at = time.time() + ahead
    campaign.record_try(0, at=at, planned=at, gap=0.0)
    campaign.record_done(0, Status.SENT, at=at + 0.5, message_id="3EB0AHEAD")
    campaign.unlock()
    return open_campaign(campaign.id)


@pytest.mark.parametrize("ahead", [HOUR, YEARS], ids=["an hour", "years"])
def test_a_journal_written_ahead_does_not_hold_the_resume(demo_server, ahead):
    campaign = _sent_ahead(demo_server, count=4, pace=Pace(0), ahead=ahead)
    keeper = PaceKeeper(longest=0.0)
    _, final = _run(demo_server, campaign, keeper, time.time)
    assert keeper.refused == []
    assert (final.state, final.sent, final.left) == (RunState.FINISHED, 4, 0)
    assert sum(demo_server.state.sends_by_number.values()) == 3


def test_a_paced_resume_waits_one_gap_whatever_the_journal_says(demo_server):
    pace = Pace(per_minute=30, jitter=0.3)  # 1.4 to 2.6 s between sends
    campaign = _sent_ahead(demo_server, count=5, pace=pace, ahead=YEARS)
    keeper = PaceKeeper(longest=pace.bounds()[1])
    _, final = _run(demo_server, campaign, keeper, time.time)
    assert keeper.refused == []
    assert (final.state, final.sent) == (RunState.FINISHED, 5)
    # Never faster than the pace: the first send of the resume waited its gap too.
    assert len(keeper.waits) == 4 and min(keeper.waits) >= pace.bounds()[0]


def test_a_wall_clock_that_goes_back_mid_run_does_not_stall_it(demo_server):
    pace = Pace(per_minute=30, jitter=0.3)
    campaign = new_campaign(demo_server, count=6, pace=pace)
    keeper = PaceKeeper(longest=pace.bounds()[1])

    def wall() -> float:
        # Once two were sent, the wall clock is set back a year (and runs on from there).
        sent = sum(demo_server.state.sends_by_number.values())
        return keeper.now - (YEARS if sent >= 2 else 0.0)

    _, final = _run(demo_server, campaign, keeper, wall)
    assert keeper.refused == []
    assert (final.state, final.sent) == (RunState.FINISHED, 6)
    assert len(keeper.waits) == 5 and max(keeper.waits) <= pace.bounds()[1]
