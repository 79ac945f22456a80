"""Never twice, under every fault (issue 22): two runners, a damaged journal, a full disk.

Each test names the numbered finding of the issue it covers. The torture run (kills, concurrent
resumes, every corruption case, as processes) is tests/fuzz/test_campaign_torture.py.
"""

from __future__ import annotations

import errno
import json
import os
from datetime import datetime

import pytest

from gateway_tui.core.campaign import journal as journal_module
from gateway_tui.core.campaign.journal import (
    CampaignBusy,
    JournalError,
    Pace,
    Status,
    create_campaign,
    list_campaigns,
    open_campaign,
)
from gateway_tui.core.campaign.recipients import parse_recipients
from gateway_tui.main import main
from tests.data import CAMPAIGN_DRAFT
from tests.support import json_lines, run_campaign

NUMBERS = [f"4917400000{index:03d}" for index in range(12)]


def make(server, count: int = 12, instance: str = "sales-eu"):
    rows = "".join(f"{number},P{index}\n" for index, number in enumerate(NUMBERS[:count]))
    return create_campaign(
        gateway=server.url,
        instance=instance,
        draft=CAMPAIGN_DRAFT,
        recipients=parse_recipients("number,name\n" + rows),
        pace=Pace(0),
        now=datetime(2026, 11, 24, 18, 0),
    )


def sends(server) -> int:
    return sum(server.state.sends_by_number.values())


def resume(campaign_id: str, *more: str) -> int:
    return main(["send-list", "--resume", campaign_id, "--rate", "max", *more])


# --- 1. two runners --------------------------------------------------------------------------


def test_1_a_second_runner_is_refused_and_names_the_holder(demo_server):
    campaign = make(demo_server)
    first = open_campaign(campaign.id)
    first.lock()  # a runner elsewhere (flock: another open file, even in this process)
    with pytest.raises(CampaignBusy, match=f"process {os.getpid()}, sending since"):
        run_campaign(demo_server, open_campaign(campaign.id))
    assert sends(demo_server) == 0
    first.unlock()
    _, final = run_campaign(demo_server, open_campaign(campaign.id))
    assert final.sent == 12 and sends(demo_server) == 12


def test_1_send_list_resume_while_another_sends_exits_5_and_says_who(gateway, capsys):
    campaign = make(gateway)
    elsewhere = open_campaign(campaign.id)
    elsewhere.lock()
    assert resume(campaign.id) == 5
    err = capsys.readouterr().err
    assert f"is being sent by process {os.getpid()}, sending since" in err
    assert "Traceback" not in err
    assert sends(gateway) == 0
    # `campaigns` shows it running elsewhere.
    assert main(["campaigns", "--json"]) == 0
    [row] = json.loads(capsys.readouterr().out)
    assert row["running"] == f"process {os.getpid()}"
    elsewhere.unlock()
    assert resume(campaign.id) == 0
    assert sends(gateway) == 12


def test_1_a_runner_reads_the_journal_again_once_it_holds_the_lock(demo_server):
    """Opened before another runner sent: what that runner sent is not sent again."""
    campaign = make(demo_server, count=4)
    stale = open_campaign(campaign.id)  # opened while nothing was sent yet
    run_campaign(demo_server, open_campaign(campaign.id))  # the other runner sends all four
    _, final = run_campaign(demo_server, stale)
    assert final.sent == 4 and sends(demo_server) == 4


# --- 2. an emptied or deleted journal --------------------------------------------------------


@pytest.mark.parametrize(("damage", "said"), [("empty", "is empty"), ("delete", "is missing")])
def test_2_an_emptied_or_deleted_journal_refuses_to_send(gateway, capsys, damage, said):
    campaign = make(gateway)
    run_campaign(gateway, open_campaign(campaign.id))
    assert sends(gateway) == 12
    if damage == "empty":
        campaign.journal_path.write_bytes(b"")
    else:
        campaign.journal_path.unlink()
    assert resume(campaign.id) == 1
    err = capsys.readouterr().err
    assert f"{campaign.journal_path} {said}" in err and "will not send" in err
    assert sends(gateway) == 12  # nobody twice
    reopened = open_campaign(campaign.id)
    assert reopened.count(Status.PENDING) == 0  # never "not sent": held as unknown


def test_2_a_journal_of_another_campaign_is_refused(demo_server):
    first, second = make(demo_server, count=2), make(demo_server, count=2)
    second.journal_path.write_bytes(first.journal_path.read_bytes())
    with pytest.raises(JournalError, match="line 1: not this campaign's journal"):
        run_campaign(demo_server, open_campaign(second.id))
    assert sends(demo_server) == 0


def test_2_changed_recipients_are_refused(demo_server):
    campaign = make(demo_server, count=3)
    path = campaign.dir / "recipients.jsonl"
    path.write_text(path.read_text().replace("P1", "Px"))
    with pytest.raises(JournalError, match="recipients.jsonl was changed"):
        run_campaign(demo_server, open_campaign(campaign.id))
    assert sends(demo_server) == 0


# --- 3. a hand-edited journal ----------------------------------------------------------------


def _append(campaign, *lines: str) -> None:
    with campaign.journal_path.open("a") as journal:
        journal.write("".join(line + "\n" for line in lines))


def test_3_a_line_with_a_bad_type_holds_its_recipient_and_says_its_line(gateway, capsys):
    campaign = make(gateway, count=3)
    _append(campaign, '{"e":"try","i":1,"at":"x"}')  # recipient 1: tried, then edited
    assert resume(campaign.id) == 3  # recipient 1 is held: incomplete
    captured = capsys.readouterr()
    assert f"{campaign.journal_path}, line 2: unreadable" in captured.err
    assert "Traceback" not in captured.err
    assert gateway.state.sends_by_number[NUMBERS[1]] == 0
    assert gateway.state.sends_by_number[NUMBERS[0]] == 1
    assert open_campaign(campaign.id).status(1) is Status.UNKNOWN


def test_3_a_boolean_is_not_recipient_1(demo_server):
    campaign = make(demo_server, count=3)
    _append(campaign, '{"e":"done","i":true,"s":"sent","at":1800000000}')
    reopened = open_campaign(campaign.id)
    assert reopened.status(1) is not Status.SENT
    assert "line 2: unreadable" in reopened.refusal and "does not say which recipient" in (
        reopened.refusal
    )
    with pytest.raises(JournalError, match="will not send"):
        run_campaign(demo_server, reopened)
    assert sends(demo_server) == 0


def test_3_a_journal_that_is_a_folder_hides_no_other_campaign(gateway, capsys):
    good, bad = make(gateway, count=2), make(gateway, count=2)
    bad.journal_path.unlink()
    bad.journal_path.mkdir()
    assert main(["campaigns", "--json"]) == 0
    rows = {row["id"]: row for row in json.loads(capsys.readouterr().out)}
    assert set(rows) == {good.id, bad.id}
    assert rows[good.id]["problem"] == ""
    assert "journal.jsonl cannot be read" in rows[bad.id]["problem"]
    assert resume(bad.id) == 1
    err = capsys.readouterr().err
    assert "journal.jsonl cannot be read" in err and "Traceback" not in err
    assert resume(good.id) == 0
    assert sends(gateway) == 2


def test_3_every_kind_of_damage_is_listed_not_raised(demo_server):
    lines = [
        '{"e":"try","i":0,"at":"x"}',
        '{"e":"done","i":1,"s":"maybe","at":1}',
        '{"e":"try","i":99,"at":1}',
        '{"e":"try","i":2,"at":NaN}',
        '"just a string"',
        "\xff\xfe not text",
    ]
    for line in lines:
        campaign = make(demo_server, count=3)
        _append(campaign, line)
        reopened = open_campaign(campaign.id)
        assert reopened.problems or reopened.refusal, line
        assert reopened.count(Status.SENT) == 0
        reopened.write_report()  # no crash: the report reads past it
        assert [c.id for c in list_campaigns() if c.id == campaign.id]


# --- 6. a full disk --------------------------------------------------------------------------


def test_6_a_campaign_stopped_by_a_full_disk_exits_4_and_the_cut_outcome_is_held(
    gateway, capsys, monkeypatch
):
    campaign = make(gateway, count=4)
    real_write = os.write
    written = {"done": 0}

    def full_disk(fd, data):
        if b'"e":"done"' in bytes(data):
            written["done"] += 1
            if written["done"] == 2:  # the second outcome: half of it, then no space
                real_write(fd, bytes(data)[: len(data) // 2])
                raise OSError(errno.ENOSPC, "No space left on device")
        return real_write(fd, data)

    monkeypatch.setattr(journal_module, "_write", full_disk)
    assert resume(campaign.id, "--json") == 4
    end = json_lines(capsys.readouterr().out)[-1]
    assert end["exit_status"] == 4 and "No space left on device" in end["stop_reason"]
    monkeypatch.setattr(journal_module, "_write", real_write)
    reopened = open_campaign(campaign.id)
    assert [reopened.status(i) for i in range(4)] == [
        Status.SENT,
        Status.UNKNOWN,  # sent, but its outcome line was cut: held
        Status.PENDING,
        Status.PENDING,
    ]
    assert sends(gateway) == 2


# --- 4. a typo or a closed instance ----------------------------------------------------------


def _new(tmp_path, instance: str) -> list[str]:
    to = tmp_path / "to.csv"
    to.write_text("number,name\n" + "".join(f"{n},P\n" for n in NUMBERS[:10]))
    return ["send-list", "--instance", instance, "--draft", "Weekly menu", "--to", str(to)]


def test_4_an_unknown_instance_spends_no_recipient(gateway, tmp_path, capsys):
    assert main([*_new(tmp_path, "nope"), "--rate", "max"]) == 1
    err = capsys.readouterr().err
    assert "the gateway has no instance 'nope' (its instances: " in err and "sales-eu" in err
    assert list_campaigns() == []  # no campaign, nobody recorded as failed
    assert sends(gateway) == 0


def test_4_a_closed_instance_is_said_before_the_campaign_starts(gateway, tmp_path, capsys):
    gateway.state.instances["sales-eu"].status = "close"
    assert main([*_new(tmp_path, "sales-eu"), "--rate", "max"]) == 1
    assert "instance sales-eu is not connected (its state: close)" in capsys.readouterr().err
    assert list_campaigns() == []
    # A campaign resumed while its instance is closed: nobody is tried.
    campaign = make(gateway, count=2)
    assert resume(campaign.id) == 4
    assert "Not started: instance sales-eu is not connected" in capsys.readouterr().out
    assert open_campaign(campaign.id).schedule() == []


def test_4_a_refusal_for_everyone_never_calls_a_number_twice(demo_server):
    """Two recipients, instance closed under way: each is called once, then it stops."""
    demo_server.state.instances["sales-eu"].status = "close"
    campaign = make(demo_server, count=2)
    _, final = run_campaign(demo_server, open_campaign(campaign.id), check_instance=False)
    assert [event["i"] for event in open_campaign(campaign.id).schedule()] == [0, 1]
    assert "instance sales-eu is not connected (the last 2 calls" in final.stop_reason
    assert final.left == 2


# --- 5. numbers -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "said"),
    [
        ("1234567890123456789012345", "too long for any phone number"),  # 25 digits
        ("123456789012345678", "too long for any phone number"),  # 18 digits
        ("5511911110001 5511911110002", "two numbers run together"),  # one line, two numbers
        ("55119111100011", "too long for a number of +55"),
        ("12", "too short"),
        ("4912", "too short for a number of +49"),
        ("551191111000", "not a number in use in the numbering plan of +55"),
        ("99912345678", "no country has this code"),
    ],
)
def test_5_impossible_numbers_are_refused_with_the_reason(raw, said):
    parsed = parse_recipients(f"number\n4917400000001\n{raw}\n")
    assert [r.number for r in parsed.recipients] == ["4917400000001"]
    [problem] = parsed.invalid
    assert problem.field == "line 3" and said in problem.message, problem.message


def test_5_one_person_however_written_is_one_recipient():
    parsed = parse_recipients(
        "number\n"
        "5511911110001\n"
        "0055 11 911110001\n"
        "+55 (11) 91111-0001\n"
        "5511911110001@s.whatsapp.net\n"
        "5511911110001@c.us\n"
        "0049 174 00000001\n"
    )
    assert [r.number for r in parsed.recipients] == ["5511911110001", "4917400000001"]
    assert parsed.duplicates == 4


def test_5_send_list_refuses_a_file_with_an_impossible_number(gateway, tmp_path, capsys):
    to = tmp_path / "to.csv"
    to.write_text("number\n4917400000001\n1234567890123456789012345\n")
    assert (
        main(["send-list", "--instance", "sales-eu", "--draft", "Weekly menu", "--to", str(to)])
        == 1
    )
    assert "line 3: '1234567890123456789012345': 25 digits is too long" in capsys.readouterr().err
    assert sends(gateway) == 0


def test_6_a_cut_last_line_that_names_its_recipient_holds_it(demo_server):
    """Found by the torture run: a `try` line cut short after its send (damage, not a crash:
    the send waits for the whole line) made its recipient pending, and it was sent again."""
    campaign = make(demo_server, count=3)
    run_campaign(demo_server, open_campaign(campaign.id))  # all three sent
    lines = campaign.journal_path.read_bytes().splitlines(keepends=True)
    kept = [line for line in lines if b'"i":2' not in line]  # 2's outcome is gone...
    try_2 = next(line for line in lines if b'"e":"try","i":2' in line)
    campaign.journal_path.write_bytes(b"".join(kept) + try_2[: len(try_2) // 2])  # ...try cut
    _, final = run_campaign(demo_server, open_campaign(campaign.id))
    assert demo_server.state.sends_by_number[NUMBERS[2]] == 1
    reopened = open_campaign(campaign.id)
    assert reopened.status(2) is Status.UNKNOWN
    assert reopened.unknown[2][1].render() == "its journal line was cut short: held"
