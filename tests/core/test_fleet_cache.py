"""The fleet's rows kept for the next start: read back as they were, marked cached, never as
current; an unreadable file is no rows."""

from __future__ import annotations

from datetime import UTC, datetime

from gateway_tui.core.fleet.fleet import FleetRow
from gateway_tui.core.fleet.monitor import load_rows, save_rows
from gateway_tui.core.fleet.verdict import Verdict

AT = datetime(2026, 11, 26, 20, 0, tzinfo=UTC)


def row(instance: str | None, verdict: Verdict, **kw) -> FleetRow:
    values = dict(
        gateway="prod",
        instance=instance,
        version="2.3.7 · 2.x",
        status="open",
        number="+44 7700 900123",
        last_disconnection="",
        new_messages=3,
        verdict=verdict,
        reason="open",
        at=AT,
    )
    values.update(kw)
    return FleetRow(**values)


def test_rows_come_back_marked_cached_trouble_first(tmp_path) -> None:
    path = tmp_path / "fleet-rows.json"
    save_rows([row("a", Verdict.OK), row("z", Verdict.ZOMBIE, reason="listed open, but …")], path)
    back = load_rows(path)
    assert [(r.instance, r.verdict) for r in back] == [("z", Verdict.ZOMBIE), ("a", Verdict.OK)]
    assert all(r.cached for r in back)
    assert back[0].reason == "listed open, but …" and back[0].at == AT
    assert back[1].new_messages is None  # a count is only ever current


def test_an_unreadable_or_hostile_cache_is_harmless(tmp_path) -> None:
    path = tmp_path / "fleet-rows.json"
    path.write_text("{not json")
    assert load_rows(path) == []
    save_rows([row("a\x1b[2Jb", Verdict.OK)], path)
    (back,) = load_rows(path)
    assert "\x1b" not in back.instance
    path.write_text('{"version": 1, "rows": [{"gateway": "x", "verdict": "nonsense"}, 5]}')
    assert load_rows(path) == []
