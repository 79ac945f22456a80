"""Group administration in the group view (mixed into ParticipantsScreen): mark participants
(space), then remove, promote or demote them (or the one under the cursor); add by number;
the group's settings and description; leave. Every change is confirmed first and ends with a
line per number. The bindings are ParticipantsScreen's (a mixin has none of its own)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gateway_tui.core.api.group_models import GroupMetadata, ParticipantAction
from gateway_tui.core.api.models import Participant
from gateway_tui.core.group_admin import Outcome
from gateway_tui.core.text.formatting import format_number
from gateway_tui.core.text.i18n import _
from gateway_tui.tui.screens.confirm import ConfirmScreen
from gateway_tui.tui.screens.group_admin_modals import (
    ACTION_TITLES,
    ACTION_VERBS,
    AddParticipantsScreen,
    GroupSettingsScreen,
    LeaveGroupScreen,
    OutcomesScreen,
    change_question,
    more_left_out,
)

if TYPE_CHECKING:
    from gateway_tui.tui.screens.participants import ParticipantsScreen

    _Base = ParticipantsScreen
else:
    _Base = object

CHANGES_SHOWN = 8


def member_label(participant: Participant) -> str:
    if participant.number:
        shown = format_number(participant.number)
        return f"{shown} ({participant.name})" if participant.name else shown
    return participant.name or participant.id


class GroupAdmin(_Base):
    """What ParticipantsScreen does to the group (it keeps ``marked``, the JIDs marked)."""

    marked: set[str]

    def marked_rows(self) -> list[Participant]:
        rows = self.state.participants_of(self.instance, self.group_jid).value or []
        return [p for p in rows if p.id in self.marked]

    def _targets(self) -> list[Participant]:
        """The marked participants, else the one under the cursor."""
        marked = self.marked_rows()
        if marked:
            return marked
        row = self.table.cursor_row if self.table.display else None
        return [row] if row is not None else []

    def action_mark(self) -> None:
        row = self.table.cursor_row if self.table.display else None
        if row is None:
            return
        self.marked.symmetric_difference_update({row.id})
        self.table.redraw_rows()
        self.table.action_cursor_down()
        self.update_summary()

    def action_add_participants(self) -> None:
        members = self.state.participants_of(self.instance, self.group_jid).value or []
        self.app.push_screen(
            AddParticipantsScreen(self.instance, self.group_jid, self.subject, members),
            lambda said: self._show_outcomes(ParticipantAction.ADD, said),
        )

    def action_remove(self) -> None:
        self._change(ParticipantAction.REMOVE)

    def action_promote(self) -> None:
        self._change(ParticipantAction.PROMOTE)

    def action_demote(self) -> None:
        self._change(ParticipantAction.DEMOTE)

    def _change(self, action: ParticipantAction) -> None:
        targets = self._targets()
        if not targets:
            self.notify(_("No participant here: mark some first"), severity="warning", markup=False)
            return
        verb, title = _(ACTION_VERBS[action]), _(ACTION_TITLES[action])
        body = change_question(action, len(targets), self.subject or self.group_jid)
        body.append("\n")
        for participant in targets[:CHANGES_SHOWN]:
            body.append(f"  {member_label(participant)}\n")
        if len(targets) > CHANGES_SHOWN:
            body.append(f"  {more_left_out(len(targets) - CHANGES_SHOWN)}\n", style="dim")
        members = [p.id for p in targets]  # the server takes a member's JID (an @lid too)

        def go(yes: bool | None) -> None:
            if yes:
                self.call(
                    self.actions.groups.change_participants(
                        self.instance, self.group_jid, action, members
                    ),
                    what=title,
                    on_done=lambda said: self._show_outcomes(action, said),
                    group="group-admin",
                    exclusive=True,
                )

        self.app.push_screen(ConfirmScreen(title, body, confirm_label=verb), go)

    def _show_outcomes(self, action: ParticipantAction, said: list[Outcome] | None) -> None:
        if not said:
            return
        done = {o.number for o in said if o.ok}
        self.marked.difference_update(done)
        self.table.redraw_rows()
        self.update_summary()
        self.app.push_screen(OutcomesScreen(action, said))

    def action_group_settings(self) -> None:
        """Read the group's settings afresh (a write is never built on an old read), then
        open them."""

        def opened(info: GroupMetadata) -> None:
            version = self.gateway_app.client.server_version
            self.app.push_screen(
                GroupSettingsScreen(self.instance, self.group_jid, info, version),
                self._settings_saved,
            )

        self.call(
            self.actions.groups.load_group_info(self.instance, self.group_jid),
            what=_("Reading the group's settings"),
            on_done=opened,
            group="group-admin",
            exclusive=True,
        )

    def _settings_saved(self, saved: bool | None) -> None:
        if saved:
            self.notify(_("Group settings saved"), markup=False)
            info = self.actions.groups.info_of(self.instance, self.group_jid)
            if info.error is not None:  # saved, but the read-back failed: said, not swallowed
                self.gateway_app.report_error(info.error, _("Reading the group's settings back"))

    def action_leave(self) -> None:
        def left(yes: bool | None) -> None:
            if yes:
                self.notify(
                    _("Left {group}").format(group=self.subject or self.group_jid), markup=False
                )
                self.app.pop_screen()

        self.app.push_screen(LeaveGroupScreen(self.instance, self.group_jid, self.subject), left)
