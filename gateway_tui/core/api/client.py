"""The async gateway client: typed models in, models or errors out, one resource per area.

    async with GatewayClient(url, key) as client:
        instances = await client.instances.fetch()
        await client.groups.revoke_invite(instance, group_jid)

The transport (api/transport.py) sends and reads; each resource (api/resources/) knows its
routes; the line's dialect (api/dialects/) every verb, path and body shape that differs.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import httpx

from gateway_tui.core.api import dialects
from gateway_tui.core.api.dialects import Dialect
from gateway_tui.core.api.models import ServerInfo
from gateway_tui.core.api.resources.chats import Chats
from gateway_tui.core.api.resources.contacts import Contacts
from gateway_tui.core.api.resources.groups import Groups
from gateway_tui.core.api.resources.hooks import Hooks
from gateway_tui.core.api.resources.instances import Instances
from gateway_tui.core.api.resources.labels import Labels
from gateway_tui.core.api.resources.messages import Messages
from gateway_tui.core.api.resources.settings import Settings
from gateway_tui.core.api.transport import (
    CONNECTION_LIMITS,
    DEFAULT_MAX_RESPONSE_BYTES,
    DEFAULT_TIMEOUT,
    GET_RETRY_DELAYS,
    KEEPALIVE_EXPIRY,
    Transport,
)

__all__ = ["CONNECTION_LIMITS", "KEEPALIVE_EXPIRY", "GatewayClient"]


class GatewayClient(Transport):
    """Async client for one gateway. Use ``async with GatewayClient(url, key) as client``."""

    def __init__(
        self,
        base_url: str,
        api_key: str,
        *,
        timeout: float = DEFAULT_TIMEOUT,
        retry_delays: tuple[float, ...] = GET_RETRY_DELAYS,
        transport: httpx.AsyncBaseTransport | None = None,
        max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES,
        api_version: str | None = "auto",
    ) -> None:
        """``api_version`` pins the line: "1" (1.7.1) or "2"; None or "auto" (the default)
        lets the gateway's answers tell."""
        super().__init__(
            base_url,
            api_key,
            timeout=timeout,
            retry_delays=retry_delays,
            transport=transport,
            max_response_bytes=max_response_bytes,
        )
        self._pinned: Dialect | None = dialects.dialect_named(api_version)
        self._dialect: Dialect | None = self._pinned
        # GET /'s answer, read beside the first fetchInstances (never before it).
        self.server_info: ServerInfo | None = None
        self._root_task: asyncio.Task[None] | None = None
        # Called once GET / has told the gateway's version (the app redraws its bar then).
        self.on_server_info: Callable[[], None] | None = None
        self.instances = Instances(self)
        self.hooks = Hooks(self)
        self.settings = Settings(self)
        self.groups = Groups(self)
        self.messages = Messages(self)
        self.chats = Chats(self)
        self.contacts = Contacts(self)
        self.labels = Labels(self)

    async def __aenter__(self) -> GatewayClient:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        if self._root_task is not None and not self._root_task.done():
            self._root_task.cancel()
        await super().aclose()

    # --- which line the gateway speaks ----------------------------------------------------------

    @property
    def dialect(self) -> Dialect:
        """The line in use: pinned, else told by the answers so far, else 1.7.1."""
        return self._dialect or dialects.V1

    @property
    def line_known(self) -> bool:
        return self._dialect is not None

    @property
    def server_version(self) -> str | None:
        return self.server_info.version if self.server_info else None

    async def fetch_server_info(self, *, quiet: bool = False) -> ServerInfo:
        """GET /: the gateway's version (and, on 2.x, its client name)."""
        info = await self._model(ServerInfo, "GET", "/", quiet=quiet)
        self.server_info = info
        if self._dialect is None:
            self._dialect = dialects.line_of_version(info.version)
        if self.on_server_info is not None:
            self.on_server_info()
        return info

    def _read_root_beside(self) -> None:
        """Start GET / once, without waiting for it."""
        if self._root_task is None:
            self._root_task = asyncio.get_running_loop().create_task(self._read_root())

    async def _read_root(self) -> None:
        try:
            await self.fetch_server_info(quiet=True)
        except Exception:  # noqa: BLE001 - only a hint: the answers of other calls also tell
            pass

    async def line(self) -> Dialect:
        """The line, for a call whose shape depends on it: asked of GET / when no answer has
        told it yet (a command line run that never listed the instances, say)."""
        if self._dialect is None:
            self._read_root_beside()
            assert self._root_task is not None
            await asyncio.shield(self._root_task)
        return self.dialect

    def __repr__(self) -> str:  # the key stays out of any repr or log line
        return f"GatewayClient({self.base_url!r})"
