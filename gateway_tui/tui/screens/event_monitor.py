"""The event monitor: every event of one instance (or of the whole gateway), live.

Time, instance, event and a one-line summary per row, newest first (core/events/summary.py);
enter shows an event's raw JSON, paged. ``/`` filters by event, instance, chat and text
(``event:messages.upsert instance:sales-eu chat:4917 words``), ``p`` pauses (events are kept
and counted meanwhile), ``c`` clears, ``x`` exports what the filter shows as NDJSON. Memory is
a ring of the last N events, said in the summary. Events arriving in a flood are taken in once
per frame, as the app takes the chats' live events. Beside the table, for one instance: its
websocket and webhook settings (read, never written here) against what arrived.

The stream is the monitor's own (core/events/stream.py): it follows the instance's namespace,
and on a 2.x gateway the global one, while the screen is open.
"""

from __future__ import annotations

from collections import OrderedDict
from datetime import datetime
from time import monotonic
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Footer, Input, Static, TextArea

from gateway_tui.core.api.capabilities import EVENTS, notes_for
from gateway_tui.core.events.coverage import Asked, coverage, headline
from gateway_tui.core.events.filters import EventFilter
from gateway_tui.core.events.history import HistoryBook
from gateway_tui.core.events.record import EventRecord
from gateway_tui.core.events.ring import DEFAULT_CAPACITY, EventRing
from gateway_tui.core.events.summary import chat_of, summarize
from gateway_tui.core.state import Topic
from gateway_tui.core.text.i18n import N_, _, ngettext, number
from gateway_tui.core.text.sanitize import json_text, printable
from gateway_tui.tui.screens.base import GatewayScreen
from gateway_tui.tui.screens.table_screen import TableScreen
from gateway_tui.tui.widgets.gateway_bar import GatewayBar
from gateway_tui.tui.widgets.record_table import Column
from gateway_tui.tui.widgets.text_input import TextInput

# Seconds between redraws of the lines around the table while events come, and the least
# between two redraws of the table itself: an event after a quiet spell shows at the next
# frame, a flood redraws the table a few times a second (a frame of the table costs tens of
# milliseconds on a slow machine: at 60 a second the loop would do nothing else, the socket
# would be read late and keys answered in seconds).
LINES_EVERY = 0.25
# In a flood the table is redrawn at most once in this many seconds (a redraw of 5,000 rows
# is the costliest thing the app's loop does in one: the stream's thread needs the rest).
TABLE_EVERY_IN_FLOOD = 1.0
# More events than this in a second is a flood: the table is then redrawn every LINES_EVERY
# (below it, each event shows at the next frame).
FLOOD_PER_SECOND = 20


def _clock(record: EventRecord) -> str:
    return datetime.fromtimestamp(record.time).strftime("%H:%M:%S.%f")[:-3]


_SUMMARIES: OrderedDict[int, str] = OrderedDict()
_SUMMARIES_KEPT = 2 * DEFAULT_CAPACITY


def _summary(record: EventRecord) -> str:
    """The record's summary, worked out once: every frame of a flood measures and draws rows
    that were already there."""
    text = _SUMMARIES.get(record.number)
    if text is None:
        text = _SUMMARIES[record.number] = summarize(record)
        if len(_SUMMARIES) > _SUMMARIES_KEPT:
            _SUMMARIES.popitem(last=False)
    return text


EVENT_COLUMNS: list[Column[EventRecord]] = [
    Column("time", N_("Time"), _clock, sort_key=lambda r: r.number, width=12),
    Column("instance", N_("Instance"), lambda r: r.instance, max_width=20, drop_priority=2),
    Column("event", N_("Event"), lambda r: r.event, max_width=26),
    Column("via", N_("Via"), lambda r: r.via, width=7, drop_priority=1),
    Column("summary", N_("Summary"), _summary),
]


class EventMonitorScreen(TableScreen[EventRecord]):
    HELP_TITLE = N_("Event monitor")
    ID_PREFIX = "events"
    COLUMNS = EVENT_COLUMNS
    STATUS_PANEL = False  # the stream is the screen's own: nothing to load or go stale
    STALE_BANNER = False
    TOPICS = frozenset({Topic.LIFECYCLE})
    CAPACITY: ClassVar[int] = DEFAULT_CAPACITY

    BINDINGS = [
        Binding("escape", "back", "Back", id="events.back"),
        Binding("enter", "raw", "Raw JSON", id="events.raw"),
        Binding("slash", "filter", "Filter", id="events.filter"),
        Binding("p", "pause", "Pause", id="events.pause"),
        Binding("c", "clear", "Clear", id="events.clear"),
        Binding(
            "x",
            "export",
            "Export",
            tooltip=N_("Export what is shown as NDJSON"),
            id="events.export",
        ),
        Binding(
            "L",
            "listen",
            "Listen here",
            tooltip=N_(
                "Point the instance's webhook at a receiver in this app (asked), and put "
                "it back afterwards (asked)"
            ),
            id="events.listen",
        ),
    ]

    def __init__(
        self, instance: str | None = None, *, capacity: int | None = None, listen: bool = False
    ) -> None:
        """``instance``: its events only; None: the whole gateway (every instance known, and
        the global stream on 2.x). ``listen``: offer "listen here" once the webhook is read
        (the webhook screen's way in)."""
        super().__init__()
        self._listen_on_open = listen and instance is not None
        self.instance = instance
        self.ring = EventRing(capacity or self.CAPACITY)
        self.history = HistoryBook()
        self.paused = False
        self.new_while_paused = 0
        self.event_filter = EventFilter()
        self.stream: Any = None
        self._thread: Any = None  # the stream's thread (core/events/stream.py)
        self.exported: Any = None  # the last export's path
        self._pending: list[EventRecord] = []
        self._lines_stale = False
        self._rows_stale = False  # events taken in that the table does not show yet
        self._rows_shown_at = 0.0  # monotonic() of the table's last redraw
        # (when this second began, events taken in since, events of the second before)
        self._window = (0.0, 0, 0)
        self.listening: str | None = None  # the receiver's URL while the webhook points here
        self._restore: Any = None  # the webhook's settings as they were
        self._receiver_task: Any = None

    def row_key(self, row: EventRecord) -> str:
        return str(row.number)

    def search_text(self, row: EventRecord) -> str:
        return ""  # the filter is the monitor's own (event:, instance:, chat:, text)

    # --- layout ------------------------------------------------------------------------------

    def compose_head(self) -> ComposeResult:
        title = (
            _("Events of {instance}").format(instance=self.instance)
            if self.instance
            else _("Events of the whole gateway")
        )
        yield Static(printable(title), id="events-title", classes="title")
        yield Static(id="events-history")

    def compose_above_table(self) -> ComposeResult:
        yield Static(id="events-coverage", classes="details")

    def compose_below_table(self) -> ComposeResult:
        yield TextInput(
            placeholder=_("event:messages.upsert instance:… chat:… words (enter keeps it)"),
            id="events-filter-input",
        )

    def on_mount(self) -> None:
        self.query_one("#events-filter-input", Input).display = False
        self.query_one("#events-coverage", Static).display = self.instance is not None
        self.run_worker(self._follow(), name="Event monitor", group="events", exit_on_error=False)
        self.set_interval(LINES_EVERY, self._redraw_lines)
        if self.instance is not None:
            self.call(
                self.actions.lifecycle.load_websocket(self.instance),
                what=_("Reading the websocket"),
            )
            self.call(
                self.actions.lifecycle.load_webhook(self.instance), what=_("Reading the webhook")
            )

    async def _follow(self) -> None:
        from gateway_tui.core.events.stream import StreamThread

        config = self.gateway_app.config
        key = config.api_key.get_secret_value() if config.api_key else ""
        instances = [self.instance] if self.instance else self._known_instances()
        # The socket is read in a thread of its own: a flood's frames here must not keep it
        # from being read (the server would queue the events, then drop the connection and
        # them when its pings go unanswered).
        self._thread = StreamThread(
            config.url or "",
            key,
            self._from_thread,
            instances=instances,
            global_stream=self.gateway_app.gateway_line.line == "2",
            on_status=lambda _line: self._status_changed(),
        )
        self.stream = self._thread.stream
        await self._thread.run()
        if self.stream.failed and self.is_attached:
            self.notify(
                _("Events: {problem}").format(problem=self.stream.failed),
                severity="warning",
                markup=False,
            )
            self.update_summary()

    def _status_changed(self) -> None:
        self._lines_stale = True
        self.update_summary()

    def _from_thread(self) -> None:
        """Records wait in the stream's thread: taken at the next frame, all at once."""
        if self._thread is not None:
            for record in self._thread.take():
                self.arrived(record)

    def _known_instances(self) -> list[str]:
        return [i.instance_name for i in self.state.instances.value or ()]

    # --- events in -----------------------------------------------------------------------------

    def arrived(self, record: EventRecord) -> None:
        """One event (from the stream, on the app's loop): taken in at the next frame. The
        monitor of one instance keeps only its events (2.x's global stream brings all)."""
        if self.instance is not None and record.instance != self.instance:
            return
        self._pending.append(record)
        if len(self._pending) == 1:
            self.call_after_refresh(self._take)

    def _take(self) -> None:
        records, self._pending = self._pending, []
        if not records or not self.is_attached:
            return
        self.ring.extend(records)
        for record in records:
            self.history.feed(record)
        if self.paused:
            self.new_while_paused += len(records)
        else:
            self._rows_stale = True
            if not self._flooding(len(records)):
                self._show_ring()  # a flood's rows wait for the next tick (_redraw_lines)
        # The lines around the table: a few times a second is enough for counts (a flood
        # brings an event every millisecond).
        self._lines_stale = True

    def _redraw_lines(self) -> None:
        """The rows a flood held back, and the summary, history and coverage lines, when
        events came since (or a sync may have stalled: its line tells by the clock)."""
        if self._pending:
            self._take()  # a frame's call missed (a screen over this one): taken here
        if self._rows_stale and not self.paused:
            if monotonic() - self._rows_shown_at >= TABLE_EVERY_IN_FLOOD:
                self._show_ring()
        syncing = self.instance is not None and self.history.line(self.instance) is not None
        if self._lines_stale or syncing:
            self._lines_stale = False
            self.update_summary()
            self._show_coverage()

    def _flooding(self, count: int) -> bool:
        """Whether events come faster than FLOOD_PER_SECOND (``count`` more just now): this
        second's and the last one's count, so that a flood stays one across seconds."""
        now = monotonic()
        began, seen, before = self._window
        if now - began >= 1.0:
            began, seen, before = now, 0, (seen if now - began < 2.0 else 0)
        seen += count
        self._window = (began, seen, before)
        return seen + before > FLOOD_PER_SECOND

    def _show_ring(self) -> None:
        self._rows_stale = False
        self._rows_shown_at = monotonic()
        self.table.set_rows(list(reversed(self.ring)))

    # --- drawing -------------------------------------------------------------------------------

    def refresh_from_state(self) -> None:
        if self._listen_on_open and self.instance is not None:
            if self.actions.lifecycle.webhook_of(self.instance).value is not None:
                self._listen_on_open = False
                self.call_later(self.action_listen)
        self._show_ring()
        self.update_summary()
        self._show_coverage()

    def update_summary(self) -> None:
        if not self.is_mounted:
            return
        parts = [self.ring.capacity_line()]
        shown = self.table.visible_count
        if not self.event_filter.empty:
            parts.append(
                _("showing {n} ({filter})").format(
                    n=number(shown), filter=self.event_filter.describe()
                )
            )
        if self.paused:
            parts.append(
                ngettext(
                    "paused: {n} new, kept", "paused: {n} new, kept", self.new_while_paused
                ).format(n=number(self.new_while_paused))
            )
        if self.listening:
            parts.append(_("the webhook posts here ({url})").format(url=self.listening))
        stream = self.stream
        if stream is not None and stream.drops:
            parts.append(
                ngettext(
                    "the socket dropped {n} time: events during a gap may be lost",
                    "the socket dropped {n} times: events during a gap may be lost",
                    stream.drops,
                ).format(n=number(stream.drops))
            )
        if stream is not None and stream.failed:
            parts.append(_("no events: {problem}").format(problem=stream.failed))
        elif stream is not None and not stream.connected:
            parts.append(_("connecting…"))
        parts.append(
            self.key_hints(
                ("events.raw", _("raw")),
                ("events.filter", _("filter")),
                ("events.pause", _("resume") if self.paused else _("pause")),
            )
        )
        _update(self.query_one("#events-summary", Static), Text(" · ".join(parts)))
        line = self.history.line(self.instance) if self.instance else None
        history = self.query_one("#events-history", Static)
        history.display = line is not None
        if line is not None:
            stopped = self.history.stopped(self.instance) if self.instance else False
            _update(history, Text(line, style="yellow" if stopped else ""))

    def _show_coverage(self) -> None:
        if self.instance is None or not self.is_mounted:
            return
        websocket = Asked.of(self.actions.lifecycle.websocket_of(self.instance).value)
        webhook = Asked.of(self.actions.lifecycle.webhook_of(self.instance).value)
        rows = coverage(
            self.ring.seen,
            websocket,
            webhook,
            event_names=self.gateway_app.gateway_line.event_names,
            listening=self.listening is not None,
        )
        text = Text(_("Asked for versus arrived") + "\n", style="bold")
        for line in headline(websocket, webhook):
            text.append(printable(line) + "\n")
        # What this gateway's version cannot emit or refuses (core/api/capabilities.py).
        for note in notes_for(self.gateway_app.gateway_version, EVENTS):
            said = _("{version}: {note}").format(
                version=self.gateway_app.gateway_version, note=note
            )
            text.append(printable(said) + "\n", style="yellow")
        flagged = [row for row in rows if row.verdict]
        for row in flagged:
            seen = row.socket_seen + row.global_seen + row.webhook_seen
            said = ngettext(
                "{setting}: {verdict} ({n} seen)", "{setting}: {verdict} ({n} seen)", seen
            ).format(setting=row.setting, verdict=row.said(), n=number(seen))
            text.append(said + "\n", style="yellow")
        quiet = [row for row in rows if not row.verdict and (row.socket_seen or row.global_seen)]
        if quiet:
            counts = ", ".join(
                f"{r.setting} {number(r.socket_seen + r.global_seen)}" for r in quiet
            )
            text.append(_("as asked: {counts}").format(counts=counts) + "\n", style="dim")
        _update(self.query_one("#events-coverage", Static), text)

    # --- keys ----------------------------------------------------------------------------------

    def action_filter(self) -> None:
        field = self.query_one("#events-filter-input", Input)
        field.display = True
        field.focus()

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id != "events-filter-input":
            return
        self.event_filter = EventFilter.parse(event.value)
        self.table.set_predicate(None if self.event_filter.empty else self.event_filter.matches)
        self.update_summary()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "events-filter-input":
            self.table.focus()

    def close_layer(self) -> bool:
        if self.listening is not None:
            self.action_listen()  # asks to put the webhook back first
            return True
        field = self.query_one("#events-filter-input", Input)
        if field.display or field.value:
            field.value = ""
            field.display = False
            self.table.focus()
            return True
        return False

    def action_pause(self) -> None:
        self.paused = not self.paused
        if not self.paused:
            self.new_while_paused = 0
            self._show_ring()
        self.update_summary()

    def action_clear(self) -> None:
        self.ring.clear()
        self.new_while_paused = 0
        self._show_ring()
        self.update_summary()

    # --- listen here: the webhook pointed at a receiver in this app, then put back ----------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "listen" and self.instance is None:
            return None  # one instance's webhook
        return True

    def action_listen(self) -> None:
        from gateway_tui.core.events.receiver import bind
        from gateway_tui.tui.screens.confirm import ConfirmScreen

        if self.instance is None:
            return
        if self.listening is not None:
            body = Text(
                printable(
                    _("Put the webhook of {instance} back as it was: {settings}").format(
                        instance=self.instance, settings=_describe_hook(self._restore)
                    )
                )
            )
            self.app.push_screen(
                ConfirmScreen(_("Stop listening"), body, confirm_label=_("Put it back")),
                self._restore_answered,
            )
            return
        found = self.actions.lifecycle.webhook_of(self.instance).value
        if found is None:
            self.notify(_("The webhook has not been read yet: try again in a moment"), markup=False)
            return
        sock = bind("127.0.0.1", 0)
        url = f"http://127.0.0.1:{sock.getsockname()[1]}/"
        body = Text(
            printable(
                _(
                    "Point the webhook of {instance} at {url} (this app; this machine only: a "
                    "gateway elsewhere cannot reach it), enabled, with the same events. Now: "
                    "{settings}. You are asked again before it is put back."
                ).format(instance=self.instance, url=url, settings=_describe_hook(found))
            )
        )

        def answered(yes: bool | None) -> None:
            if not yes or self.instance is None:
                sock.close()
                return
            self._restore = found
            self._receiver_task = self.run_worker(
                _serve_receiver(self, sock), group="receiver", exit_on_error=False
            )
            pointed = found.model_copy(update={"url": url, "enabled": True})

            def done(_differences: list[str]) -> None:
                self.listening = url
                self._lines_stale = True

            self.call(
                self.actions.lifecycle.save_webhook(self.instance, pointed),
                what=_("Pointing the webhook here"),
                done=_("The webhook posts here now"),
                on_done=done,
            )

        self.app.push_screen(
            ConfirmScreen(_("Listen here"), body, confirm_label=_("Point it here")), answered
        )

    def _restore_answered(self, yes: bool | None) -> None:
        before = self._restore
        if yes and before is not None and self.instance is not None:
            restored = before
            if not before.configured:  # never set: turned off (a URL is needed even then)
                restored = before.model_copy(update={"url": self.listening, "enabled": False})
            self.call(
                self.actions.lifecycle.save_webhook(self.instance, restored),
                what=_("Putting the webhook back"),
                done=_("The webhook is as it was"),
            )
        if self._receiver_task is not None:
            self._receiver_task.cancel()
        self.listening = None
        self._restore = None
        self._lines_stale = True

    def action_raw(self) -> None:
        record = self.table.cursor_row
        if record is not None:
            self.app.push_screen(EventJsonScreen(record))

    def action_export(self) -> None:
        from gateway_tui.core.events.export import export_ndjson
        from gateway_tui.core.files.storage import data_dir, ensure_private_dir

        folder = ensure_private_dir(data_dir() / "exports")
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S-%f")
        whose = "".join(c if c.isalnum() or c in "-_" else "_" for c in self.instance or "gateway")
        path = folder / f"events-{whose}-{stamp}.ndjson"
        shown = self.event_filter.apply(self.ring)
        try:
            count = export_ndjson(shown, path)
        except OSError as error:
            self.notify(
                _("Export failed: {error}").format(error=error.strerror or error),
                severity="error",
                markup=False,
            )
            return
        self.exported = path
        self.notify(
            ngettext("{n} event exported to {path}", "{n} events exported to {path}", count).format(
                n=number(count), path=path
            ),
            title=_("Export"),
            markup=False,
        )


def _describe_hook(settings: Any) -> str:
    if settings is None or not settings.configured:
        return _("never set")
    events = ", ".join(settings.events) if settings.events else _("every event")
    url = settings.url or _("(no URL)")
    if settings.enabled:
        return _("{url}, on, {events}").format(url=url, events=events)
    return _("{url}, off, {events}").format(url=url, events=events)


def _update(widget: Static, text: Text) -> None:
    """Only a change is drawn, and only a change of height costs a layout (a layout of this
    screen takes tens of milliseconds: counts change every quarter second in a flood)."""
    if getattr(widget, "_shown_text", None) == text:
        return
    widget._shown_text = text  # type: ignore[attr-defined]
    width = widget.content_region.width
    same_height = False
    if widget.display and width > 0 and widget.size.height > 0:
        from textual.visual import visualize

        height = visualize(widget, text).get_height(widget.styles, width)
        same_height = height == widget.content_region.height
    widget.update(text, layout=not same_height)


class EventJsonScreen(GatewayScreen):
    """One event's raw JSON, paged (a read-only text area; data, never markup)."""

    HELP_TITLE = N_("An event, raw")
    BINDINGS = [Binding("escape,q", "back", "Back", id="event_json.back")]

    def __init__(self, record: EventRecord) -> None:
        super().__init__()
        self.record = record

    def compose(self) -> ComposeResult:
        yield GatewayBar()
        with Vertical(id="event-json-body"):
            title = f"{self.record.event} · {self.record.instance} · {chat_of(self.record)}"
            yield Static(printable(title.strip(" ·")), classes="title")
            yield TextArea(
                json_text(self.record.as_json(), indent=2, default=str),
                read_only=True,
                id="event-json",
            )
        yield Footer()


async def _serve_receiver(screen: EventMonitorScreen, sock: Any) -> None:
    from gateway_tui.core.events.receiver import WebhookReceiver, serve

    receiver = WebhookReceiver(screen.arrived)
    await serve(receiver.app, sock)
