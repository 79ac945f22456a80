"""The fleet's verdicts: from evidence (facts with their times), never from a guess; and the
disconnection reasons in Baileys' own codes."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from gateway_tui.core.api.errors import error_for_response
from gateway_tui.core.fleet.reasons import REASONS, Disconnection, object_message, reason_words
from gateway_tui.core.fleet.verdict import (
    LISTED,
    METRICS,
    SEND,
    STATE,
    Fact,
    InstanceEvidence,
    Verdict,
    judge_gateway_error,
    judge_instance,
)
from tests.fleet_replay import recording

T0 = datetime(2026, 11, 26, 20, 0, 0, tzinfo=UTC)


def evidence(listed: str, *, state=None, metrics=None, send=None, **kw) -> InstanceEvidence:
    return InstanceEvidence(
        "sales-eu",
        listed=Fact(LISTED, listed, T0),
        state=Fact(STATE, state, T0 + timedelta(seconds=1)) if state else None,
        metrics=Fact(METRICS, metrics, T0 + timedelta(seconds=1)) if metrics else None,
        send_failure=send,
        **kw,
    )


def test_listed_open_but_connection_state_closed_is_a_zombie_with_both_facts() -> None:
    judgement = judge_instance(evidence("open", state="close"))
    assert judgement.verdict is Verdict.ZOMBIE
    assert "fetchInstances said open" in judgement.reason
    assert "connectionState said close" in judgement.reason
    assert {fact.source for fact in judgement.facts} == {LISTED, STATE}
    # both times are shown
    assert judgement.reason.count(":") >= 4


def test_listed_open_but_metrics_say_close_is_a_zombie() -> None:
    judgement = judge_instance(evidence("open", metrics="close"))
    assert judgement.verdict is Verdict.ZOMBIE
    assert "/metrics said close" in judgement.reason


def test_listed_open_while_sends_fail_connection_closed_is_a_zombie() -> None:
    failed = Fact(SEND, "Connection Closed", T0 + timedelta(seconds=5))
    judgement = judge_instance(evidence("open", send=failed))
    assert judgement.verdict is Verdict.ZOMBIE
    assert "failed: Connection Closed" in judgement.reason
    # a live fact newer than the failure saying open clears it
    later_open = InstanceEvidence(
        "x",
        listed=Fact(LISTED, "open", T0),
        state=Fact(STATE, "open", T0 + timedelta(seconds=9)),
        send_failure=failed,
    )
    assert judge_instance(later_open).verdict is Verdict.OK


@pytest.mark.parametrize(
    ("listed", "state", "verdict"),
    [
        ("open", "open", Verdict.OK),
        ("open", None, Verdict.OK),
        ("connecting", None, Verdict.CONNECTING),
        ("close", None, Verdict.CLOSED),
        # the list behind the socket: closed in the database, open in the library is no zombie
        ("close", "open", Verdict.OK),
    ],
)
def test_agreeing_sources(listed: str, state: str | None, verdict: Verdict) -> None:
    assert judge_instance(evidence(listed, state=state)).verdict is verdict


def test_a_closed_instance_says_why_from_its_stored_disconnection() -> None:
    last = Disconnection.of(440, "2026-11-26T19:10:19.637Z")
    judgement = judge_instance(evidence("close", disconnection=last))
    assert judgement.verdict is Verdict.CLOSED
    assert "440 replaced by another session" in judgement.reason
    assert judge_instance(evidence("close")).reason == "the gateway stored no disconnection"


def test_flapping_is_said_in_the_reason_and_kept_as_evidence() -> None:
    judgement = judge_instance(evidence("open", flapping="4 changes in 5 min"))
    assert judgement.verdict is Verdict.OK
    assert not judgement.ok  # open, but not steady: trouble all the same
    assert "flapping (4 changes in 5 min)" in judgement.reason
    assert judgement.extra["flapping"] == "4 changes in 5 min"


# --- Baileys' reason codes -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "words"),
    [
        (401, "401 logged out"),
        ("408", "408 connection lost"),
        (411, "411 multi-device mismatch"),
        (428, "428 connection closed"),
        (440, "440 replaced by another session"),
        (500, "500 bad session"),
        (503, "503 WhatsApp unavailable"),
        (515, "515 restart required"),
        (499, "499"),  # not in Baileys' enum: as it came, no meaning made up
        (None, ""),
    ],
)
def test_reason_codes_in_words(code, words: str) -> None:
    assert reason_words(code) == words


def test_the_codes_are_baileys_own_names() -> None:
    names = {name: reason.code for reason in REASONS.values() for name in reason.names}
    assert names == {
        "loggedOut": 401,
        "forbidden": 403,
        "connectionLost": 408,
        "timedOut": 408,
        "multideviceMismatch": 411,
        "connectionClosed": 428,
        "connectionReplaced": 440,
        "badSession": 500,
        "unavailableService": 503,
        "restartRequired": 515,
    }


def test_a_recorded_disconnection_row_reads_in_words() -> None:
    rows = recording("v2.3.7-more", "fetchInstances-after-delete-lc2").response_body
    row = next(r for r in rows if r["disconnectionReasonCode"] == 401)
    last = Disconnection.of(
        row["disconnectionReasonCode"], row["disconnectionAt"], row["disconnectionObject"]
    )
    assert last is not None
    assert last.words == "401 logged out (Log out instance: lc-2)"
    assert last.at == datetime(2026, 11, 26, 19, 10, 19, 637000, tzinfo=UTC)
    assert Disconnection.of(None, None, None) is None


def test_a_hostile_disconnection_object_is_printable_and_an_unreadable_one_is_none() -> None:
    assert object_message('{"error":{"output":{"payload":{"message":"a\\u001b[2Jb"}}}}') == "a␛[2Jb"
    assert object_message("{not json") is None
    assert object_message({"error": "flat"}) is None


# --- a gateway as a whole ----------------------------------------------------------------------


def _recorded_error(folder: str, name: str):
    rec = recording(folder, name)
    return error_for_response(rec.status, rec.response_body, method=rec.method, path=rec.path)


def test_a_licence_gated_gateway_is_licence_with_its_register_url() -> None:
    error = _recorded_error("v2.4.0-rc2", "fetchInstances-all")
    judgement = judge_gateway_error(error, licence_status="inactive")
    assert judgement.verdict is Verdict.LICENCE
    assert judgement.register_url == "http://127.0.0.1:18740/manager/login"
    assert "http://127.0.0.1:18740/manager/login" in judgement.reason
    assert "inactive" in judgement.reason


def test_the_licence_gate_wins_over_a_wrong_key() -> None:
    # 2.4 answers 503 before it checks the key: never "unauthorized" then.
    error = _recorded_error("v2.4.0-rc2", "fetchInstances-wrong-apikey")
    assert judge_gateway_error(error).verdict is Verdict.LICENCE


def test_a_refused_key_is_unauthorized() -> None:
    error = _recorded_error("v2.3.7", "fetchInstances-wrong-apikey")
    judgement = judge_gateway_error(error)
    assert judgement.verdict is Verdict.UNAUTHORIZED
    assert "401" in judgement.reason


def test_a_gateway_that_is_down_is_unreachable() -> None:
    from gateway_tui.core.api.errors import GatewayTimeout, GatewayUnreachable

    down = GatewayUnreachable(messages=["All connection attempts failed"])
    assert judge_gateway_error(down).verdict is Verdict.UNREACHABLE
    assert judge_gateway_error(GatewayTimeout()).verdict is Verdict.UNREACHABLE
