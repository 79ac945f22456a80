"""The instance names each gateway had when last listed: what shell completion offers.

Written when the app or ``gateway-tui instances`` gets the instance list (only when the names
changed), read by the completion without any network call. One small JSON file in the platform
data dir::

    {"version": 1, "gateways": {"https://gw.example.com": ["sales-eu", "support"]}}

A missing or broken file means no names to offer; a failed write is only logged.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from pathlib import Path

from gateway_tui.core.files.storage import atomic_write_json, data_dir, read_json

FILE_NAME = "known-instances.json"
VERSION = 1
MAX_NAMES = 2000  # per gateway: completion has no use for more

log = logging.getLogger(__name__)


def known_instances_path() -> Path:
    return data_dir() / FILE_NAME


def _read() -> dict[str, list[str]]:
    data = read_json(known_instances_path(), {})
    gateways = data.get("gateways") if isinstance(data, dict) else None
    if not isinstance(gateways, dict):
        return {}
    return {
        str(gateway): [name for name in names if isinstance(name, str)]
        for gateway, names in gateways.items()
        if isinstance(names, list)
    }


def known_instances(gateway: str | None = None) -> list[str]:
    """The names last listed for ``gateway`` (every gateway's when None or not known)."""
    gateways = _read()
    if gateway is not None and gateway in gateways:
        return gateways[gateway]
    return sorted({name for names in gateways.values() for name in names})


def remember_instances(gateway: str | None, names: Iterable[str]) -> None:
    """Keep ``names`` as ``gateway``'s instances (nothing is written when they are the same)."""
    if not gateway:
        return
    names = sorted(set(names))[:MAX_NAMES]
    gateways = _read()
    if gateways.get(gateway) == names:
        return
    gateways[gateway] = names
    try:
        atomic_write_json(known_instances_path(), {"version": VERSION, "gateways": gateways})
    except OSError as exc:
        log.warning("cannot keep the instance names for completion: %s", exc)
