"""The webhook receiver's app: any path, a small 200 whatever came, records with 2.3.7's
headers and without the key, bodies bounded; and the one-way check beside the socket."""

from __future__ import annotations

import json

import httpx
import pytest

from gateway_tui.core.events.crosscheck import ONLY_SOCKET, ONLY_WEBHOOK, Crosscheck
from gateway_tui.core.events.receiver import ANSWER, WebhookReceiver, is_loopback, reach_note
from gateway_tui.core.events.record import SOCKET, WEBHOOK, from_envelope

HEADERS = {
    "X-Instance-ID": "0f30f5d5-da18-4187-b4dd-4bcc411e86b9",
    "X-Instance-Name": "ws-1",
    "X-Event-Type": "connection.update",
    "X-Timestamp": "1795724643",
}
# A webhook body as the gateway sends it: the socket's envelope plus destination.
BODY = {
    "event": "connection.update",
    "instance": "ws-1",
    "data": {"instance": "ws-1", "state": "connecting", "statusReason": 200},
    "destination": "http://127.0.0.1:8787/connection-update",
    "date_time": "2026-11-26T19:17:18.114Z",
    "sender": None,
    "server_url": "http://127.0.0.1:18748",
    "apikey": "46DA9470-1CD5-4457-8B55-70E4F56484D0",
}


@pytest.fixture
def receiver():
    got: dict[str, list] = {"records": [], "problems": []}
    app = WebhookReceiver(got["records"].append, on_problem=got["problems"].append, max_body=4096)
    return app, got


async def post(app, path, **kwargs):
    transport = httpx.ASGITransport(app=app.app)
    async with httpx.AsyncClient(transport=transport, base_url="http://receiver") as client:
        return await client.request(kwargs.pop("method", "POST"), path, **kwargs)


async def test_an_event_posted_per_event_url_with_the_headers(receiver):
    app, got = receiver
    answer = await post(app, "/connection-update", json=BODY, headers=HEADERS)
    assert answer.status_code == 200 and answer.content == ANSWER
    (record,) = got["records"]
    assert (record.event, record.instance, record.via) == ("connection.update", "ws-1", WEBHOOK)
    assert record.path == "/connection-update"
    assert dict(record.headers) == HEADERS
    assert "46DA9470" not in json.dumps(record.as_json())


async def test_whatever_comes_the_answer_is_a_small_200(receiver):
    app, got = receiver
    for kwargs in (
        {"content": b"not json"},
        {"json": {"no": "event"}},
        {"content": b"x" * 10_000},
        {"method": "GET"},
        {"method": "DELETE"},
    ):
        answer = await post(app, "/", **kwargs)
        assert answer.status_code == 200 and answer.content == ANSWER
    assert got["records"] == []
    assert got["problems"] == [
        "a body that is not JSON came to / (8 bytes)",
        "a JSON body with no event name came to /",
        "a body of 10,000 bytes (/) was over the 4,096-byte limit: not read",
    ]


async def test_an_older_gateway_without_headers_still_counts(receiver):
    app, got = receiver
    await post(app, "/", json=BODY)
    assert got["records"][0].headers == {}


def test_who_can_reach_it_is_said():
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0")
    assert "this machine only" in reach_note("127.0.0.1", 8787)
    assert "reachable from other machines" in reach_note("0.0.0.0", 8787)


class Clock:
    now = 0.0

    def __call__(self) -> float:
        return self.now


def test_an_event_that_came_one_way_is_flagged_after_the_grace():
    clock = Clock()
    check = Crosscheck(grace=5, clock=clock)
    by_socket = {k: v for k, v in BODY.items() if k != "destination"}
    check.add(from_envelope(dict(by_socket), via=SOCKET))
    check.add(from_envelope(dict(BODY), via=WEBHOOK))  # its twin: matched
    only_hook = {**BODY, "date_time": "2026-11-26T19:17:19.000Z"}
    check.add(from_envelope(only_hook, via=WEBHOOK))
    only_socket = {**by_socket, "data": {"instance": "ws-1", "state": "open"}}
    check.add(from_envelope(only_socket, via=SOCKET))
    assert check.matched == 1 and check.expired() == []
    clock.now = 6
    flagged = check.expired()
    assert [(f.why, f.record.via) for f in flagged] == [
        (ONLY_WEBHOOK, WEBHOOK),
        (ONLY_SOCKET, SOCKET),
    ]
    assert check.expired() == [] and check.one_way == 2
