"""The instances: list, create, connect, restart, log out, delete."""

from __future__ import annotations

from typing import Any

import httpx

from gateway_tui.core.api import dialects, lifecycle
from gateway_tui.core.api.errors import refusal_in_body
from gateway_tui.core.api.lifecycle import (
    ConnectResult,
    CreatedInstance,
    CreateInstanceRequest,
)
from gateway_tui.core.api.models import (
    ConnectionState,
    DeleteResult,
    Instance,
    LogoutResult,
)
from gateway_tui.core.api.paths import instance_path, require
from gateway_tui.core.api.resources.base import Resource
from gateway_tui.core.api.transport import (
    parse_answer,
    parse_list,
)
from gateway_tui.core.text.i18n import _
from gateway_tui.core.text.sanitize import add_secret


class Instances(Resource):
    async def fetch(self, name: str | None = None) -> list[Instance]:
        """All instances, or the one named (1.7.1 then answers one object, not a list).

        The answer's shape tells the line (1.7.1 rows wrapped in ``instance``, 2.x flat);
        GET / is read beside the first call, for the version.
        """
        params = {"instanceName": name} if name else None
        path = "/instance/fetchInstances"
        if self._client._pinned is None:
            self._client._read_root_beside()

        def parse(response: httpx.Response) -> Any:
            line = self._client._pinned or dialects.sniff_instances(response.content)
            if line is not None:
                self._client._dialect = line
            line = line or self.dialect
            if response.content.lstrip().startswith(b"{"):
                return [parse_answer(response, "GET", path, line.read_single_instance)]
            return parse_list(response, "GET", path, line.instances)

        return await self._call("GET", path, parse, params=params)

    async def create(self, request: CreateInstanceRequest) -> CreatedInstance:
        """Global key only. 201; a real server keeps a half-made instance when a later step
        fails, so every rule it has is checked here first."""
        path = "/instance/create"
        require(request.problems(), "POST", path)
        add_secret(request.token)  # the instance's own key: masked in everything written
        line = await self.line()
        # qrcode:true makes the server wait ~5 s for a code: allow for it.
        timeout = self.timeout + (10 if request.qrcode else 0)
        created = await self._model(
            CreatedInstance, "POST", path, body=line.create_body(request), call_timeout=timeout
        )
        add_secret(created.token)
        return created

    async def connect(self, instance: str, number: str | None = None) -> ConnectResult:
        """Ask for a QR code (and a pairing code when ``number`` is given).

        A closed instance makes the server wait ~5 s for WhatsApp before it answers. An empty
        body (the server swallowed an exception) is a result, not an error.
        """
        path = instance_path("/instance/connect/", instance, "GET")
        params = None
        if number:
            require(lifecycle.check_pairing_number(number), "GET", path)
            params = {"number": lifecycle.normalise_pairing_number(number)}

        def parse(response: httpx.Response) -> ConnectResult:
            if not response.content.strip():
                return ConnectResult(empty=True)
            return parse_answer(response, "GET", path, ConnectResult.model_validate_json)

        return await self._call("GET", path, parse, params=params, call_timeout=self.timeout + 10)

    async def connection_state(self, instance: str) -> ConnectionState:
        """Optional extra."""
        path = instance_path("/instance/connectionState/", instance, "GET")
        return await self._model(ConnectionState, "GET", path)

    async def restart(self, instance: str) -> ConnectionState:
        """Answers the connection state (an empty body on some instances: no state then; 2.x
        answers ``{"count": 0}`` or ``{"error": true, …}``, no state either)."""
        verb = (await self.line()).verb("restart")
        path = instance_path("/instance/restart/", instance, verb)
        # 2.x refuses a restart of an instance that is not open with a 200 whose body says
        # error, its message lost ("[object Object]", as recorded): that is no state.
        return await self._optional_model(
            ConnectionState,
            verb,
            path,
            refusal=lambda answer: refusal_in_body(
                answer.model_extra or {},
                lost_message=_(
                    "{instance} is not connected: the gateway only restarts an open instance"
                ).format(instance=instance),
                title=_("The gateway refused the restart"),
            ),
        )

    async def logout(self, instance: str) -> LogoutResult:
        """Optional extra: disconnect an instance (needed before deleting an open one)."""
        path = instance_path("/instance/logout/", instance, "DELETE")
        return await self._optional_model(LogoutResult, "DELETE", path)

    async def delete(self, instance: str) -> DeleteResult:
        path = instance_path("/instance/delete/", instance, "DELETE")
        return await self._model(DeleteResult, "DELETE", path)
