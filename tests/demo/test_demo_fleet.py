"""The demo fleet (demo/fleet.py): several gateways of both lines with the fleet view's cases,
one of them not running."""

from __future__ import annotations

import httpx

from gateway_tui.demo.fleet import start_fleet


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
