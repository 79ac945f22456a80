"""Instances and their settings."""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass, field
from typing import Any

from gateway_tui.core.api.errors import GatewayError, NotFound
from gateway_tui.core.api.lists import PartialList, unreadable_names_of, unreadable_of
from gateway_tui.core.api.models import (
    SETTING_LABELS,
    DeleteResult,
    Instance,
    InstanceSettings,
    InstanceStatus,
)
from gateway_tui.core.services.base import ActionsBase
from gateway_tui.core.state import Topic

# A 2.x gateway finishes a delete after its 200 (still listed right after, gone 1.5 s later,
# as recorded): rows of an instance this app deleted are hidden for this long.
DELETE_SETTLE_SECONDS = 10.0


@dataclass(frozen=True)
class SettingsWritten:
    """What a settings write left on the server, and the fields another client had changed
    since the screen's read (kept as they are now: only the user's change was written)."""

    settings: InstanceSettings
    changed_elsewhere: list[str] = field(default_factory=list)


class InstanceActions(ActionsBase):
    async def probe_gateway(self) -> None:
        """GET / (the gateway's version): the smallest call there is. In the request log like
        any call, so the connection health follows its result (state.record_call)."""
        await self.client.fetch_server_info()

    async def refresh_instances(self) -> list[Instance]:
        return await self._load(self.state.instances, Topic.INSTANCES, self._listed())

    async def _listed(self) -> list[Instance]:
        found = await self.client.instances.fetch()
        now = time.monotonic()
        deleted = self.state.deleted
        for name, at in list(deleted.items()):
            if now - at > DELETE_SETTLE_SECONDS:
                del deleted[name]
        if not deleted:
            return found
        return _same_skips(found, [i for i in found if i.instance_name not in deleted])

    async def refresh_instance(self, name: str) -> Instance | None:
        """Re-read one instance by name and put it in place in the list; one the gateway says
        does not exist (404, or an empty answer) leaves the list (None is returned)."""
        try:
            found = await self.client.instances.fetch(name)
        except NotFound as error:
            if error.route_missing:
                raise
            found = []
        fresh = found[0] if found else None
        if fresh is None:
            self._drop_instance(name)
            return None
        current = self.state.instances.value
        if fresh is not None and current is not None:
            self.state.instances.value = _same_skips(
                current, [fresh if item.instance_name == name else item for item in current]
            )
            self.state.notify(Topic.INSTANCES)
        return fresh

    def select(self, name: str | None) -> None:
        if self.state.selected != name:
            self.state.selected = name
            self.state.notify(Topic.SELECTED)

    async def delete_instance(self, name: str) -> DeleteResult:
        """Delete; on success the row leaves the state at once, without a refetch.

        An instance the gateway says does not exist (404, already deleted elsewhere) leaves
        the state too; the NotFound is re-raised so the screen can say so.
        """
        try:
            result = await self.client.instances.delete(name)
        except NotFound as error:
            if not error.route_missing:
                self._drop_instance(name)
            raise
        self.state.deleted[name] = time.monotonic()
        self._drop_instance(name)
        return result

    def _drop_instance(self, name: str) -> None:
        current = self.state.instances.value
        if current is not None:
            self.state.instances.value = _same_skips(
                current, [i for i in current if i.instance_name != name]
            )
        self.state.settings.pop(name, None)
        if self.state.selected == name:
            self.state.selected = None
            self.state.notify(Topic.SELECTED)
        self.state.notify(Topic.INSTANCES)

    async def logout_instance(self, name: str) -> GatewayError | None:
        """Disconnect (an optional endpoint), then show the instance's new status. Returns
        why that status could not be re-read (it is then assumed closed), for the screen to say."""
        await self.client.instances.logout(name)
        try:
            await self.refresh_instance(name)
        except GatewayError as error:
            self._set_status(name, InstanceStatus.CLOSE)
            return error
        return None

    def _set_status(self, name: str, status: InstanceStatus) -> None:
        current = self.state.instances.value or []
        self.state.instances.value = _same_skips(
            current,
            [
                item.model_copy(update={"status": status.value})
                if item.instance_name == name
                else item
                for item in current
            ],
        )
        self.state.notify(Topic.INSTANCES)

    async def load_settings(self, name: str) -> InstanceSettings:
        loadable = self.state.settings_of(name)
        try:
            return await self._load(loadable, Topic.SETTINGS, self.client.settings.find(name))
        except NotFound as error:
            if not error.route_missing:  # the gateway may say there is no such instance
                # Best effort: the 404 itself is raised and said; this re-read only drops a
                # row the gateway no longer has, and its own failure leaves the row as it was.
                with contextlib.suppress(GatewayError):
                    await self.refresh_instance(name)
            raise

    async def save_settings(
        self, name: str, changes: dict[str, Any], read: InstanceSettings
    ) -> SettingsWritten:
        """Write only what the user changed (``changes``, made on the settings as ``read``) on
        top of a fresh read, then re-read what the server holds.

        settings/set takes every setting at once: writing the whole of an old read would undo
        what another client changed since. The fields someone else changed in between are
        returned for the screen to say.
        """
        fresh = await self.client.settings.find(name)
        elsewhere = [
            field
            for field in (*SETTING_LABELS, "msg_call")
            if field not in changes and getattr(fresh, field) != getattr(read, field)
        ]
        await self.client.settings.set(name, fresh.model_copy(update=changes))
        return SettingsWritten(await self.load_settings(name), elsewhere)


def _same_skips(before: list[Instance], after: list[Instance]) -> PartialList[Instance]:
    """``after``, still counting the instances the last answer held that could not be read."""
    return PartialList(after, unreadable_of(before), unreadable_names_of(before))
