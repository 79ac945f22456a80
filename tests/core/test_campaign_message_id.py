"""Campaigns on 2.4: each recipient's messageId is fixed in the journal before its call and
sent with it, so a resend of an unknown outcome reuses it and the gateway makes one message.
Older lines keep today's rules (no messageId; a released resend sends again)."""

from __future__ import annotations

import asyncio
import json

import pytest

from gateway_tui.core.api import GatewayClient
from gateway_tui.core.campaign.journal import open_campaign
from gateway_tui.core.campaign.runner import CampaignRunner
from gateway_tui.demo.server import DemoServer
from tests.data import CAMPAIGN_DRAFT
from tests.support import FakeTime
from tests.support import new_campaign as new_v1_campaign


def new_campaign(server: DemoServer, count: int):
    """CAMPAIGN_DRAFT, with the footer 2.x requires."""
    draft = CAMPAIGN_DRAFT.as_template()
    draft.footer = "Reply with a row"
    return new_v1_campaign(server, count=count, draft=draft)


def _run(server: DemoServer, campaign):
    fake = FakeTime()

    async def go():
        async with GatewayClient(server.url, server.api_key, api_version="auto") as client:
            runner = CampaignRunner(campaign, client, clock=fake.clock, sleep=fake.sleep)
            return await runner.run()

    return asyncio.run(go())


def _tries(campaign) -> list[dict]:
    lines = campaign.journal_path.read_text().splitlines()
    return [event for event in map(json.loads, lines) if event.get("e") == "try"]


def _sent_ids(server: DemoServer, number: str) -> list[str]:
    chat = server.state.instances["sales-eu"].chats[f"{number}@s.whatsapp.net"]
    return [m.key["id"] for m in chat.messages if m.key["fromMe"] and m.list_message]


def test_on_24_a_released_resend_of_an_unknown_outcome_reuses_the_fixed_id(isolated_home):
    with DemoServer(api_version="2.4.0") as server:
        rule = server.faults.add("drop_after_read", method="POST", path_prefix="/message/", times=1)
        campaign = new_campaign(server, count=3)
        final = _run(server, campaign)
        assert rule.hits == 1
        assert (final.sent, final.unknown) == (2, 1)
        tries = _tries(campaign)
        # Every try line fixes the message's id before the call; each recipient its own.
        fixed = {event["i"]: event["mid"] for event in tries}
        assert len(set(fixed.values())) == 3
        assert server.state.sends_by_number["4917000000000"] == 1

        released = open_campaign(campaign.id)
        assert released.fixed_ids == {0: fixed[0]}  # read back from the journal
        assert released.release(released.held(), at=1.0) == 1
        last = _run(server, released)
        assert (last.sent, last.unknown) == (3, 0)
        again = [event for event in _tries(released) if event["i"] == 0]
        assert [event["mid"] for event in again] == [fixed[0], fixed[0]]
        # The gateway made one message, under the id the journal fixed.
        assert server.state.sends_by_number["4917000000000"] == 1
        assert _sent_ids(server, "4917000000000") == [fixed[0]]
        assert released.outcome(0).message_id == fixed[0]
        for index in (1, 2):
            assert _sent_ids(server, f"491700000000{index}") == [fixed[index]]


@pytest.mark.parametrize("version", ["2.3.7", "1.7.1"])
def test_older_lines_send_no_message_id_and_a_released_resend_sends_again(version, isolated_home):
    with DemoServer(api_version=version) as server:
        server.faults.add("drop_after_read", method="POST", path_prefix="/message/", times=1)
        campaign = new_campaign(server, count=2)
        _run(server, campaign)
        assert all("mid" not in event for event in _tries(campaign))
        released = open_campaign(campaign.id)
        assert released.release(released.held(), at=1.0) == 1
        _run(server, released)
        assert all("mid" not in event for event in _tries(released))
        assert server.state.sends_by_number["4917000000000"] == 2  # today's rule: the user asked
