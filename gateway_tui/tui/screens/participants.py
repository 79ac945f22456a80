"""One group: its participants (filter, sort, copy, CSV), its invite code, subject and invites."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Static

from gateway_tui.core.api.errors import GatewayError
from gateway_tui.core.api.lists import unreadable_of
from gateway_tui.core.api.models import Participant, ParticipantRole
from gateway_tui.core.files.recent_groups import load_recent, remember
from gateway_tui.core.files.storage import data_dir, ensure_private_dir
from gateway_tui.core.state import InviteState, Topic
from gateway_tui.core.text.formatting import Phrases, clock, format_number
from gateway_tui.core.text.i18n import N_, _, ngettext, number
from gateway_tui.tui.screens.confirm import ConfirmScreen
from gateway_tui.tui.screens.group_admin import GroupAdmin
from gateway_tui.tui.screens.group_modals import (
    ExportScreen,
    InviteScreen,
    SubjectScreen,
    explain_on,
    operation_words,
    problem_text,
)
from gateway_tui.tui.screens.table_screen import TableScreen
from gateway_tui.tui.widgets.record_table import Column
from gateway_tui.tui.widgets.styled import styled

ROLE_LOOK: dict[ParticipantRole, tuple[str, str]] = {
    ParticipantRole.SUPERADMIN: ("★", "bold yellow"),
    ParticipantRole.ADMIN: ("◆", "cyan"),
    ParticipantRole.MEMBER: ("·", ""),
    ParticipantRole.UNKNOWN: ("?", "magenta"),
}
ROLE_ORDER = {role: position for position, role in enumerate(ROLE_LOOK)}
# The roles in the reader's language (the CSV keeps WhatsApp's own words: role_label).
ROLE_WORDS: dict[ParticipantRole, str] = {
    ParticipantRole.SUPERADMIN: N_("superadmin"),
    ParticipantRole.ADMIN: N_("admin"),
    ParticipantRole.MEMBER: N_("member"),
}


def role_label(participant: Participant) -> str:
    """The role as exported: an unknown role keeps the server's own word."""
    role = participant.role
    return participant.admin or "unknown" if role is ParticipantRole.UNKNOWN else role.value


def role_shown(participant: Participant) -> str:
    """The role as the screen shows it: in the reader's language; an unknown role keeps the
    server's own word (data)."""
    words = ROLE_WORDS.get(participant.role)
    if words is not None:
        return _(words)
    return participant.admin or _("unknown")


def role_cell(participant: Participant) -> str:
    return f"{ROLE_LOOK[participant.role][0]} {role_shown(participant)}"


def number_cell(participant: Participant) -> str:
    """The phone number; for a member known only by a WhatsApp LID (2.x), says so plainly."""
    if participant.number:
        return format_number(participant.number)
    return _("LID only, no number") if participant.is_lid else "—"


def number_sort_key(participant: Participant) -> tuple[int, str]:
    # Numeric order without int(): a shorter digit string is a smaller number.
    return (len(participant.number), participant.number)


PARTICIPANT_COLUMNS: list[Column[Participant]] = [
    Column(
        "number",
        N_("Number"),
        number_cell,
        sort_key=number_sort_key,
        max_width=22,
    ),
    Column("jid", N_("JID"), lambda p: p.id, max_width=36, drop_priority=1),  # the number says it
    # WhatsApp's LID of a member whose JID is a phone number (2.x, when the gateway gives it).
    Column(
        "lid",
        N_("LID"),
        lambda p: p.lid or "—",
        max_width=28,
        drop_priority=2,
        only_when=lambda p: bool(p.lid) and not p.is_lid,
    ),
    Column(
        "role",
        N_("Role"),
        role_cell,
        style=lambda p: ROLE_LOOK[p.role][1],
        sort_key=lambda p: (ROLE_ORDER[p.role], number_sort_key(p)),
        width=14,
    ),
    Column(
        "name",
        N_("Name"),
        lambda p: p.name or "—",
        sort_key=lambda p: (not p.name, (p.name or "").casefold()),
        max_width=32,
    ),
]


def participant_search_text(participant: Participant) -> str:
    """What `/` matches: digits, the formatted number, the JID, the role and the name."""
    return "\n".join(
        (
            participant.number,
            format_number(participant.number),
            participant.id,
            role_label(participant),
            role_shown(participant),
            participant.name or "",
        )
    )


CSV_HEADER = ("number", "jid", "role", "name")


def write_participants_csv(
    path: Path, participants: Sequence[Participant], *, overwrite: bool = False
) -> int:
    """Write number, JID, role and name, one participant a row; return how many rows.

    Through the one CSV writer (export.py): formulas defused, controls cleaned, the file 0600.
    Without ``overwrite`` an existing file is never replaced (FileExistsError).
    """
    from gateway_tui.core.files.export import write_csv_file

    rows = ((p.number, p.id, role_label(p), p.name or "") for p in participants)
    return write_csv_file(path, CSV_HEADER, rows, overwrite=overwrite)


def default_export_name(group_jid: str, subject: str | None) -> str:
    slug = re.sub(r"[^0-9A-Za-z]+", "-", subject or "").strip("-").lower()[:40]
    return f"participants-{slug or group_jid.split('@', 1)[0]}.csv"


def marked_columns(marked: set[str]) -> list[Column[Participant]]:
    """The participants' columns, their titles in the reader's language, a marked one's
    number shown "✓ +49 …" in bold."""
    first, *rest = PARTICIPANT_COLUMNS
    return [
        replace(
            first,
            label=_(first.label),
            value=lambda p: f"✓ {number_cell(p)}" if p.id in marked else number_cell(p),
            style=lambda p: "bold reverse" if p.id in marked else "",
        ),
        *(replace(column, label=_(column.label)) for column in rest),
    ]


# Whose gateway lines ``d`` shows (``_()`` where drawn).
PARTICIPANTS = N_("Participants")
INVITE_CODE = N_("Invite code")


class ParticipantsScreen(GroupAdmin, TableScreen[Participant]):
    HELP_TITLE = N_("Participants")
    ID_PREFIX = "participants"
    COLUMNS = PARTICIPANT_COLUMNS
    FILTER_PLACEHOLDER = N_("filter by number, name, JID or role")
    REFRESH_BINDING = "participants.refresh"
    TOPICS = frozenset({Topic.PARTICIPANTS, Topic.INVITE, Topic.GROUPS, Topic.INSTANCES})

    BINDINGS = [
        Binding("escape", "back", "Back", id="participants.back"),
        Binding("r", "refresh", "Refresh", id="participants.refresh", show=False),
        Binding("slash", "filter", "Filter", id="participants.filter"),
        Binding("o", "sort", "Sort", id="participants.sort", show=False),
        Binding("y", "copy_number", "Copy number", id="participants.copy_number", show=False),
        Binding("e", "export", "Export CSV", id="participants.export", show=False),
        Binding("i", "invite_code", "Invite code", id="participants.invite_code"),
        Binding("c", "copy_url", "Copy invite URL", id="participants.copy_url", show=False),
        Binding("R", "revoke", "Revoke code", id="participants.revoke"),
        Binding("s", "subject", "Subject", id="participants.subject"),
        Binding("n", "send_invite", "Send invite", id="participants.send_invite"),
        Binding("d", "toggle_lines", "Gateway's lines", id="participants.lines", show=False),
        # Group administration (screens/group_admin.py).
        Binding("space", "mark", "Mark", id="participants.mark", show=False),
        Binding("a", "add_participants", "Add", id="participants.add"),
        Binding("x", "remove", "Remove", id="participants.remove"),
        Binding("p", "promote", "Promote", id="participants.promote", show=False),
        Binding("D", "demote", "Demote", id="participants.demote", show=False),
        Binding("S", "group_settings", "Settings", id="participants.settings"),
        Binding("L", "leave", "Leave group", id="participants.leave", show=False),
    ]

    def __init__(self, instance: str, group_jid: str) -> None:
        super().__init__()
        self.instance = instance
        self.group_jid = group_jid
        self._show_lines = False
        self._remembered_subject: str | None = None
        self.marked: set[str] = set()  # JIDs marked for remove / promote / demote
        self.COLUMNS = marked_columns(self.marked)

    def row_key(self, row: Participant) -> str:
        return row.id

    def search_text(self, row: Participant) -> str:
        return participant_search_text(row)

    def compose_head(self) -> ComposeResult:
        yield Static(id="participants-title", classes="title")

    def compose_above_table(self) -> ComposeResult:
        yield Static(id="invite-panel")

    def compose_below_table(self) -> ComposeResult:
        yield Static(id="participants-lines", classes="details")

    @property
    def invite(self) -> InviteState:
        return self.state.invite_of(self.instance, self.group_jid)

    @property
    def subject(self) -> str | None:
        """From the state; else the one remembered with the recent group (no fetchAllGroups)."""
        return self.state.subject_of(self.instance, self.group_jid) or self._remembered_subject

    def on_mount(self) -> None:
        self.query_one("#participants-lines", Static).display = False
        recent = next((r for r in load_recent(self.instance) if r.jid == self.group_jid), None)
        self._remembered_subject = recent.subject if recent else None
        remember(self.instance, self.group_jid, self.subject)
        self._load_participants()

    # --- drawing from state ----------------------------------------------------------------

    def refresh_from_state(self) -> None:
        self._draw_title()
        self._draw_participants()
        self._draw_invite()
        self._draw_lines()
        self.update_summary()

    def _explain(self, error: GatewayError, operation: str) -> tuple[str, str]:
        return explain_on(self, self.instance, error, operation, retry_key=self.retry_key)

    def _draw_title(self) -> None:
        text = styled(
            _("{group} · {jid} · on {instance}"),
            "not bold",
            group=(self.subject or _("Group"), "bold"),
            jid=self.group_jid,
            instance=self.instance,
        )
        self.query_one("#participants-title", Static).update(text)

    def _draw_participants(self) -> None:
        loadable = self.state.participants_of(self.instance, self.group_jid)
        self.show_rows(
            loadable.value,
            error=loadable.error,
            loading=(_("Loading participants…"), _("Asking the gateway for the group.")),
            empty=(_("No participants listed"), _("The gateway listed nobody in this group.")),
        )
        reason = self._explain(loadable.error, "participants")[0] if loadable.error else ""
        self.show_stale(loadable, _("participants"), reason, lines_binding="participants.lines")

    def show_error(self, error: GatewayError) -> None:
        title, advice = self._explain(error, "participants")
        lines_key = self.key_for("participants.lines")
        self.panel.update(
            problem_text(title, advice, error, show_lines=self._show_lines, lines_key=lines_key)
        )
        self.panel.add_class("-error")

    def _draw_invite(self) -> None:
        invite = self.invite
        text = Text()
        label = _("Invite link")
        text.append(f"{label}  ", style="bold")
        # The revoked codes line up under the link.
        indent = "\n" + " " * (Text(label).cell_len + 2)
        if invite.current is not None:
            text.append(invite.current.url or _("(no URL)"), style="bold green")
            if invite.current.invite_code:
                text.append_text(
                    styled("  " + _("code {code}"), "dim", code=(invite.current.invite_code, ""))
                )
            read = _("read {time}").format(time=clock(invite.updated_at))
            text.append(f"  {read}", style="dim")
        elif invite.loading:
            text.append(_("fetching…"), style="dim")
        else:
            text.append_text(
                styled(
                    _("not fetched — {key} fetches it"),
                    "dim",
                    key=(self.key_for("participants.invite_code") or "", "bold"),
                )
            )
        if invite.loading and invite.current is not None:
            text.append("  " + _("working…"), style="dim")
        for old in invite.revoked:
            text.append(indent)
            text.append(old.url or old.invite_code or "", style="strike dim")
            text.append("  " + _("revoked"), style="dim")
        text.append("\n")
        hints = self.key_hints(
            ("participants.copy_url", _("copies the URL")),
            ("participants.revoke", _("revokes it")),
            ("participants.send_invite", _("sends an invite")),
        )
        text.append(hints, style="dim")
        if invite.last_sent is not None:
            sent = invite.last_sent
            count = len(sent.numbers)
            text.append("\n" + _("Last invite") + " ", style="bold")
            text.append_text(
                styled(
                    ngettext(
                        "sent to {n} number at {time}: {url}",
                        "sent to {n} numbers at {time}: {url}",
                        count,
                    ),
                    "dim",
                    n=number(count),
                    time=clock(sent.sent_at),
                    url=(sent.result.invite_url or _("(URL not given)"), ""),
                )
            )
        if invite.error is not None:
            operation = "revoke" if "revoke" in invite.error.path.casefold() else "invite"
            title, advice = self._explain(invite.error, operation)
            text.append("\n")
            lines_key = self.key_for("participants.lines")
            text.append_text(problem_text(title, advice, invite.error, lines_key=lines_key))
        self.query_one("#invite-panel", Static).update(text)

    def _errors(self) -> list[tuple[str, GatewayError]]:
        found: list[tuple[str, GatewayError]] = []
        participants = self.state.participants_of(self.instance, self.group_jid)
        if participants.error is not None:
            found.append((PARTICIPANTS, participants.error))
        if self.invite.error is not None:
            found.append((INVITE_CODE, self.invite.error))
        return found

    def _draw_lines(self) -> None:
        lines = self.query_one("#participants-lines", Static)
        # The participants panel shows its own lines when there is no table to show.
        participants = self.state.participants_of(self.instance, self.group_jid)
        errors = [
            (what, error)
            for what, error in self._errors()
            if not (what == PARTICIPANTS and participants.value is None)
        ]
        lines.display = self._show_lines and bool(errors)
        text = Text()
        for what, error in errors:
            if text:
                text.append("\n")
            text.append(f"{_(what)}: ", style="bold")
            text.append("\n".join(error.details()))
        lines.update(text)

    def update_summary(self) -> None:
        participants = self.state.participants_of(self.instance, self.group_jid)
        rows = participants.value or []
        admins = sum(1 for p in rows if p.is_admin)
        supers = sum(1 for p in rows if p.role is ParticipantRole.SUPERADMIN)
        if participants.value is None:
            # Nothing read yet, or the call failed: no count, or a failure reads as an empty group.
            parts = [_("participants not read")] if participants.error else []
        else:
            parts = [
                ngettext("{n} participant", "{n} participants", len(rows)).format(
                    n=number(len(rows))
                ),
                ngettext(
                    "{n} admin ({supers} superadmin)", "{n} admins ({supers} superadmin)", admins
                ).format(n=number(admins), supers=number(supers)),
            ]
        if skipped := len(unreadable_of(participants.value)):
            parts.append(
                ngettext(
                    "{n} could not be read (skipped)", "{n} could not be read (skipped)", skipped
                ).format(n=number(skipped))
            )
        if rows and self.table.visible_count != len(rows):
            parts.append(_("showing {n}").format(n=number(self.table.visible_count)))
        if self.marked:
            parts.append(
                ngettext("{n} marked", "{n} marked", len(self.marked)).format(
                    n=number(len(self.marked))
                )
            )
        parts += self.table.view_summary()
        if participants.loading:
            parts.append(_("loading…"))
        elif participants.updated_at is not None:
            parts.append(_("read {time}").format(time=clock(participants.updated_at)))
        parts.append(  # the keys stay one phrase: wrapped before them, never among them
            self.key_hints(
                ("participants.sort", _("sort")),
                ("participants.copy_number", _("copy number")),
                ("participants.export", _("export CSV")),
                ("participants.refresh", _("refresh")),
                ("participants.mark", _("mark")),
                ("participants.promote", _("promote")),
                ("participants.demote", _("demote")),
            )
        )
        self.query_one("#participants-summary", Static).update(Phrases(parts))

    # --- participants ----------------------------------------------------------------------

    def _load_participants(self) -> None:
        self.call(
            self.actions.groups.load_participants(self.instance, self.group_jid),
            what=operation_words("participants"),
            on_error=lambda _error: True,  # shown in place
            group="participants",
            exclusive=True,
        )

    def recover(self) -> None:
        self.action_refresh()  # quiet: failures are shown in place

    def data_error(self) -> GatewayError | None:
        return self.state.participants_of(self.instance, self.group_jid).error

    def action_refresh(self) -> None:
        self._load_participants()
        invite = self.invite
        if invite.current is not None or invite.revoked or invite.error is not None:
            self._load_invite_code()

    def action_copy_number(self) -> None:
        participant = self.table.cursor_row if self.table.display else None
        if participant is None or not participant.number:
            self.notify(_("No number to copy here"), severity="warning", markup=False)
            return
        self.copy(participant.number, _("Number"))

    def action_export(self) -> None:
        rows = list(self.table.visible_rows) if self.table.display else []
        total = len(self.state.participants_of(self.instance, self.group_jid).value or [])
        if not rows:
            self.notify(_("No participants to export"), severity="warning", markup=False)
            return
        if len(rows) == total:
            what = ngettext(
                "{n} participant, in the order shown.",
                "All {n} participants, in the order shown.",
                total,
            ).format(n=number(total))
        else:
            what = ngettext(
                "The {shown} of {n} participant the filter shows.",
                "The {shown} of {n} participants the filter shows.",
                total,
            ).format(shown=number(len(rows)), n=number(total))

        def write(path: Path, overwrite: bool) -> int:
            return write_participants_csv(path, rows, overwrite=overwrite)

        def done(path: Path | None) -> None:
            if path is not None:
                said = ngettext(
                    "Exported {n} participant to {path}",
                    "Exported {n} participants to {path}",
                    len(rows),
                ).format(n=number(len(rows)), path=path)
                self.notify(said, markup=False)

        name = default_export_name(self.group_jid, self.subject)
        try:  # the app's own folder: the working directory may be a git checkout
            name = str(ensure_private_dir(data_dir() / "exports") / name)
        except OSError:
            pass  # the bare name, relative to the working directory, as typed names are
        self.app.push_screen(ExportScreen(name, what, write), done)

    def action_toggle_lines(self) -> None:
        self._show_lines = not self._show_lines
        if self._show_lines and not self._errors():
            self.notify(_("No gateway errors on this screen"), markup=False)
        self.refresh_from_state()

    # --- invite code -----------------------------------------------------------------------

    def _load_invite_code(self) -> None:
        self.call(
            self.actions.groups.load_invite_code(self.instance, self.group_jid),
            what=operation_words("invite"),
            on_error=lambda _error: True,  # the invite panel says why
            group="invite",
            exclusive=True,
        )

    def action_invite_code(self) -> None:
        self._load_invite_code()

    def action_copy_url(self) -> None:
        current = self.invite.current
        if current is None or not current.url:
            fetch = self.key_for("participants.invite_code")
            self.notify(
                _("No invite link yet: {key} fetches it").format(key=fetch),
                severity="warning",
                markup=False,
            )
            return
        self.copy(current.url, _("Invite URL"))

    def action_revoke(self) -> None:
        current = self.invite.current
        body = styled(
            _("Revoke the invite link of {group}?"), group=(self.subject or self.group_jid, "bold")
        )
        body.append("\n")
        if current is not None:
            body.append_text(
                styled(
                    _("{url} stops working at once; a new code replaces it."),
                    url=(current.url, "bold"),
                )
            )
        else:
            body.append(_("The current link stops working at once; a new code replaces it."))
        self.app.push_screen(
            ConfirmScreen(_("Revoke invite code"), body, confirm_label=_("Revoke")),
            lambda yes: self._revoke() if yes else None,
        )

    def _revoke(self) -> None:
        self.call(
            self.actions.groups.revoke_invite_code(self.instance, self.group_jid),
            what=operation_words("revoke"),
            done=_("Invite code revoked: the old link no longer works"),
            on_error=lambda _error: True,  # the invite panel says why
            group="invite",
            exclusive=True,
        )

    # --- subject and invites ---------------------------------------------------------------

    def action_subject(self) -> None:
        def changed(subject: str | None) -> None:
            if subject is not None:
                remember(self.instance, self.group_jid, subject)
                self.notify(
                    _("Subject changed to “{subject}”").format(subject=subject), markup=False
                )
                self.refresh_from_state()

        self.app.push_screen(
            SubjectScreen(self.instance, self.group_jid, self.subject or ""), changed
        )

    def action_send_invite(self) -> None:
        self.app.push_screen(InviteScreen(self.instance, self.group_jid, self.subject))
