"""The app as its screens and widgets see it.

Screens and widgets type ``self.app`` against this protocol, never against ``GatewayApp``:
the app imports the screens it opens, so a screen importing the app would close a circle
(the layers contract in pyproject.toml forbids it). ``GatewayApp`` provides all of it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from textual.signal import Signal

    from gateway_tui.core.api.client import GatewayClient
    from gateway_tui.core.api.dialects import Dialect
    from gateway_tui.core.api.errors import GatewayError
    from gateway_tui.core.files.config import ResolvedConfig
    from gateway_tui.core.services import Actions
    from gateway_tui.core.state import AppState, Topic


class AppHost(Protocol):
    """What a screen may ask of the app: the state, the calls, the gateway, the ways on."""

    state: AppState
    actions: Actions
    config: ResolvedConfig
    state_changed: Signal[Topic]

    @property
    def client(self) -> GatewayClient: ...
    @property
    def gateway_url(self) -> str | None: ...
    @property
    def gateway_identity(self) -> str | None: ...
    @property
    def gateway_line(self) -> Dialect: ...
    @property
    def instance_fields_missing(self) -> frozenset[str]: ...

    def list_message_notes(self) -> list[str]: ...
    def connect(self, url: str, api_key: str) -> None: ...
    def follow_live(self, instance: str) -> None: ...
    def report_error(self, error: GatewayError, what: str) -> None: ...
    def report_unexpected(self, error: BaseException, what: str | None) -> None: ...

    # The ways on (each pushes its screen).
    def open_instance(self, name: str) -> None: ...
    def open_groups(self, instance: str) -> None: ...
    def open_pairing(self, instance: str, number: str | None = None) -> None: ...
    def open_hooks(self, instance: str, kind: str) -> None: ...
    def open_composer(self, instance: str) -> None: ...
    def open_chats(self, instance: str) -> None: ...
