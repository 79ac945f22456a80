"""What the user has seen of the fleet, kept between runs: each instance's message count when it
was last opened (new messages count from it, after a restart too), the alert log with its times,
and when the log was last looked at (the alerts after that are new). No secret is in it: names,
counts, alert texts. An unreadable file is nothing seen yet, said by storage, never a crash.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from pathlib import Path
from typing import Any

from gateway_tui.core.fleet.alerts import Alert, AlertKind

SEEN_FILE = "fleet-seen.json"
SEEN_VERSION = 1
ALERTS_KEPT = 200
COUNTS_KEPT = 50_000


def seen_path() -> Path:
    from gateway_tui.core.files import storage

    return storage.data_dir() / SEEN_FILE


class SeenStore:
    def __init__(self, path: Path | None) -> None:
        """``path``: where it is kept (None: nowhere, nothing persists)."""
        self.path = path
        self.counts: dict[tuple[str, str], int] = {}
        self.alerts: list[Alert] = []
        self.alerts_seen_at: datetime | None = None

    @classmethod
    def load(cls, path: Path | None) -> SeenStore:
        store = cls(path)
        if path is None:
            return store
        from gateway_tui.core.files import storage

        data = storage.read_json(path, None)
        if not isinstance(data, dict) or data.get("version") != SEEN_VERSION:
            return store
        from gateway_tui.core.text.sanitize import printable

        for item in _list(data.get("counts"))[:COUNTS_KEPT]:
            try:
                gateway, instance, count = item
                if isinstance(count, int) and not isinstance(count, bool) and count >= 0:
                    store.counts[(printable(str(gateway)), printable(str(instance)))] = count
            except (TypeError, ValueError):
                continue
        for item in _list(data.get("alerts"))[-ALERTS_KEPT:]:
            alert = _alert(item)
            if alert is not None:
                store.alerts.append(alert)
        store.alerts_seen_at = _time(data.get("alerts_seen_at"))
        return store

    def save(self, alerts: Iterable[Alert]) -> None:
        """Keep the counts, ``alerts`` (the newest) and when the log was last looked at."""
        if self.path is None:
            return
        from gateway_tui.core.files import storage

        kept = list(alerts)[-ALERTS_KEPT:]
        data = {
            "version": SEEN_VERSION,
            "counts": [[g, i, c] for (g, i), c in list(self.counts.items())[:COUNTS_KEPT]],
            "alerts": [_alert_json(alert) for alert in kept],
            "alerts_seen_at": self.alerts_seen_at.isoformat() if self.alerts_seen_at else None,
        }
        try:
            storage.ensure_private_dir(self.path.parent)
            storage.atomic_write_json(self.path, data)
        except OSError:
            pass  # what was seen is a convenience: the fleet itself is unaffected

    def unseen(self, alerts: Iterable[Alert]) -> int:
        """The alerts raised (or raised again) after the log was last looked at."""
        since = self.alerts_seen_at
        return sum(1 for a in alerts if since is None or (a.last_at or a.at) > since)


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _time(value: Any) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return None
    return moment if moment.tzinfo else None


def _alert_json(alert: Alert) -> dict[str, Any]:
    return {
        "kind": alert.kind.value,
        "gateway": alert.gateway,
        "instance": alert.instance,
        "text": alert.text,
        "at": alert.at.isoformat(),
        "repeats": alert.repeats,
        "last_at": alert.last_at.isoformat() if alert.last_at else None,
    }


def _alert(item: Any) -> Alert | None:
    from gateway_tui.core.text.sanitize import printable

    if not isinstance(item, dict):
        return None
    try:
        kind = AlertKind(item.get("kind"))
    except ValueError:
        return None
    at = _time(item.get("at"))
    if at is None or not isinstance(item.get("gateway"), str):
        return None
    instance = item.get("instance")
    repeats = item.get("repeats")
    return Alert(
        kind,
        printable(item["gateway"]),
        printable(instance) if isinstance(instance, str) else None,
        printable(str(item.get("text") or "")),
        at,
        repeats=repeats if isinstance(repeats, int) and repeats > 0 else 0,
        last_at=_time(item.get("last_at")),
    )
