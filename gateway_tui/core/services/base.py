"""What every action shares: the client, the state, and how a load updates both."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import TypeVar

from gateway_tui.core.api.client import GatewayClient
from gateway_tui.core.api.errors import GatewayError
from gateway_tui.core.state import AppState, Loadable, Topic

T = TypeVar("T")


class ActionsBase:
    """Calls the gateway and records the outcome in the state. Errors are re-raised typed."""

    def __init__(self, client: GatewayClient, state: AppState) -> None:
        self.client = client
        self.state = state

    async def _load(self, loadable: Loadable[T], topic: Topic, call: Awaitable[T]) -> T:
        """Run a read: mark loading, then store the value, or keep the old one marked stale."""
        loadable.start()
        self.state.notify(topic)
        try:
            value = await call
        except GatewayError as error:
            loadable.fail(error)
            self.state.notify(topic)
            raise
        except asyncio.CancelledError:
            loadable.loading = False  # the screen was left; what was shown stays as it was
            self.state.notify(topic)
            raise
        loadable.succeed(value, self.state.now())
        self.state.notify(topic)
        return value
