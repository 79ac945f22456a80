"""The head of the rows kept at the last run: what the very first frame draws.

The fleet keeps every row it saw (monitor.py's ``fleet-rows.json``, 10,000 rows are 2 MB,
read back as FleetRows once the app is up). The first frame cannot wait for that, nor for the
config, pydantic or the HTTP stack: it draws this small file instead — the first rows in the
order the fleet shows them (trouble first) and the counts of the whole — read with the standard
library alone. Every row in it is drawn as cached, with its age, never as current. No Textual,
no Rich, nothing but json and datetime imported here (tests/tui/test_startup.py checks).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

HEAD_FILE = "fleet-head.json"
HEAD_VERSION = 1
# More than a tall terminal shows: the first frame has no use for the rest.
HEAD_ROWS = 120
HEAD_MAX_BYTES = 256 * 1024
# A row as kept: display strings, the verdict's word, flapping.
HEAD_FIELDS = ("gateway", "instance", "version", "status", "number", "verdict", "reason")


@dataclass(frozen=True)
class HeadRow:
    gateway: str
    instance: str | None
    version: str
    status: str
    number: str
    verdict: str
    reason: str
    flapping: bool
    at: datetime | None


@dataclass(frozen=True)
class Head:
    rows: list[HeadRow]
    gateways: int
    instances: int
    not_ok: int
    total: int  # every row kept, the gateway rows too


def head_path(data_dir: Path) -> Path:
    return data_dir / HEAD_FILE


def head_text(rows: Sequence[Any]) -> str:
    """The head of ``rows`` (FleetRows, already in the fleet's order) as the file keeps it."""
    from gateway_tui.core.text.sanitize import encodable, printable

    def clean(value: Any) -> Any:
        return printable(value) if isinstance(value, str) else value

    kept = []
    for row in rows[:HEAD_ROWS]:
        values = [clean(getattr(row, name)) for name in HEAD_FIELDS]
        values[HEAD_FIELDS.index("verdict")] = row.verdict.value
        kept.append([*values, bool(row.flapping), row.at.isoformat() if row.at else None])
    data = {
        "version": HEAD_VERSION,
        "gateways": len({row.gateway for row in rows}),
        "instances": sum(1 for row in rows if row.instance),
        "not_ok": sum(1 for row in rows if row.verdict.value != "ok"),
        "total": len(rows),
        "rows": kept,
    }
    return encodable(json.dumps(data, ensure_ascii=False, separators=(",", ":")))


def load_head(path: Path) -> Head | None:
    """The head kept at ``path``; None when there is none or it cannot be read (the first
    frame then says "loading…" as it always did)."""
    from gateway_tui.core.files.own_json import read_own_json
    from gateway_tui.core.text.sanitize import printable

    data = read_own_json(path, HEAD_MAX_BYTES)
    if not isinstance(data, dict) or data.get("version") != HEAD_VERSION:
        return None

    def count(name: str) -> int:
        value = data.get(name)
        return value if isinstance(value, int) and value >= 0 else 0

    rows = []
    items = data.get("rows")
    for item in items if isinstance(items, list) else ():
        try:
            *values, flapping, at = item
            if len(values) != len(HEAD_FIELDS):
                continue
            shown = ["" if v is None else printable(str(v)) for v in values]
            when = datetime.fromisoformat(at) if isinstance(at, str) else None
        except (TypeError, ValueError):
            continue
        gateway, instance, version, status, number, verdict, reason = shown
        rows.append(
            HeadRow(
                gateway,
                instance or None,
                version,
                status,
                number,
                verdict,
                reason,
                bool(flapping),
                when if when is not None and when.tzinfo else None,
            )
        )
    if not rows:
        return None
    return Head(rows, count("gateways"), count("instances"), count("not_ok"), count("total"))


def age(at: datetime | None, now: datetime | None = None) -> str:
    """ "7 min ago", "3 h ago", "2 d ago"; "old" when unknown (in the current language)."""
    from gateway_tui.core.text.i18n import _, ngettext, number

    if at is None:
        return _("old")
    minutes = int(((now or datetime.now(UTC)) - at).total_seconds() // 60)
    if minutes < 60:
        n = max(minutes, 0)
        return ngettext("{n} min ago", "{n} min ago", n).format(n=number(n))
    if minutes < 48 * 60:
        n = minutes // 60
        return ngettext("{n} h ago", "{n} h ago", n).format(n=number(n))
    n = minutes // 1440
    return ngettext("{n} d ago", "{n} d ago", n).format(n=number(n))
