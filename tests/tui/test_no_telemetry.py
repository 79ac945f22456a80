"""No telemetry, no update check: in a session on the demo gateway, every connection the app
opens (and every name it looks up) is the gateway's. Python's audit events see each
socket.connect and getaddrinfo of the process, whatever library makes it."""

from __future__ import annotations

import sys
from urllib.parse import urlsplit

from gateway_tui.main import main
from gateway_tui.tui.app import GatewayApp
from tests.data import INSTANCE
from tests.navigation import open_chats, open_groups, open_instance, open_request_log
from tests.support import make_config, wait_for


class _Recorder:
    """socket.connect / getaddrinfo of this process, while recording (a hook cannot be removed,
    so it stays installed and idle)."""

    def __init__(self) -> None:
        self.recording = False
        self.seen: list[tuple[str, object]] = []
        sys.addaudithook(self._hook)

    def _hook(self, event: str, args: tuple) -> None:
        if self.recording and event in ("socket.connect", "socket.getaddrinfo"):
            where = args[1] if event == "socket.connect" else (args[0], args[1])
            self.seen.append((event, where))

    def __enter__(self) -> list[tuple[str, object]]:
        self.seen.clear()
        self.recording = True
        return self.seen

    def __exit__(self, *exc: object) -> None:
        self.recording = False


RECORDER = _Recorder()


def _not_the_gateway(seen: list[tuple[str, object]], url: str) -> list[tuple[str, object]]:
    host, port = urlsplit(url).hostname, urlsplit(url).port
    others = []
    for event, where in seen:
        if not isinstance(where, tuple) or len(where) < 2:
            others.append((event, where))  # a Unix socket, or anything else: not the gateway
            continue
        name = where[0].decode() if isinstance(where[0], bytes) else str(where[0])
        if name not in (host, "localhost") or where[1] not in (port, str(port)):
            others.append((event, where))
    return others


async def test_a_session_on_the_demo_connects_only_to_the_gateway(demo_server):
    with RECORDER as seen:
        app = GatewayApp(make_config(demo_server))
        async with app.run_test(size=(140, 40)) as pilot:
            await open_instance(app, pilot)
            await open_chats(app, pilot)
            await open_groups(app, pilot)
            await open_request_log(app, pilot)
            await wait_for(pilot, lambda: len(app.state.instances.value or ()) > 0)
            app.theme = "nord"  # a preference kept on disk, not sent anywhere
            await pilot.pause()
    assert any(event == "socket.connect" for event, _ in seen), "nothing was recorded"
    assert _not_the_gateway(seen, demo_server.url) == []


def test_a_headless_command_connects_only_to_the_gateway(demo_server, monkeypatch, capsys):
    monkeypatch.setenv("GATEWAY_URL", demo_server.url)
    monkeypatch.setenv("GATEWAY_API_KEY", demo_server.api_key)
    with RECORDER as seen:
        assert main(["instances", "--json"]) == 0
        assert main(["chats", INSTANCE, "--json"]) == 0
    capsys.readouterr()
    assert seen and _not_the_gateway(seen, demo_server.url) == []
