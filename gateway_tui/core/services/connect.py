"""Trying a gateway before using it: the connect screen's "test connection"."""

from __future__ import annotations

from gateway_tui.core.api.client import GatewayClient


async def probe_gateway(url: str, api_key: str, *, call_timeout: float = 8.0) -> int:
    """Call fetchInstances once with a throwaway client; return how many instances it lists.

    Raises the typed ``GatewayError`` of whatever went wrong.
    """
    async with GatewayClient(
        url, api_key, timeout=call_timeout, retry_delays=(), api_version="auto"
    ) as client:
        return len(await client.fetch_instances())
