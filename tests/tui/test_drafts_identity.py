"""Drafts, history and templates are filed under the gateway's identity, not its port.

The embedded demo runs on a new port each time: a relaunch must find what was typed before.
"""

from __future__ import annotations

from datetime import datetime

from textual.widgets import Input

from gateway_tui.core.files.config import load_config
from gateway_tui.core.files.drafts import ComposeStore, HistoryEntry
from gateway_tui.demo.server import DemoServer
from gateway_tui.main import demo_config
from gateway_tui.tui.app import GatewayApp
from tests.navigation import open_composer

INSTANCE = "acme-support"
SIZE = (140, 40)


async def test_a_demo_relaunch_on_another_port_finds_the_draft_history_and_templates():
    with DemoServer() as first:
        app = GatewayApp(demo_config(load_config(demo=True), first))
        async with app.run_test(size=SIZE) as pilot:
            screen = await open_composer(app, pilot, INSTANCE)
            await pilot.press(*"4915123")
            assert screen.store is not None
            screen.store.add_history(
                HistoryEntry("4915123", {"number": "4915123"}, {}, datetime(2026, 1, 2, 3, 4))
            )
            await pilot.press("ctrl+q")
        first_url = first.url
    with DemoServer() as second:
        assert second.url != first_url  # a new port, as every `--demo` run gets
        app = GatewayApp(demo_config(load_config(demo=True), second))
        async with app.run_test(size=SIZE) as pilot:
            screen = await open_composer(app, pilot, INSTANCE)
            assert screen.restored
            assert screen.query_one("#f-recipient", Input).value == "4915123"
            assert screen.store is not None
            assert [entry.recipient for entry in screen.store.history()] == ["4915123"]


def test_a_real_gateway_is_still_filed_under_its_address():
    config = load_config(url="http://gw.example:8080", api_key="k")
    assert config.gateway_identity == "http://gw.example:8080"
    a = ComposeStore(config.gateway_identity, INSTANCE)
    b = ComposeStore("http://gw.example:9090", INSTANCE)
    assert a.dir != b.dir  # two gateways on one host are two accounts


def test_switching_away_from_the_demo_drops_its_identity():
    with DemoServer() as server:
        config = demo_config(load_config(demo=True), server)
        assert config.gateway_identity == "demo"
        other = config.with_gateway("http://gw.example:8080", "k")
        assert other.gateway_identity == "http://gw.example:8080"
