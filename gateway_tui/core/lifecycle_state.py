"""What the app knows of instances' lifecycle: codes shown, state checks, webhook/websocket.

Plain Python, part of ``AppState`` (``state.lifecycle``); only ``actions.lifecycle`` changes it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

from gateway_tui.core.api.lifecycle import ConnectResult, WebhookSettings, WebsocketSettings

if TYPE_CHECKING:
    from gateway_tui.core.api.errors import GatewayError
    from gateway_tui.core.state import Loadable


@dataclass
class Written:
    """Settings as sent and as read back afterwards, with what differs, in plain words."""

    differences: list[str]
    at: datetime


@dataclass
class LifecycleState:
    # The last connect answer per instance (QR code, pairing code, count, or nothing).
    pairings: dict[str, Loadable[ConnectResult]] = field(default_factory=dict)
    # When each instance's connection state was last asked (GET connectionState).
    checked_at: dict[str, datetime] = field(default_factory=dict)
    webhooks: dict[str, Loadable[WebhookSettings]] = field(default_factory=dict)
    websockets: dict[str, Loadable[WebsocketSettings]] = field(default_factory=dict)
    # Whether the gateway serves its websocket channel at all (None: not asked yet).
    websocket_channel: bool | None = None
    # Why that could not be told at the last read (None: it was told, or not asked yet).
    websocket_channel_error: GatewayError | None = None
    # The last write of each (instance, "webhook" | "websocket") and how the read-back differed.
    written: dict[tuple[str, str], Written] = field(default_factory=dict)
