"""GatewaySession: one gateway's config, client, state, actions and live link, opened and
closed as a unit."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from gateway_tui.core.files.config import load_config
from gateway_tui.core.session import GatewaySession
from gateway_tui.demo.server import DemoServer
from tests.support import wait_in_thread

INSTANCE = "sales-eu"


def answering(log: list[str]) -> httpx.MockTransport:
    def handle(request: httpx.Request) -> httpx.Response:
        log.append(request.headers.get("apikey", ""))
        return httpx.Response(200, json=[])

    return httpx.MockTransport(handle)


async def test_each_session_has_its_own_client_state_and_transport():
    seen_a: list[str] = []
    seen_b: list[str] = []
    a = GatewaySession.open(
        load_config(url="http://a.test", api_key="KEY-A"), transport=answering(seen_a)
    )
    b = GatewaySession.open(
        load_config(url="http://b.test", api_key="KEY-B"), transport=answering(seen_b)
    )
    async with a, b:
        assert a.client is not b.client and a.state is not b.state
        assert a.actions.client is a.client and a.actions.state is a.state
        await a.client.fetch_instances()
        await b.client.fetch_instances()
        assert a.state.calls and b.state.calls and a.state.calls[0] is not b.state.calls[0]
    assert seen_a == ["KEY-A"] and seen_b == ["KEY-B"]
    assert a.closed and b.closed
    with pytest.raises(RuntimeError):  # the client is closed with its session
        await a.client.fetch_instances()


async def test_a_session_without_live_events_makes_no_link():
    session = GatewaySession.open(
        load_config(url="http://a.test", api_key="KEY-A"), transport=answering([]), live=False
    )
    async with session:
        assert session.follow_live(INSTANCE) is False
        assert session.link is None and not session.live_for(INSTANCE)


async def test_an_unusable_key_is_a_problem_of_the_config_not_an_error():
    config = load_config(url="http://a.test", api_key="KEY\nA")
    async with GatewaySession.open(config, transport=answering([])) as session:
        assert session.config.api_key is None
        assert any("API key cannot be used" in p for p in session.config.problems)


async def test_closing_a_session_closes_its_socket_and_tells_nothing_after():
    told: list[bool] = []
    with DemoServer() as server:
        session = GatewaySession.open(load_config(url=server.url, api_key=server.api_key))
        session.on_live_status = lambda s, live, why: told.append(live)
        await session.client.fetch_instances()
        assert session.follow_live(INSTANCE)
        sockets = server.events.sio.eio.sockets
        async with asyncio.timeout(60):
            while not session.live_for(INSTANCE):
                await asyncio.sleep(0.02)
        assert len(sockets) == 1 and told == [True]
        await session.aclose()
        await asyncio.to_thread(wait_in_thread, lambda: not sockets, "the demo sees it go")
        assert told == [True]  # the link's last "not live" is not told to anyone
        assert not session.live_for(INSTANCE) and session.take_live() == []
        assert session.follow_live(INSTANCE) is False
