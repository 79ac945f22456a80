"""An instance's settings."""

from __future__ import annotations

from gateway_tui.core.api.models import (
    InstanceSettings,
    SettingsSetResult,
)
from gateway_tui.core.api.paths import instance_path
from gateway_tui.core.api.resources.base import Resource


class Settings(Resource):
    async def find(self, instance: str) -> InstanceSettings:
        path = instance_path("/settings/find/", instance, "GET")
        line = await self.line()
        return await self._read("GET", path, line.read_settings)

    async def set(self, instance: str, settings: InstanceSettings) -> SettingsSetResult:
        """Optional extra: a server without it answers 404 (see ``NotFound.route_missing``)."""
        path = instance_path("/settings/set/", instance, "POST")
        line = await self.line()
        body = line.settings_body(settings)
        return await self._read("POST", path, line.read_settings_set, body=body)
