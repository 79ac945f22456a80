"""Instances from birth to logout: create, connect, follow the state, restart, webhook/websocket."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable

from gateway_tui.core.api.errors import GatewayError
from gateway_tui.core.api.lifecycle import (
    BUSINESS,
    ConnectResult,
    CreatedInstance,
    CreateInstanceRequest,
    WebhookSettings,
    WebsocketSettings,
    webhook_differences,
    websocket_differences,
)
from gateway_tui.core.api.models import ConnectionState, Instance, InstanceStatus
from gateway_tui.core.lifecycle_state import Written
from gateway_tui.core.services.base import ActionsBase
from gateway_tui.core.state import Loadable, Topic

# How many connectionState calls the live list runs at once.
STATE_CHECK_CONCURRENCY = 4


class LifecycleActions(ActionsBase):
    # --- create ----------------------------------------------------------------------------------

    async def create_instance(self, request: CreateInstanceRequest) -> CreatedInstance:
        """Create; the new instance joins the list at once, without a refetch."""
        created = await self.client.instances.create(request)
        name = created.name or request.instance_name
        self.state.deleted.pop(name, None)  # made again: listed again
        # A Business API instance has no socket to open: a real server lists it open at once.
        status = InstanceStatus.OPEN if request.integration == BUSINESS else InstanceStatus.CLOSE
        integration = {"integration": created.integration} if created.integration else None
        fresh = Instance.model_validate(
            {
                "instanceName": name,
                "instanceId": created.instance_id,
                "status": status.value,
                "integration": integration,
            }
        )
        current = [i for i in self.state.instances.value or () if i.instance_name != name]
        self.state.instances.value = [*current, fresh]
        if self.state.instances.updated_at is None:
            self.state.instances.updated_at = self.state.now()
        self.state.notify(Topic.INSTANCES)
        return created

    # --- connect and the connection state ----------------------------------------------------

    def pairing_of(self, name: str) -> Loadable[ConnectResult]:
        return self.state.lifecycle.pairings.setdefault(name, Loadable())

    def forget_pairing(self, name: str) -> None:
        """A new connect screen starts from no code (an old one has lapsed)."""
        self.state.lifecycle.pairings.pop(name, None)
        self.state.notify(Topic.LIFECYCLE)

    async def connect(self, name: str, number: str | None = None) -> ConnectResult:
        """Ask for a QR / pairing code (a closed instance makes the server wait ~5 s)."""
        result = await self._load(
            self.pairing_of(name), Topic.LIFECYCLE, self.client.instances.connect(name, number)
        )
        if result.state:
            await self._state_seen(name, result.state)
        elif result.has_code:
            await self._state_seen(name, InstanceStatus.CONNECTING.value)
        return result

    async def check_state(self, name: str) -> str | None:
        """Ask the connection state; the list shows it, with the time it was asked."""
        answer: ConnectionState = await self.client.instances.connection_state(name)
        self.state.lifecycle.checked_at[name] = self.state.now()
        if answer.state:
            await self._state_seen(name, answer.state)
        else:
            self.state.notify(Topic.INSTANCES)
        return answer.state

    async def check_states(self, names: Iterable[str]) -> set[str]:
        """Check several instances, a few at a time; returns those whose check failed."""
        gate = asyncio.Semaphore(STATE_CHECK_CONCURRENCY)
        failed: set[str] = set()

        async def one(name: str) -> None:
            async with gate:
                try:
                    await self.check_state(name)
                except GatewayError:
                    failed.add(name)

        await asyncio.gather(*(one(name) for name in dict.fromkeys(names)))
        return failed

    async def opened(self, name: str) -> GatewayError | None:
        """A live event says ``name`` turned open: shown with the profile it now has. Returns
        why that profile could not be read (the row turns open all the same), for the app to
        say: nobody asked, so nobody else would."""
        return await self._state_seen(name, InstanceStatus.OPEN.value)

    async def _state_seen(self, name: str, raw: str) -> GatewayError | None:
        """Show ``name`` in state ``raw``; newly open, it is read again for its profile name and
        number. Returns why that read failed (None: it did not); the row takes ``raw`` all the
        same. A check, a connect or a restart that saw the state lets its own answer speak."""
        current = self.state.instances.value or []
        before = next((i for i in current if i.instance_name == name), None)
        if before is None:
            return None
        failed: GatewayError | None = None
        if raw == InstanceStatus.OPEN.value and before.status != raw:
            # Newly open: show it with the profile name and number it now has, in one change.
            try:
                fresh = await self.actions.instances.refresh_instance(name)
            except GatewayError as error:
                fresh, failed = None, error
            if fresh is not None and fresh.status == raw:
                return None
            current = self.state.instances.value or []
        if before.status != raw:
            self.state.instances.value = [
                i.model_copy(update={"status": raw}) if i.instance_name == name else i
                for i in current
            ]
        self.state.notify(Topic.INSTANCES)
        return failed

    async def restart_instance(self, name: str) -> ConnectionState:
        answer = await self.client.instances.restart(name)
        if answer.state:
            await self._state_seen(name, answer.state)
        return answer

    # --- webhook and websocket -------------------------------------------------------------------

    def webhook_of(self, name: str) -> Loadable[WebhookSettings]:
        return self.state.lifecycle.webhooks.setdefault(name, Loadable())

    def websocket_of(self, name: str) -> Loadable[WebsocketSettings]:
        return self.state.lifecycle.websockets.setdefault(name, Loadable())

    async def load_webhook(self, name: str) -> WebhookSettings:
        return await self._load(
            self.webhook_of(name), Topic.LIFECYCLE, self.client.hooks.find_webhook(name)
        )

    async def live_events_missing(self, name: str) -> list[str]:
        """What ``name``'s websocket settings lack for live updates (gateway_tui.core.live); read
        only: nothing is changed."""
        from gateway_tui.core.live import live_events_missing

        found = await self.client.hooks.find_websocket(name)
        return live_events_missing(found.configured, found.enabled, found.events)

    async def load_websocket(self, name: str) -> WebsocketSettings:
        found = await self._load(
            self.websocket_of(name), Topic.LIFECYCLE, self.client.hooks.find_websocket(name)
        )
        lifecycle = self.state.lifecycle
        failed: GatewayError | None = None
        try:
            served = await self.client.hooks.websocket_channel_served()
        except GatewayError as error:
            # Unknown: the screen claims nothing either way, and says the check failed.
            served, failed = None, error
        if (served, failed) != (lifecycle.websocket_channel, lifecycle.websocket_channel_error):
            lifecycle.websocket_channel, lifecycle.websocket_channel_error = served, failed
            self.state.notify(Topic.LIFECYCLE)
        return found

    async def save_webhook(self, name: str, settings: WebhookSettings) -> list[str]:
        """Set, then read back with find; returns what the gateway keeps differently."""
        await self.client.hooks.set_webhook(name, settings)
        found = await self.load_webhook(name)
        return self._written(name, "webhook", webhook_differences(settings, found))

    async def save_websocket(self, name: str, settings: WebsocketSettings) -> list[str]:
        await self.client.hooks.set_websocket(name, settings)
        found = await self.load_websocket(name)
        return self._written(name, "websocket", websocket_differences(settings, found))

    def _written(self, name: str, kind: str, differences: list[str]) -> list[str]:
        self.state.lifecycle.written[(name, kind)] = Written(differences, self.state.now())
        self.state.notify(Topic.LIFECYCLE)
        return differences
