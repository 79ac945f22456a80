"""F12: every call the app made, newest first; enter shows one call in full (headers, bodies).

Holds no key: the events never carry it (secret headers are redacted by the client).
"""

from __future__ import annotations

import json

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Static

from gateway_tui.core.api.events import CallEvent, Headers
from gateway_tui.core.state import Topic
from gateway_tui.core.text.formatting import Phrases
from gateway_tui.core.text.i18n import N_, _, decimal, ngettext, number
from gateway_tui.tui.screens.table_screen import TableScreen
from gateway_tui.tui.widgets.record_table import Column, RecordTable

# A body is shown pretty-printed up to this many lines (the rest is counted, not drawn).
BODY_LINES_SHOWN = 400


def _status(event: CallEvent) -> str:
    return str(event.status) if event.status is not None else "—"


def _status_style(event: CallEvent) -> str:
    if event.ok:
        return "green"
    return "red" if event.status is None or event.status >= 500 else "yellow"


CALL_COLUMNS: list[Column[CallEvent]] = [
    Column("time", N_("Time"), lambda e: e.started_at.strftime("%H:%M:%S.%f")[:-3], width=12),
    Column("method", N_("Method"), lambda e: e.method, width=6),
    Column("path", N_("Path"), lambda e: e.path, max_width=48),
    Column("status", N_("Status"), _status, style=_status_style, width=6),
    Column(
        "ms",
        N_("ms"),
        lambda e: f"{e.elapsed_ms:.0f}",
        sort_key=lambda e: e.elapsed_ms,
        width=6,
        drop_priority=2,
    ),
    # Narrow: the error stays readable in the details under the table.
    Column("error", N_("Error"), lambda e: e.error or "", max_width=60, drop_priority=1),
]


def call_search_text(event: CallEvent) -> str:
    """What `/` matches: method, path and status (e.g. "sendList", "404", "DELETE")."""
    return f"{event.method} {event.path} {_status(event)} {event.error or ''}"


def call_details(event: CallEvent) -> Text:
    """The short summary under the table."""
    text = Text()
    text.append(f"{event.method} {event.url}\n", style="bold")
    status = _status(event)
    text.append(
        _("status {status} · {ms} ms · attempt {attempt}").format(
            status=status, ms=decimal(event.elapsed_ms, 1), attempt=event.attempt
        )
    )
    text.append(" · " + _("request id {id}").format(id=event.request_id) + "\n", style="dim")
    for line in (event.error, *event.error_lines):
        if line:
            text.append(f"{line}\n", style="red")
    return text


def pretty_body(raw: object) -> str:
    """A body for reading: JSON indented (strings kept as they are), anything else as it came."""
    if raw is None:
        return ""
    if isinstance(raw, str):
        try:
            raw = json.loads(raw)
        except ValueError:
            return raw
    return json.dumps(raw, indent=2, ensure_ascii=False)


def _append_headers(text: Text, headers: Headers) -> None:
    if not headers:
        text.append("  " + _("(none)") + "\n", style="dim")
    for name, value in headers:
        text.append(f"  {name}: ", style="bold")
        text.append(f"{value}\n")


def _append_body(text: Text, body: str) -> None:
    if not body:
        text.append("  " + _("(empty)") + "\n", style="dim")
        return
    lines = body.splitlines()
    for line in lines[:BODY_LINES_SHOWN]:
        text.append(f"  {line}\n")
    if len(lines) > BODY_LINES_SHOWN:
        more = len(lines) - BODY_LINES_SHOWN
        said = ngettext("… {n} more line", "… {n} more lines", more).format(n=number(more))
        text.append(f"  {said}\n", style="dim")


def call_full_details(event: CallEvent) -> Text:
    """One call in full: the request and the response, headers (secrets redacted) and bodies."""
    text = call_details(event)
    text.append("\n" + _("Request headers") + "\n", style="bold underline")
    _append_headers(text, event.request_headers)
    text.append("\n" + _("Request body") + "\n", style="bold underline")
    _append_body(text, pretty_body(event.request_body))
    text.append("\n" + _("Response headers") + "\n", style="bold underline")
    if event.status is None:
        text.append("  " + _("(no response)") + "\n", style="dim")
    else:
        _append_headers(text, event.response_headers)
        if event.response_size:
            size = event.response_size
            title = ngettext("Response body ({n} byte)", "Response body ({n} bytes)", size).format(
                n=number(size)
            )
        else:
            title = _("Response body")
        text.append(f"\n{title}\n", style="bold underline")
        _append_body(text, pretty_body(event.response_body))
    return text


class RequestLogScreen(TableScreen[CallEvent]):
    HELP_TITLE = N_("Request log")
    ID_PREFIX = "log"
    COLUMNS = CALL_COLUMNS
    FILTER_PLACEHOLDER = N_("filter by method, path or status")
    STATUS_PANEL = False  # the log is the app's own: nothing to load, fail or go stale
    STALE_BANNER = False
    TOPICS = frozenset({Topic.CALLS})

    BINDINGS = [
        Binding("escape", "back", "Back", id="log.back"),
        Binding("enter", "toggle_detail", "Details", id="log.detail"),
        Binding("slash", "filter", "Filter", id="log.filter"),
        Binding("c", "clear", "Clear", id="log.clear"),
        Binding("Y", "copy_curl", "Copy as curl", id="log.copy_curl"),
        Binding("y", "copy_body", "Copy response", id="log.copy_body"),
    ]

    def row_key(self, row: CallEvent) -> str:
        return f"{row.request_id}:{row.attempt}"

    def search_text(self, row: CallEvent) -> str:
        return call_search_text(row)

    def compose_below_table(self) -> ComposeResult:
        yield Static(id="log-details", classes="details")
        with VerticalScroll(id="log-detail-pane"):
            yield Static(id="log-detail")

    @property
    def detail_open(self) -> bool:
        return self.has_class("-detail")

    def refresh_from_state(self) -> None:
        # Newest first by when each call started (the Time column), not by when it finished:
        # a slow call recorded last would sit above calls started after it.
        calls = sorted(reversed(self.state.calls), key=lambda e: e.started_at, reverse=True)
        self.table.set_rows(calls)
        self.update_summary()
        self._show_details()

    def update_summary(self) -> None:
        calls = self.state.calls
        failed = sum(1 for e in calls if not e.ok)
        total = len(calls)
        parts = [
            ngettext("{n} call", "{n} calls", total).format(n=number(total)),
            ngettext("{n} failed", "{n} failed", failed).format(n=number(failed)),
        ]
        if self.table.visible_count != total:
            parts.append(_("showing {n}").format(n=number(self.table.visible_count)))
        hints = self.key_hints(
            ("log.detail", _("details")),
            ("log.filter", _("filter")),
            ("log.copy_body", _("response")),
            ("log.copy_curl", _("curl")),
            ("log.clear", _("clear")),
        )
        parts += hints.split(Phrases.SEPARATOR)
        # Wrapped between phrases: a key never parts from its words (pt-BR and es run longer).
        self.query_one("#log-summary", Static).update(Phrases(parts))

    def on_record_table_cursor_moved(self, _event: RecordTable.CursorMoved) -> None:
        self._show_details()

    def view_changed(self) -> None:
        super().view_changed()
        self._show_details()

    def _show_details(self) -> None:
        event = self.table.cursor_row
        details = self.query_one("#log-details", Static)
        details.update(call_details(event) if event else Text(_("No calls."), style="dim"))
        if self.detail_open:
            none = Text(_("No call selected."), style="dim")
            full = call_full_details(event) if event else none
            self.query_one("#log-detail", Static).update(full)

    def action_toggle_detail(self) -> None:
        self.toggle_class("-detail")
        self._show_details()

    def action_clear(self) -> None:
        self.state.clear_calls()
        self.notify(_("Request log cleared"), markup=False)

    def action_copy_curl(self) -> None:
        event = self.table.cursor_row
        if event is None:
            return
        what = _("curl (the key is read from {variable})").format(variable="$GATEWAY_API_KEY")
        self.copy(event.as_curl(), what)

    def action_copy_body(self) -> None:
        event = self.table.cursor_row
        if event is None or event.response_body is None:
            self.notify(_("No response body to copy"), severity="warning", markup=False)
            return
        self.copy(event.response_body, _("Response body"))

    def close_layer(self) -> bool:
        if super().close_layer():
            return True
        if self.detail_open:
            self.action_toggle_detail()
            return True
        return False
