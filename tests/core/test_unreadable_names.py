"""An instance the client could not read is named (issue 29): by the raw row's own name where it
has one, else by its row, on both lines, and the skips survive a local update of the list."""

from __future__ import annotations

import json

from gateway_tui.core.api.dialects.v1 import V1Dialect
from gateway_tui.core.api.dialects.v2 import V2Dialect
from gateway_tui.core.api.lists import unreadable_names_of, unreadable_of


def _v1(name: object, **fields: object) -> dict:
    return {"instance": {"instanceName": name, "status": "open", **fields}}


def test_a_skipped_1_7_1_row_is_named_by_its_instance_name_else_by_its_row() -> None:
    body = [_v1("a"), _v1("sales", profileName=12), _v1(7), _v1("b")]
    items = V1Dialect.instances.read(json.dumps(body).encode())
    assert [i.instance_name for i in items] == ["a", "b"]
    assert unreadable_names_of(items) == ["sales", "row 3"]
    first, second = unreadable_of(items)
    assert first.startswith("item 2 (sales): ") and "profileName" in first
    assert second.startswith("item 3: ")


def test_a_skipped_2x_row_is_named_by_its_name_field() -> None:
    good = {"id": "1", "name": "ok", "connectionStatus": "open"}
    bad = {"id": "2", "name": "support", "connectionStatus": "open", "profileName": 12}
    items = V2Dialect.instances.read(json.dumps([good, bad, {"id": 3}]).encode())
    assert [i.instance_name for i in items] == ["ok"]
    assert unreadable_names_of(items) == ["support", "row 3"]
