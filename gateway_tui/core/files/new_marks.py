"""The chats' "● N new" markers, kept between runs: per gateway, instance and chat.

One small JSON file in the platform data dir, replaced atomically on every write::

    {"version": 1, "gateways": {"http://gw:8080": {"sales-eu": {"4915…@s.whatsapp.net": 3}}}}

A missing, corrupt or hand-edited file never breaks the chats list: what cannot be read is left
out (storage.read_json sets an unreadable file aside), and a failed write is only logged.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from gateway_tui.core.files.storage import atomic_write_json, data_dir, read_json

FILE_NAME = "new-messages.json"
VERSION = 1

log = logging.getLogger(__name__)

Marks = dict[str, dict[str, int]]  # instance -> chat JID -> new messages


def marks_path() -> Path:
    return data_dir() / FILE_NAME


def _gateway(url: str) -> str:
    return url.rstrip("/")


def _read_all() -> dict[str, Any]:
    data = read_json(marks_path(), {})
    gateways = data.get("gateways") if isinstance(data, dict) else None
    return gateways if isinstance(gateways, dict) else {}


def _marks(value: Any) -> Marks:
    result: Marks = {}
    if not isinstance(value, dict):
        return result
    for instance, chats in value.items():
        if not isinstance(instance, str) or not isinstance(chats, dict):
            continue
        kept = {
            jid: count
            for jid, count in chats.items()
            if isinstance(jid, str) and type(count) is int and count > 0
        }
        if kept:
            result[instance] = kept
    return result


def load_marks(gateway_url: str) -> Marks:
    """The markers kept for the gateway at ``gateway_url``."""
    return _marks(_read_all().get(_gateway(gateway_url)))


def save_marks(gateway_url: str, marks: Marks) -> None:
    """Replace the gateway's markers (the other gateways' are kept). Never raises for a file
    problem: markers are a convenience."""
    everything = {
        gateway: _marks(value) for gateway, value in _read_all().items() if isinstance(gateway, str)
    }
    everything[_gateway(gateway_url)] = _marks(marks)
    try:
        atomic_write_json(marks_path(), {"version": VERSION, "gateways": everything})
    except OSError as error:
        log.warning("new-message markers not saved: %s", error)
