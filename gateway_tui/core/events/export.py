"""Events as NDJSON: one JSON object a line, for ``gateway-tui events --json`` and the
monitor's export of what its filter shows.

Through sanitize.json_text: C0 escaped by JSON itself, C1, bidi controls and lone surrogates
escaped too (``\\u009b``), every known secret masked; the envelope's ``apikey`` was never kept
(record.py). Files are created 0600 and never written over unless asked (files/export.py).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from gateway_tui.core.events.record import EventRecord
from gateway_tui.core.files.export import open_private
from gateway_tui.core.text.sanitize import json_text


def ndjson_line(record: EventRecord) -> str:
    """One record as one line of JSON (with its newline)."""
    return json_text(record.as_json(), default=str) + "\n"


def export_ndjson(records: Iterable[EventRecord], path: Path, *, overwrite: bool = False) -> int:
    """Write ``records`` to ``path`` as NDJSON (a new 0600 file); return how many."""
    count = 0
    with open_private(Path(path), overwrite=overwrite) as out:
        for record in records:
            out.write(ndjson_line(record))
            count += 1
    return count
