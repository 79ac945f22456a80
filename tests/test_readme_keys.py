"""The README's keys table: one row for each place (a place listed twice says two things)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def keys_table_places() -> list[str]:
    text = README.read_text(encoding="utf-8")
    table = text.split("## Keys", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in table.splitlines() if line.startswith("| ")]
    assert rows[0].startswith("| where | keys |")
    return [row.split("|")[1].strip() for row in rows[1:]]


def test_each_place_has_one_row_in_the_keys_table():
    places = keys_table_places()
    assert "everywhere" in places
    assert [place for place, count in Counter(places).items() if count > 1] == []
