"""How a RecordTable (widgets/record_table.py) shows on screen, mixed into it: the column
widths fitted to the room, the cursor and the scrolling that keeps it in view, and the lines
drawn (only the rows in view, each line's strip cached).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rich.segment import Segment
from textual.geometry import Size
from textual.strip import Strip

from gateway_tui.core.text.i18n import _
from gateway_tui.tui.textual_private import bindings_of
from gateway_tui.tui.widgets.record_columns import (
    SEPARATOR,
    SORT_ARROW_CELLS,
    SORT_ARROWS,
    Line,
    R,
    fit,
    measure,
    parse_style,
)

if TYPE_CHECKING:
    from gateway_tui.tui.widgets.record_table import RecordTable

    _Base = RecordTable[Any]
else:
    _Base = object


class RecordTableView(_Base):
    """The drawing half of RecordTable; the model (rows, filter, predicate, sort) is its own."""

    @property
    def _total_width(self) -> int:
        return _row_width(self._widths)

    def _fitted_widths(self) -> list[int]:
        """Column widths for the width the table has: low-value columns dropped when narrow,
        columns with longer values widened when there is room."""
        room = self.scrollable_content_region.width
        widths = list(self._base_widths)
        if room <= 0:  # not laid out yet
            return widths
        # Too wide: the columns that may give up width shrink first, then low-value columns
        # go, so that every column shown fits whole (never one cut at the table's edge).
        for index, column in enumerate(self._columns):
            excess = _row_width(widths) - room
            if excess <= 0:
                break
            if column.shrink_to is not None and widths[index] > column.shrink_to:
                widths[index] -= min(excess, widths[index] - column.shrink_to)
        droppable = sorted(
            (i for i, c in enumerate(self._columns) if c.drop_priority > 0),
            key=lambda i: -self._columns[i].drop_priority,
        )
        while _row_width(widths) > room and droppable:
            widths[droppable.pop(0)] = 0
        spare = room - _row_width(widths)
        for index, width in enumerate(widths):
            if spare <= 0:
                break
            wanted = max(self._wanted_widths[index], self._base_widths[index])
            if width and wanted > width:
                grow = min(wanted - width, spare)
                widths[index] += grow
                spare -= grow
        return widths

    def _refit_columns(self) -> None:
        widths = self._fitted_widths()
        if widths != self._widths:
            self._widths = widths
            self._generation += 1
            self.virtual_size = Size(self._total_width, 1 + max(1, len(self._visible)))
            self.refresh()

    @property
    def shown_columns(self) -> list[str]:
        """The keys of the columns shown now (some are dropped on a narrow terminal)."""
        return [c.key for c, w in zip(self._columns, self._widths, strict=True) if w]

    # --- the cursor -------------------------------------------------------------------------------

    @property
    def _body_height(self) -> int:
        """How many rows fit under the header."""
        return max(0, self.scrollable_content_region.height - 1)

    def _clamp(self, index: int) -> int:
        return max(0, min(index, len(self._visible) - 1))

    def _move_cursor(self, index: int, *, keep_screen_line: bool = False) -> None:
        if not self._visible:
            return
        previous, screen_line = self._cursor, self._cursor - self.scroll_offset.y
        self._cursor = self._clamp(index)
        if keep_screen_line:
            self._hold_screen_line(screen_line)
        self._scroll_cursor_into_view()
        self.refresh_line(previous + 1)
        self.refresh_line(self._cursor + 1)
        self._announce_cursor()

    def _scroll_cursor_into_view(self) -> None:
        height = self._body_height
        if not height:
            return  # not laid out yet; `_on_resize` calls again
        top = self.scroll_offset.y
        if self._cursor < top:
            self._scroll_body_to(self._cursor)
        elif self._cursor >= top + height:
            self._scroll_body_to(self._cursor - height + 1)

    def _hold_screen_line(self, screen_line: int) -> None:
        """Scroll so the cursor stays `screen_line` rows below the header, as far as rows allow.

        If the cursor was scrolled out of view (by the mouse wheel), the view stays put instead.
        """
        height = self._body_height
        if not height:
            return
        top = self._cursor - screen_line if 0 <= screen_line < height else self.scroll_offset.y
        # Scrolling to the current top still re-clamps it when the table got shorter.
        self._scroll_body_to(top)

    def _scroll_body_to(self, top: int) -> None:
        # Immediate: the cursor must be on screen in the very next frame.
        self.scroll_to(y=top, animate=False, force=True)

    def _announce_cursor(self) -> None:
        key = self.cursor_key
        if key != self._last_cursor_key:
            self._last_cursor_key = key
            self.post_message(self.CursorMoved(self, self.cursor_row, key))

    def action_cursor_up(self) -> None:
        self._move_cursor(self._cursor - 1)

    def action_cursor_down(self) -> None:
        self._move_cursor(self._cursor + 1)

    def action_cursor_page_up(self) -> None:
        self._move_cursor(self._cursor - max(1, self._body_height), keep_screen_line=True)

    def action_cursor_page_down(self) -> None:
        self._move_cursor(self._cursor + max(1, self._body_height), keep_screen_line=True)

    def action_cursor_first(self) -> None:
        self._move_cursor(0)

    def action_cursor_last(self) -> None:
        self._move_cursor(len(self._visible) - 1)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # A screen that binds enter itself ("Open") names what enter does: the table's generic
        # "Select" then steps aside, so the footer and help show the screen's binding.
        if action == "select_cursor" and self.is_attached:
            screen_bindings = bindings_of(self.screen).key_to_bindings
            if any(key in screen_bindings for key in ("enter",)):
                return False
        return True

    def action_select_cursor(self) -> None:
        row = self.cursor_row
        if row is not None:
            self.post_message(self.RowSelected(self, row, self._row_key(row)))

    # --- rendering --------------------------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        width = self.size.width
        if y == 0:
            header = ("header", self._sort_column, self._sort_reverse)
            return self._cached_line(header, self._header_cells, scroll_x, width)
        if not self._visible:
            return self._render_empty(width) if y == 1 else Strip.blank(width, self.rich_style)
        index = scroll_y + y - 1
        if index >= len(self._visible):
            return Strip.blank(width, self.rich_style)
        row_index = self._visible[index]
        row = self._rows[row_index]
        is_cursor = index == self._cursor
        return self._cached_line(
            ("row", row_index, is_cursor), lambda: self._row_cells(row, is_cursor), scroll_x, width
        )

    def _cached_line(
        self, line_key: tuple[Any, ...], make_cells: Callable[[], Line], scroll_x: int, width: int
    ) -> Strip:
        """The line's strip, cropped to the view, from the cache or made from its cells."""
        cache_key = (*line_key, self._generation, self.has_focus, scroll_x, width)
        strip = self._line_cache.get(cache_key)
        if strip is None:
            cells, line_style = make_cells()
            segments: list[Segment] = []
            for text, style in cells:
                if segments:
                    segments.append(Segment(SEPARATOR, line_style))
                segments.append(Segment(text, style))
            # Extending with the line's style carries the header and cursor colours to the edge.
            strip = Strip(segments, self._total_width).crop_extend(
                scroll_x, scroll_x + width, line_style
            )
            self._line_cache[cache_key] = strip
        return strip

    def _header_cells(self) -> Line:
        style = self.get_component_rich_style("record-table--header")
        cells = []
        for column, width in zip(self._columns, self._widths, strict=True):
            if not width:
                continue
            label = _(column.label)  # N_-marked where the columns are listed
            if column.key == self._sort_column and width > SORT_ARROW_CELLS:
                if measure(label, width) > width - SORT_ARROW_CELLS:
                    label = fit(label, width - SORT_ARROW_CELLS)
                label = f"{label} {SORT_ARROWS[self._sort_reverse]}"
            cells.append((fit(label, width), style))
        return cells, style

    def _row_cells(self, row: R, is_cursor: bool) -> Line:
        line_style = (
            self.get_component_rich_style("record-table--cursor") if is_cursor else self.rich_style
        )
        cells = []
        for column, width in zip(self._columns, self._widths, strict=True):
            if not width:
                continue
            style = line_style
            if column.style is not None:
                cell_style = parse_style(column.style(row))
                # On the cursor row the cursor's colours win over the cell's own.
                style = cell_style + line_style if is_cursor else line_style + cell_style
            cells.append((fit(column.text(row), width), style))
        return cells, line_style

    def _render_empty(self, width: int) -> Strip:
        # Plain strings in segments: the filter text is shown as typed, never parsed as markup.
        message = (
            _("No rows match “{text}”").format(text=self._filter_text)
            if self._filter_text
            else _(self.empty_text)  # N_-marked where it is set
        )
        style = self.get_component_rich_style("record-table--empty")
        return Strip([Segment(fit(message, width), style)], max(0, width))


def _row_width(widths: list[int]) -> int:
    """Cells a line takes: the shown columns and one separator between each two."""
    shown = [width for width in widths if width]
    return sum(shown) + len(SEPARATOR) * max(0, len(shown) - 1)
