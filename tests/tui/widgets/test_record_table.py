"""RecordTable: a virtual table that renders only the lines on screen."""

from __future__ import annotations

from collections import Counter

from rich.cells import cell_len
from textual.app import App, ComposeResult

from gateway_tui.tui.widgets.record_columns import fit
from gateway_tui.tui.widgets.record_table import WIDTH_SAMPLE_ROWS, Column, RecordTable
from tests.data import Item, make_columns, make_items
from tests.support import wait_for

SIZE = (80, 24)  # the table gets the whole screen: a header line and 23 body lines
BODY_LINES = SIZE[1] - 1


class TableApp(App):
    def __init__(self, rows: list[Item], columns: list[Column[Item]] | None = None) -> None:
        super().__init__()
        self.initial_rows = rows
        self.columns = columns or make_columns()
        self.selected: list[RecordTable.RowSelected] = []
        self.moved: list[RecordTable.CursorMoved] = []

    def compose(self) -> ComposeResult:
        yield RecordTable(self.columns, row_key=lambda item: item.name)

    def on_mount(self) -> None:
        self.table.set_rows(self.initial_rows)
        self.table.focus()

    @property
    def table(self) -> RecordTable[Item]:
        return self.query_one(RecordTable)

    def on_record_table_row_selected(self, event: RecordTable.RowSelected) -> None:
        self.selected.append(event)

    def on_record_table_cursor_moved(self, event: RecordTable.CursorMoved) -> None:
        self.moved.append(event)


def screen_lines(table: RecordTable) -> list[str]:
    """The table's lines as they are on screen (header first), as plain text."""
    return [table.render_line(y).text for y in range(table.size.height)]


def names(table: RecordTable[Item]) -> list[str]:
    return [item.name for item in table.visible_rows]


# --- rendering --------------------------------------------------------------------------------


async def test_renders_only_the_lines_on_screen() -> None:
    calls: Counter[str] = Counter()
    app = TableApp(make_items(10_000), make_columns(calls))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        # Per column: the width sample plus one call per body line, never one per row.
        for key in ("name", "status", "owner"):
            assert calls[key] <= WIDTH_SAMPLE_ROWS + BODY_LINES, calls
        calls.clear()
        await pilot.press("pagedown")
        await pilot.pause()
        assert max(calls.values()) <= BODY_LINES, calls
        lines = screen_lines(app.table)
        assert lines[0].split() == ["Name", "Status", "Owner"]
        assert lines[1].startswith(app.table.visible_rows[BODY_LINES].name)


async def test_markup_in_values_is_shown_literally() -> None:
    rows = [Item("[bold]x[/bold]", "[red]open", "[link=https://e.x]me")]
    async with TableApp(rows).run_test(size=SIZE) as pilot:
        await pilot.pause()
        line = screen_lines(pilot.app.table)[1]
        assert "[bold]x[/bold]" in line
        assert "[red]open" in line
        assert "[link=https://e.x]me" in line


async def test_awkward_strings_render_at_the_right_width() -> None:
    rows = [
        Item("bell\x07 esc\x1b[31m tab\tnl\n", "ok", "cr\r"),
        Item("👩‍👩‍👧 family 🇧🇷", "ok", "宽字符宽字符宽字符宽字符宽字符"),
        Item("שלום עולם مرحبا", "\u202eoverride", "x"),
        Item("a" * 10_000, "é" * 10_000, "\u0301" * 10_000),
        Item("lone \ud83d surrogate", "\x00nul", "\x85next-line"),
        Item("", "", ""),
    ]
    async with TableApp(rows).run_test(size=SIZE) as pilot:
        await pilot.pause()
        table = pilot.app.table
        lines = screen_lines(table)
        for y in range(table.size.height):
            assert table.render_line(y).cell_length == table.size.width
        assert not any(
            character in "".join(lines) for character in "\x00\x07\x1b\t\n\r\x85\u202e\ud83d"
        )
        assert "…" in lines[4]  # the 10,000-character name is cut
        "".join(lines).encode()  # nothing the terminal can't take


def test_fit_pads_or_cuts_to_exact_cells() -> None:
    assert fit("abc", 5) == "abc  "
    assert fit("abcdef", 4) == "abc…"
    assert cell_len(fit("宽字符宽字符", 5)) == 5
    assert fit("a\nb", 3) == "a b"
    assert fit("anything", 0) == ""


# --- the cursor -------------------------------------------------------------------------------


async def test_cursor_keys() -> None:
    async with TableApp(make_items(100)).run_test(size=SIZE) as pilot:
        table = pilot.app.table
        await pilot.press("j", "down", "j")
        assert table.cursor_index == 3
        await pilot.press("k", "up")
        assert table.cursor_index == 1
        await pilot.press("pagedown")
        assert table.cursor_index == 1 + BODY_LINES
        await pilot.press("pageup")
        assert table.cursor_index == 1
        await pilot.press("end")
        assert table.cursor_key == "item-00099"
        await pilot.press("home")
        assert table.cursor_index == 0
        await pilot.press("G")
        assert table.cursor_index == 99
        assert table.scroll_offset.y == 100 - BODY_LINES  # the last row is on screen
        await pilot.press("g", "up")
        assert table.cursor_index == 0


async def test_cursor_moved_is_posted_when_the_row_changes() -> None:
    async with TableApp(make_items(10)).run_test(size=SIZE) as pilot:
        await pilot.press("j", "j", "k")
        await pilot.pause()
        keys = [event.key for event in pilot.app.moved]
        assert keys == ["item-00000", "item-00001", "item-00002", "item-00001"]
        await pilot.press("up", "up")  # already at the top: no second message for the same row
        await pilot.pause()
        assert [event.key for event in pilot.app.moved][-1:] == ["item-00000"]
        assert len(pilot.app.moved) == 5


async def test_cursor_moves_queued_in_a_burst_reach_the_screen_as_the_latest_one() -> None:
    async with TableApp(make_items(10)).run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: len(pilot.app.moved) == 1)  # the first row, on mount
        table = pilot.app.table
        for key in ("item-00001", "item-00002", "item-00003"):  # queued before any is handled
            table.move_cursor_to_key(key)
        await wait_for(pilot, lambda: pilot.app.moved[-1].key == "item-00003")
        await pilot.pause()
        assert [event.key for event in pilot.app.moved] == ["item-00000", "item-00003"]


async def test_set_rows_with_fresh_objects_keeps_the_cursor_key_and_screen_line() -> None:
    async with TableApp(make_items(1_000)).run_test(size=SIZE) as pilot:
        table = pilot.app.table
        table.move_cursor_to_key("item-00500")
        await pilot.press("k", "k")
        scroll_y = table.scroll_offset.y
        # A refresh: new objects, one row gone before the cursor, one added at the top.
        fresh = [Item("item-new", "open", "x"), *make_items(1_000)]
        del fresh[10]
        table.set_rows(fresh)
        await pilot.pause()
        assert table.cursor_key == "item-00498"
        assert table.cursor_row is next(item for item in fresh if item.name == "item-00498")
        assert table.cursor_index - table.scroll_offset.y == 498 - scroll_y
        # The key is gone: the cursor stays at the same index.
        index = table.cursor_index
        table.set_rows([item for item in fresh if item.name != "item-00498"])
        assert table.cursor_index == index


async def test_refresh_leaves_a_mouse_scrolled_view_alone() -> None:
    async with TableApp(make_items(1_000)).run_test(size=SIZE) as pilot:
        table = pilot.app.table
        table.scroll_to(y=500, animate=False)  # as the wheel does: the cursor is left behind
        table.set_rows(make_items(1_000))
        await pilot.pause()
        assert table.scroll_offset.y == 500
        assert table.cursor_key == "item-00000"
        await pilot.press("j")  # a key brings the cursor back into view
        assert table.scroll_offset.y == 1


async def test_a_shorter_table_scrolls_back_into_range() -> None:
    async with TableApp(make_items(1_000)).run_test(size=SIZE) as pilot:
        table = pilot.app.table
        await pilot.press("end")
        table.set_filter("item-000")  # 100 rows; the cursor's row is gone
        await pilot.pause()
        assert table.cursor_index == 99
        assert table.scroll_offset.y == table.max_scroll_y == 100 + 1 - SIZE[1]
        assert screen_lines(table)[-1].startswith("item-00099")


async def test_move_cursor_to_key_scrolls_into_view() -> None:
    async with TableApp(make_items(1_000)).run_test(size=SIZE) as pilot:
        table = pilot.app.table
        assert table.move_cursor_to_key("item-00777")
        assert table.cursor_index == 777
        assert table.scroll_offset.y <= 777 < table.scroll_offset.y + BODY_LINES
        assert not table.move_cursor_to_key("nope")
        assert table.cursor_index == 777


async def test_enter_posts_row_selected_with_the_cursor_row() -> None:
    items = make_items(10)
    async with TableApp(items).run_test(size=SIZE) as pilot:
        await pilot.press("j", "j", "enter")
        await pilot.pause()
        [event] = pilot.app.selected
        assert event.row is items[2]
        assert event.key == "item-00002"
        assert event.table is pilot.app.table


async def test_clicks_move_the_cursor_and_select_the_cursor_row() -> None:
    items = make_items(10)
    async with TableApp(items).run_test(size=SIZE) as pilot:
        await pilot.click(RecordTable, offset=(2, 4))  # line 4 is the fourth row
        await pilot.pause()
        assert pilot.app.table.cursor_index == 3
        assert pilot.app.selected == []
        await pilot.click(RecordTable, offset=(2, 4))
        await pilot.pause()
        assert [event.row for event in pilot.app.selected] == [items[3]]


async def test_keymap_can_remap_a_binding_id() -> None:
    app = TableApp(make_items(10))
    async with app.run_test(size=SIZE) as pilot:
        app.set_keymap({"record_table.cursor_down": "x"})
        await pilot.press("x", "x")
        assert app.table.cursor_index == 2
        await pilot.press("j")  # replaced by the keymap
        assert app.table.cursor_index == 2


# --- filter, predicate and sort -----------------------------------------------------------------


async def test_filter_narrows_and_keeps_the_cursor_key() -> None:
    async with TableApp(make_items(100)).run_test(size=SIZE) as pilot:
        table = pilot.app.table
        table.move_cursor_to_key("item-00042")
        table.set_filter("ITEM-0004")  # case-insensitive
        await pilot.pause()
        assert names(table) == [f"item-{number:05d}" for number in range(40, 50)]
        assert table.visible_count == 10
        assert table.cursor_key == "item-00042"
        table.set_filter("")
        assert table.visible_count == 100
        assert table.cursor_key == "item-00042"


async def test_empty_message_shows_the_filter_literally() -> None:
    async with TableApp(make_items(5)).run_test(size=SIZE) as pilot:
        table = pilot.app.table
        table.set_filter("[bold]x")
        await pilot.pause()
        assert table.visible_count == 0
        assert table.cursor_row is None and table.cursor_key is None
        assert screen_lines(table)[1].rstrip() == "No rows match “[bold]x”"
        assert pilot.app.moved[-1].key is None
        await pilot.press("j", "end", "enter")  # nothing to move to or select
        assert pilot.app.selected == []
        table.set_filter("")
        table.set_rows([])
        await pilot.pause()
        assert screen_lines(table)[1].rstrip() == "No rows"


async def test_sort_orders_rows_and_toggles_the_arrow() -> None:
    items = make_items(20)
    async with TableApp(items).run_test(size=SIZE) as pilot:
        table = pilot.app.table
        table.sort_by("owner")
        await pilot.pause()
        owners = [item.owner for item in table.visible_rows]
        assert owners == sorted(owners)
        assert "Owner ▲" in screen_lines(table)[0]
        assert (table.sort_column, table.sort_reverse) == ("owner", False)
        table.sort_by("owner")
        await pilot.pause()
        assert [item.owner for item in table.visible_rows] == sorted(owners, reverse=True)
        assert "Owner ▼" in screen_lines(table)[0]
        table.sort_by("name")  # a new column starts ascending
        assert not table.sort_reverse
        assert names(table) == sorted(item.name for item in items)


async def test_sort_key_overrides_text_order() -> None:
    by_number_descending = Column(
        "number", "N", lambda item: item.name[-2:], sort_key=lambda item: -int(item.name[-2:])
    )
    async with TableApp(make_items(12), [*make_columns(), by_number_descending]).run_test(
        size=SIZE
    ) as pilot:
        table = pilot.app.table
        table.sort_by("number")
        assert names(table)[:3] == ["item-00011", "item-00010", "item-00009"]


async def test_clicking_a_header_sorts_by_that_column() -> None:
    async with TableApp(make_items(20)).run_test(size=SIZE) as pilot:
        table = pilot.app.table
        owner_x = screen_lines(table)[0].index("Owner")
        await pilot.click(RecordTable, offset=(owner_x, 0))
        await pilot.pause()
        assert (table.sort_column, table.sort_reverse) == ("owner", False)
        await pilot.click(RecordTable, offset=(owner_x, 0))
        await pilot.pause()
        assert (table.sort_column, table.sort_reverse) == ("owner", True)
        assert table.cursor_key == "item-00000"  # the cursor stays on its row


async def test_sort_filter_and_predicate_together() -> None:
    async with TableApp(make_items(100)).run_test(size=SIZE) as pilot:
        table = pilot.app.table
        table.set_predicate(lambda item: item.status == "open")
        table.set_filter("owner-1")
        table.sort_by("name", reverse=True)
        await pilot.pause()
        expected = sorted(
            (i.name for i in make_items(100) if i.status == "open" and i.owner == "owner-1"),
            reverse=True,
        )
        assert names(table) == expected
        table.set_predicate(None)
        assert names(table) == sorted(
            (i.name for i in make_items(100) if i.owner == "owner-1"), reverse=True
        )
        assert table.filter_text == "owner-1"


async def test_remove_key_keeps_the_cursor_index() -> None:
    async with TableApp(make_items(10)).run_test(size=SIZE) as pilot:
        table = pilot.app.table
        table.set_filter("item")
        table.sort_by("name", reverse=True)
        table.move_cursor_to_key("item-00005")
        index = table.cursor_index
        table.remove_key("item-00005")
        assert "item-00005" not in names(table)
        assert len(table.rows) == 9 and table.visible_count == 9
        assert table.cursor_index == index
        assert table.cursor_key == "item-00004"
        table.remove_key("nope")  # unknown keys are ignored
        table.move_cursor_to_key("item-00000")
        table.remove_key("item-00000")  # the last visible row: the cursor clamps
        assert table.cursor_key == "item-00001"
        # Later changes still see consistent rows.
        table.sort_by("name", reverse=False)
        assert names(table) == [f"item-{number:05d}" for number in (1, 2, 3, 4, 6, 7, 8, 9)]


async def test_wide_tables_scroll_horizontally() -> None:
    columns = [Column(f"c{n}", f"Column {n}", lambda item: item.name, width=15) for n in range(8)]
    async with TableApp(make_items(5), columns).run_test(size=(40, 10)) as pilot:
        table = pilot.app.table
        assert table.virtual_size.width == 8 * 15 + 7
        table.scroll_to(x=16, animate=False)
        await pilot.pause()
        assert screen_lines(table)[0].startswith("Column 1 ")


async def test_ten_thousand_rows_workflow() -> None:
    """The steps bench/ times (load, filter keystrokes, page down, sort), checked for results
    only: no timing assertions in the suite."""
    items = make_items(10_000)
    async with TableApp(items).run_test(size=SIZE) as pilot:
        table = pilot.app.table
        for text in ("i", "it", "item-01", "item-012"):
            table.set_filter(text)
            await pilot.pause()
        assert table.visible_count == 100
        assert table.cursor_key == "item-01200"  # the first match once item-00000 was filtered out
        table.set_filter("")
        assert table.cursor_index == 1200
        await pilot.press("pagedown", "pagedown")
        assert table.cursor_index == 1200 + 2 * BODY_LINES
        table.sort_by("name", reverse=True)
        await pilot.pause()
        assert table.visible_rows[0] is items[-1]
        assert table.cursor_key == f"item-{1200 + 2 * BODY_LINES:05d}"


async def test_a_refresh_with_the_same_row_objects_reuses_their_search_texts() -> None:
    searched: Counter[str] = Counter()
    rows = make_items(2_000)

    class CountingApp(TableApp):
        def compose(self) -> ComposeResult:
            def search_text(item: Item) -> str:
                searched[item.name] += 1
                return f"{item.name} {item.owner}"

            yield RecordTable(self.columns, row_key=lambda i: i.name, search_text=search_text)

    app = CountingApp(rows)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.table.set_filter("item-0001")
        assert sum(searched.values()) == 2_000
        # A refresh: a new list, one row replaced (its status changed), the rest the same objects.
        changed = Item(rows[5].name, "closed", rows[5].owner)
        app.table.set_rows([*rows[:5], changed, *rows[6:]])
        app.table.set_filter("item-00")
        assert sum(searched.values()) == 2_001 and searched[changed.name] == 2
        assert names(app.table)[:3] == ["item-00000", "item-00001", "item-00002"]
