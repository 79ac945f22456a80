"""One gateway's refresh for the fleet, against real gateways' recorded answers (replayed by an
httpx MockTransport): /metrics (with and without basic auth), the 2.4 licence gate, a zombie,
and what a refresh costs in requests."""

from __future__ import annotations

import base64
import copy

import httpx
import pytest

from gateway_tui.core.api.client import GatewayClient
from gateway_tui.core.fleet.metrics import MetricsAuth, parse_metrics
from gateway_tui.core.fleet.probe import GatewayProbe
from gateway_tui.core.fleet.verdict import Verdict
from gateway_tui.core.text.sanitize import mask_secrets
from tests.fleet_replay import Replay, json_answer, recording
from tests.recorded.gateway import GLOBAL_KEY

FETCH = ("GET", "/instance/fetchInstances")
ROOT = ("GET", "/")
METRICS = ("GET", "/metrics")


def probe(replay: Replay, **kw) -> GatewayProbe:
    client = GatewayClient(
        "http://gw.test", GLOBAL_KEY, transport=replay.transport, api_version="auto"
    )
    extras = httpx.AsyncClient(base_url="http://gw.test", transport=replay.transport)
    return GatewayProbe("prod", client, extras, **kw)


def rows_with(status: dict[str, str]) -> list[dict]:
    """The recorded 2.3.7 list (evo-a, evo-b, evo-c, all close) with some statuses changed."""
    rows = copy.deepcopy(recording("v2.3.7", "fetchInstances-all").response_body)
    for row in rows:
        row["connectionStatus"] = status.get(row["name"], row["connectionStatus"])
    return rows


def connection_state(state: str):
    def answer(request: httpx.Request) -> httpx.Response:
        name = request.url.path.rsplit("/", 1)[1]
        return json_answer(200, {"instance": {"instanceName": name, "state": state}})

    return answer


def test_the_recorded_metrics_parse_with_every_instance_state() -> None:
    reading = parse_metrics(recording("v2.3.7", "metrics-enabled-no-auth").response_body)
    assert reading.version == "2.3.7"
    assert reading.total == 1
    assert reading.states == {"mx-1": "close"}
    assert reading.state_of("mx-1") == "close"
    assert reading.state_of("nobody") is None


def test_metrics_that_are_not_prometheus_text_are_refused() -> None:
    from gateway_tui.core.fleet.metrics import MetricsUnreadable

    with pytest.raises(MetricsUnreadable):
        parse_metrics('{"status": 404, "error": "Not Found"} {{{')


async def test_metrics_give_every_state_in_one_call_and_tell_a_zombie() -> None:
    text = recording("v2.3.7", "metrics-auth-ok").response_body
    rows = rows_with({"evo-a": "open"})
    for row in rows:
        row["name"] = "mx-1" if row["name"] == "evo-a" else row["name"]
    replay = Replay(
        {
            FETCH: json_answer(200, rows),
            ROOT: recording("v2.3.7", "root"),
            METRICS: lambda request: httpx.Response(
                200
                if request.headers.get("authorization") == "Basic cHJvbTpwcm9tLXBhc3M="
                else 401,
                text=text if request.headers.get("authorization") else "Authentication required",
            ),
        }
    )
    gateway = probe(replay, metrics_auth=MetricsAuth("prom", "prom-pass"))
    reading = await gateway.read()
    await gateway.aclose()
    assert reading.source == "/metrics"
    by_name = {row.name: row for row in reading.instances}
    assert by_name["mx-1"].verdict is Verdict.ZOMBIE  # listed open, /metrics: close
    assert "/metrics said close" in by_name["mx-1"].judgement.reason
    # one call for every state: no connectionState at all
    assert not [key for key in replay.calls if "connectionState" in key[1]]
    assert replay.calls[METRICS] == 1 and replay.calls[FETCH] == 1


async def test_metrics_credentials_are_secrets() -> None:
    auth = MetricsAuth("prom", "prom-pass-1234")
    header = auth.header_value()
    token = header.split(" ", 1)[1]
    assert base64.b64decode(token) == b"prom:prom-pass-1234"
    written = mask_secrets(f"sent {header} with prom-pass-1234")
    assert "prom-pass-1234" not in written and token not in written
    assert "prom-pass" not in repr(auth)


@pytest.mark.parametrize(
    ("auth", "answer", "said"),
    [
        (None, "metrics-auth-no-credentials", "Authentication required"),
        (MetricsAuth("prom", "wrong"), "metrics-auth-wrong-password", "Invalid credentials"),
    ],
)
async def test_metrics_refused_fall_back_to_connection_state_and_say_why(
    auth, answer, said
) -> None:
    replay = Replay(
        {
            FETCH: json_answer(200, rows_with({"evo-a": "open"})),
            ROOT: recording("v2.3.7", "root"),
            METRICS: recording("v2.3.7", answer),
            ("GET", "/instance/connectionState/evo-a"): connection_state("close"),
        }
    )
    gateway = probe(replay, metrics_auth=auth)
    reading = await gateway.read()
    assert any(said in note and "metrics_user" in note for note in reading.notes)
    assert reading.source == "connectionState"
    assert {r.name: r.verdict for r in reading.instances}["evo-a"] is Verdict.ZOMBIE
    await gateway.read()
    await gateway.aclose()
    assert replay.calls[METRICS] == 1  # refused once: not asked again every refresh


async def test_a_gateway_without_metrics_is_asked_once() -> None:
    replay = Replay(
        {
            FETCH: recording("v2.3.7", "fetchInstances-all"),
            ROOT: recording("v2.3.7", "root"),
            METRICS: recording("v2.3.7", "metrics-disabled-default"),
        }
    )
    gateway = probe(replay)
    for _ in range(3):
        reading = await gateway.read()
    await gateway.aclose()
    assert replay.calls[METRICS] == 1
    assert replay.calls[FETCH] == 3
    assert replay.calls[ROOT] == 1  # the version, once
    assert reading.version == "2.3.7" and reading.line == "2.x"
    assert {row.verdict for row in reading.instances} == {Verdict.CLOSED}
    assert "list_messages_unshown" in {limit.key for limit in reading.limits}


async def test_the_licence_gate_is_one_gateway_row_with_the_register_url() -> None:
    replay = Replay(
        {
            FETCH: recording("v2.4.0-rc2", "fetchInstances-all"),
            ROOT: recording("v2.4.0-rc2", "root"),
            ("GET", "/license/status"): recording("v2.4.0-rc2", "license-status"),
        },
        default=recording("v2.4.0-rc2", "unknown-route"),
    )
    gateway = probe(replay)
    reading = await gateway.read()
    await gateway.aclose()
    assert reading.judgement is not None
    assert reading.judgement.verdict is Verdict.LICENCE
    assert reading.judgement.register_url == "http://127.0.0.1:18740/manager/login"
    assert "inactive" in reading.judgement.reason
    assert reading.instances == []
    # /license/status is asked without the key
    status_request = next(r for r in replay.requests if r.url.path == "/license/status")
    assert "apikey" not in status_request.headers


async def test_connection_state_is_asked_in_turn_never_for_every_instance_each_refresh() -> None:
    rows = rows_with({"evo-a": "open", "evo-b": "open", "evo-c": "open"})
    replay = Replay(
        {
            FETCH: json_answer(200, rows),
            ROOT: recording("v2.3.7", "root"),
            **{
                ("GET", f"/instance/connectionState/{n}"): connection_state("open")
                for n in ("evo-a", "evo-b", "evo-c")
            },
        }
    )
    gateway = probe(replay, state_checks=1)
    for _ in range(3):
        await gateway.read()
    await gateway.aclose()
    asked = {
        key[1].rsplit("/", 1)[1]: n
        for key, n in replay.calls.items()
        if "connectionState" in key[1]
    }
    assert asked == {"evo-a": 1, "evo-b": 1, "evo-c": 1}  # one a refresh, each in turn


async def test_sends_failing_connection_closed_make_a_listed_open_instance_a_zombie() -> None:
    from datetime import UTC, datetime

    from gateway_tui.core.api.errors import error_for_response

    rec = recording("v2.3.7", "xcc-sendWhatsAppAudio-base64")
    failure = error_for_response(rec.status, rec.response_body, method=rec.method, path=rec.path)
    replay = Replay(
        {FETCH: json_answer(200, rows_with({"evo-a": "open"})), ROOT: recording("v2.3.7", "root")}
    )
    gateway = probe(replay, state_checks=0)
    gateway.note_send("evo-a", failure, datetime.now(UTC))
    reading = await gateway.read()
    row = {r.name: r for r in reading.instances}["evo-a"]
    assert row.verdict is Verdict.ZOMBIE
    assert "Connection Closed" in row.judgement.reason
    gateway.note_send("evo-a", None, datetime.now(UTC))  # a send that went
    reading = await gateway.read()
    await gateway.aclose()
    assert {r.name: r for r in reading.instances}["evo-a"].verdict is Verdict.OK


async def test_gateways_are_read_at_once_a_slow_one_delays_nobody() -> None:
    """The slow gateway answers only once the fast one's reading was handed on: read one
    after the other, this would never finish."""
    import asyncio

    from gateway_tui.core.fleet.fleet import Fleet

    fast_seen = asyncio.Event()

    async def slow_list(request: httpx.Request) -> httpx.Response:
        await asyncio.wait_for(fast_seen.wait(), 60)
        return replayed_list()

    def replayed_list() -> httpx.Response:
        return json_answer(200, rows_with({}))

    fast = Replay(
        {FETCH: recording("v2.3.7", "fetchInstances-all"), ROOT: recording("v2.3.7", "root")}
    )
    slow_transport = httpx.MockTransport(slow_list)
    slow_client = GatewayClient(
        "http://slow.test", GLOBAL_KEY, transport=slow_transport, api_version="2"
    )
    slow = GatewayProbe(
        "slow",
        slow_client,
        httpx.AsyncClient(base_url="http://slow.test", transport=slow_transport),
    )
    order = []

    def seen(reading, alerts) -> None:
        order.append(reading.gateway)
        if reading.gateway == "fast":
            fast_seen.set()

    fleet = Fleet([slow, probe_named(fast, "fast")])
    await asyncio.wait_for(fleet.refresh(seen), 60)
    await fleet.aclose()
    assert order == ["fast", "slow"]


def probe_named(replay: Replay, name: str) -> GatewayProbe:
    gateway = probe(replay)
    gateway.gateway = name
    return gateway


async def test_a_bug_reading_one_gateway_is_its_row_and_the_others_are_read() -> None:
    from gateway_tui.core.fleet.fleet import Fleet

    good = probe_named(
        Replay(
            {FETCH: recording("v2.3.7", "fetchInstances-all"), ROOT: recording("v2.3.7", "root")}
        ),
        "good",
    )
    broken = probe_named(Replay({}), "broken")

    async def boom():
        raise RuntimeError("a bug of ours")

    broken.read = boom
    fleet = Fleet([broken, good])
    readings = {reading.gateway: reading for reading in await fleet.refresh()}
    await fleet.aclose()
    assert readings["broken"].judgement.verdict is Verdict.UNREACHABLE
    assert "RuntimeError" in readings["broken"].judgement.reason
    assert len(readings["good"].instances) == 3


async def test_the_apps_own_failed_sends_reach_the_verdict() -> None:
    from datetime import UTC, datetime

    from gateway_tui.core.api.errors import error_for_response
    from gateway_tui.core.api.events import CallEvent
    from gateway_tui.core.fleet.monitor import FleetMonitor

    rec = recording("v2.3.7", "xcc-sendWhatsAppAudio-base64")  # 500 "Connection Closed"
    replay = Replay(
        {FETCH: json_answer(200, rows_with({"evo-a": "open"})), ROOT: recording("v2.3.7", "root")}
    )
    gateway = probe_named(replay, "prod")
    gateway.state_checks = 0
    monitor = FleetMonitor([gateway])

    def sent(status, lines=()):
        return CallEvent(
            "POST",
            "/message/sendText/evo-a",
            "http://gw.test/message/sendText/evo-a",
            datetime.now(UTC),
            1.0,
            status=status,
            error="failed" if lines else None,
            error_lines=tuple(lines),
        )

    failure = error_for_response(rec.status, rec.response_body, method=rec.method, path=rec.path)
    monitor.note_call("prod", sent(rec.status, failure.messages))
    await monitor.refresh()
    assert monitor.rows()[0].verdict is Verdict.ZOMBIE
    monitor.note_call("prod", sent(201))
    await monitor.refresh()
    assert {row.verdict for row in monitor.rows()} == {Verdict.OK, Verdict.CLOSED}
    await monitor.aclose()
