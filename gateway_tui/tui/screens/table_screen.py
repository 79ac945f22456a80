"""The screen of a table: bar, summary, stale banner, loading/error panel, table, `/` filter.

Instances, groups, participants, chats and the request log are this screen with their own
columns and words. Each names its widgets' ids by ``ID_PREFIX`` (``instances-table``, …) and
adds its own widgets around the table (``compose_head``, ``compose_above_table``,
``compose_below_table``). ``InstanceTableScreen``: one instance's rows, each a JID (contacts,
groups).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Generic, TypeVar

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Footer, Static

from gateway_tui.core.api.errors import GatewayError
from gateway_tui.core.text.formatting import clock
from gateway_tui.core.text.i18n import N_, _
from gateway_tui.tui.screens.base import GatewayScreen
from gateway_tui.tui.widgets.gateway_bar import GatewayBar
from gateway_tui.tui.widgets.record_table import Column, RecordTable
from gateway_tui.tui.widgets.status_panel import StatusPanel
from gateway_tui.tui.widgets.table_filter import TableFilter

Row = TypeVar("Row")


class TableScreen(GatewayScreen, Generic[Row]):
    """A GatewayScreen whose content is one RecordTable of ``Row``."""

    ID_PREFIX: ClassVar[str]
    COLUMNS: ClassVar[list[Column[Any]]]
    # Marked N_ where set; translated where drawn.
    FILTER_PLACEHOLDER: ClassVar[str] = N_("filter")
    # The binding that reads the data again: the panel and the stale banner name its key.
    REFRESH_BINDING: ClassVar[str | None] = None
    # Without data from a gateway (the request log) there is nothing to load, fail or go stale.
    STATUS_PANEL: ClassVar[bool] = True
    STALE_BANNER: ClassVar[bool] = True

    _rows_shown: Sequence[Any] | None = None  # the rows the table was last given

    def row_key(self, row: Row) -> str:
        raise NotImplementedError

    def search_text(self, row: Row) -> str:
        raise NotImplementedError

    # --- layout ------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        prefix = self.ID_PREFIX
        yield GatewayBar()
        with Vertical(id=f"{prefix}-body"):
            yield from self.compose_head()
            yield Static(id=f"{prefix}-summary", classes="summary")
            if self.STALE_BANNER:
                yield Static(id=f"{prefix}-stale", classes="stale-banner")
            yield from self.compose_above_table()
            if self.STATUS_PANEL:
                yield StatusPanel(id=f"{prefix}-panel")
            yield RecordTable(
                self.COLUMNS,
                row_key=self.row_key,
                search_text=self.search_text,
                id=f"{prefix}-table",
            )
            yield from self.compose_below_table()
            yield TableFilter(
                f"{prefix}-table", placeholder=_(self.FILTER_PLACEHOLDER), id=f"{prefix}-filter"
            )
        yield Footer()

    def compose_head(self) -> ComposeResult:
        """Above the summary (a title)."""
        yield from ()

    def compose_above_table(self) -> ComposeResult:
        """Between the stale banner and the table."""
        yield from ()

    def compose_below_table(self) -> ComposeResult:
        """Under the table (details of the row under the cursor)."""
        yield from ()

    @property
    def table(self) -> RecordTable[Row]:
        return self.query_one(f"#{self.ID_PREFIX}-table", RecordTable)

    @property
    def panel(self) -> StatusPanel:
        return self.query_one(f"#{self.ID_PREFIX}-panel", StatusPanel)

    @property
    def table_filter(self) -> TableFilter:
        return self.query_one(f"#{self.ID_PREFIX}-filter", TableFilter)

    def on_mount(self) -> None:
        # (GatewayScreen's on_mount runs after this one and the subclass's, and draws.)
        self.table.focus()

    # --- drawing -----------------------------------------------------------------------------

    def show_rows(
        self,
        rows: Sequence[Row] | None,
        *,
        error: GatewayError | None,
        loading: tuple[str, str],
        empty: tuple[str, str],
    ) -> None:
        """The table when there are rows; else the panel: the error that left nothing to
        show, "loading" (``rows`` None: nothing read yet) or "empty". The table is given a
        list only when it is a new one (10,000 rows are re-indexed, re-sorted, re-filtered)."""
        table, panel = self.table, self.panel
        if rows:
            panel.display = False
            table.display = True
            if rows is not self._rows_shown:
                self._rows_shown = rows
                table.set_rows(rows)
            return
        table.display = False
        panel.display = True
        if rows is None and error is not None:
            self.show_error(error)
        elif rows is None:
            panel.show_message(*loading)
        else:
            panel.show_message(*empty)

    def show_error(self, error: GatewayError) -> None:
        """The panel for an error that left nothing to show (screens may explain it better)."""
        self.panel.show_error(error, self.gateway_app.gateway_url, retry_key=self.retry_key)

    @property
    def retry_key(self) -> str | None:
        return self.key_for(self.REFRESH_BINDING) if self.REFRESH_BINDING else None

    def show_stale(
        self,
        loadable: Any,
        what: str,
        reason: str,
        *,
        lines_binding: str | None = None,
        lines: Sequence[str] = (),
    ) -> None:
        """The banner over data kept from an earlier read when the last read failed: when it
        was read, why the refresh failed, the key that retries (and the one that shows the
        gateway's own lines, with ``lines`` under it)."""
        stale = self.query_one(f"#{self.ID_PREFIX}-stale", Static)
        stale.display = loadable.stale
        if not (loadable.stale and loadable.error is not None):
            return
        keys = [_("{key} retries").format(key=self.retry_key)] if self.retry_key else []
        if lines_binding and (lines_key := self.key_for(lines_binding)):
            keys.append(_("{key} shows the gateway's lines").format(key=lines_key))
        at = clock(loadable.updated_at)
        if keys:
            said = _("⚠ Showing {what} from {time} — refresh failed: {reason} ({keys})").format(
                what=what, time=at, reason=reason, keys=", ".join(keys)
            )
        else:
            said = _("⚠ Showing {what} from {time} — refresh failed: {reason}").format(
                what=what, time=at, reason=reason
            )
        text = Text(said)
        for line in lines:
            text.append(f"\n  {line}", style="dim")
        stale.update(text)

    def update_summary(self) -> None:
        """Redraw the summary line (the filter or the sort changed what the table shows)."""

    def view_and_read(self, loadable: Any) -> list[str]:
        """The summary's tail: how the table is filtered and sorted, then "loading…" or when
        the rows were read."""
        parts = self.table.view_summary()
        if loadable.loading:
            parts.append(_("loading…"))
        elif loadable.updated_at is not None:
            parts.append(_("read {time}").format(time=clock(loadable.updated_at)))
        return parts

    def view_changed(self) -> None:
        """The filter or the sort changed what the table shows. Screens extend this hook,
        not the handlers below: Textual runs the handler of every class in the MRO."""
        self.update_summary()

    # --- the filter --------------------------------------------------------------------------

    def action_filter(self) -> None:
        self.table_filter.open()

    def on_table_filter_applied(self, _event: TableFilter.Applied) -> None:
        self.view_changed()

    def on_record_table_sorted(self, _event: RecordTable.Sorted) -> None:
        self.view_changed()

    def action_sort(self) -> None:
        self.table.cycle_sort()

    def close_layer(self) -> bool:
        """Back first clears an open filter, then leaves the screen."""
        return self.table_filter.close()


class InstanceTableScreen(TableScreen[Row]):
    """A TableScreen of one instance's rows, each a JID (``row.jid`` is its key), titled with
    the instance's name (``TITLE_OF``)."""

    # The title over the summary, N_-marked where set: "Contacts of {instance}".
    TITLE_OF: ClassVar[str]

    def __init__(self, instance: str) -> None:
        super().__init__()
        self.instance = instance

    def row_key(self, row: Row) -> str:
        return row.jid  # type: ignore[attr-defined]

    def compose_head(self) -> ComposeResult:
        title = Text(_(self.TITLE_OF).format(instance=self.instance), style="bold")
        yield Static(title, id=f"{self.ID_PREFIX}-title", classes="title")
