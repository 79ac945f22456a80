"""A keyboard-first table for thousands of records that draws only the lines on screen.

The stock DataTable measures every cell when rows are added and rebuilds itself to filter, which
stalls for seconds at 10,000 rows. Here the model is a list of row indices: filtering and sorting
reorder indices, column widths come from a sample of rows, and `render_line` formats only the rows
in view, caching the strips it makes.

This module is the model (rows, filter, predicate, sort) and the widget's messages; the columns
are record_columns.py, and how the table shows on screen (widths fitted to the room, the cursor,
the lines drawn) is record_table_view.py, mixed in. The events stay here: Textual's private
`_on_click` is overridden on the widget's own class (tui/textual_private.py lists it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Generic

from textual import events
from textual.binding import Binding, BindingType
from textual.cache import LRUCache
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from gateway_tui.core.text.i18n import N_, _
from gateway_tui.tui.widgets.record_columns import SEPARATOR, WIDTH_SAMPLE_ROWS, Column, R
from gateway_tui.tui.widgets.record_table_view import RecordTableView

# Column comes with the table: the screens import both from here.
__all__ = ["Column", "RecordTable"]


def _in_sentence(title: str) -> str:
    """A column's title inside a sentence: "Last activity" → "last activity" ("LID" stays)."""
    return title[:1].lower() + title[1:] if title[1:2].islower() else title


class RecordTable(RecordTableView, ScrollView, Generic[R], can_focus=True):
    """A table of records with a cursor row, a filter, a predicate and a sort column.

    Line 0 is the header, fixed while the body scrolls; body row `i` (an index into the visible
    rows) is virtual line `i + 1`.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up,k", "cursor_up", "Up", show=False, id="record_table.cursor_up"),
        Binding("down,j", "cursor_down", "Down", show=False, id="record_table.cursor_down"),
        Binding("pageup", "cursor_page_up", "Page up", show=False, id="record_table.page_up"),
        Binding(
            "pagedown", "cursor_page_down", "Page down", show=False, id="record_table.page_down"
        ),
        Binding("home,g", "cursor_first", "First row", show=False, id="record_table.first"),
        Binding("end,G,shift+g", "cursor_last", "Last row", show=False, id="record_table.last"),
        Binding("enter", "select_cursor", "Select", show=False, id="record_table.select"),
    ]

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "record-table--header",
        "record-table--cursor",
        "record-table--empty",
    }

    # The block-cursor colours are the theme's own cursor colours, derived from $primary.
    DEFAULT_CSS = """
    RecordTable {
        height: 1fr;
        background: $surface;
        color: $foreground;
        & > .record-table--header {
            background: $panel;
            color: $foreground;
            text-style: bold;
        }
        & > .record-table--cursor {
            background: $block-cursor-blurred-background;
            color: $block-cursor-blurred-foreground;
            text-style: $block-cursor-blurred-text-style;
        }
        &:focus > .record-table--cursor {
            background: $block-cursor-background;
            color: $block-cursor-foreground;
            text-style: $block-cursor-text-style;
        }
        & > .record-table--empty {
            color: $text-muted;
            text-style: italic;
        }
    }
    """

    ALLOW_SELECT = False

    class RowSelected(Message):
        """Enter, or a click on the cursor row, chose a row."""

        def __init__(self, table: RecordTable[Any], row: Any, key: str) -> None:
            super().__init__()
            self.table = table
            self.row = row
            self.key = key

        @property
        def control(self) -> RecordTable[Any]:
            return self.table

    class Sorted(Message):
        """The sort column or direction changed (by a key or a click on the header)."""

        def __init__(self, table: RecordTable[Any]) -> None:
            super().__init__()
            self.table = table

        @property
        def control(self) -> RecordTable[Any]:
            return self.table

    class CursorMoved(Message):
        """The cursor is on a different row (row and key are None when no row is visible)."""

        def __init__(self, table: RecordTable[Any], row: Any | None, key: str | None) -> None:
            super().__init__()
            self.table = table
            self.row = row
            self.key = key

        @property
        def control(self) -> RecordTable[Any]:
            return self.table

        def can_replace(self, message: Message) -> bool:
            # A held key moves the cursor faster than a screen redraws its details: only the
            # latest row matters, so a move still queued is dropped for the newer one.
            return isinstance(message, RecordTable.CursorMoved) and message.table is self.table

    # What an empty table says (with no filter typed).
    empty_text = N_("No rows")  # translated where drawn

    def __init__(
        self,
        columns: Sequence[Column[R]],
        *,
        row_key: Callable[[R], str],
        search_text: Callable[[R], str] | None = None,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes, disabled=disabled)
        self._columns = tuple(columns)
        self._column_by_key = {column.key: column for column in self._columns}
        if len(self._column_by_key) != len(self._columns):
            raise ValueError("column keys must be unique")
        self._row_key = row_key
        self._search_text = search_text or self._joined_values

        self._rows: list[R] = []
        self._index_by_key: dict[str, int] = {}
        self._filter_text = ""
        self._predicate: Callable[[R], bool] | None = None
        self._sort_column: str | None = None
        self._sort_reverse = False
        # Derived from the rows and rebuilt lazily (None = stale), so a filter keystroke only
        # scans cached strings and a sort only reorders indices.
        self._sorted_indices: list[int] | None = None
        self._search_haystacks: list[str] | None = None
        # Search texts of the rows before the last set_rows, by row identity: a refresh that
        # brings back the same row objects (a state check every few seconds) reuses them.
        self._reusable_haystacks: dict[int, tuple[R, str]] = {}
        self._predicate_results: list[bool] | None = None
        # Indices into `_rows` of the rows shown, in display order.
        self._visible: list[int] = []

        self._cursor = 0
        # The cursor row's key as of the last change. The model changes below invalidate
        # `_visible` before they recompute it, so this is how they find the cursor row again.
        self._last_cursor_key: str | None = None
        # Measured widths (capped at max_width), what each would take on a wide terminal, and
        # the widths in use: fitted to the table's width (0 = a column dropped for room).
        self._base_widths = [column.measure_width(()) for column in self._columns]
        self._wanted_widths = list(self._base_widths)
        self._widths = list(self._base_widths)
        # Bumped when the rows or the column widths change; part of every cached strip's key. A
        # row's line does not depend on where it shows, so filtering, sorting and scrolling
        # reuse the strips already made (typing a filter mostly redraws rows seen a key ago).
        self._generation = 0
        self._line_cache: LRUCache[tuple[Any, ...], Strip] = LRUCache(1024)

    # --- reading ----------------------------------------------------------------------------------

    @property
    def columns(self) -> Sequence[Column[R]]:
        return self._columns

    @property
    def rows(self) -> Sequence[R]:
        """All rows, as given to `set_rows`."""
        return self._rows

    @property
    def visible_rows(self) -> Sequence[R]:
        """The rows shown, after the predicate, the filter and the sort."""
        rows = self._rows
        return [rows[index] for index in self._visible]

    @property
    def visible_count(self) -> int:
        return len(self._visible)

    @property
    def cursor_index(self) -> int:
        """The cursor's index into the visible rows (0 when there are none)."""
        return self._cursor

    @property
    def cursor_row(self) -> R | None:
        if not self._visible:
            return None
        return self._rows[self._visible[self._cursor]]

    @property
    def cursor_key(self) -> str | None:
        row = self.cursor_row
        return None if row is None else self._row_key(row)

    @property
    def sort_column(self) -> str | None:
        return self._sort_column

    @property
    def sort_reverse(self) -> bool:
        return self._sort_reverse

    @property
    def filter_text(self) -> str:
        return self._filter_text

    # --- changing the model -----------------------------------------------------------------------

    def set_rows(self, rows: Sequence[R]) -> None:
        """Replace all rows; the cursor keeps its key, and its screen line, while that row shows."""
        if self._search_haystacks is not None:
            self._reusable_haystacks = {
                id(row): (row, text)
                for row, text in zip(self._rows, self._search_haystacks, strict=True)
            }
        self._rows = list(rows)
        self._index_by_key = {self._row_key(row): index for index, row in enumerate(self._rows)}
        self._sorted_indices = self._search_haystacks = self._predicate_results = None
        sample = self._rows[:WIDTH_SAMPLE_ROWS]
        measured = [column.measure_widths(sample) for column in self._columns]
        self._base_widths = [base for base, _wanted in measured]
        self._wanted_widths = [wanted for _base, wanted in measured]
        self._widths = self._fitted_widths()
        self._generation += 1
        self._update_visible(keep_cursor_key=True)

    def redraw_rows(self) -> None:
        """Draw the rows again: something their cells show changed in place (a mark)."""
        self._generation += 1
        self.refresh()

    def set_filter(self, text: str) -> None:
        """Show only rows whose search text contains `text`, ignoring case; "" shows all."""
        if text == self._filter_text:
            return
        self._filter_text = text
        self._update_visible(keep_cursor_key=True)

    def set_predicate(self, predicate: Callable[[R], bool] | None) -> None:
        """Show only rows `predicate` accepts (on top of the filter); None shows all."""
        self._predicate = predicate
        self._predicate_results = None
        self._update_visible(keep_cursor_key=True)

    def sort_by(self, column_key: str, reverse: bool | None = None) -> None:
        """Sort by a column; `reverse=None` flips the direction of the current sort column and
        sorts a new column ascending."""
        if column_key not in self._column_by_key:
            raise KeyError(f"no column {column_key!r}")
        if reverse is None:
            reverse = column_key == self._sort_column and not self._sort_reverse
        self._sort_column, self._sort_reverse = column_key, reverse
        self._sorted_indices = None
        self._update_visible(keep_cursor_key=True)
        self.post_message(self.Sorted(self))

    def view_summary(self) -> list[str]:
        """How the rows are narrowed and ordered, for a screen's summary line."""
        parts = []
        if self._filter_text:
            parts.append(_("filter: “{text}”").format(text=self._filter_text))
        if self._sort_column:
            column = next((c for c in self._columns if c.key == self._sort_column), None)
            parts.append(
                _("sort: {column} {arrow}").format(
                    column=_in_sentence(_(column.label)) if column else self._sort_column,
                    arrow="▼" if self._sort_reverse else "▲",
                )
            )
        return parts

    def cycle_sort(self) -> None:
        """One key for every order: each column ascending, then descending, then the next."""
        # A column no row has (``only_when``) is not offered; one dropped for room still is.
        keys = [
            column.key
            for column, base in zip(self._columns, self._base_widths, strict=True)
            if base or column.only_when is None
        ]
        current = self._sort_column
        if current is None or current not in keys:
            self.sort_by(keys[0], reverse=False)
        elif not self._sort_reverse:
            self.sort_by(current, reverse=True)
        else:
            self.sort_by(keys[(keys.index(current) + 1) % len(keys)], reverse=False)

    def remove_key(self, key: str) -> None:
        """Drop one row; the cursor stays at the same index (clamped)."""
        removed = self._index_by_key.get(key)
        if removed is None:
            return
        del self._rows[removed]
        for per_row in (self._search_haystacks, self._predicate_results):
            if per_row is not None:
                del per_row[removed]
        if self._sorted_indices is not None:
            self._sorted_indices = _without_index(self._sorted_indices, removed)
        self._index_by_key = {
            row_key: index - (index > removed)
            for row_key, index in self._index_by_key.items()
            if index != removed
        }
        self._generation += 1  # the rows after it moved up: their cached lines are keyed wrong
        self._update_visible(keep_cursor_key=False)

    def move_cursor_to_key(self, key: str) -> bool:
        """Put the cursor on the row with `key` and scroll it into view; False if it isn't shown."""
        position = self._visible_position(key)
        if position is None:
            return False
        self._move_cursor(position)
        return True

    # --- the model --------------------------------------------------------------------------------

    def _joined_values(self, row: R) -> str:
        # A newline can't be typed into a filter, so matches never straddle two columns.
        return "\n".join(column.text(row) for column in self._columns)

    def _sort_order(self) -> list[int]:
        if self._sorted_indices is None:
            indices = range(len(self._rows))
            if self._sort_column is None:
                self._sorted_indices = list(indices)
            else:
                column = self._column_by_key[self._sort_column]
                keys = [column.sort_value(row) for row in self._rows]
                present = [index for index in indices if keys[index] is not None]
                missing = [index for index in indices if keys[index] is None]
                self._sorted_indices = [
                    *sorted(present, key=keys.__getitem__, reverse=self._sort_reverse),
                    *missing,
                ]
        return self._sorted_indices

    def _haystacks(self) -> list[str]:
        if self._search_haystacks is None:
            reusable, self._reusable_haystacks = self._reusable_haystacks, {}
            self._search_haystacks = [self._haystack(row, reusable) for row in self._rows]
        return self._search_haystacks

    def _haystack(self, row: R, reusable: dict[int, tuple[R, str]]) -> str:
        kept = reusable.get(id(row))
        if kept is not None and kept[0] is row:  # the same object (its id alone may be reused)
            return kept[1]
        return self._search_text(row).casefold()

    def _accepted(self, predicate: Callable[[R], bool]) -> list[bool]:
        if self._predicate_results is None:
            self._predicate_results = [bool(predicate(row)) for row in self._rows]
        return self._predicate_results

    def _compute_visible(self) -> list[int]:
        indices = self._sort_order()
        if self._predicate is not None:
            accepted = self._accepted(self._predicate)
            indices = [index for index in indices if accepted[index]]
        if self._filter_text:
            needle = self._filter_text.casefold()
            haystacks = self._haystacks()
            indices = [index for index in indices if needle in haystacks[index]]
        return indices

    def _visible_position(self, key: str | None) -> int | None:
        row_index = None if key is None else self._index_by_key.get(key)
        if row_index is None:
            return None
        try:
            return self._visible.index(row_index)
        except ValueError:
            return None

    def _update_visible(self, *, keep_cursor_key: bool) -> None:
        """Recompute the visible rows after a model change and redraw, keeping the cursor put."""
        screen_line = self._cursor - self.scroll_offset.y
        at_top = self.scroll_offset.y == 0
        self._visible = self._compute_visible()
        # One line for the header, and at least one for the rows or the "No rows" message.
        self.virtual_size = Size(self._total_width, 1 + max(1, len(self._visible)))
        position = self._visible_position(self._last_cursor_key) if keep_cursor_key else None
        self._cursor = self._clamp(self._cursor if position is None else position)
        if at_top and self._cursor < self._body_height:
            # A view at its top stays there: a row that arrives above (a new chat, say) shows,
            # and the cursor moves down with its own row.
            self._scroll_body_to(0)
        else:
            self._hold_screen_line(screen_line)
        self.refresh()
        self._announce_cursor()

    # --- events -----------------------------------------------------------------------------------

    def _on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        scroll_x, scroll_y = self.scroll_offset
        if offset.y == 0:
            column = self._column_at(scroll_x + offset.x)
            if column is not None:
                self.sort_by(column.key)
            return
        index = scroll_y + offset.y - 1
        if index == self._cursor:
            self.action_select_cursor()
        elif index < len(self._visible):
            self._move_cursor(index)

    def _column_at(self, x: int) -> Column[R] | None:
        """The column under virtual x, or None on a separator or past the last column."""
        start = 0
        for column, width in zip(self._columns, self._widths, strict=True):
            if not width:
                continue  # dropped for room
            if start <= x < start + width:
                return column
            start += width + len(SEPARATOR)
        return None

    def _on_resize(self, _event: events.Resize) -> None:
        self._refit_columns()
        self._scroll_cursor_into_view()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._line_cache.clear()


def _without_index(indices: list[int], removed: int) -> list[int]:
    """`indices` without `removed`, with the indices after it shifted down by one."""
    return [index - (index > removed) for index in indices if index != removed]
