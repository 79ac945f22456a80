"""Home: every instance of the gateway, filterable, sortable, one key from each action."""

from __future__ import annotations

from textual.binding import Binding
from textual.widgets import Static

from gateway_tui.core.api.errors import BadRequest, GatewayError, NotFound
from gateway_tui.core.api.lifecycle import integration_shown
from gateway_tui.core.api.lists import unreadable_names_of, unreadable_of
from gateway_tui.core.api.models import Instance, InstanceStatus
from gateway_tui.core.state import Topic
from gateway_tui.core.text.formatting import (
    Phrases,
    clock,
    disconnect_text,
    format_number,
    status_cell,
    status_style,
)
from gateway_tui.core.text.i18n import N_, _, ngettext, number
from gateway_tui.core.text.sanitize import printable
from gateway_tui.tui.screens.confirm import ConfirmScreen
from gateway_tui.tui.screens.lifecycle_keys import bold_name, report_reread
from gateway_tui.tui.screens.new_instance import NewInstanceResult, NewInstanceScreen
from gateway_tui.tui.screens.table_screen import TableScreen
from gateway_tui.tui.widgets.record_table import Column, RecordTable

# How often the rows in view have their connection state asked (at most; see on_mount).
LIVE_STATE_SECONDS = 5.0

# The status filter cycles through these; None shows every instance.
STATUS_FILTERS: list[InstanceStatus | None] = [None, *InstanceStatus]

INSTANCE_COLUMNS: list[Column[Instance]] = [
    Column("name", N_("Name"), lambda i: i.instance_name, max_width=32),
    Column(
        "status",
        N_("Status"),
        lambda i: status_cell(i.status, i.status_kind),
        style=lambda i: status_style(i.status_kind),
        sort_key=lambda i: (list(InstanceStatus).index(i.status_kind), i.status),
        width=14,
    ),
    Column(
        "owner",
        N_("Owner"),
        lambda i: format_number(i.owner_number) if i.owner_number else "—",
        sort_key=lambda i: i.owner_number or None,
        max_width=22,
    ),
    # On a narrow terminal the integration goes first, then the profile name.
    Column(
        "profile",
        N_("Profile name"),
        lambda i: i.profile_name or "—",
        max_width=28,
        drop_priority=1,
    ),
    Column(
        "integration",
        N_("Integration"),
        # The line's default where the gateway names none (the instance view says "default").
        lambda i: integration_shown(i.integration_name, say_default=False),
        max_width=20,
        drop_priority=2,
    ),
    # 2.x only: a 1.7.1 gateway does not say why or when an instance was disconnected.
    Column(
        "disconnected",
        N_("Disconnected"),
        lambda i: disconnect_text(i.disconnection_reason_code, i.disconnection_at) or "—",
        sort_key=lambda i: i.disconnection_at or None,
        max_width=34,
        drop_priority=3,
        only_when=lambda i: bool(i.disconnection_reason_code or i.disconnection_at),
    ),
]


def instance_search_text(instance: Instance) -> str:
    """What `/` matches: name, owner (digits and formatted) and profile name."""
    return " ".join(
        (
            instance.instance_name,
            instance.owner_number,
            format_number(instance.owner_number),
            instance.profile_name or "",
        )
    )


class InstancesScreen(TableScreen[Instance]):
    HELP_TITLE = N_("Instances")
    ID_PREFIX = "instances"
    COLUMNS = INSTANCE_COLUMNS
    FILTER_PLACEHOLDER = N_("filter by name, owner or profile")
    REFRESH_BINDING = "instances.refresh"
    TOPICS = frozenset({Topic.INSTANCES})

    BINDINGS = [
        Binding("enter", "open", "Open", id="instances.open", show=True),
        Binding("slash", "filter", "Filter", id="instances.filter"),
        Binding("f", "status_filter", "Status filter", id="instances.status_filter"),
        Binding("r", "refresh", "Refresh", id="instances.refresh"),
        Binding("s", "sort", "Sort", id="instances.sort", show=False),
        Binding("c", "copy_name", "Copy name", id="instances.copy_name", show=False),
        Binding("y", "copy_id", "Copy id", id="instances.copy_id", show=False),
        Binding("ctrl+d", "delete", "Delete", id="instances.delete"),
        Binding("n", "new_instance", "New", id="instances.new"),
        Binding("C", "connect", "Connect (QR)", id="instances.connect"),
        Binding(
            "d", "unreadable", "Why instances were skipped", id="instances.unreadable", show=False
        ),
        # Home: back only clears the filter (the id stays: a [keys] remap names it).
        Binding("escape", "back", "Clear filter", id="instances.clear_filter", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        self._status_filter: InstanceStatus | None = None
        self._failed_state_checks: set[str] = set()  # in the last round of live state checks

    def row_key(self, row: Instance) -> str:
        return row.instance_name

    def search_text(self, row: Instance) -> str:
        return instance_search_text(row)

    def on_mount(self) -> None:
        # Only when nothing was asked yet: the app asks at start, and a load that already
        # failed (a wrong key) is shown in the panel, not sent and reported a second time.
        loadable = self.state.instances
        if loadable.value is None and loadable.error is None and not loadable.loading:
            self.action_refresh()
        interval = self.gateway_app.config.refresh_interval
        if interval and interval > 0:
            self.set_interval(interval, self._refresh_on_interval, name="auto-refresh")
            live = min(interval, LIVE_STATE_SECONDS)
            self.set_interval(live, self._check_states_in_view, name="live-state")

    def on_screen_resume(self) -> None:
        # (GatewayScreen's on_screen_resume runs too, after this one: it redraws.)
        self.actions.instances.select(None)  # back on the list: the header names no instance
        loadable, interval = self.state.instances, self.gateway_app.config.refresh_interval
        # A list older than the refresh interval (the user was away): read it now, not at
        # the timer's next tick, so "updated" is never older than the interval says.
        if interval and interval > 0 and loadable.updated_at is not None:
            if (self.state.now() - loadable.updated_at).total_seconds() >= interval:
                self._refresh_on_interval()

    # --- drawing from state ----------------------------------------------------------------------

    def refresh_from_state(self) -> None:
        loadable = self.state.instances
        new_key = self.key_for("instances.new")
        self.show_rows(
            loadable.value,
            error=loadable.error,
            loading=(_("Loading instances…"), _("Asking the gateway for its instances.")),
            empty=(
                _("No instances on this gateway"),
                _("Create one with {key}.").format(key=new_key),
            ),
        )
        self.show_stale(loadable, "data", loadable.error.summary if loadable.error else "")
        if loadable.value is None and loadable.error is None:
            self._show_kept_rows()
        self.update_summary()
        if loadable.value and not loadable.loading:  # for the next start's first frame
            columns = INSTANCE_COLUMNS[:5]
            rows = self.table.rows[:120]
            self.gateway_app.keep_instance_rows([tuple(c.text(r) for c in columns) for r in rows])

    def _show_kept_rows(self) -> None:
        """Before the gateway's first answer: the rows this launch kept at the last run, in the
        loading panel, dimmed and with their age (never as current)."""
        from gateway_tui.core.fleet.head import age
        from gateway_tui.tui.screens.starting import instances_table

        kept = self.gateway_app.kept_instances
        if kept is None:
            return
        width = max(self.size.width - 10, 20)  # inside the panel's border and padding
        table = instances_table(kept, self.size.height - 9).plain.split("\n")
        lines = [line if len(line) <= width else line[: width - 1] + "…" for line in table]
        self.panel.show_message(
            _("Loading instances…"),
            ngettext(
                "Asking the gateway. Until it answers, the instance it listed at the last run "
                "({age}), not current:",
                "Asking the gateway. Until it answers, the {n} instances it listed at the last "
                "run ({age}), not current:",
                kept.total,
            ).format(n=number(kept.total), age=age(kept.at)),
            lines,
        )

    def leave(self) -> None:
        pass  # the home screen: nothing under it to go back to

    def update_summary(self) -> None:
        loadable = self.state.instances
        total = len(loadable.value or ())
        shown = self.table.visible_count if loadable.value else 0
        if shown != total:
            counted = ngettext("{shown} of {n} instance", "{shown} of {n} instances", total)
        else:
            counted = ngettext("{n} instance", "{n} instances", total)
        parts = [counted.format(shown=number(shown), n=number(total))]
        if skipped := len(unreadable_of(loadable.value)):
            why = self.key_for("instances.unreadable")
            named = _named(unreadable_names_of(loadable.value))
            parts.append(
                ngettext(
                    "{n} instance could not be read{named} — {key} shows why",
                    "{n} instances could not be read{named} — {key} shows why",
                    skipped,
                ).format(n=number(skipped), named=named, key=why)
            )
        if self._status_filter is not None:
            parts.append(_("status: {status}").format(status=self._status_filter.value))
        parts += self.table.view_summary()
        if loadable.loading:
            parts.append(_("refreshing…"))
        else:
            parts.append(_("updated {time}").format(time=clock(loadable.updated_at)))
        if checked := self.state.lifecycle.checked_at:
            parts.append(_("states checked {time}").format(time=clock(max(checked.values()))))
        # Only instances still listed: a deleted one's failed check says nothing any more.
        if failed := sum(self.state.instance(n) is not None for n in self._failed_state_checks):
            parts.append(
                ngettext("⚠ {n} state check failed", "⚠ {n} state checks failed", failed).format(
                    n=number(failed)
                )
            )
        # Wrapped between phrases, never inside one (a longer language needs two lines).
        self.query_one("#instances-summary", Static).update(Phrases(parts))

    # --- actions ---------------------------------------------------------------------------

    def action_refresh(self) -> None:
        self.call(
            self.actions.instances.refresh_instances(),
            what=_("Refreshing instances"),
            group="instances",
            exclusive=True,
        )

    def _refresh_on_interval(self) -> None:
        if self.state.instances.loading or not self.in_view:
            return
        # The stale banner says a failure (a toast every interval would not help; a refused
        # key is told once): read_by_itself.
        refresh = self.actions.instances.refresh_instances()
        self.run_worker(
            self.read_by_itself(refresh, _("Refreshing the instances")),
            group="instances",
            exclusive=True,
            exit_on_error=False,
        )

    def action_open(self) -> None:
        instance = self.table.cursor_row
        if instance is not None:
            self.gateway_app.open_instance(instance.instance_name)

    def on_record_table_row_selected(self, event: RecordTable.RowSelected) -> None:
        event.stop()
        self.gateway_app.open_instance(event.key)

    def action_status_filter(self) -> None:
        # Only statuses some instance has: a filter that shows nothing is a dead end.
        present = {i.status_kind for i in self.state.instances.value or ()}
        cycle = [s for s in STATUS_FILTERS if s is None or s in present]
        position = cycle.index(self._status_filter) if self._status_filter in cycle else 0
        self._status_filter = cycle[(position + 1) % len(cycle)]
        wanted = self._status_filter
        self.table.set_predicate(None if wanted is None else lambda i: i.status_kind == wanted)
        self.update_summary()

    def action_copy_name(self) -> None:
        self._copy(
            lambda i: i.instance_name, _("Nothing to copy: no name here"), _("Instance name")
        )

    def action_copy_id(self) -> None:
        self._copy(
            lambda i: i.instance_id or "", _("Nothing to copy: no id here"), _("Instance id")
        )

    def _copy(self, pick, nothing: str, what: str) -> None:
        instance = self.table.cursor_row
        if instance is None or not pick(instance):
            self.notify(nothing, severity="warning", markup=False)
            return
        self.copy(pick(instance), what)

    def action_unreadable(self) -> None:
        reasons = unreadable_of(self.state.instances.value)
        if not reasons:
            self.notify(_("Every instance in the last answer could be read."), markup=False)
            return
        shown = "\n".join(reasons[:10])
        if len(reasons) > 10:
            more = len(reasons) - 10
            shown += "\n" + ngettext("…and {n} more", "…and {n} more", more).format(n=number(more))
        count = len(reasons)
        self.notify(
            _("Skipped, the rest is shown:\n{reasons}").format(reasons=shown),
            title=ngettext(
                "{n} instance could not be read", "{n} instances could not be read", count
            ).format(n=number(count)),
            severity="warning",
            timeout=20,
            markup=False,
        )

    def action_delete(self) -> None:
        instance = self.table.cursor_row
        if instance is None:
            return
        name = instance.instance_name
        if instance.status_kind == InstanceStatus.OPEN:
            self._offer_logout(name)
            return
        body = bold_name(_("Delete instance {name}? The gateway removes it for good."), name)
        self.app.push_screen(
            ConfirmScreen(_("Delete instance"), body, confirm_label=_("Delete")),
            lambda yes: self._delete(name) if yes else None,
        )

    def _delete(self, name: str) -> None:
        def refused(error: GatewayError) -> bool:
            # Our list said it was not open, but the gateway says it is connected now.
            if isinstance(error, BadRequest) and "disconnected" in " ".join(error.messages):
                self._offer_logout(name)
                return True
            if isinstance(error, NotFound) and not error.route_missing:
                self.notify(
                    _("{name} no longer exists on the gateway: removed from the list.").format(
                        name=name
                    ),
                    title=_("Already gone"),
                    severity="warning",
                    markup=False,
                )
                return True
            return False

        self.call(
            self.actions.instances.delete_instance(name),
            what=_("Deleting {name}").format(name=name),
            done=_("Deleted {name}").format(name=name),
            on_error=refused,
        )

    def _offer_logout(self, name: str) -> None:
        body = bold_name(
            _(
                "{name} is connected (open). A gateway refuses to delete a connected instance: "
                "it must be logged out first. Log it out now? You can delete it afterwards."
            ),
            name,
        )
        self.app.push_screen(
            ConfirmScreen(_("Log out first"), body, confirm_label=_("Log out")),
            lambda yes: self._logout(name) if yes else None,
        )

    def _logout(self, name: str) -> None:
        def unsupported(error: GatewayError) -> bool:
            if not (isinstance(error, NotFound) and error.route_missing):
                return False
            self.notify(
                _(
                    "This gateway has no logout endpoint: disconnect the instance "
                    "from its manager, then delete it."
                ),
                severity="warning",
                markup=False,
            )
            return True

        self.call(
            self.actions.instances.logout_instance(name),
            what=_("Logging out {name}").format(name=name),
            done=_("Logged out {name}; {key} deletes it now").format(
                name=name, key=self.key_for("instances.delete")
            ),
            on_done=report_reread(self, name),
            on_error=unsupported,
        )

    # --- lifecycle (issue 13) ---------------------------------------------------------------------

    def _check_states_in_view(self) -> None:
        """Ask connectionState for the rows on screen, a few at a time: a drop shows within
        one interval without refetching a list of thousands."""
        table = self.table
        if not self.in_view or not table.display or self.state.instances.loading:
            return
        top = table.scroll_offset.y
        rows = table.visible_rows[top : top + max(1, table.scrollable_content_region.height)]
        names = [row.instance_name for row in rows]
        if names:
            self.run_worker(
                self._check_states(names), group="live-state", exclusive=True, exit_on_error=False
            )

    async def _check_states(self, names: list[str]) -> None:
        # Failures are counted in the summary line: a toast every few seconds would not help.
        self._failed_state_checks = await self.actions.lifecycle.check_states(names)
        self.update_summary()

    def action_new_instance(self) -> None:
        def created(result: NewInstanceResult | None) -> None:
            if result is None:
                return
            self.table.move_cursor_to_key(result.name)
            if result.connect:
                self.gateway_app.open_pairing(result.name, result.number)

        self.app.push_screen(NewInstanceScreen(), created)

    def action_connect(self) -> None:
        instance = self.table.cursor_row
        if instance is None:
            return
        if instance.status_kind == InstanceStatus.OPEN:
            self.notify(
                _("{name} is already open (connected).").format(name=instance.instance_name),
                markup=False,
            )
            return
        self.gateway_app.open_pairing(instance.instance_name)


def _named(names: list[str], most: int = 3) -> str:
    """' (a, b, row 7 +2 more)': which instances were skipped, by their raw name where the
    row has one, else by row (server text: the table's display boundary cleans it)."""
    if not names:
        return ""
    shown = ", ".join(printable(name) for name in names[:most])
    if len(names) > most:
        extra = len(names) - most
        shown = ngettext("{names} +{n} more", "{names} +{n} more", extra).format(
            names=shown, n=number(extra)
        )
    return f" ({shown})"
