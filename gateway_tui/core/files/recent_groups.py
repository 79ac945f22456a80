"""The groups recently opened, per instance, kept between runs and offered first in the picker.

One small JSON file in the platform data dir::

    {"version": 1, "instances": {"sales-eu": [{"jid": "1203...@g.us", "subject": "..."}]}}

Newest first, at most ``MAX_PER_INSTANCE`` per instance. A missing, corrupt or hand-edited file
never breaks the picker: whatever cannot be read is ignored, and a failed write is only logged.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gateway_tui.core.api.validation import check_group_jid
from gateway_tui.core.files.storage import atomic_write_json, data_dir, read_json

FILE_NAME = "recent-groups.json"
VERSION = 1
MAX_PER_INSTANCE = 10

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class RecentGroup:
    jid: str
    subject: str | None = None


def recent_path() -> Path:
    return data_dir() / FILE_NAME


def _read_all() -> dict[str, list[RecentGroup]]:
    data = read_json(recent_path(), {})
    instances = data.get("instances") if isinstance(data, dict) else None
    if not isinstance(instances, dict):
        return {}
    result: dict[str, list[RecentGroup]] = {}
    for name, items in instances.items():
        if isinstance(name, str) and isinstance(items, list):
            result[name] = _entries(items)
    return result


def _entries(items: list[Any]) -> list[RecentGroup]:
    entries: list[RecentGroup] = []
    seen: set[str] = set()
    for item in items:
        if not isinstance(item, dict):
            continue
        jid, subject = item.get("jid"), item.get("subject")
        # A JID a server would refuse (a hand edit, say) is not offered.
        if not isinstance(jid, str) or check_group_jid(jid) or jid in seen:
            continue
        seen.add(jid)
        entries.append(RecentGroup(jid, subject if isinstance(subject, str) else None))
    return entries[:MAX_PER_INSTANCE]


def load_recent(instance: str) -> list[RecentGroup]:
    """The recently used groups of ``instance``, newest first."""
    return _read_all().get(instance, [])


def remember(instance: str, jid: str, subject: str | None = None) -> list[RecentGroup]:
    """Put ``jid`` first for ``instance``; a known subject is kept when none is given.

    Returns the new list. Never raises for a file problem: recents are a convenience.
    """
    everything = _read_all()
    current = everything.get(instance, [])
    previous = next((entry for entry in current if entry.jid == jid), None)
    if subject is None and previous is not None:
        subject = previous.subject
    updated = [RecentGroup(jid, subject), *(e for e in current if e.jid != jid)]
    everything[instance] = updated[:MAX_PER_INSTANCE]
    payload = {
        "version": VERSION,
        "instances": {
            name: [{"jid": e.jid, "subject": e.subject} for e in entries]
            for name, entries in everything.items()
        },
    }
    try:
        atomic_write_json(recent_path(), payload)
    except OSError as error:
        log.warning("could not save recent groups to %s: %s", recent_path(), error)
    return everything[instance]
