"""Choose a group of an instance: from the server's list (fetchAllGroups), or by typing its JID.

fetchAllGroups is an optional endpoint: when a server answers 404 the picker becomes a JID entry.
Groups used recently on this instance come first either way, the rest in the order the picker
first showed them: the server's order varies from one answer to the next, and a refresh must not
move the groups under the cursor (a group new since then joins at the end).
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Input, Label, Static

from gateway_tui.core.api.errors import GatewayError, NotFound
from gateway_tui.core.api.lists import unreadable_of
from gateway_tui.core.api.validation import check_group_jid, group_jid_from
from gateway_tui.core.files.recent_groups import RecentGroup, load_recent
from gateway_tui.core.state import Topic
from gateway_tui.core.text.formatting import Phrases
from gateway_tui.core.text.i18n import N_, _, ngettext, number
from gateway_tui.tui.screens.group_modals import explain_on, problem_text
from gateway_tui.tui.screens.table_screen import InstanceTableScreen
from gateway_tui.tui.widgets.record_table import Column, RecordTable
from gateway_tui.tui.widgets.text_input import TextInput

_NOT_RECENT = 1_000_000


@dataclass(frozen=True)
class GroupRow:
    """One line of the picker: a group the server lists, or one remembered as recent."""

    jid: str
    subject: str | None = None
    size: int | None = None
    recent_rank: int | None = None  # 0 = most recently used

    @property
    def recent(self) -> bool:
        return self.recent_rank is not None


GROUP_COLUMNS: list[Column[GroupRow]] = [
    Column(
        "recent",
        N_("Recent"),
        lambda r: "  ★" if r.recent else "",
        style=lambda r: "yellow",
        sort_key=lambda r: _NOT_RECENT if r.recent_rank is None else r.recent_rank,
        width=6,
    ),
    Column("subject", N_("Subject"), lambda r: r.subject or "—", max_width=44),
    Column(
        "size",
        N_("Size"),
        lambda r: "—" if r.size is None else number(r.size),
        sort_key=lambda r: -1 if r.size is None else r.size,
        width=7,
    ),
    Column("jid", "JID", lambda r: r.jid, max_width=40, drop_priority=1),
]


def picker_rows(
    listed: list | None,
    recents: list[RecentGroup],
    subjects: dict[str, str],
    seen: dict[str, int] | None = None,
) -> list[GroupRow]:
    """Recent groups first (newest first), then the rest in the order they were first seen
    (``seen``: JID → place, kept by the screen and added to here; without it, the server's
    order of this answer).

    With a server list, only listed groups are offered (a recent group the instance left is
    not); without one (no fetchAllGroups), the recent groups are all there is.
    """
    rank = {recent.jid: position for position, recent in enumerate(recents)}
    if listed is None:
        return [
            GroupRow(r.jid, subjects.get(r.jid) or r.subject, None, rank[r.jid]) for r in recents
        ]
    seen = {} if seen is None else seen
    for group in listed:
        seen.setdefault(group.id, len(seen))
    rows = [GroupRow(group.id, group.subject, group.size, rank.get(group.id)) for group in listed]
    return sorted(
        rows,
        key=lambda row: (
            _NOT_RECENT if row.recent_rank is None else row.recent_rank,
            seen[row.jid],
        ),
    )


def jid_preview(raw: str) -> tuple[str | None, Text]:
    """The JID a typed value means and a line saying so, or None and the reason it is refused."""
    if not raw.strip():
        return None, Text(_("Type a group id (digits) or a full group JID."), style="dim")
    problems = check_group_jid(raw)
    if problems:
        return None, Text(f"✕ {problems[0].message}", style="red")
    jid = group_jid_from(raw)
    added = jid != raw.strip()
    if added:
        said = _("→ uses {jid}  (@g.us added, as the gateway does)")
    else:
        said = _("→ uses {jid}")
    text = Text(style="green")
    before, _mark, after = said.partition("{jid}")
    text.append(before)
    text.append(jid, style="bold")
    if after.strip():  # the note after the JID, dimmed
        text.append(after, style="dim")
    return jid, text


class GroupPickerScreen(InstanceTableScreen[GroupRow]):
    HELP_TITLE = N_("Groups")
    TITLE_OF = N_("Groups of {instance}")
    ID_PREFIX = "groups"
    COLUMNS = GROUP_COLUMNS
    FILTER_PLACEHOLDER = N_("filter by subject or JID")
    REFRESH_BINDING = "groups.refresh"
    TOPICS = frozenset({Topic.GROUPS, Topic.INSTANCES})

    BINDINGS = [
        Binding("enter", "open", "Open", id="groups.open"),
        Binding("escape", "back", "Back", id="groups.back"),
        Binding("slash", "filter", "Filter", id="groups.filter"),
        Binding("J", "enter_jid", "Type a JID", id="groups.enter_jid"),
        Binding("r", "refresh", "Refresh", id="groups.refresh"),
        Binding("o", "sort", "Sort", id="groups.sort"),
        Binding("y", "copy_jid", "Copy JID", id="groups.copy_jid", show=False),
        Binding("d", "toggle_lines", "Gateway's lines", id="groups.lines", show=False),
        Binding("N", "create", "New group", id="groups.create"),
    ]

    def __init__(self, instance: str) -> None:
        super().__init__(instance)
        self._recents: list[RecentGroup] = []
        self._show_lines = False
        self._entry_mode = False
        self._seen: dict[str, int] = {}  # JID -> the place it was first shown in: a stable order

    def search_text(self, row: GroupRow) -> str:
        return f"{row.subject or ''}\n{row.jid}"

    def compose_below_table(self) -> ComposeResult:
        with Vertical(id="jid-entry"):
            yield Label(_("Group id or JID"))
            yield TextInput(
                placeholder="120363012345678901 or 120363012345678901@g.us", id="jid-input"
            )
            yield Static(id="jid-preview", classes="field-error")

    @property
    def jid_entry(self) -> Vertical:
        return self.query_one("#jid-entry", Vertical)

    def on_mount(self) -> None:
        self.jid_entry.display = False
        self._recents = load_recent(self.instance)
        self._show_preview()
        self.action_refresh()

    def on_screen_resume(self) -> None:
        # Back from a group: it is the most recent one now (the base then redraws).
        self._recents = load_recent(self.instance)

    # --- drawing from state ------------------------------------------------------------------

    def _explain(self, error: GatewayError) -> tuple[str, str]:
        return explain_on(self, self.instance, error, "groups", retry_key=self.retry_key)

    def refresh_from_state(self) -> None:
        loadable = self.state.groups_of(self.instance)
        panel, table = self.panel, self.table
        # "Cannot GET /group/fetchAllGroups/…": this server has no such route, typing the JID
        # is the way in. Its other 404s ("Error fetching group", …) are explained as errors.
        no_list = (
            loadable.value is None
            and isinstance(loadable.error, NotFound)
            and loadable.error.route_missing
        )
        subjects = {
            jid: subject
            for (name, jid), subject in self.state.group_subjects.items()
            if name == self.instance
        }
        rows = picker_rows(loadable.value, self._recents, subjects, self._seen)
        table.set_rows(rows)
        table.display = bool(rows)
        panel.display = True
        panel.remove_class("-error")
        if no_list:
            assert loadable.error is not None
            panel.show_message(
                _("This gateway does not list groups ({endpoint} answered 404)").format(
                    endpoint="fetchAllGroups"
                ),
                _("Type the group's id or JID below; recently used groups are listed above.")
                if rows
                else _("Type the group's id or JID below."),
                loadable.error.details() if self._show_lines else None,
            )
            if not self._entry_mode:
                self._entry_mode = True
                self._open_entry()
        elif loadable.value is None and loadable.error is not None:
            self.show_error(loadable.error)
        elif loadable.value is None:
            panel.show_message(_("Loading groups…"), _("Asking the gateway for the groups."))
        elif not loadable.value:
            panel.show_message(
                _("This instance is in no group"),
                _("{key} lets you type a group JID all the same.").format(
                    key=self.key_for("groups.enter_jid")
                ),
            )
        else:
            panel.display = False
        self._draw_stale()
        self.update_summary()

    def show_error(self, error: GatewayError) -> None:
        title, advice = self._explain(error)
        lines_key = self.key_for("groups.lines")
        self.panel.update(
            problem_text(title, advice, error, show_lines=self._show_lines, lines_key=lines_key)
        )
        self.panel.add_class("-error")

    def _draw_stale(self) -> None:
        loadable = self.state.groups_of(self.instance)
        error = loadable.error
        self.show_stale(
            loadable,
            _("groups"),
            self._explain(error)[0] if error else "",
            lines_binding="groups.lines",
            lines=error.details() if error and self._show_lines else (),
        )

    def update_summary(self) -> None:
        loadable = self.state.groups_of(self.instance)
        table = self.table
        parts: list[str] = []
        if loadable.value is not None:
            total = len(loadable.value)
            shown = table.visible_count
            if shown != total:
                parts.append(
                    ngettext("{shown} of {n} group", "{shown} of {n} groups", total).format(
                        shown=number(shown), n=number(total)
                    )
                )
            else:
                parts.append(ngettext("{n} group", "{n} groups", total).format(n=number(total)))
            if skipped := len(unreadable_of(loadable.value)):
                parts.append(
                    ngettext(
                        "{n} could not be read (skipped)",
                        "{n} could not be read (skipped)",
                        skipped,
                    ).format(n=number(skipped))
                )
        recent = sum(1 for row in table.rows if row.recent)
        if recent:
            parts.append(ngettext("{n} recent", "{n} recent", recent).format(n=number(recent)))
        parts += self.view_and_read(loadable)
        hints = self.key_hints(("groups.open", _("opens")), ("groups.enter_jid", _("types a JID")))
        parts += hints.split(Phrases.SEPARATOR)
        # Wrapped between phrases: a key never parts from its words (pt-BR and es run longer).
        self.query_one("#groups-summary", Static).update(Phrases(parts))

    # --- actions -------------------------------------------------------------------------------

    def recover(self) -> None:
        self.action_refresh()  # quiet: failures are shown in place

    def data_error(self) -> GatewayError | None:
        return self.state.groups_of(self.instance).error

    def action_refresh(self) -> None:
        self.call(
            self.actions.groups.load_groups(self.instance),
            what=_("Listing the groups"),
            on_error=lambda _error: True,  # shown in place (a 404 turns into the JID entry)
            group="groups",
            exclusive=True,
        )

    def _open(self, jid: str) -> None:
        from gateway_tui.tui.screens.participants import ParticipantsScreen

        self.app.push_screen(ParticipantsScreen(self.instance, jid))

    def action_open(self) -> None:
        if self.query_one("#jid-input", Input).has_focus:
            self._submit_jid()
            return
        row = self.table.cursor_row
        if row is not None and self.table.display:
            self._open(row.jid)

    def on_record_table_row_selected(self, event: RecordTable.RowSelected) -> None:
        event.stop()
        self._open(event.key)

    def _open_entry(self) -> None:
        self.jid_entry.display = True
        self.query_one("#jid-input", Input).focus()

    def action_enter_jid(self) -> None:
        self._open_entry()

    def action_create(self) -> None:
        from gateway_tui.tui.screens.group_admin_modals import CreateGroupScreen

        def made(group: object) -> None:
            if group is not None:
                said = _("Group created: {subject}").format(subject=getattr(group, "subject", ""))
                self.notify(said, markup=False)
                self.table.move_cursor_to_key(getattr(group, "id", ""))

        self.app.push_screen(CreateGroupScreen(self.instance), made)

    def _show_preview(self) -> None:
        _jid, text = jid_preview(self.query_one("#jid-input", Input).value)
        self.query_one("#jid-preview", Static).update(text)

    def _submit_jid(self) -> None:
        jid, text = jid_preview(self.query_one("#jid-input", Input).value)
        self.query_one("#jid-preview", Static).update(text)
        if jid is not None:
            self._open(jid)

    @on(Input.Changed, "#jid-input")
    def _jid_changed(self) -> None:
        self._show_preview()

    @on(Input.Submitted, "#jid-input")
    def _jid_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._submit_jid()

    def close_layer(self) -> bool:
        if super().close_layer():
            return True
        if self.jid_entry.display and not self._entry_mode:
            self.jid_entry.display = False
            self.table.focus()
            return True
        return False

    def action_copy_jid(self) -> None:
        row = self.table.cursor_row
        if row is None or not self.table.display:
            self.notify(_("No group to copy"), severity="warning", markup=False)
            return
        self.copy(row.jid, _("Group JID"))

    def action_toggle_lines(self) -> None:
        self._show_lines = not self._show_lines
        if self._show_lines and self.state.groups_of(self.instance).error is None:
            self.notify(_("No gateway errors on this screen"), markup=False)
        self.refresh_from_state()
