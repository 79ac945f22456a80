"""``gateway-tui webhook-listen``: the gateway's POSTs shown as the monitor shows events, with
2.3.7's headers, each answered with a small 200; loopback unless told, and said; never the key,
never a control sequence; with --compare, an event that came only one way is flagged."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import threading
from pathlib import Path

import httpx

from gateway_tui.demo.server import DemoServer
from tests.data import INSTANCE, newest_person_chat
from tests.support import PROCESS_LIMIT, cli_env

GATEWAY_TUI = [str(Path(sys.executable).with_name("gateway-tui"))]
INSTANCE_KEY = "46DA9470-1CD5-4457-8B55-70E4F56484D0"
HEADERS = {
    "X-Instance-ID": "8f6281b1-b8a5-40c0-941e-2cddad8e13d3",
    "X-Instance-Name": "ws-1",
    "X-Event-Type": "connection.update",
    "X-Timestamp": "1795724643",
}


def body(event="connection.update", data=None, **extra):
    """A webhook body in the recorded shape (v2.3.7-more/events-001) plus destination."""
    return {
        "event": event,
        "instance": "ws-1",
        "data": data or {"instance": "ws-1", "state": "connecting", "statusReason": 200},
        "destination": "http://127.0.0.1/hook/connection-update",
        "date_time": "2026-11-26T19:17:18.114Z",
        "sender": None,
        "server_url": "http://127.0.0.1:18748",
        "apikey": INSTANCE_KEY,
        **extra,
    }


# How long an event waits for its twin from the other side before it is flagged. Generous:
# on a busy machine the twin (the test's POST, the demo's webhook) may come seconds later,
# and a pair split by the machine's slowness would be flagged as one-way.
GRACE = "20"


class Listener:
    """``gateway-tui webhook-listen`` in a process of its own, on a free port."""

    def __init__(self, *argv, env=None):
        self.process = subprocess.Popen(
            [*GATEWAY_TUI, "webhook-listen", "--port", "0", *argv],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        # A read that never ends would hang the test: the process is ended after a while.
        self.watchdog = threading.Timer(PROCESS_LIMIT, self.process.kill)
        self.watchdog.start()
        self.said = [self.process.stderr.readline(), self.process.stderr.readline()]
        found = re.search(r"http://([^ ]+)/ ", self.said[1])
        assert found, self.said
        self.url = f"http://{found[1]}".replace("0.0.0.0", "127.0.0.1")

    def post(self, path="/", **kwargs):
        return httpx.post(self.url + path, timeout=60, **kwargs)

    def finish(self):
        try:
            out, err = self.process.communicate(timeout=PROCESS_LIMIT)
        finally:
            self.watchdog.cancel()
            if self.process.poll() is None:
                self.process.kill()
        return self.process.returncode, out, "".join(self.said) + err


def test_posts_are_shown_with_their_headers_and_answered_200(tmp_path):
    listener = Listener("--json", "--count", "2")
    first = listener.post("/connection-update", json=body(), headers=HEADERS)
    second = listener.post("/", json=body("qrcode.updated", {"qrcode": {"base64": "AAA"}}))
    assert (first.status_code, first.content) == (200, b'{"ok":true}')
    assert (second.status_code, second.content) == (200, b'{"ok":true}')
    status, out, err = listener.finish()
    assert status == 0, err
    one, two = (json.loads(line) for line in out.splitlines())
    assert (one["event"], one["instance"], one["via"]) == ("connection.update", "ws-1", "webhook")
    assert one["headers"] == HEADERS and one["path"] == "/connection-update"
    assert {"time", "data"} <= set(one)
    assert two["event"] == "qrcode.updated" and "headers" not in two
    assert INSTANCE_KEY not in out + err
    assert "this machine only" in err


def test_text_lines_show_the_headers_and_nothing_raw(tmp_path):
    listener = Listener("--count", "1")
    hostile = {"instance": "ws-1", "state": "\x1b]0;owned\x07open\x9b2J", "statusReason": 200}
    headers = {**HEADERS, "X-Instance-Name": "ws-1\x1b[31m"}
    listener.post("/connection-update", json=body(data=hostile), headers=headers)
    status, out, err = listener.finish()
    assert status == 0, err
    line, request = out.splitlines()
    assert "  webhook  ws-1  connection.update  state " in line
    assert request.startswith("    POST /connection-update  X-Instance-ID=8f6281b1")
    assert "X-Event-Type=connection.update" in request and "X-Timestamp=1795724643" in request
    for raw in ("\x1b", "\x07", "\x9b"):
        assert raw not in out
    assert INSTANCE_KEY not in out


def test_bad_bodies_are_said_and_still_answered_200(tmp_path):
    listener = Listener("--count", "1")
    assert listener.post("/", content=b"\x1b[2J not json").status_code == 200
    assert listener.post("/", content=b"{" + b" " * 3_000_000 + b"}").status_code == 200
    listener.post("/", json=body())
    status, out, err = listener.finish()
    assert status == 0
    assert "a body that is not JSON came to / (13 bytes)" in err
    assert "over the 2,097,152-byte limit: not read" in err
    assert "\x1b" not in err
    assert "connection.update" in out.splitlines()[0]
    assert out.splitlines()[1] == "    POST /  (no X- headers: an older gateway)"


def test_another_host_is_said_plainly(tmp_path):
    listener = Listener("--host", "0.0.0.0", "--count", "1")
    assert "reachable from other machines" in listener.said[0]
    assert "the gateway must be able to reach it" in listener.said[0]
    listener.post("/", json=body())
    assert listener.finish()[0] == 0


def test_a_port_taken_is_said(tmp_path):
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [*GATEWAY_TUI, "webhook-listen", "--port", str(port)],
            capture_output=True,
            text=True,
            timeout=PROCESS_LIMIT,
        )
    assert done.returncode == 1
    assert f"cannot listen on 127.0.0.1:{port}" in done.stderr and "Traceback" not in done.stderr


def test_compare_flags_an_event_that_came_only_one_way(tmp_path):
    with DemoServer() as server:
        listener = Listener(
            "--json", "--compare", INSTANCE, "--grace", GRACE, env=cli_env(server, tmp_path)
        )
        while "comparing with the socket.io stream" not in listener.process.stderr.readline():
            pass
        jid = newest_person_chat(server, INSTANCE)
        server.write(INSTANCE, jid, "both ways")
        socket_line = json.loads(listener.process.stdout.readline())
        assert socket_line["via"] == "socket"
        # the same event by webhook, as the gateway posts it: matched, no flag
        twin = {k: v for k, v in socket_line.items() if k not in ("time", "via")}
        listener.post("/messages-upsert", json={**twin, "apikey": "x" * 8})
        assert json.loads(listener.process.stdout.readline())["via"] == "webhook"
        # one that came by webhook only
        alone = {**twin, "date_time": "2026-01-01T00:00:00.000Z"}
        listener.post("/messages-upsert", json=alone)
        assert json.loads(listener.process.stdout.readline())["via"] == "webhook"
        flagged = json.loads(listener.process.stdout.readline())
        listener.process.terminate()
        listener.finish()
    assert flagged["flag"] == "only by webhook"
    assert flagged["date_time"] == "2026-01-01T00:00:00.000Z"


def test_the_demo_s_webhooks_arrive_with_their_headers_and_one_way_events_are_flagged(tmp_path):
    """The demo (2.3.7) posts to the receiver as a real gateway does: per event with
    webhook_by_events, with its headers. Its webhook ticks only MESSAGES_UPSERT, so a
    connection.update comes on the socket only and is flagged; the message is not."""
    import asyncio

    from gateway_tui.core.api import GatewayClient
    from gateway_tui.core.api.lifecycle import WebhookSettings

    with DemoServer(api_version="2.3.7") as server:
        listener = Listener(
            "--json", "--compare", INSTANCE, "--grace", GRACE, env=cli_env(server, tmp_path)
        )
        while "comparing with the socket.io stream" not in listener.process.stderr.readline():
            pass
        hook = WebhookSettings(
            url=listener.url, enabled=True, events=["MESSAGES_UPSERT"], webhook_by_events=True
        )

        async def point_the_webhook() -> None:
            async with GatewayClient(server.url, server.api_key, api_version="2") as client:
                await client.hooks.set_webhook(INSTANCE, hook)

        asyncio.run(point_the_webhook())
        server.write(INSTANCE, newest_person_chat(server, INSTANCE), "both ways")

        async def state_change() -> None:
            instance = server.state.instances[INSTANCE]
            data = {"instance": INSTANCE, "state": "open", "statusReason": 200}
            server.events.emit(instance, "connection.update", data)

        server.on_loop(state_change()).result(PROCESS_LIMIT)
        lines = []
        while not any(line.get("flag") for line in lines):
            lines.append(json.loads(listener.process.stdout.readline()))
        listener.process.terminate()
        listener.finish()
    by_hook = [line for line in lines if line["via"] == "webhook"]
    assert len(by_hook) == 1
    assert by_hook[0]["path"] == "/messages-upsert"
    headers = by_hook[0]["headers"]
    assert headers["X-Instance-Name"] == INSTANCE and headers["X-Event-Type"] == "messages.upsert"
    assert set(headers) == {"X-Instance-ID", "X-Instance-Name", "X-Event-Type", "X-Timestamp"}
    (flag,) = [line for line in lines if line.get("flag")]
    assert (flag["flag"], flag["event"]) == ("only on the websocket", "connection.update")
    assert server.state.instances[INSTANCE].apikey not in json.dumps(lines)
