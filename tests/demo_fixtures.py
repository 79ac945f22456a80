"""Fixtures for the demo gateway tests: one loopback server per test module, reset per test.

A test module makes them its own by assigning them to module names, e.g.
``client = demo_fixtures.client`` (an import would trip ruff's redefinition check).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from gateway_tui.demo.server import DemoServer

OPEN = "sales-eu"  # open, with the curated groups and chats
OTHER_OPEN = "support"
CLOSED = "onboarding"
CONNECTING = "billing-apac"
BIG_GROUP = "120363012345678901@g.us"  # 1,024 participants, the instance is superadmin
OLD_STYLE_GROUP = "5511999887766-1589000000@g.us"
MEMBER_ONLY_GROUP = "120363034567890123@g.us"  # the instance is a plain member
UNKNOWN_GROUP = "120363999999999999@g.us"
JONAS = "4915112340001@s.whatsapp.net"
JONAS_OWN_MESSAGE = {"remoteJid": JONAS, "fromMe": True, "id": "3EB0A1B2C3D4E5F60718"}
JONAS_INCOMING = {"remoteJid": JONAS, "fromMe": False, "id": "3A5F0C2D9B7E41A6C8D0"}


@pytest.fixture(scope="module")
def demo_server() -> Iterator[DemoServer]:
    with DemoServer() as server:
        yield server


@pytest.fixture
def server(demo_server: DemoServer) -> Iterator[DemoServer]:
    """The module's server, back in its seeded state with no faults."""
    demo_server.reset()
    yield demo_server
    demo_server.faults.clear()


@pytest.fixture(scope="module")
def demo_connections(demo_server: DemoServer) -> Iterator[tuple[httpx.Client, httpx.Client]]:
    """An authenticated and an anonymous client, shared by a module: a new httpx.Client
    costs ~20 ms (it builds a TLS context), which would dominate these tests."""
    with (
        httpx.Client(base_url=demo_server.url, headers={"apikey": demo_server.api_key}) as authed,
        httpx.Client(base_url=demo_server.url) as anonymous,
    ):
        yield authed, anonymous


@pytest.fixture
def client(server: DemoServer, demo_connections: tuple[httpx.Client, httpx.Client]) -> httpx.Client:
    """Plain httpx, authenticated with the global key."""
    return demo_connections[0]


@pytest.fixture
def anonymous(
    server: DemoServer, demo_connections: tuple[httpx.Client, httpx.Client]
) -> httpx.Client:
    """Plain httpx without any key."""
    return demo_connections[1]


def message_of(response: httpx.Response) -> Any:
    """``response.message`` after checking the error body's envelope."""
    body = response.json()
    assert set(body) == {"status", "error", "response"}
    assert body["status"] == response.status_code
    assert set(body["response"]) == {"message"}
    return body["response"]["message"]


def list_message_body(**overrides: Any) -> dict[str, Any]:
    """A valid sendList body; ``overrides`` replace top-level fields."""
    body: dict[str, Any] = {
        "number": "4915112340001",
        "listMessage": {
            "title": "Spring offers",
            "description": "Pick one",
            "buttonText": "Show offers",
            "footerText": "Acme",
            "sections": [
                {
                    "title": "Bikes",
                    "rows": [
                        {"title": "City bike", "description": "-20%", "rowId": "bike-city"},
                        {"title": "Road bike", "rowId": "bike-road"},
                    ],
                }
            ],
        },
    }
    body.update(overrides)
    return body
