"""One event as the gateway sent it: over socket.io or by webhook, the same record.

The gateway's envelope is ``{event, instance, data, server_url, date_time, sender, apikey, …}``
(recorded: ../shared/recordings/*/events-*.json; a webhook's body adds ``destination``; 2.3.7's
``messages.set`` adds ``isLatest`` and ``progress``). The record keeps the event's name, its
instance, its ``data`` and the other top-level fields (``extra``), never a key: ``apikey`` is
dropped the moment the envelope is read, and a key-named field anywhere in ``data`` is masked.
What is kept is server data: shown only through core/text/sanitize.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from gateway_tui.core.text.sanitize import MASK

SOCKET = "socket"  # an instance's own namespace /<instance>
GLOBAL = "global"  # 2.x's default namespace "/" (WEBSOCKET_GLOBAL_EVENTS)
WEBHOOK = "webhook"
# Fields that hold a key: never kept as sent (the envelope's own apikey is dropped outright).
SECRET_FIELDS = frozenset(
    {"apikey", "apiKey", "token", "jwt_key", "authorization", "Authorization"}
)
# How deep data is walked for those fields: a hostile body cannot make this loop for long.
_MAX_DEPTH = 12
# The headers of a 2.3.7 webhook, as kept (any other header is not).
WEBHOOK_HEADERS = ("X-Instance-ID", "X-Instance-Name", "X-Event-Type", "X-Timestamp")

_numbers = itertools.count(1)


@dataclass(frozen=True, slots=True)
class EventRecord:
    """An event received at ``time`` (epoch seconds, this machine's clock)."""

    time: float
    instance: str
    event: str
    data: Any
    via: str = SOCKET  # SOCKET, GLOBAL or WEBHOOK
    extra: Mapping[str, Any] = field(default_factory=dict)  # other top-level fields
    headers: Mapping[str, str] = field(default_factory=dict)  # a webhook's X-… headers
    path: str = ""  # a webhook's URL path ("/messages-upsert" with webhook_by_events)
    number: int = field(default_factory=lambda: next(_numbers))  # order of arrival

    @property
    def sent_at(self) -> str | None:
        """The gateway's own time for it (``date_time``), as it wrote it."""
        value = self.extra.get("date_time")
        return value if isinstance(value, str) else None

    @property
    def moment(self) -> datetime:
        return datetime.fromtimestamp(self.time, UTC)

    def as_json(self) -> dict[str, Any]:
        """The record for NDJSON (``gateway-tui events --json``, the monitor's export): at least
        ``event``, ``instance``, ``time`` and ``data``; no key (see from_envelope)."""
        out: dict[str, Any] = {
            "time": self.moment.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
            "instance": self.instance,
            "event": self.event,
            "via": self.via,
            "data": self.data,
        }
        out.update({k: v for k, v in self.extra.items() if k not in out})
        if self.headers:
            out["headers"] = dict(self.headers)
        if self.path:
            out["path"] = self.path
        return out


def scrub(value: Any, depth: int = 0) -> Any:
    """``value`` with every key-named field masked (a copy where something changed)."""
    if depth > _MAX_DEPTH:
        return value
    if isinstance(value, dict):
        changed = {
            k: (MASK if k in SECRET_FIELDS and v else scrub(v, depth + 1)) for k, v in value.items()
        }
        return changed
    if isinstance(value, list):
        return [scrub(item, depth + 1) for item in value]
    return value


def from_envelope(
    payload: Any,
    *,
    via: str = SOCKET,
    namespace: str | None = None,
    received: float | None = None,
    headers: Mapping[str, str] | None = None,
    path: str = "",
) -> EventRecord | None:
    """The record of one envelope, or None when it is not one (no event name).

    The instance comes from the envelope, else from the namespace (``/<instance>``), else
    from a webhook's ``X-Instance-Name``. ``apikey`` is never kept."""
    if not isinstance(payload, dict):
        return None
    event = payload.get("event")
    if not isinstance(event, str) or not event:
        return None
    kept = {k: v for k, v in payload.items() if k not in ("event", "instance", "data", "apikey")}
    instance = payload.get("instance")
    if not isinstance(instance, str) or not instance:
        instance = (namespace or "").lstrip("/") or (headers or {}).get("X-Instance-Name", "")
    return EventRecord(
        time=time.time() if received is None else received,
        instance=instance,
        event=event,
        data=scrub(payload.get("data")),
        via=via,
        extra=scrub(kept),
        headers=dict(headers or {}),
        path=path,
    )


def setting_name(event: str) -> str:
    """The name an instance's settings tick for an event: ``messages.upsert`` →
    ``MESSAGES_UPSERT`` (the gateway's own rule: dots and dashes become underscores)."""
    return event.replace(".", "_").replace("-", "_").upper()


def by_events_path(event: str) -> str:
    """The path a webhook with ``webhook_by_events`` posts an event to: ``/messages-upsert``."""
    return "/" + setting_name(event).lower().replace("_", "-")


def fingerprint(record: EventRecord) -> tuple[str, str, str, str]:
    """What the same event has on every way it is sent (socket.io, webhook): the gateway
    stamps it once (``date_time``) and sends the same data each way."""
    import json

    try:
        data = json.dumps(record.data, sort_keys=True, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        data = repr(record.data)
    return (record.instance, setting_name(record.event), record.sent_at or "", data)
