"""An instance's webhook and websocket settings; whether the gateway serves its websocket."""

from __future__ import annotations

from gateway_tui.core.api import validation
from gateway_tui.core.api.errors import (
    BadRequest,
    NotFound,
)
from gateway_tui.core.api.lifecycle import (
    WebhookSetResult,
    WebhookSettings,
    WebsocketSetResult,
    WebsocketSettings,
    check_webhook_url,
)
from gateway_tui.core.api.paths import instance_path, require, seg_path
from gateway_tui.core.api.resources.base import Resource


class Hooks(Resource):
    async def find_webhook(self, instance: str) -> WebhookSettings:
        path = instance_path("/webhook/find/", instance, "GET")
        line = await self.line()
        return await self._read("GET", path, line.read_webhook)

    async def set_webhook(self, instance: str, settings: WebhookSettings) -> WebhookSetResult:
        path = seg_path("/webhook/set/", instance)
        line = await self.line()
        problems = check_webhook_url(settings.url) + line.check_events(settings.events)
        require(validation.check_instance_name(instance) + problems, "POST", path)
        body = line.webhook_body(settings)
        return await self._read("POST", path, line.read_webhook_set, body=body)

    async def find_websocket(self, instance: str) -> WebsocketSettings:
        path = instance_path("/websocket/find/", instance, "GET")
        line = await self.line()
        return await self._read("GET", path, line.read_websocket)

    async def set_websocket(self, instance: str, settings: WebsocketSettings) -> WebsocketSetResult:
        path = seg_path("/websocket/set/", instance)
        line = await self.line()
        problems = validation.check_instance_name(instance) + line.check_events(settings.events)
        require(problems, "POST", path)
        body = line.websocket_body(settings)
        return await self._read("POST", path, line.read_websocket_set, body=body)

    async def websocket_channel_served(self) -> bool:
        """Whether the gateway serves its websocket channel (socket.io at /socket.io/). A 1.7.1
        gateway without WEBSOCKET_ENABLED=true answers 404 there: instances' websocket
        settings are stored all the same, and nothing is ever delivered."""
        try:
            await self._call(
                "GET", "/socket.io/", lambda _r: None, params={"EIO": "4", "transport": "polling"}
            )
        except NotFound as error:
            if error.route_missing:
                return False
            raise
        except BadRequest:
            return True  # socket.io itself refusing a handshake it did not like: it is there
        return True
