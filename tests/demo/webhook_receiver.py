"""A webhook receiver for the demo's tests: records every POST (path, headers, JSON body)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx
import pytest

from gateway_tui.demo.server import DemoServer


class Receiver:
    """Records POSTs; ``delay``: seconds to wait before answering (a slow receiver)."""

    def __init__(self, delay: float = 0.0) -> None:
        self.posts: list[dict[str, Any]] = []
        self.delay = delay
        self.release = threading.Event()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = json.loads(self.rfile.read(length) or b"null")
                receiver.posts.append(
                    {"path": self.path, "headers": dict(self.headers), "body": body}
                )
                if receiver.delay:
                    receiver.release.wait(receiver.delay)
                self.send_response(200)
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def events(self) -> list[str]:
        return [post["body"]["event"] for post in self.posts]

    def close(self) -> None:
        self.release.set()
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    found = Receiver()
    yield found
    found.close()


def set_webhook(server: DemoServer, name: str, url: str, events: list[str], by_events: bool):
    """Point instance ``name``'s webhook at ``url`` for ``events``, in its line's body."""
    headers = {"apikey": server.api_key}
    if server.api_version.startswith("2"):
        body = {"webhook": {"enabled": True, "url": url, "events": events, "byEvents": by_events}}
    else:
        body = {"url": url, "enabled": True, "events": events, "webhook_by_events": by_events}
    answer = httpx.post(f"{server.url}/webhook/set/{name}", json=body, headers=headers)
    assert answer.status_code == 201, answer.text
