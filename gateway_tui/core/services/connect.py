"""Trying a gateway before using it: the connect screen's "test connection"."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gateway_tui.core.client_factory import client_for

if TYPE_CHECKING:
    from gateway_tui.core.files.config import ResolvedConfig


async def probe_gateway(
    url: str, api_key: str, *, call_timeout: float = 8.0, config: ResolvedConfig | None = None
) -> int:
    """Call fetchInstances once with a throwaway client; return how many instances it lists.

    The client is the app's (``config``'s settings, such as the largest answer), but it asks
    once, with a short timeout, and lets the gateway tell its line. Raises the typed
    ``GatewayError`` of whatever went wrong.
    """
    async with client_for(
        config,
        url=url,
        api_key=api_key,
        timeout=call_timeout,
        retry_delays=(),
        api_version="auto",
    ) as client:
        return len(await client.instances.fetch())
