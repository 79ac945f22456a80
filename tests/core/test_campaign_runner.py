"""The campaign journal and runner against the demo gateway: outcomes, pacing, stops, control.

Time is a fake clock whose sleep only moves it forward: the pacing is checked from the
journal's schedule, never by measuring how long anything took.
"""

from __future__ import annotations

import asyncio

import pytest

from gateway_tui.core.api.client import GatewayClient
from gateway_tui.core.campaign.journal import (
    JournalError,
    Pace,
    Status,
    open_campaign,
)
from gateway_tui.core.campaign.runner import CampaignRunner, RunState
from tests.support import FakeTime, new_campaign, numbers, run_campaign


def test_every_recipient_is_sent_once_and_the_report_is_written(demo_server):
    campaign = new_campaign(demo_server, names={"4917000000002": "=HYPERLINK(x)"})
    sending = []
    _, final = run_campaign(
        demo_server,
        campaign,
        on_progress=lambda p: sending.append(p) if p.state is RunState.SENDING else None,
    )
    # The send under way is "in flight", not counted as unknown (nor as done).
    in_flight = [p for p in sending if p.in_flight]
    assert [(p.done, p.unknown) for p in in_flight] == [(i, 0) for i in range(6)]
    assert final.state is RunState.FINISHED
    assert (final.sent, final.failed, final.unknown, final.left) == (6, 0, 0, 0)
    assert all(demo_server.state.sends_by_number[n] == 1 for n in numbers(6))
    reopened = open_campaign(campaign.id)
    assert reopened.counts()["sent"] == 6
    lines = campaign.report_path.read_text().splitlines()
    assert lines[0] == "number,name,status,message_id,time,error,error_code"
    assert lines[1].startswith("4917000000000,P00,sent,3EB0")
    # A name a spreadsheet would run as a formula is kept as text.
    assert lines[3].startswith("4917000000002,'=HYPERLINK(x),sent,")
    # The filled-in message went out.
    chat = demo_server.state.instances["sales-eu"].chats["4917000000001@s.whatsapp.net"]
    assert chat.messages[-1].list_message["title"] == "Hello P01"


def test_a_refused_recipient_is_recorded_with_the_reason_and_the_campaign_goes_on(demo_server):
    demo_server.state.not_on_whatsapp.add("4917000000001")
    campaign = new_campaign(demo_server, count=4)
    _, final = run_campaign(demo_server, campaign)
    assert (final.sent, final.failed) == (3, 1)
    outcome = campaign.outcome(1)
    assert outcome.status is Status.FAILED
    assert "4917000000001 is not on WhatsApp" in outcome.error
    assert "not on WhatsApp" in final.last_error


def test_pacing_follows_the_journal_schedule(demo_server):
    pace = Pace(per_minute=30, jitter=0.3)  # one every 1.4-2.6 s
    campaign = new_campaign(demo_server, count=8, pace=pace)
    runner, final = run_campaign(demo_server, campaign)
    assert final.sent == 8
    schedule = open_campaign(campaign.id).schedule()
    assert [event["i"] for event in schedule] == list(range(8))
    low, high = pace.bounds()
    gaps = []
    for previous, event in zip(schedule, schedule[1:], strict=False):
        assert low <= event["gap"] <= high
        assert event["plan"] == pytest.approx(previous["at"] + event["gap"])
        assert event["at"] >= event["plan"]
        gaps.append(event["plan"] - previous["at"])
    assert len(set(gaps)) == len(gaps), "jitter: the gaps differ"
    # The same campaign draws the same gaps on every run (a resume keeps the schedule).
    assert [runner.gap_before(event["i"]) for event in schedule[1:]] == [
        event["gap"] for event in schedule[1:]
    ]


def test_a_dropped_answer_is_held_as_unknown_and_only_resent_when_released(demo_server):
    rule = demo_server.faults.add(
        "drop_after_read", method="POST", path_prefix="/message/", times=1
    )
    campaign = new_campaign(demo_server, count=3)
    _, final = run_campaign(demo_server, campaign)
    assert rule.hits == 1
    assert (final.sent, final.unknown) == (2, 1)
    assert demo_server.state.sends_by_number["4917000000000"] == 1  # it did go out

    resumed = open_campaign(campaign.id)
    assert resumed.held() == [0]
    _, again = run_campaign(demo_server, resumed)
    assert again.unknown == 1
    assert demo_server.state.sends_by_number["4917000000000"] == 1  # not resent on its own

    released = open_campaign(campaign.id)
    assert released.release(released.held(), at=1.0) == 1
    _, last = run_campaign(demo_server, released)
    assert (last.sent, last.unknown) == (3, 0)
    assert demo_server.state.sends_by_number["4917000000000"] == 2  # the user asked


def test_a_try_without_an_outcome_is_held_after_a_crash(demo_server, tmp_path):
    campaign = new_campaign(demo_server, count=3)
    campaign.record_try(0, at=10.0, planned=10.0, gap=0.0)
    campaign.record_done(0, Status.SENT, at=11.0, message_id="ABC")
    campaign.record_try(1, at=12.0, planned=12.0, gap=0.0)
    campaign.unlock()  # the process ends
    with campaign.journal_path.open("ab") as journal:
        journal.write(b'{"e":"try","i":2,"at":1')  # torn by the crash: never sent
    reopened = open_campaign(campaign.id)
    assert [reopened.status(i) for i in range(3)] == [Status.SENT, Status.UNKNOWN, Status.PENDING]
    reopened.lock()  # the next runner cuts the torn line
    assert reopened.journal_path.read_bytes().endswith(b"}\n")
    assert reopened.skip([1], at=13.0) == 1
    assert open_campaign(campaign.id).status(1) is Status.SKIPPED


def test_a_damaged_journal_line_refuses_the_resume(demo_server):
    campaign = new_campaign(demo_server, count=2)
    campaign.record_try(0, at=10.0, planned=10.0, gap=0.0)
    campaign.unlock()
    with campaign.journal_path.open("ab") as journal:
        journal.write(b"garbage\n")
    reopened = open_campaign(campaign.id)
    assert "line 3: unreadable (not JSON)" in reopened.refusal
    with pytest.raises(JournalError, match="line 3: unreadable"):
        run_campaign(demo_server, reopened)
    assert sum(demo_server.state.sends_by_number.values()) == 0


def test_a_refused_key_stops_the_campaign_with_nothing_sent(demo_server):
    campaign = new_campaign(demo_server, count=6)
    _, final = run_campaign(demo_server, campaign, api_key="wrong-key", check_instance=False)
    assert final.state is RunState.STOPPED
    assert "refused the API key on the last 3 calls" in final.stop_reason
    assert final.left == 6  # nothing was sent: everyone can still be sent after the fix
    assert sum(demo_server.state.sends_by_number.values()) == 0
    _, fixed = run_campaign(demo_server, open_campaign(campaign.id))
    assert fixed.sent == 6


def test_a_disconnected_instance_stops_the_campaign(demo_server):
    demo_server.state.instances["sales-eu"].status = "close"
    _, final = run_campaign(demo_server, new_campaign(demo_server, count=5), check_instance=False)
    assert final.state is RunState.STOPPED
    assert "instance sales-eu is not connected" in final.stop_reason
    assert final.left == 5


def test_an_unreachable_gateway_stops_the_campaign(demo_server):
    campaign = new_campaign(demo_server, count=5)
    _, final = run_campaign(demo_server, campaign, url="http://127.0.0.1:9", check_instance=False)
    assert final.state is RunState.STOPPED
    assert "could not be reached" in final.stop_reason
    assert final.left == 5


def test_the_same_refusal_for_ten_recipients_in_a_row_stops_the_campaign(demo_server):
    demo_server.faults.add("status", status=500, method="POST", path_prefix="/message/")
    _, final = run_campaign(demo_server, new_campaign(demo_server, count=12))
    assert final.state is RunState.STOPPED
    assert final.failed == 10 and final.left == 2
    assert "the last 10 recipients were all refused the same way" in final.stop_reason
    assert "Injected fault: status 500" in final.stop_reason


def test_numbers_not_on_whatsapp_do_not_stop_the_campaign(demo_server):
    demo_server.state.not_on_whatsapp.update(numbers(12))
    _, final = run_campaign(demo_server, new_campaign(demo_server, count=12))
    assert final.state is RunState.FINISHED
    assert final.failed == 12


def test_pause_resume_and_cancel(demo_server):
    campaign = new_campaign(demo_server, count=6, pace=Pace(per_minute=60, jitter=0))
    seen: list[RunState] = []
    runner_box: list[CampaignRunner] = []

    def on_attempt(attempt):
        runner = runner_box[0]
        if attempt.index == 0:
            runner.pause()
        if attempt.index == 3:
            runner.cancel()

    def on_progress(progress):
        seen.append(progress.state)
        if progress.state is RunState.PAUSED:
            runner_box[0].resume()

    fake = FakeTime()

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
            runner_box.append(runner)
            return await runner.run()

    final = asyncio.run(go())
    assert RunState.PAUSED in seen and RunState.WAITING in seen
    assert final.state is RunState.CANCELLED
    assert (final.sent, final.left) == (4, 2)
    assert campaign.journal_path.read_text().splitlines()[-1].startswith('{"e":"stop"')
