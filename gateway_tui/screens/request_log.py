"""F12: every call the app made, newest first. Holds no key: events never carry it."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Footer, Static

from gateway_tui.api.events import CallEvent
from gateway_tui.screens.base import GatewayScreen
from gateway_tui.state import Topic
from gateway_tui.widgets.gateway_bar import GatewayBar
from gateway_tui.widgets.record_table import Column, RecordTable


def _status(event: CallEvent) -> str:
    return str(event.status) if event.status is not None else "—"


def _status_style(event: CallEvent) -> str:
    if event.ok:
        return "green"
    return "red" if event.status is None or event.status >= 500 else "yellow"


CALL_COLUMNS: list[Column[CallEvent]] = [
    Column("time", "Time", lambda e: e.started_at.strftime("%H:%M:%S.%f")[:-3], width=12),
    Column("method", "Method", lambda e: e.method, width=6),
    Column("path", "Path", lambda e: e.path, max_width=48),
    Column("status", "Status", _status, style=_status_style, width=6),
    Column("ms", "ms", lambda e: f"{e.elapsed_ms:.0f}", sort_key=lambda e: e.elapsed_ms, width=6),
    Column("error", "Error", lambda e: e.error or "", max_width=60),
]


def call_details(event: CallEvent) -> Text:
    text = Text()
    text.append(f"{event.method} {event.url}\n", style="bold")
    status = _status(event)
    text.append(f"status {status} · {event.elapsed_ms:.1f} ms · attempt {event.attempt}")
    text.append(f" · request id {event.request_id}\n", style="dim")
    for line in (event.error, *event.error_lines):
        if line:
            text.append(f"{line}\n", style="red")
    return text


class RequestLogScreen(GatewayScreen):
    HELP_TITLE = "Request log"
    TOPICS = frozenset({Topic.CALLS})

    BINDINGS = [
        Binding("escape", "back", "Back", id="log.back"),
        Binding("c", "copy_curl", "Copy as curl", id="log.copy_curl"),
    ]

    def compose(self) -> ComposeResult:
        yield GatewayBar()
        with Vertical(id="log-body"):
            yield Static(id="log-summary", classes="summary")
            yield RecordTable(
                CALL_COLUMNS, row_key=lambda e: f"{e.request_id}:{e.attempt}", id="log-table"
            )
            yield Static(id="log-details", classes="details")
        yield Footer()

    @property
    def table(self) -> RecordTable[CallEvent]:
        return self.query_one("#log-table", RecordTable)

    def on_mount(self) -> None:
        self.table.focus()

    def refresh_from_state(self) -> None:
        calls = list(reversed(self.state.calls))
        self.table.set_rows(calls)
        failed = sum(1 for e in calls if not e.ok)
        self.query_one("#log-summary", Static).update(
            Text(f"{len(calls)} calls · {failed} failed · c copies the call as curl")
        )
        self._show_details()

    def on_record_table_cursor_moved(self, _event: RecordTable.CursorMoved) -> None:
        self._show_details()

    def _show_details(self) -> None:
        event = self.table.cursor_row
        details = self.query_one("#log-details", Static)
        details.update(call_details(event) if event else Text("No calls yet.", style="dim"))

    def action_copy_curl(self) -> None:
        event = self.table.cursor_row
        if event is None:
            return
        self.app.copy_to_clipboard(event.as_curl())
        self.notify("Copied as curl (the key is read from $GATEWAY_API_KEY)", markup=False)

    def action_back(self) -> None:
        self.app.pop_screen()
