"""A small JSON file of the app's own, read at start-up where every millisecond counts: json
alone, a size cap, and None for anything that cannot be read. Unlike storage.read_json it does
not scan the text for nesting (json's own recursion limit guards the parse) and renames nothing
aside: these files are only a head start, rewritten on the next run."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def read_own_json(path: Path, max_bytes: int) -> Any:
    try:
        with open(path, "rb") as file:
            raw = file.read(max_bytes + 1)
        if len(raw) > max_bytes:
            return None
        return json.loads(raw.decode("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError):
        return None
