"""What every resource of the client shares: the client it belongs to, its calls, its line."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gateway_tui.core.api.client import GatewayClient
    from gateway_tui.core.api.dialects import Dialect


class Resource:
    """One area of the gateway's routes, reached as ``client.<area>``."""

    def __init__(self, client: GatewayClient) -> None:
        self._client = client
        self._call = client._call
        self._model = client._model
        self._read = client._read
        self._optional_model = client._optional_model
        self.line = client.line

    @property
    def timeout(self) -> float:
        return self._client.timeout

    @property
    def dialect(self) -> Dialect:
        return self._client.dialect
