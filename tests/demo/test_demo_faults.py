"""The demo gateway's knobs, seen from plain httpx: faults, latency, write counting, and the
server's own life cycle (start, stop, foreground ``serve``)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time

import httpx
import pytest

from gateway_tui.demo.data import DEMO_API_KEY
from gateway_tui.demo.server import DemoServer, serve
from tests import demo_fixtures
from tests.demo_fixtures import BIG_GROUP, OPEN, list_message_body, message_of

demo_server = demo_fixtures.demo_server
demo_connections = demo_fixtures.demo_connections
server = demo_fixtures.server
client = demo_fixtures.client

SETTINGS = f"/settings/find/{OPEN}"
REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


# ---------------------------------------------------------------- each fault kind


@pytest.mark.parametrize("status", [500, 502, 503])
def test_status_fault_with_the_gateway_error_body(
    server: DemoServer, client: httpx.Client, status: int
) -> None:
    server.faults.add("status", status=status)
    response = client.get(SETTINGS)
    assert response.status_code == status
    assert response.headers["content-type"] == "application/json"
    assert isinstance(message_of(response), str)


@pytest.mark.parametrize(
    ("kind", "options", "status"),
    [("status", {"status": 503, "html": True}, 503), ("html_error", {}, 502)],
)
def test_html_error_pages(server: DemoServer, client: httpx.Client, kind, options, status) -> None:
    server.faults.add(kind, **options)
    response = client.get(SETTINGS)
    assert response.status_code == status
    assert response.headers["content-type"].startswith("text/html")
    assert response.text.startswith("<html>")
    with pytest.raises(json.JSONDecodeError):
        response.json()


def test_missing_route_answers_like_a_server_without_that_endpoint(
    server: DemoServer, client: httpx.Client
) -> None:
    server.faults.add("missing_route", method="POST", path_prefix="/settings/set")
    faked = client.post(f"/settings/set/{OPEN}", json={})
    real = client.post("/settings/nowhere/x", json={})  # a route the demo really lacks
    assert faked.status_code == real.status_code == 404
    assert message_of(faked) == [f"Cannot POST /settings/set/{OPEN}"]
    assert faked.json().keys() == real.json().keys()
    assert message_of(real) == ["Cannot POST /settings/nowhere/x"]


def test_malformed_json_is_200_with_a_truncated_document(
    server: DemoServer, client: httpx.Client
) -> None:
    server.faults.add("malformed_json")
    response = client.get(SETTINGS)
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/json"
    with pytest.raises(json.JSONDecodeError):
        response.json()


def test_drop_connection_is_a_transport_error(server: DemoServer, client: httpx.Client) -> None:
    server.faults.add("drop_connection", times=1)
    with pytest.raises((httpx.RemoteProtocolError, httpx.ReadError)):
        client.get(SETTINGS)
    assert client.get(SETTINGS).status_code == 200  # the next connection works again


def test_stall_delays_the_answer(server: DemoServer, client: httpx.Client) -> None:
    server.faults.add("stall", seconds=0.3)
    started = time.perf_counter()
    assert client.get(SETTINGS).status_code == 200
    assert time.perf_counter() - started >= 0.3


def test_stall_makes_a_client_time_out(server: DemoServer, client: httpx.Client) -> None:
    server.faults.add("stall", seconds=30, times=1)
    with pytest.raises(httpx.ReadTimeout):
        client.get(SETTINGS, timeout=0.2)


def test_unauthorized_mid_session(server: DemoServer, client: httpx.Client) -> None:
    assert client.get(SETTINGS).status_code == 200
    server.faults.add("unauthorized", times=1)
    response = client.get(SETTINGS)
    assert response.status_code == 401
    assert response.json() == {
        "status": 401,
        "error": "Unauthorized",
        "response": {"message": "Unauthorized"},
    }
    assert client.get(SETTINGS).status_code == 200


@pytest.mark.parametrize("kind", ["stall", "drop_connection"])
def test_faults_leave_no_server_errors_in_the_log(
    server: DemoServer, client: httpx.Client, caplog: pytest.LogCaptureFixture, kind: str
) -> None:
    # A logged traceback would land on the terminal the TUI draws on.
    server.faults.add(kind, seconds=0.3, times=1)
    with pytest.raises(httpx.TransportError):
        client.post(f"/chat/fetchProfile/{OPEN}", json={"number": "4915112340001"}, timeout=0.1)
    time.sleep(0.4)  # let the server finish with the abandoned request
    assert [r.getMessage() for r in caplog.records if r.levelname == "ERROR"] == []


# ---------------------------------------------------------------- targeting and counting rules


def test_rule_targets_method_and_path_prefix(server: DemoServer, client: httpx.Client) -> None:
    server.faults.add("status", status=503, method="put", path_prefix="/group")
    group = {"groupJid": BIG_GROUP}
    assert client.put(f"/group/revokeInviteCode/{OPEN}", params=group).status_code == 503
    assert client.get(f"/group/inviteCode/{OPEN}", params=group).status_code == 200
    archive = {"archive": True, "chat": demo_fixtures.JONAS}
    assert client.put(f"/chat/archiveChat/{OPEN}", json=archive).status_code == 201


def test_rule_applies_the_given_number_of_times(server: DemoServer, client: httpx.Client) -> None:
    rule = server.faults.add("status", status=502, times=2)
    statuses = [client.get(SETTINGS).status_code for _ in range(4)]
    assert statuses == [502, 502, 200, 200]
    assert rule.hits == 2


@pytest.mark.parametrize(("probability", "expected"), [(0.0, 0), (1.0, 40)])
def test_rule_probability_extremes(
    server: DemoServer, client: httpx.Client, probability: float, expected: int
) -> None:
    server.faults.add("status", probability=probability)
    failures = sum(client.get(SETTINGS).status_code == 500 for _ in range(40))
    assert failures == expected


def test_rule_probability_is_seeded(server: DemoServer, client: httpx.Client) -> None:
    def failure_pattern() -> list[bool]:
        server.faults.clear()
        server.faults.add("status", probability=0.5)
        return [client.get(SETTINGS).status_code == 500 for _ in range(40)]

    first = failure_pattern()
    assert 5 < sum(first) < 35
    assert failure_pattern() == first


def test_clear_removes_every_rule(server: DemoServer, client: httpx.Client) -> None:
    server.faults.add("status")
    server.faults.add("unauthorized")
    assert client.get(SETTINGS).status_code == 500
    server.faults.clear()
    assert server.faults.rules == []
    assert client.get(SETTINGS).status_code == 200


def test_unknown_fault_kind_is_refused(server: DemoServer) -> None:
    with pytest.raises(ValueError, match="unknown fault kind"):
        server.faults.add("explode")


# ---------------------------------------------------------------- latency and write counting


def test_added_latency_applies_to_every_request(server: DemoServer, client: httpx.Client) -> None:
    server.latency_ms = 150
    started = time.perf_counter()
    client.get(SETTINGS)
    client.get("/instance/fetchInstances")
    assert time.perf_counter() - started >= 0.3


def test_writes_are_counted_per_request_id(server: DemoServer, client: httpx.Client) -> None:
    body = list_message_body()
    client.post(f"/message/sendList/{OPEN}", json=body, headers={"x-request-id": "req-1"})
    client.post(f"/message/sendList/{OPEN}", json=body, headers={"x-request-id": "req-1"})
    client.put(
        f"/group/revokeInviteCode/{OPEN}",
        params={"groupJid": BIG_GROUP},
        headers={"X-Request-Id": "req-2"},
    )
    client.delete("/instance/delete/onboarding")
    client.get(SETTINGS, headers={"x-request-id": "req-3"})
    assert server.state.write_counts == {"req-1": 2, "req-2": 1, None: 1}
    assert [tuple(write) for write in server.state.writes] == [
        ("POST", f"/message/sendList/{OPEN}", "req-1"),
        ("POST", f"/message/sendList/{OPEN}", "req-1"),
        ("PUT", f"/group/revokeInviteCode/{OPEN}", "req-2"),
        ("DELETE", "/instance/delete/onboarding", None),
    ]


def test_a_write_is_counted_even_when_its_answer_is_lost(
    server: DemoServer, client: httpx.Client
) -> None:
    server.faults.add("drop_connection", times=1)
    with pytest.raises(httpx.TransportError):
        client.post(
            f"/message/sendList/{OPEN}", json=list_message_body(), headers={"x-request-id": "r"}
        )
    assert server.state.write_counts["r"] == 1


# ---------------------------------------------------------------- the server itself


def test_server_lifecycle_on_a_free_port() -> None:
    server = DemoServer(instances=3)
    assert list(server.state.instances) == ["sales-eu", "support", "marketing-br"]
    with server:
        assert server.url.startswith("http://127.0.0.1:") and server.port > 0
        response = httpx.get(
            f"{server.url}/instance/fetchInstances", headers={"apikey": DEMO_API_KEY}
        )
        assert len(response.json()) == 3
    with pytest.raises(httpx.ConnectError):
        httpx.get(f"{server.url}/instance/fetchInstances")


def test_stop_cuts_a_stalled_request_short() -> None:
    stall = 600.0  # far beyond any busy machine: only a stop that waits for it reaches it
    server = DemoServer().start()
    rule = server.faults.add("stall", seconds=stall)
    outcome: list[object] = []

    def stalled_call() -> None:
        try:
            outcome.append(
                httpx.get(
                    f"{server.url}{SETTINGS}", headers={"apikey": DEMO_API_KEY}, timeout=stall * 2
                )
            )
        except httpx.HTTPError as exc:
            outcome.append(exc)

    caller = threading.Thread(target=stalled_call)
    caller.start()
    deadline = time.monotonic() + 60  # generous: only a broken server takes this long
    while rule.hits == 0 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert rule.hits == 1, "the request never reached the stall"
    started = time.monotonic()
    server.stop()
    caller.join(stall * 2)
    # The stall wakes when the server shuts down: the call ends long before its 600 s.
    assert outcome, "the stalled request never finished"
    assert time.monotonic() - started < stall


def test_ten_thousand_instances_over_http() -> None:
    with DemoServer(instances=10_000) as server:
        response = httpx.get(
            f"{server.url}/instance/fetchInstances", headers={"apikey": server.api_key}
        )
    items = response.json()
    assert len(items) == 10_000
    assert len({item["instance"]["instanceName"] for item in items}) == 10_000


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_serve_runs_in_the_foreground_until_ctrl_c(signum: int) -> None:
    port = _free_port()
    code = (
        f"from gateway_tui.demo.server import serve; raise SystemExit(serve({port}, instances=2))"
    )
    process = subprocess.Popen(
        [sys.executable, "-c", code],
        cwd=REPO_ROOT,
        stdout=subprocess.PIPE,
        text=True,
        # As a shell's background job starts it (CI may): SIGINT ignored. serve() still stops.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
    )
    try:
        assert process.stdout is not None
        banner = [process.stdout.readline() for _ in range(4)]
        assert f"http://127.0.0.1:{port}" in banner[0]
        assert DEMO_API_KEY in banner[1]
        assert banner[3].startswith("Try: curl -H 'apikey: ")
        response = httpx.get(
            f"http://127.0.0.1:{port}/instance/fetchInstances", headers={"apikey": DEMO_API_KEY}
        )
        assert len(response.json()) == 2
        process.send_signal(signum)
        assert process.wait(120) == 0  # generous: a busy machine shuts down slowly
    finally:
        process.kill()
        process.wait()


def test_serve_reports_a_port_in_use(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        assert serve(taken.getsockname()[1], instances=1) == 1
    assert "cannot listen" in capsys.readouterr().err


def test_package_import_does_not_load_the_web_stack() -> None:
    code = (
        "import sys, gateway_tui.demo as demo; "
        "assert demo.DEMO_API_KEY; "
        "loaded = [m for m in sys.modules if m.split('.')[0] in ('starlette', 'uvicorn')]; "
        "assert not loaded, loaded"
    )
    subprocess.run([sys.executable, "-c", code], cwd=REPO_ROOT, check=True)
