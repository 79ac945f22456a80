"""TableFilter (the `/` line of a table) and RecordTable.cycle_sort."""

from __future__ import annotations

from textual.app import App, ComposeResult

from gateway_tui.tui.widgets.record_table import RecordTable
from gateway_tui.tui.widgets.table_filter import TableFilter
from tests.data import make_columns, make_items


class FilterApp(App):
    def __init__(self) -> None:
        super().__init__()
        self.applied: list[str] = []
        self.sorted = 0

    def compose(self) -> ComposeResult:
        yield RecordTable(make_columns(), row_key=lambda i: i.name, id="table")
        yield TableFilter("table", id="filter")

    def on_mount(self) -> None:
        self.query_one(RecordTable).set_rows(make_items(50))

    def on_table_filter_applied(self, event: TableFilter.Applied) -> None:
        self.applied.append(event.text)

    def on_record_table_sorted(self, _event: RecordTable.Sorted) -> None:
        self.sorted += 1


async def test_the_table_is_filtered_in_the_same_frame_as_the_keystroke():
    app = FilterApp()
    async with app.run_test() as pilot:
        table, field = app.query_one(RecordTable), app.query_one(TableFilter)
        assert not field.display
        field.open()
        await pilot.pause()
        assert field.display and field.has_focus
        field.value = "item-0004"
        # No pause: the watcher filtered already (Input.Changed would come a frame later).
        assert table.filter_text == "item-0004"
        assert [i.name for i in table.visible_rows] == [f"item-0004{n}" for n in range(10)]
        await pilot.pause()
        assert app.applied[-1] == "item-0004"


async def test_escape_clears_hides_and_returns_to_the_rows_enter_keeps_the_filter():
    app = FilterApp()
    async with app.run_test() as pilot:
        table, field = app.query_one(RecordTable), app.query_one(TableFilter)
        field.open()
        await pilot.press(*"item-0001")
        await pilot.press("enter")
        assert table.has_focus and table.filter_text == "item-0001" and field.display
        field.focus()
        await pilot.press("escape")
        assert table.filter_text == "" and not field.display and table.has_focus
        assert field.close() is False  # nothing left to close: esc may go back


async def test_cycle_sort_walks_each_column_up_then_down_and_says_so():
    app = FilterApp()
    async with app.run_test() as pilot:
        table = app.query_one(RecordTable)
        seen = []
        for _ in range(7):
            table.cycle_sort()
            seen.append((table.sort_column, table.sort_reverse))
        assert seen == [
            ("name", False),
            ("name", True),
            ("status", False),
            ("status", True),
            ("owner", False),
            ("owner", True),
            ("name", False),
        ]
        await pilot.pause()
        assert app.sorted == 7
        names = [i.name for i in table.visible_rows]
        assert names == sorted(names)
