"""Everything the app does to a gateway: call the client, then update the state.

One object, ``Actions``, composed of one part per area, as the client is of resources:
``actions.instances``, ``actions.lifecycle``, ``actions.groups``, ``actions.messages``,
``actions.chats``, ``actions.kinds``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gateway_tui.core.services.chats import ChatStoreActions
from gateway_tui.core.services.groups import GroupActions
from gateway_tui.core.services.instances import InstanceActions
from gateway_tui.core.services.kinds import KindActions
from gateway_tui.core.services.lifecycle import LifecycleActions
from gateway_tui.core.services.messages import MessageActions

if TYPE_CHECKING:
    from gateway_tui.core.api.client import GatewayClient
    from gateway_tui.core.state import AppState


class Actions:
    """All actions of one gateway session, the screens reach them as ``app.actions.<area>``."""

    def __init__(self, client: GatewayClient, state: AppState) -> None:
        self.client = client
        self.state = state
        self.instances = InstanceActions(self)
        self.lifecycle = LifecycleActions(self)
        self.groups = GroupActions(self)
        self.messages = MessageActions(self)
        self.chats = ChatStoreActions(self)
        self.kinds = KindActions(self)


__all__ = ["Actions"]
