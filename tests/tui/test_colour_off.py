"""Colour is never the only sign of a state: with NO_COLOR (Textual then paints in monochrome)
every table cell says its state in a word or a glyph (no two cells of a column differ by colour
alone), on each main screen."""

from __future__ import annotations

from gateway_tui.tui.app import GatewayApp
from gateway_tui.tui.widgets.record_table import RecordTable
from tests.navigation import (
    open_chats,
    open_groups,
    open_instance,
    open_participants,
    open_request_log,
)
from tests.support import make_config, screen_text, wait_for


def _unmarked_cells(app: GatewayApp) -> list[str]:
    """Cells of the screen's tables whose colour says what their text does not: two rows with
    the same text in one column, in different colours (a state told by colour alone)."""
    found = []
    tables = list(app.screen.query(RecordTable))
    assert tables, f"no table on {type(app.screen).__name__}"
    for table in tables:
        assert table.rows, f"{type(app.screen).__name__}: an empty table proves nothing"
        for column in table.columns:
            if column.style is None:
                continue
            styles: dict[str, set[str]] = {}
            for row in table.rows:
                styles.setdefault(column.text(row).strip(), set()).add(column.style(row) or "")
            for text, seen in styles.items():
                if len(seen) > 1:
                    where = f"{type(app.screen).__name__}.{column.key}"
                    found.append(f"{where}: {text!r} in {sorted(seen)}")
    return found


async def test_with_no_color_every_coloured_cell_has_a_word_or_a_glyph(demo_server, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    app = GatewayApp(make_config(demo_server))
    async with app.run_test(size=(160, 45)) as pilot:
        assert app.no_color  # Textual's monochrome filter is on
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        await pilot.pause()
        assert _unmarked_cells(app) == []
        text = screen_text(app)
        for state in ("● open", "◐ connecting", "○ close", "✕ refused"):
            assert state in text  # the instance states, in words and glyphs

        await open_instance(app, pilot)
        # Each setting's state as a glyph, once the settings are read.
        await wait_for(pilot, lambda: "[x]" in screen_text(app) and "[ ]" in screen_text(app))

        await open_chats(app, pilot)
        assert _unmarked_cells(app) == []
        await open_groups(app, pilot)
        assert _unmarked_cells(app) == []
        await open_participants(app, pilot)
        assert _unmarked_cells(app) == []
        await open_request_log(app, pilot)
        assert _unmarked_cells(app) == []
