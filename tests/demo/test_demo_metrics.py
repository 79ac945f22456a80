"""Prometheus /metrics in the demo as recorded on 2.3.7 (900-909): the exposition, the
session state of each instance, basic auth, and the 404 when it is off."""

from __future__ import annotations

import re

import httpx

from gateway_tui.demo.server import DemoServer
from tests.recorded.gateway import load_folder


def _recorded(name: str):
    return next(r for r in load_folder("v2.3.7") if r.name == name)


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


def test_metrics_off_is_the_servers_own_404() -> None:
    with DemoServer(api_version="2.3.7", instances=0) as server:
        answer = httpx.get(server.url + "/metrics")
    assert (answer.status_code, answer.json()) == (
        404,
        _recorded("metrics-disabled-default").response_body,
    )
