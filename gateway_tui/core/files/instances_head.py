"""The instance list's rows kept for the next start's first frame.

The first frame comes before the config is loaded (pydantic, the HTTP stack: see tui/app.py), so
it cannot know which gateway the config points at. The rows are kept with the *launch* they came
from — the command line's --url and --profile, GATEWAY_URL and GATEWAY_PROFILE, and the config
file's last change — and drawn only by a launch that is the same: the same gateway, unless the
config file changed (then nothing is drawn). Every row is drawn dimmed, with its age, never as
current; the home screen replaces them with what the gateway says. Display strings are kept (a
number already formatted), so reading needs json alone. No secret is in it: names, states, owners.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

HEAD_FILE = "instances-head.json"
HEAD_VERSION = 1
HEAD_ROWS = 120  # more than a tall terminal shows
HEAD_MAX_BYTES = 256 * 1024
FIELDS = 5  # name, status cell, owner, profile name, integration


@dataclass(frozen=True)
class InstancesHead:
    launch: str
    label: str  # the gateway, as the first frame names it
    at: datetime | None
    total: int
    rows: list[tuple[str, ...]]


def head_path(data_dir: Path) -> Path:
    return data_dir / HEAD_FILE


def launch_key(
    url: str | None,
    profile: str | None,
    config_file: Path,
    environ: Mapping[str, str] | None = None,
) -> str:
    """What decides the gateway of a launch, as far as it can be told before the config is
    read: the flags, the environment, and when the config file last changed."""
    env = os.environ if environ is None else environ
    try:
        changed = str(config_file.stat().st_mtime_ns)
    except OSError:
        changed = "-"
    parts = (url or "", profile or "", env.get("GATEWAY_URL", ""), env.get("GATEWAY_PROFILE", ""))
    return "\x1f".join((*parts, changed))


def save_head(
    path: Path, launch: str, label: str, rows: Sequence[Sequence[str]], at: datetime
) -> None:
    """Keep the first rows (display strings, in the order shown) for the next start."""
    from gateway_tui.core.files import storage
    from gateway_tui.core.text.sanitize import encodable, printable

    data = {
        "version": HEAD_VERSION,
        "launch": launch,
        "label": printable(label),
        "at": at.isoformat(),
        "total": len(rows),
        "rows": [[printable(str(v)) for v in row[:FIELDS]] for row in rows[:HEAD_ROWS]],
    }
    storage.ensure_private_dir(path.parent)
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    storage.atomic_write_text(path, encodable(text))


def load_head(path: Path, launch: str) -> InstancesHead | None:
    """The rows kept by a launch the same as ``launch``; None otherwise, or when unreadable."""
    from gateway_tui.core.files.own_json import read_own_json
    from gateway_tui.core.text.sanitize import printable

    data = read_own_json(path, HEAD_MAX_BYTES)
    if not isinstance(data, dict) or data.get("version") != HEAD_VERSION:
        return None
    if data.get("launch") != launch:
        return None
    rows = []
    items: Any = data.get("rows")
    for item in items if isinstance(items, list) else ():
        if isinstance(item, list) and len(item) == FIELDS:
            rows.append(tuple(printable(str(value)) for value in item))
    if not rows:
        return None
    try:
        at = datetime.fromisoformat(data["at"]) if isinstance(data.get("at"), str) else None
    except ValueError:
        at = None
    total = data.get("total")
    return InstancesHead(
        launch,
        printable(str(data.get("label") or "")),
        at if at is not None and at.tzinfo else None,
        total if isinstance(total, int) and total >= len(rows) else len(rows),
        rows,
    )


def now() -> datetime:
    return datetime.now(UTC)
