"""The `/` filter line of a RecordTable: filters as you type, esc clears it and hides it."""

from __future__ import annotations

from textual.binding import Binding
from textual.message import Message

from gateway_tui.core.text.i18n import _
from gateway_tui.tui.widgets.record_table import RecordTable
from gateway_tui.tui.widgets.text_input import TextInput


class TableFilter(TextInput):
    """Hidden until opened. The table is filtered from the value watcher, in the same frame as
    the keystroke (``Input.Changed`` arrives a frame later, which doubled every keystroke)."""

    DEFAULT_CSS = """
    TableFilter {
        dock: bottom;
        margin: 0 1;
        display: none;
    }
    """

    BINDINGS = [Binding("escape", "close", "Clear the filter", id="filter.close")]

    class Applied(Message):
        """The table now shows the rows matching ``text`` (for summary lines)."""

        def __init__(self, table_filter: TableFilter, text: str) -> None:
            super().__init__()
            self.table_filter = table_filter
            self.text = text

        @property
        def control(self) -> TableFilter:
            return self.table_filter

    def __init__(
        self, table_id: str, *, placeholder: str | None = None, id: str | None = None
    ) -> None:
        """``placeholder``: already in the reader's language (default: "filter")."""
        super().__init__(placeholder=_("filter") if placeholder is None else placeholder, id=id)
        self._table_id = table_id

    @property
    def table(self) -> RecordTable:
        return self.screen.query_one(f"#{self._table_id}", RecordTable)

    def open(self) -> None:
        self.display = True
        self.focus()

    def close(self) -> bool:
        """Clear and hide; False when there was nothing to close (so esc can go back)."""
        if not (self.display or self.value):
            return False
        self.value = ""
        self.display = False
        self.table.focus()
        return True

    def action_close(self) -> None:
        self.close()

    def watch_value(self, value: str) -> None:
        if self.is_mounted:
            self.table.set_filter(value)
            self.post_message(self.Applied(self, value))

    async def action_submit(self) -> None:
        # Enter keeps the filter and goes back to the rows.
        self.table.focus()
