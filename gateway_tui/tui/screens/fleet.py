"""The fleet: every instance of every profile's gateway in one table, judged, trouble first.

A gateway that cannot list its instances (down, licence-gated, key refused) is one row. Enter
opens the instance on its own gateway (the app switches to that gateway's session). Rows are
marked (space, a range, all shown) and restarted, connected, logged out or deleted together,
after one confirmation naming them all (delete: typed). Alerts come as notices (and the bell)
from any screen; the last ones are shown under the table, the log on a key.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Static

from gateway_tui.core.fleet.batch import (
    BatchAction,
    Outcome,
    RowResult,
    Target,
    confirmation,
    typed_confirmation,
)
from gateway_tui.core.fleet.fleet import FleetRow
from gateway_tui.core.fleet.verdict import Verdict
from gateway_tui.core.text.i18n import N_, _, clock, date_time, decimal, ngettext, number
from gateway_tui.tui.screens.confirm import ConfirmScreen, PromptScreen
from gateway_tui.tui.screens.table_screen import TableScreen
from gateway_tui.tui.widgets.record_table import Column

if TYPE_CHECKING:
    from gateway_tui.core.fleet.monitor import FleetMonitor

VERDICT_STYLE = {
    Verdict.OK: "green",
    Verdict.CONNECTING: "yellow",
    Verdict.CLOSED: "bright_black",
    Verdict.ZOMBIE: "bold magenta",
    Verdict.LICENCE: "bold red",
    Verdict.UNREACHABLE: "bold red",
    Verdict.UNAUTHORIZED: "bold red",
}
VERDICT_WORDS = {
    Verdict.OK: N_("ok"),
    Verdict.CONNECTING: N_("connecting"),
    Verdict.CLOSED: N_("closed"),
    Verdict.ZOMBIE: N_("zombie"),
    Verdict.LICENCE: N_("licence"),
    Verdict.UNREACHABLE: N_("unreachable"),
    Verdict.UNAUTHORIZED: N_("unauthorized"),
}
BATCH_TITLES = {
    BatchAction.RESTART: N_("Restart instances"),
    BatchAction.CONNECT: N_("Connect instances"),
    BatchAction.LOGOUT: N_("Log out instances"),
    BatchAction.DELETE: N_("Delete instances"),
}
BATCH_VERBS = {
    BatchAction.RESTART: N_("Restart"),
    BatchAction.CONNECT: N_("Connect"),
    BatchAction.LOGOUT: N_("Log out"),
    BatchAction.DELETE: N_("Delete"),
}
ALERTS_SHOWN = 2
LIVE = N_("⚡ live")
POLLED = N_("polled")


def verdict_words(verdict: Verdict) -> str:
    """The verdict in the current language (its value is a code: ``health --json`` writes it)."""
    return _(VERDICT_WORDS[verdict])


def _verdict_text(row: FleetRow) -> str:
    words = verdict_words(row.verdict)
    if row.cached:  # never shown as current: the age says how old it is
        return _("{verdict} ({age})").format(verdict=words, age=_age(row))
    return f"{words} ↯" if row.flapping else words


def _age(row: FleetRow) -> str:
    from gateway_tui.core.fleet.head import age

    return age(row.at)


def _when(at: datetime) -> str:
    """An alert's time; with its day when not today (the log keeps the last runs' too)."""
    local = at.astimezone()
    return clock(local) if local.date() == datetime.now().date() else date_time(local)


FLEET_COLUMNS: list[Column[FleetRow]] = [
    Column("mark", "✓", lambda r: "✓" if r.marked else " ", width=1, min_width=1),
    Column(
        "verdict",
        N_("Verdict"),
        _verdict_text,
        style=lambda r: "dim" if r.cached else VERDICT_STYLE[r.verdict],
        sort_key=lambda r: r.sort_key,
        max_width=24,
    ),
    Column("gateway", N_("Gateway"), lambda r: r.gateway, max_width=20),
    Column("instance", N_("Instance"), lambda r: r.instance or _("(gateway)"), max_width=28),
    Column("state", N_("State"), lambda r: r.status, width=10, drop_priority=3),
    Column("number", N_("Number"), lambda r: r.number or "—", max_width=20, drop_priority=4),
    Column("version", N_("Version"), lambda r: r.version or "?", max_width=14, drop_priority=5),
    Column(
        "new",
        N_("New"),
        lambda r: "—" if r.new_messages is None else number(r.new_messages),
        sort_key=lambda r: r.new_messages,
        width=5,
        drop_priority=6,
    ),
    # 7 cells in English ("⚡ live"); "⚡ ao vivo" / "consultada" need up to 10.
    Column("link", N_("Link"), lambda r: r.link, min_width=7, max_width=10, drop_priority=7),
    Column(
        "disconnected",
        N_("Last disconnection"),
        lambda r: r.last_disconnection or "—",
        max_width=40,
        drop_priority=2,
    ),
    # The reason in full is under the table, for the row under the cursor.
    Column("reason", N_("Why"), lambda r: r.reason, max_width=60, drop_priority=8),
]


class FleetScreen(TableScreen[FleetRow]):
    HELP_TITLE = N_("Fleet")
    ID_PREFIX = "fleet"
    COLUMNS = FLEET_COLUMNS
    FILTER_PLACEHOLDER = N_("filter by gateway, instance, verdict or reason")
    REFRESH_BINDING = "fleet.refresh"
    STALE_BANNER = False

    BINDINGS = [
        Binding("enter", "open", "Open", id="fleet.open", show=True),
        Binding("slash", "filter", "Filter", id="fleet.filter"),
        Binding("r", "refresh", "Refresh", id="fleet.refresh"),
        Binding("s", "sort", "Sort", id="fleet.sort", show=False),
        Binding("space", "mark", "Mark", id="fleet.mark"),
        Binding("v", "mark_range", "Mark up to here", id="fleet.mark_range", show=False),
        Binding("A", "mark_all", "Mark all shown", id="fleet.mark_all", show=False),
        Binding("U", "unmark_all", "Unmark all", id="fleet.unmark_all", show=False),
        Binding("R", "batch('restart')", "Restart marked", id="fleet.restart"),
        Binding("C", "batch('connect')", "Connect marked", id="fleet.connect", show=False),
        Binding("L", "batch('logout')", "Log out marked", id="fleet.logout", show=False),
        Binding("ctrl+d", "batch('delete')", "Delete marked", id="fleet.delete", show=False),
        Binding("l", "alert_log", "Alert log", id="fleet.alert_log"),
        Binding(
            "E",
            "events",
            "Events",
            tooltip=N_("The event monitor of the instance, on its own gateway"),
            id="fleet.events",
            show=False,
        ),
        Binding("escape", "back", "Back", id="fleet.back", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        self._marks: set[str] = set()
        self._last_marked: str | None = None
        self._results: dict[str, RowResult] = {}
        self._unsubscribe: Callable[[], None] = lambda: None
        self._redraw_queued = False
        self._batch_running = False
        self._cached: list[FleetRow] | None = None  # the last run's rows, until read anew

    @property
    def monitor(self) -> FleetMonitor:
        return self.gateway_app.fleet

    def row_key(self, row: FleetRow) -> str:
        return row.key

    def search_text(self, row: FleetRow) -> str:
        return " ".join(
            (
                row.gateway,
                row.instance or "",
                row.verdict.value,
                verdict_words(row.verdict),
                row.reason,
                row.number,
            )
        )

    def compose_below_table(self) -> ComposeResult:
        yield Static(id="fleet-detail", classes="summary")
        yield Static(id="fleet-alerts", classes="summary")

    def on_mount(self) -> None:
        if not self.monitor.readings:
            self._cached = self.monitor.cached_rows()
        self._unsubscribe = self.monitor.subscribe(self._monitor_changed)
        # After the first frame: the rows kept at the last run are drawn before any reading
        # (twenty lists of 500 parsed on the loop) holds the loop.
        self.call_after_refresh(self.monitor.start)
        self.table.sort_by("verdict", reverse=False)

    def on_unmount(self) -> None:
        self._unsubscribe()

    def _monitor_changed(self) -> None:
        # Coalesced: the readings of several gateways coming in one frame are drawn once.
        if not self._redraw_queued and self.is_attached:
            self._redraw_queued = True
            self.call_after_refresh(self._redraw)

    def _redraw(self) -> None:
        self._redraw_queued = False
        if self.is_attached:
            self.refresh_from_state()

    # --- drawing -----------------------------------------------------------------------------

    def refresh_from_state(self) -> None:
        monitor = self.monitor
        rows = monitor.rows() if monitor.readings else None
        if self._cached:
            read = set(monitor.readings)
            self._cached = [row for row in self._cached if row.gateway not in read]
            rows = sorted([*(rows or []), *self._cached], key=lambda r: r.sort_key)
        for row in rows or ():
            row.marked = row.key in self._marks
            row.link = self._link(row)
        keys = {row.key for row in rows or ()}
        self._marks &= keys
        self.show_rows(
            rows,
            error=None,
            loading=(_("Reading every gateway…"), _("Each profile's gateway is asked at once.")),
            empty=(_("No gateway"), _("Add profiles to the config file to see them here.")),
        )
        self.update_summary()
        self._show_detail()
        self._show_alerts()

    def on_record_table_cursor_moved(self, _event: Any) -> None:
        self._show_detail()

    def _show_detail(self) -> None:
        """The cursor row's verdict and why, in full; what its gateway's version cannot do."""
        from gateway_tui.core.api.capabilities import limit_named, version_note

        row = self.table.cursor_row if self.table.display else None
        widget = self.query_one("#fleet-detail", Static)
        widget.display = row is not None
        if row is None:
            return
        who = f"{row.gateway} / {row.instance}" if row.instance else row.gateway
        verdict = verdict_words(row.verdict)
        text = Text(
            _("{who}: {verdict} — {reason}").format(who=who, verdict=verdict, reason=row.reason)
        )
        text.highlight_words([f"{who}:"], style="bold")
        start = text.plain.find(verdict, len(who))
        if start >= 0:
            text.stylize(VERDICT_STYLE[row.verdict], start, start + len(verdict))
        reading = self.monitor.readings.get(row.gateway)
        note = version_note(reading.version) if reading else None
        cannot = list(row.limits)
        if note:
            text.append(f"\n{note}", style="dim")
        elif cannot:
            short = "; ".join(limit_named(key).said_short() for key in cannot)
            said = (
                _("{version}: {limits}").format(version=row.version, limits=short)
                if row.version
                else _("this version: {limits}").format(limits=short)
            )
            text.append(f"\n{said}", style="dim")
        if row.instance and not row.cached:
            text.append(f"\n{row.link}: {self._link_reason(row)}", style="dim")
        widget.update(text)

    def _link(self, row: FleetRow) -> str:
        """ "⚡ live" only where that instance's events arrive on the app's own socket."""
        host = self.gateway_app
        current = host.config.profile
        if row.instance and row.gateway == current and host.live_for(row.instance):
            return _(LIVE)
        return _(POLLED)

    def _link_reason(self, row: FleetRow) -> str:
        """Why the row is live or polled, true for every gateway of the fleet."""
        host = self.gateway_app
        interval = self.monitor.interval
        seconds = decimal(interval, 0 if interval == int(interval) else 1)
        if row.gateway != host.config.profile:
            in_use = host.config.profile or host.config.url
            return _(
                "read every {seconds} s by the fleet: this app listens live to the gateway in use"
                " ({gateway}) only"
            ).format(seconds=seconds, gateway=in_use)
        if row.instance is None or (why := host.polling_reason(row.instance)) is None:
            return _("its events arrive on the app's socket")
        return _("read every {seconds} s by the fleet: {why}").format(seconds=seconds, why=why)

    def update_summary(self) -> None:
        monitor = self.monitor
        rows = list(self.table.rows)
        gateways = len(monitor.gateways)
        instances = sum(1 for row in rows if row.instance)
        trouble = sum(1 for row in rows if row.verdict is not Verdict.OK)
        parts = [
            ngettext("{n} gateway", "{n} gateways", gateways).format(n=number(gateways)),
            ngettext("{n} instance", "{n} instances", instances).format(n=number(instances)),
        ]
        if trouble:
            parts.append(_("{n} not ok").format(n=number(trouble)))
        shown = self.table.visible_count
        if rows and shown != len(rows):
            parts.append(ngettext("{n} shown", "{n} shown", shown).format(n=number(shown)))
        if marked := len(self._marks):
            parts.append(ngettext("{n} marked", "{n} marked", marked).format(n=number(marked)))
        if unseen := monitor.alerts_unseen:
            parts.append(
                ngettext(
                    "{n} new alert since last seen ({key})",
                    "{n} new alerts since last seen ({key})",
                    unseen,
                ).format(n=number(unseen), key=self.key_for("fleet.alert_log"))
            )
        parts += self.table.view_summary()
        if cached := sum(1 for row in rows if row.cached):
            parts.append(
                ngettext(
                    "{n} row from the last run, dimmed, until read again",
                    "{n} rows from the last run, dimmed, until read again",
                    cached,
                ).format(n=number(cached))
            )
        if (since := monitor.refreshed_at) is not None:
            parts.append(
                _("every gateway read since {time}").format(time=clock(since.astimezone()))
            )
        else:
            left = len(monitor.gateways) - len(monitor.readings)
            parts.append(
                ngettext("reading {n} gateway…", "reading {n} gateways…", left).format(
                    n=number(left)
                )
            )
        self.query_one("#fleet-summary", Static).update(Text(" · ".join(parts)))

    def _show_alerts(self) -> None:
        alerts = self.monitor.alerts[-ALERTS_SHOWN:]
        widget = self.query_one("#fleet-alerts", Static)
        widget.display = bool(alerts)
        text = Text()
        width = max(20, self.size.width - 2)  # one line each: the log (`l`) has them whole
        for alert in reversed(alerts):
            line = Text(f"⚠ {_when(alert.at)} ", style="yellow")
            line.append(alert.summary())
            line.truncate(width, overflow="ellipsis")
            if text:
                text.append("\n")
            text.append_text(line)
        widget.update(text)

    # --- actions -----------------------------------------------------------------------------

    def action_refresh(self) -> None:
        self.run_worker(self.monitor.refresh(), group="fleet-refresh", exit_on_error=False)

    def action_open(self) -> None:
        row = self.table.cursor_row
        if row is None:
            return
        if row.instance is None or row.cached:
            self.notify(row.reason, title=row.gateway, severity="warning", markup=False)
            return
        self.monitor.mark_seen(row.gateway, row.instance)
        self.gateway_app.open_fleet_instance(row.gateway, row.instance)

    def action_events(self) -> None:
        """The event monitor of the row's instance, on its own gateway (issue 31)."""
        from gateway_tui.tui.screens.event_monitor import EventMonitorScreen

        row = self.table.cursor_row
        if row is None:
            return
        if row.instance is None or row.cached:
            self.notify(row.reason, title=row.gateway, severity="warning", markup=False)
            return
        instance, app = row.instance, self.gateway_app
        app.on_fleet_gateway(row.gateway, lambda: app.push_screen(EventMonitorScreen(instance)))

    def on_record_table_row_selected(self, event: Any) -> None:
        event.stop()
        self.action_open()

    def _toggle(self, row: FleetRow, on: bool | None = None) -> None:
        if row.instance is None or row.cached:
            return  # a gateway's own row, or one not read yet: nothing to act on
        wanted = (row.key not in self._marks) if on is None else on
        if wanted:
            self._marks.add(row.key)
        else:
            self._marks.discard(row.key)
        row.marked = wanted

    def _marks_changed(self) -> None:
        self.table.redraw_rows()
        self.update_summary()

    def action_mark(self) -> None:
        row = self.table.cursor_row
        if row is None:
            return
        self._toggle(row)
        self._last_marked = row.key
        self._marks_changed()
        self.table.action_cursor_down()

    def action_mark_range(self) -> None:
        """Mark every shown row from the last one marked to the cursor."""
        table = self.table
        rows = list(table.visible_rows)
        cursor = table.cursor_index
        keys = [row.key for row in rows]
        start = keys.index(self._last_marked) if self._last_marked in keys else cursor
        low, high = sorted((start, cursor))
        for row in rows[low : high + 1]:
            self._toggle(row, True)
        self._marks_changed()

    def action_mark_all(self) -> None:
        for row in self.table.visible_rows:
            self._toggle(row, True)
        self._marks_changed()

    def action_unmark_all(self) -> None:
        for row in self.table.rows:
            row.marked = False
        self._marks.clear()
        self._marks_changed()

    def marked_targets(self) -> list[Target]:
        """The marked rows, in the order shown; the cursor row when none is marked."""
        rows = [row for row in self.table.visible_rows if row.key in self._marks]
        if not rows and (row := self.table.cursor_row) is not None and row.instance:
            rows = [row]
        return [Target(row.gateway, row.instance) for row in rows if row.instance]

    def action_batch(self, name: str) -> None:
        action = BatchAction(name)
        targets = self.marked_targets()
        if not targets:
            mark = self.key_for("fleet.mark")
            self.notify(
                _("Nothing to {action}: mark instances with {key}").format(
                    action=action.words, key=mark
                ),
                markup=False,
            )
            return
        if self._batch_running:
            self.notify(_("A batch is still running: wait for its results."), markup=False)
            return
        question = confirmation(action, targets)
        if action is BatchAction.DELETE:
            typed = typed_confirmation(targets)
            body = Text(
                _("{question}\nThe gateways remove them for good. Type “{typed}” to go on.").format(
                    question=question, typed=typed
                )
            )

            def typed_back(text: str | None) -> None:
                if text is not None and text.strip() == typed:
                    self._run_batch(action, targets)
                elif text is not None:
                    self.notify(_("Not deleted: the text typed did not match."), markup=False)

            self.app.push_screen(
                PromptScreen(_(BATCH_TITLES[action]), body, placeholder=typed), typed_back
            )
            return
        self.app.push_screen(
            ConfirmScreen(_(BATCH_TITLES[action]), Text(question)),
            lambda yes: self._run_batch(action, targets) if yes else None,
        )

    def _run_batch(self, action: BatchAction, targets: list[Target]) -> None:
        self._batch_running = True

        async def run() -> None:
            try:
                results = await self.monitor.run_batch(action, targets, self._row_result)
            finally:
                self._batch_running = False
            self._report(action, results)

        self.run_worker(run(), group="fleet-batch", exit_on_error=False)

    def _row_result(self, result: RowResult) -> None:
        self._results[f"{result.target.gateway}\x1f{result.target.instance}"] = result

    def _report(self, action: BatchAction, results: list[RowResult]) -> None:
        done = [r for r in results if r.outcome is Outcome.DONE]
        lines = [
            _("{target}: {outcome} — {detail}").format(
                target=r.target, outcome=r.outcome.label, detail=r.text
            )
            for r in results
            if not r.ok
        ]
        title = ngettext(
            "{action}: {done} of {n} done", "{action}: {done} of {n} done", len(results)
        ).format(action=_(BATCH_VERBS[action]), done=number(len(done)), n=number(len(results)))
        if lines:
            self.notify("\n".join(lines), title=title, severity="warning", timeout=20, markup=False)
        else:
            self.notify(title, markup=False)
        self._marks.clear()
        self.refresh_from_state()

    def action_alert_log(self) -> None:
        alerts = self.monitor.alerts
        if not alerts:
            self.notify(_("No alert yet."), markup=False)
            return
        shown = [
            _("{time} {alert}").format(time=_when(a.at), alert=a.summary()) for a in alerts[-15:]
        ]
        self.notify(
            "\n".join(reversed(shown)),
            title=_("Alerts ({n})").format(n=number(len(alerts))),
            timeout=30,
            markup=False,
        )
        self.monitor.alerts_looked_at()
