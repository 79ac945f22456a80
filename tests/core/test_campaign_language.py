"""What a campaign stores is a code with parameters, put into words in the reader's language
(issue 35 item 3): a campaign sent in English reads in Portuguese or Spanish when opened in
them; what the gateway said is data, never translated; an old journal's English sentences
still read, as they are; report.csv keeps a stable code beside its words."""

from __future__ import annotations

import csv
import json

from gateway_tui.core.campaign.journal import Status, open_campaign
from gateway_tui.core.campaign.reasons import Reason
from tests.support import locked_campaign, new_campaign, run_campaign


def _report(campaign) -> list[dict[str, str]]:
    with campaign.write_report().open(encoding="utf-8", newline="") as file:
        return list(csv.DictReader(file))


def _journal(campaign) -> list[dict]:
    return [json.loads(line) for line in campaign.journal_path.read_text().splitlines()]


def test_a_campaign_sent_in_english_reads_in_portuguese_when_opened_in_portuguese(
    demo_server, language
):
    demo_server.state.not_on_whatsapp.add("4917000000001")
    campaign = new_campaign(demo_server, count=3)
    run_campaign(demo_server, campaign)
    assert open_campaign(campaign.id).outcome(1).error == "4917000000001 is not on WhatsApp"

    language("pt_BR")
    reopened = open_campaign(campaign.id)
    outcome = reopened.outcome(1)
    assert outcome.status is Status.FAILED
    assert outcome.error == "4917000000001 não está no WhatsApp"
    # The screens' log of recent sends reads the same journal.
    assert dict(reopened.latest_outcomes(5))[1].error == "4917000000001 não está no WhatsApp"
    # Resumed in Spanish, it reads in Spanish.
    language("es")
    assert open_campaign(campaign.id).outcome(1).error == "4917000000001 no está en WhatsApp"


def test_the_journal_holds_a_code_and_the_gateways_words_never_a_sentence_of_ours(demo_server):
    demo_server.faults.add("status", status=500, method="POST", path_prefix="/message/")
    campaign = new_campaign(demo_server, count=12)
    _, final = run_campaign(demo_server, campaign)
    assert final.state.value == "stopped"
    events = _journal(campaign)
    failed = [event for event in events if event["e"] == "done" and event["s"] == "failed"]
    assert failed and all("err" not in event for event in failed)
    assert failed[0]["reason"] == {
        "code": "server_error",
        "p": {"status": 500, "message": "Injected fault: status 500"},
    }
    (stop,) = [event for event in events if event["e"] == "stop"]
    assert "why" not in stop
    assert stop["reason"]["code"] == "stop_same_failure"
    assert stop["reason"]["p"]["error"]["code"] == "server_error"
    # Nothing the app wrote into the journal is an English sentence of its own.
    text = campaign.journal_path.read_text()
    assert "internal error" not in text and "Stopped" not in text


def test_the_gateways_words_stay_as_it_said_them_inside_a_translated_reason(demo_server, language):
    demo_server.faults.add("status", status=500, method="POST", path_prefix="/message/")
    campaign = new_campaign(demo_server, count=12)
    run_campaign(demo_server, campaign)
    language("es")
    outcome = open_campaign(campaign.id).outcome(0)
    assert outcome.error == "El gateway tuvo un error interno: Injected fault: status 500"
    (stop,) = [event for event in _journal(campaign) if event["e"] == "stop"]
    said = Reason.from_json(stop["reason"]).render()
    assert said.startswith("Detenida: los últimos 10 destinatarios fueron rechazados")
    assert "(El gateway tuvo un error interno: Injected fault: status 500)" in said


def test_a_held_recipient_reads_in_the_readers_language(demo_server, language, tmp_path):
    campaign = locked_campaign(tmp_path, "number,name\n4917200000001,Ana\n4917200000002,Ben\n")
    campaign.record_try(0, at=1.0, planned=1.0, gap=0.0)  # then the process died
    campaign.unlock()
    language("pt_BR")
    reopened = open_campaign(campaign.id)
    assert reopened.unknown[0][1].render() == "nenhum resultado registrado"
    rows = _report(reopened)
    assert (rows[0]["status"], rows[0]["error_code"]) == ("unknown", "no_outcome")
    assert rows[0]["error"] == "nenhum resultado registrado"


def test_report_csv_keeps_a_stable_code_beside_words_in_the_writers_language(demo_server, language):
    demo_server.state.not_on_whatsapp.add("4917000000001")
    campaign = new_campaign(demo_server, count=3)
    run_campaign(demo_server, campaign)
    english = _report(open_campaign(campaign.id))
    language("pt_BR")
    portuguese = _report(open_campaign(campaign.id))
    assert list(portuguese[0]) == [
        "number",
        "name",
        "status",
        "message_id",
        "time",
        "error",
        "error_code",
    ]
    for rows in (english, portuguese):
        refused = next(row for row in rows if row["number"] == "4917000000001")
        assert (refused["status"], refused["error_code"]) == ("failed", "not_on_whatsapp")
        assert all(
            row["status"] == "sent" and not row["error_code"] for row in rows if row is not refused
        )
    assert next(r for r in english if r["status"] == "failed")["error"] == (
        "4917000000001 is not on WhatsApp"
    )
    assert next(r for r in portuguese if r["status"] == "failed")["error"] == (
        "4917000000001 não está no WhatsApp"
    )


OLD_REFUSAL = "The gateway refused the request: 4917200000002 is not on WhatsApp"


def test_an_old_journal_written_in_english_sentences_still_reads_as_it_is(language, tmp_path):
    campaign = locked_campaign(tmp_path, "number,name\n4917200000001,Ana\n4917200000002,Ben\n")
    campaign.unlock()
    old = [  # what earlier versions wrote: the reason as an English sentence
        {"e": "try", "i": 0, "at": 1.0, "plan": 1.0, "gap": 0.0},
        {"e": "done", "i": 0, "s": "sent", "at": 1.5, "id": "3EB0OLD"},
        {"e": "try", "i": 1, "at": 2.0, "plan": 2.0, "gap": 0.0},
        {"e": "done", "i": 1, "s": "failed", "at": 2.5, "err": OLD_REFUSAL},
        {"e": "stop", "why": "cancelled by the user", "at": 3.0},
    ]
    with campaign.journal_path.open("a", encoding="utf-8") as journal:
        journal.writelines(json.dumps(event) + "\n" for event in old)
    language("pt_BR")
    reopened = open_campaign(campaign.id)
    assert not reopened.problems and not reopened.refusal
    assert reopened.counts()["failed"] == 1 and reopened.counts()["sent"] == 1
    assert reopened.outcome(1).error == OLD_REFUSAL
    assert dict(reopened.latest_outcomes(5))[1].error == OLD_REFUSAL
    rows = _report(reopened)
    refused = next(row for row in rows if row["number"] == "4917200000002")
    assert (refused["status"], refused["error"], refused["error_code"]) == (
        "failed",
        OLD_REFUSAL,
        "",
    )


def test_a_reason_that_cannot_be_read_holds_its_recipient(tmp_path):
    campaign = locked_campaign(tmp_path, "number,name\n4917200000001,Ana\n4917200000002,Ben\n")
    campaign.unlock()
    bad = {"e": "done", "i": 1, "s": "failed", "at": 2.5, "reason": {"code": 5}}
    with campaign.journal_path.open("a", encoding="utf-8") as journal:
        journal.write(json.dumps(bad) + "\n")
    reopened = open_campaign(campaign.id)
    assert reopened.status(1) is Status.UNKNOWN
    assert any('"reason": its code is not one' in problem for problem in reopened.problems)


def test_a_reason_from_a_later_version_or_with_damaged_parameters_still_says_something():
    assert Reason("sent_by_pigeon", {"bird": "Ana"}).render() == 'sent_by_pigeon {"bird": "Ana"}'
    # A stop that should name its number of calls, without it: its code, not a crash.
    assert Reason("stop_key", {}).render().startswith("stop_key")
