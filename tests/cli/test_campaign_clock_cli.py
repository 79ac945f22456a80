"""`send-list --resume --rate max` sends a campaign whose journal was written ahead of this
machine's clock (an hour, or years): the pace is kept on a monotonic clock."""

from __future__ import annotations

import time

import pytest

from gateway_tui.core.campaign import runner
from gateway_tui.core.campaign.journal import Status, open_campaign
from gateway_tui.main import main
from tests.support import new_campaign


def _runner_that_never_waits(waits: list[float]):
    """The command line's runner, but one that cancels itself when asked to wait: --rate max
    has no pace, so any wait is one the journal's times made up."""

    real = runner.CampaignRunner

    def build(*args, **kwargs):
        built = real(*args, **kwargs)

        async def sleep(seconds: float) -> None:
            waits.append(seconds)
            built.cancel("asked to wait with no pace")

        built.sleep = sleep
        return built

    return build


@pytest.mark.parametrize("ahead", [3600.0, 20 * 365 * 86400.0], ids=["an hour", "years"])
def test_resume_rate_max_sends_a_campaign_journaled_ahead(gateway, monkeypatch, capsys, ahead):
    waits: list[float] = []
    # The command line builds its runner from the runner module: this one cannot wait.
    monkeypatch.setattr(runner, "CampaignRunner", _runner_that_never_waits(waits))
    campaign = new_campaign(gateway, count=3)
    at = time.time() + ahead
    campaign.record_try(0, at=at, planned=at, gap=0.0)
    campaign.record_done(0, Status.SENT, at=at, message_id="3EB0AHEAD")
    campaign.unlock()
    status = main(["send-list", "--resume", campaign.id, "--rate", "max"])
    out = capsys.readouterr().out
    assert waits == []
    assert status == 0, out
    assert open_campaign(campaign.id).counts()["sent"] == 3
    assert sum(gateway.state.sends_by_number.values()) == 2
