"""The harness itself: the real server is up, seeded and planted, and the client reads it."""

from __future__ import annotations

from gateway_tui.api import GatewayClient, InstanceStatus, Unauthorized
from tests.real_gateway.gateway import PLANTED, SEEDED


async def test_seeded_instances_are_listed_and_closed(real_gateway) -> None:
    async with GatewayClient(real_gateway.url, real_gateway.api_key) as client:
        instances = {i.instance_name: i for i in await client.fetch_instances()}
    assert set(SEEDED) <= set(instances)
    assert all(instances[name].status == InstanceStatus.CLOSE for name in SEEDED)


async def test_wrong_key_is_refused(real_gateway) -> None:
    async with GatewayClient(real_gateway.url, "WRONG-KEY-0000") as client:
        try:
            await client.fetch_instances()
        except Unauthorized:
            return
    raise AssertionError("a wrong key was accepted")


def test_store_is_planted(real_gateway) -> None:
    status, chats = real_gateway.request("GET", f"/chat/findChats/{PLANTED}")
    assert status == 200
    assert len(chats) == 3
