"""What every action shares: the client, the state, and how a load updates both."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import TYPE_CHECKING, TypeVar

from gateway_tui.core.api.errors import GatewayError
from gateway_tui.core.state import AppState, Loadable, Topic

if TYPE_CHECKING:
    from gateway_tui.core.api.client import GatewayClient
    from gateway_tui.core.services import Actions

T = TypeVar("T")


class ActionsBase:
    """One area of the actions (``actions.<area>``): calls the gateway and records the
    outcome in the state. Errors are re-raised typed. Reaches the other areas through
    ``self.actions``."""

    def __init__(self, actions: Actions) -> None:
        self.actions = actions

    @property
    def client(self) -> GatewayClient:
        return self.actions.client

    @property
    def state(self) -> AppState:
        return self.actions.state

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
