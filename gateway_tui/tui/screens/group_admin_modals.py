"""The group administration dialogs: add participants, the group's settings, leave (typed
confirmation), create a group, and the outcome of each number.

Each dialog runs its gateway call itself (a GroupModal): a refusal is said inside it, in the
server's words, and "not connected" as such (group_modals.explain_group_error).
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Input, Label, Select, Static, TextArea

from gateway_tui.core.api.group_models import (
    DISAPPEARING,
    DISAPPEARING_LABELS,
    GroupMetadata,
    GroupSetting,
    MemberAddMode,
    ParticipantAction,
    has_member_add_mode,
)
from gateway_tui.core.api.models import Participant
from gateway_tui.core.api.validation import check_subject
from gateway_tui.core.group_admin import NumbersToAdd, Outcome, numbers_to_add
from gateway_tui.core.text.formatting import format_number
from gateway_tui.core.text.i18n import N_, _, ngettext, number
from gateway_tui.tui.screens.base import key_for
from gateway_tui.tui.screens.form_modal import FormModal
from gateway_tui.tui.screens.group_modals import (
    GroupModal,
    dialog_buttons,
    dialog_keys,
    duplicates_removed,
    explain_on,
    numbers_label,
    numbers_ready,
    operation_words,
    problem_text,
)
from gateway_tui.tui.widgets.styled import styled
from gateway_tui.tui.widgets.text_input import TextInput

PROBLEMS_SHOWN = 6
# The verb of each change, as its button and its confirmation say it (``_()`` where shown).
ACTION_VERBS = {
    ParticipantAction.ADD: N_("Add"),
    ParticipantAction.REMOVE: N_("Remove"),
    ParticipantAction.PROMOTE: N_("Promote"),
    ParticipantAction.DEMOTE: N_("Demote"),
}
# What the change is, as a title and as the "… failed" of a refusal.
ACTION_TITLES = {
    ParticipantAction.ADD: N_("Add participants"),
    ParticipantAction.REMOVE: N_("Remove participants"),
    ParticipantAction.PROMOTE: N_("Promote participants"),
    ParticipantAction.DEMOTE: N_("Demote participants"),
}


def outcome_title(action: ParticipantAction, ok: int, asked: int) -> str:
    """``Promote: 2 of 3 promoted to admin``, in the current language."""
    if action is ParticipantAction.ADD:
        said = ngettext("Add: {ok} of {n} added", "Add: {ok} of {n} added", asked)
    elif action is ParticipantAction.REMOVE:
        said = ngettext("Remove: {ok} of {n} removed", "Remove: {ok} of {n} removed", asked)
    elif action is ParticipantAction.PROMOTE:
        said = ngettext(
            "Promote: {ok} of {n} promoted to admin",
            "Promote: {ok} of {n} promoted to admin",
            asked,
        )
    else:
        said = ngettext(
            "Demote: {ok} of {n} made a plain member",
            "Demote: {ok} of {n} made plain members",
            asked,
        )
    return said.format(ok=number(ok), n=number(asked))


def change_question(action: ParticipantAction, count: int, group: str) -> Text:
    """The first line of a change's confirmation: who, where, and what becomes of them."""
    if action is ParticipantAction.ADD:
        said = ngettext(
            "Add {n} participant to {group} — they will be added:",
            "Add {n} participants to {group} — they will be added:",
            count,
        )
    elif action is ParticipantAction.REMOVE:
        said = ngettext(
            "Remove {n} participant in {group} — they will be removed:",
            "Remove {n} participants in {group} — they will be removed:",
            count,
        )
    elif action is ParticipantAction.PROMOTE:
        said = ngettext(
            "Promote {n} participant in {group} — they will be promoted to admin:",
            "Promote {n} participants in {group} — they will be promoted to admin:",
            count,
        )
    else:
        said = ngettext(
            "Demote {n} participant in {group} — they will be made a plain member:",
            "Demote {n} participants in {group} — they will be made plain members:",
            count,
        )
    return styled(said, n=number(count), group=(group, "bold"))


def more_left_out(more: int) -> str:
    """``… and 3 more`` under a list cut short."""
    return ngettext("… and {n} more", "… and {n} more", more).format(n=number(more))


def plan_text(plan: NumbersToAdd) -> Text:
    """What the numbers box holds: who will be added, and every number left out and why."""
    text = Text()
    if plan.numbers:
        numbers_ready(
            text,
            plan.numbers,
            ngettext("{n} to add: {numbers}", "{n} to add: {numbers}", len(plan.numbers)),
        )
    if plan.duplicates:
        text.append("\n· " + duplicates_removed(plan.duplicates), style="dim")
    for problem in plan.problems[:PROBLEMS_SHOWN]:
        text.append("\n✕ ", style="red")
        text.append(problem)
    if len(plan.problems) > PROBLEMS_SHOWN:
        text.append("\n" + more_left_out(len(plan.problems) - PROBLEMS_SHOWN), style="dim")
    return text


class AddParticipantsScreen(GroupModal[list[Outcome] | None]):
    """`a`: numbers typed or pasted, checked as campaign recipients are; the members among
    them said and left out. Dismisses with each number's outcome."""

    HELP_TITLE = N_("Add participants")
    RETRY_ID = "add_participants.save"
    NOTE_ID = "add-result"
    SUBMIT_BUTTON = "add-save"
    BINDINGS = dialog_keys("add_participants.save", N_("Add them"), "add_participants.cancel")

    def __init__(
        self, instance: str, group_jid: str, subject: str | None, members: Sequence[Participant]
    ) -> None:
        super().__init__(instance, group_jid)
        self.subject = subject
        self.members = list(members)

    def compose(self) -> ComposeResult:
        with Vertical(id="add-dialog", classes="dialog"):
            yield Static(Text(_("Add participants"), style="bold"), classes="dialog-title")
            with VerticalScroll(id="add-form", can_focus=False):
                yield Static(Text(self.subject or self.group_jid, style="dim"))
                yield Label(numbers_label())
                yield TextArea(id="add-numbers", soft_wrap=True)
                yield Static(id="add-check", classes="field-error")
                yield Static(id="add-result", classes="field-error")
            yield from dialog_buttons(
                self,
                (_("Add"), "add_participants.save", "add-save"),
                (_("Cancel"), "add_participants.cancel", "add-no"),
            )

    def on_mount(self) -> None:
        self.query_one("#add-numbers", TextArea).focus()
        self._check()

    def _check(self) -> NumbersToAdd:
        plan = numbers_to_add(self.query_one("#add-numbers", TextArea).text, self.members)
        self.query_one("#add-check", Static).update(plan_text(plan))
        return plan

    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        event.stop()
        self._check()

    def submit(self) -> None:
        if self.busy:
            return
        plan = self._check()
        if not plan.numbers:
            self.say(Text("✕ " + _("nobody to add: type at least one number"), style="red"))
            return
        self.submit_call(
            self.actions.groups.change_participants(
                self.instance, self.group_jid, ParticipantAction.ADD, plan.numbers
            ),
            what=operation_words("add"),
            working=ngettext("Adding {n}…", "Adding {n}…", len(plan.numbers)).format(
                n=number(len(plan.numbers))
            ),
            on_done=self.dismiss,
            explain=lambda error: self._explain(error, "add"),
            group="group-admin",
        )


class OutcomesScreen(ModalScreen[None]):
    """A line per number: done, or what WhatsApp said of it."""

    BINDINGS = [Binding("escape,enter", "close", "Close", id="outcomes.close")]

    def __init__(self, action: ParticipantAction, outcomes: Sequence[Outcome]) -> None:
        super().__init__()
        self.action = action
        self.outcomes = list(outcomes)

    def compose(self) -> ComposeResult:
        ok = sum(1 for o in self.outcomes if o.ok)
        title = outcome_title(self.action, ok, len(self.outcomes))
        body = Text()
        for outcome in self.outcomes:
            if body:
                body.append("\n")
            body.append("✓ " if outcome.ok else "✕ ", style="green" if outcome.ok else "red")
            body.append(_member_label(outcome.number), style="bold")
            body.append(f" — {outcome.reason}")
        with Vertical(id="outcomes-dialog", classes="dialog"):
            yield Static(Text(title, style="bold"), classes="dialog-title")
            with VerticalScroll(id="outcomes-list"):
                yield Static(body, id="outcomes-body", classes="dialog-body")
            with Horizontal(classes="dialog-buttons"):
                yield Button(
                    _("Close ({key})").format(key=key_for(self, "outcomes.close")),
                    id="outcomes-close",
                )

    def on_mount(self) -> None:
        self.query_one("#outcomes-close", Button).focus()

    @on(Button.Pressed, "#outcomes-close")
    def action_close(self) -> None:
        self.dismiss(None)


def _member_label(member: str) -> str:
    return member if "@" in member else format_number(member)


class GroupSettingsScreen(GroupModal[bool | None]):
    """`S`: who sends, who edits the group's info, who adds members (2.4), disappearing
    messages, the description. Only what changed is written, each once; dismisses True when
    something was."""

    HELP_TITLE = N_("Group settings")
    RETRY_ID = "group_settings.save"
    NOTE_ID = "settings-result"
    SUBMIT_BUTTON = "settings-save"
    BINDINGS = dialog_keys("group_settings.save", N_("Save the settings"), "group_settings.cancel")

    def __init__(
        self, instance: str, group_jid: str, info: GroupMetadata, version: str | None
    ) -> None:
        super().__init__(instance, group_jid)
        self.info = info
        self.member_add = has_member_add_mode(version)
        self.version = version
        self.changed = False

    def compose(self) -> ComposeResult:
        info = self.info
        with Vertical(id="group-settings-dialog", classes="dialog"):
            yield Static(Text(_("Group settings"), style="bold"), classes="dialog-title")
            with VerticalScroll(id="group-settings-form", can_focus=False):
                yield Static(Text(info.subject or self.group_jid, style="dim"))
                yield Checkbox(
                    _("Only admins send messages"), bool(info.announce), id="set-announce"
                )
                yield Checkbox(
                    _("Only admins edit the group's info"), bool(info.restrict), id="set-locked"
                )
                yield Checkbox(
                    _("Every member may add members"),
                    bool(info.member_add_mode),
                    id="set-member-add",
                    disabled=not self.member_add,
                )
                if not self.member_add:
                    yield Static(Text(self._member_add_note(), style="dim"))
                yield Label(_("Disappearing messages"))
                seconds = info.ephemeral_duration or 0
                yield Select(
                    [(_(DISAPPEARING_LABELS[s]), s) for s in DISAPPEARING.values()],
                    value=seconds if seconds in DISAPPEARING_LABELS else 0,
                    allow_blank=False,
                    id="set-disappearing",
                )
                yield Label(_("Description"))
                yield TextArea(info.desc or "", id="set-description", soft_wrap=True)
                yield Static(id="settings-result", classes="field-error")
            yield from dialog_buttons(
                self,
                (_("Save"), "group_settings.save", "settings-save"),
                (_("Cancel"), "group_settings.cancel", "settings-no"),
            )

    def _member_add_note(self) -> str:
        """Why "who adds members" cannot be changed here."""
        if self.version:
            return _("(who adds members: Evolution API 2.4; this gateway is {version})").format(
                version=self.version
            )
        return _("(who adds members: Evolution API 2.4; this gateway is of an unknown version)")

    def on_mount(self) -> None:
        self.query_one("#set-announce", Checkbox).focus()

    def _changes(self) -> list[tuple[str, object]]:
        info = self.info
        changes: list[tuple[str, object]] = []
        announce = self.query_one("#set-announce", Checkbox).value
        if announce != bool(info.announce):
            send = GroupSetting.ANNOUNCEMENT if announce else GroupSetting.NOT_ANNOUNCEMENT
            changes.append(("setting", send))
        locked = self.query_one("#set-locked", Checkbox).value
        if locked != bool(info.restrict):
            changes.append(("setting", GroupSetting.LOCKED if locked else GroupSetting.UNLOCKED))
        member_add = self.query_one("#set-member-add", Checkbox).value
        if self.member_add and member_add != bool(info.member_add_mode):
            mode = MemberAddMode.ALL_MEMBER_ADD if member_add else MemberAddMode.ADMIN_ADD
            changes.append(("member_add", mode))
        seconds = self.query_one("#set-disappearing", Select).value
        if isinstance(seconds, int) and seconds != (info.ephemeral_duration or 0):
            changes.append(("disappearing", seconds))
        description = self.query_one("#set-description", TextArea).text
        if description.strip() and description != (info.desc or ""):
            changes.append(("description", description))
        return changes

    def submit(self) -> None:
        if self.busy:
            return
        changes = self._changes()
        if not changes:
            self.say(Text(_("Nothing changed: nothing to save."), style="yellow"))
            return
        self.submit_call(
            self._write(changes),
            what=operation_words("settings"),
            working=ngettext("Saving {n} change…", "Saving {n} changes…", len(changes)).format(
                n=number(len(changes))
            ),
            on_done=lambda _r: self.dismiss(True),
            explain=self._explained,
            group="group-admin",
        )

    async def _write(self, changes: list[tuple[str, object]]) -> None:
        """Each change once, in order; a refusal stops the rest (said with what was done)."""
        groups = self.actions.groups
        for kind, value in changes:
            if kind == "setting":
                await groups.update_group_setting(self.instance, self.group_jid, value)
            elif kind == "member_add":
                await groups.set_member_add_mode(self.instance, self.group_jid, value)
            elif kind == "disappearing":
                await groups.set_disappearing(self.instance, self.group_jid, value)
            else:
                await groups.update_description(self.instance, self.group_jid, str(value))
            self.changed = True
            info = groups.info_of(self.instance, self.group_jid).value
            self.info = info or self.info

    def _explained(self, error) -> Text:
        text = self._explain(error, "settings")
        if self.changed:
            text.append("\n" + _("The changes before this one were saved."), style="yellow")
        return text

    def cancel_result(self) -> bool | None:
        return self.changed or None


class LeaveGroupScreen(GroupModal[bool | None]):
    """`L`: leaving cannot be undone by this number: the group's subject is typed to go on."""

    HELP_TITLE = N_("Leave the group")
    RETRY_ID = "leave.confirm"
    NOTE_ID = "leave-result"
    SUBMIT_BUTTON = "leave-yes"
    BINDINGS = dialog_keys("leave.confirm", N_("Leave"), "leave.cancel", N_("Stay"))

    def __init__(self, instance: str, group_jid: str, subject: str | None) -> None:
        super().__init__(instance, group_jid)
        named = (subject or "").strip()
        # A group without a subject: a word in the reader's language is typed instead.
        self.shown = named or group_jid
        self.phrase = named or _("leave")

    def compose(self) -> ComposeResult:
        with Vertical(id="leave-dialog", classes="dialog"):
            yield Static(Text(_("Leave the group"), style="bold"), classes="dialog-title")
            body = styled(
                _(
                    "{instance} leaves {group}. Only an admin can add it back; its invite link "
                    "stops working for it.\nType the group's name to go on: {phrase}"
                ),
                instance=self.instance,
                group=(self.shown, "bold"),
                phrase=(self.phrase, "bold"),
            )
            yield Static(body, classes="dialog-body")
            yield TextInput(placeholder=self.phrase, id="leave-phrase")
            yield Static(id="leave-result", classes="field-error")
            yield from dialog_buttons(
                self,
                (_("Leave"), "leave.confirm", "leave-yes"),
                (_("Stay"), "leave.cancel", "leave-no"),
                variant="error",
                disabled=True,
            )

    def on_mount(self) -> None:
        self.query_one("#leave-phrase", Input).focus()

    @on(Input.Changed, "#leave-phrase")
    def _typed(self, event: Input.Changed) -> None:
        self.query_one("#leave-yes", Button).disabled = event.value.strip() != self.phrase

    def submit(self) -> None:
        if self.busy:
            return
        if self.query_one("#leave-phrase", Input).value.strip() != self.phrase:
            self.say(
                Text("✕ " + _("type {phrase!r} to leave").format(phrase=self.phrase), style="red")
            )
            return
        self.submit_call(
            self.actions.groups.leave_group(self.instance, self.group_jid),
            what=operation_words("leave"),
            working=_("Leaving…"),
            on_done=lambda _r: self.dismiss(True),
            explain=lambda error: self._explain(error, "leave"),
            group="group-admin",
        )


class CreateGroupScreen(FormModal[GroupMetadata | None]):
    """A new group: its subject, its first participants (checked as for adding), a
    description. Dismisses with the group made."""

    HELP_TITLE = N_("Create a group")
    NOTE_ID = "create-result"
    SUBMIT_BUTTON = "create-save"
    BINDINGS = dialog_keys("create_group.save", N_("Create the group"), "create_group.cancel")

    def __init__(self, instance: str) -> None:
        super().__init__()
        self.instance = instance

    def compose(self) -> ComposeResult:
        with Vertical(id="create-dialog", classes="dialog"):
            yield Static(Text(_("Create a group"), style="bold"), classes="dialog-title")
            with VerticalScroll(id="create-form", can_focus=False):
                yield Static(Text(_("on {instance}").format(instance=self.instance), style="dim"))
                yield Label(_("Subject"))
                yield TextInput(placeholder=_("the group's name"), id="create-subject")
                yield Label(_("Participants — one per line or separated by commas"))
                yield TextArea(id="create-numbers", soft_wrap=True)
                yield Static(id="create-check", classes="field-error")
                yield Label(_("Description (optional)"))
                yield TextInput(id="create-description")
                yield Static(id="create-result", classes="field-error")
            yield from dialog_buttons(
                self,
                (_("Create"), "create_group.save", "create-save"),
                (_("Cancel"), "create_group.cancel", "create-no"),
            )

    def on_mount(self) -> None:
        self.query_one("#create-subject", Input).focus()

    def _plan(self) -> NumbersToAdd:
        plan = numbers_to_add(self.query_one("#create-numbers", TextArea).text, [])
        self.query_one("#create-check", Static).update(plan_text(plan))
        return plan

    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        event.stop()
        self._plan()

    def field_submitted(self, field: Input) -> None:
        if field.id == "create-subject":
            self.query_one("#create-numbers", TextArea).focus()
        else:
            self.submit()

    def submit(self) -> None:
        if self.busy:
            return
        subject = self.query_one("#create-subject", Input).value.strip()
        problems = check_subject(subject)
        plan = self._plan()
        if problems:
            self.say(Text("✕ " + problems[0].message, style="red"))
            return
        if not plan.numbers:
            self.say(
                Text("✕ " + _("a group needs at least one participant besides you"), style="red")
            )
            return
        description = self.query_one("#create-description", Input).value
        self.submit_call(
            self.actions.groups.create_group(self.instance, subject, plan.numbers, description),
            what=operation_words("create"),
            working=_("Creating…"),
            on_done=self.dismiss,
            explain=self._explain,
            group="group-admin",
        )

    def _explain(self, error) -> Text:
        title, advice = explain_on(self, self.instance, error, "create")
        return problem_text(title, advice, error, show_lines=True)
