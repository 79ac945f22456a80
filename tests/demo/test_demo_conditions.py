"""The fleet view's cases in the demo: a zombie, a flapping instance, Prometheus /metrics as
recorded (with and without basic auth), and a fleet of demo gateways."""

from __future__ import annotations

import base64
import re

import httpx
import pytest

from gateway_tui.demo.conditions import CYCLE, step
from gateway_tui.demo.fleet import start_fleet
from gateway_tui.demo.server import DemoServer
from tests.recorded.gateway import load_folder
from tests.support import wait_in_thread


def _recorded(name: str):
    return next(r for r in load_folder("v2.3.7") if r.name == name)


@pytest.mark.parametrize("version", ["1.7.1", "2.3.7"])
def test_a_zombie_is_listed_open_while_its_session_is_closed(version: str) -> None:
    with DemoServer(api_version=version, instances=2, zombie=["zed"]) as server:
        url, headers = server.url, {"apikey": server.api_key}
        rows = httpx.get(f"{url}/instance/fetchInstances", headers=headers).json()
        state = httpx.get(f"{url}/instance/connectionState/zed", headers=headers).json()
        body = (
            {"number": "5511999999999", "text": "hi"}
            if version.startswith("2")
            else {"number": "5511999999999", "textMessage": {"text": "hi"}}
        )
        sent = httpx.post(f"{url}/message/sendText/zed", json=body, headers=headers)
        verb = "POST" if version.startswith("2") else "PUT"
        key = {"id": "3EB0AA", "fromMe": False, "remoteJid": "5511999999999@s.whatsapp.net"}
        read = httpx.request(
            verb,
            f"{url}/chat/markMessageAsRead/zed",
            json={"readMessages": [key]} if version.startswith("2") else {"read_messages": [key]},
            headers=headers,
        )
    listed = {
        (row.get("name") or row["instance"]["instanceName"]): (
            row.get("connectionStatus") or row["instance"]["status"]
        )
        for row in rows
    }
    assert listed["zed"] == "open"
    assert state == {"instance": {"instanceName": "zed", "state": "close"}}
    # As the recorded instance whose socket keeps failing (v2.3.7-more/153, 156).
    assert (sent.status_code, sent.json()["response"]["message"]) == (500, "Connection Closed")
    assert read.json()["response"]["message"] == ["Read messages fail", "Error: Connection Closed"]


def test_a_flapping_instance_cycles_and_says_so() -> None:
    with DemoServer(api_version="2.3.7", instances=1, flapping=["flap"], flap_seconds=0.05) as s:
        headers = {"apikey": s.api_key}
        seen: set[str] = set()

        def every_state_seen() -> bool:
            answer = httpx.get(f"{s.url}/instance/connectionState/flap", headers=headers)
            seen.add(answer.json()["instance"]["state"])
            return seen == set(CYCLE)

        wait_in_thread(every_state_seen, "open, close and connecting")
        wait_in_thread(lambda: s.flapper.steps >= 3, "three steps")
        row = next(
            r
            for r in httpx.get(f"{s.url}/instance/fetchInstances", headers=headers).json()
            if r["name"] == "flap"
        )
    assert row["disconnectionReasonCode"] == 428
    assert row["disconnectionObject"]["error"]["output"]["payload"]["message"] == (
        "Connection Closed"
    )


def test_a_step_goes_open_close_connecting_open() -> None:
    server = DemoServer(api_version="2.3.6", instances=0, flapping=["f"])
    instance = server.state.instances["f"]
    states = []
    for _ in range(4):
        step(server.state)
        states.append(instance.status)
    assert states == ["close", "connecting", "open", "close"]


def _lines(text: str) -> list[str]:
    """The exposition's lines with the values of labels and samples blanked."""
    return [re.sub(r'="[^"]*"', '=""', re.sub(r" \S+$", " N", line)) for line in text.split("\n")]


def test_metrics_are_served_as_recorded_with_the_zombies_session_state() -> None:
    real = _recorded("metrics-enabled-no-auth")
    with DemoServer(api_version="2.3.7", instances=0, metrics=True, zombie=["mx-1"]) as server:
        answer = httpx.get(server.url + "/metrics")
    assert answer.status_code == 200
    assert answer.headers["content-type"] == real.content_type
    assert _lines(answer.text) == _lines(real.response_body)
    assert (
        'evolution_instance_state{instance="mx-1",integration="WHATSAPP-BAILEYS",state="close"} 1'
        in answer.text
    )
    assert 'evolution_instance_up{instance="mx-1",integration="WHATSAPP-BAILEYS"} 0' in answer.text


def test_metrics_behind_basic_auth_answer_as_recorded() -> None:
    auth = ("prom", "prom-pass")  # the recorder's (v2.3.7/906-909)
    with DemoServer(api_version="2.3.7", instances=1, metrics_auth=auth) as server:
        url = server.url + "/metrics"
        none = httpx.get(url)
        key_only = httpx.get(url, headers={"apikey": server.api_key})
        wrong = httpx.get(url, auth=("prom", "wrong"))
        right = httpx.get(url, auth=auth)
    for answer, name in (
        (none, "metrics-auth-no-credentials"),
        (key_only, "metrics-auth-apikey-only"),
        (wrong, "metrics-auth-wrong-password"),
    ):
        real = _recorded(name)
        assert (answer.status_code, answer.text) == (real.status, real.response_body)
    assert right.status_code == 200 and "evolution_instances_total 1" in right.text
    token = base64.b64encode(b"prom:prom-pass").decode()
    assert _recorded("metrics-auth-ok").request_headers["Authorization"] == f"Basic {token}"


def test_metrics_off_is_the_servers_own_404() -> None:
    with DemoServer(api_version="2.3.7", instances=0) as server:
        answer = httpx.get(server.url + "/metrics")
    assert (answer.status_code, answer.json()) == (
        404,
        _recorded("metrics-disabled-default").response_body,
    )


def test_the_fleet_runs_both_lines_with_every_case_and_one_gateway_down() -> None:
    with start_fleet(instances=2, flap_seconds=60) as fleet:
        by_name = {g.name: g for g in fleet.gateways}
        answers = {}
        for gateway in fleet.gateways:
            try:
                answers[gateway.name] = httpx.get(gateway.url + "/", timeout=10).json()
            except httpx.ConnectError:
                answers[gateway.name] = None
        licence = httpx.get(
            by_name["demo-2.4-licence"].url + "/instance/fetchInstances",
            headers={"apikey": by_name["demo-2.4-licence"].api_key},
        )
        auth = by_name["demo-2.3.6"].metrics_auth
        metrics = httpx.get(by_name["demo-2.3.6"].url + "/metrics", auth=auth)
    versions = {name: (a or {}).get("version") for name, a in answers.items()}
    assert versions == {
        "demo-1.7.1": "1.7.1",
        "demo-2.3.7": "2.3.7",
        "demo-2.3.6": "2.3.6",
        "demo-2.4-licence": "2.4.0",
        "demo-2.4": "2.4.0",
        "demo-stopped": None,
    }
    assert licence.status_code == 503
    assert metrics.status_code == 200
    cases = {case for gateway in fleet.gateways for case in gateway.cases}
    assert {"zombie zombie-a", "flapping flaky-b", "licence inactive", "not running"} <= cases
    assert not any(g.server and g.server.running for g in fleet.gateways)  # all stopped
