"""GatewaySession: one gateway's config, client, state, actions and live link, opened and
closed as a unit."""

from __future__ import annotations

import httpx
import pytest

from gateway_tui.core.files.config import load_config
from gateway_tui.core.session import GatewaySession

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
        await a.client.instances.fetch()
        await b.client.instances.fetch()
        assert a.state.calls and b.state.calls and a.state.calls[0] is not b.state.calls[0]
    assert seen_a == ["KEY-A"] and seen_b == ["KEY-B"]
    assert a.closed and b.closed
    with pytest.raises(RuntimeError):  # the client is closed with its session
        await a.client.instances.fetch()


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
