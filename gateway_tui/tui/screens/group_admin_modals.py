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
from gateway_tui.core.text.i18n import N_
from gateway_tui.tui.screens.base import key_for
from gateway_tui.tui.screens.form_modal import FormModal
from gateway_tui.tui.screens.group_modals import (
    GroupModal,
    dialog_buttons,
    dialog_keys,
    explain_on,
    numbers_ready,
    problem_text,
)
from gateway_tui.tui.widgets.text_input import TextInput

PROBLEMS_SHOWN = 6
ACTION_WORDS = {
    ParticipantAction.ADD: ("Add", "added"),
    ParticipantAction.REMOVE: ("Remove", "removed"),
    ParticipantAction.PROMOTE: ("Promote", "promoted to admin"),
    ParticipantAction.DEMOTE: ("Demote", "made a plain member"),
}


def plan_text(plan: NumbersToAdd) -> Text:
    """What the numbers box holds: who will be added, and every number left out and why."""
    text = Text()
    if plan.numbers:
        numbers_ready(text, plan.numbers, "to add")
    if plan.duplicates:
        text.append(f"\n· {plan.duplicates} duplicate(s) removed", style="dim")
    for problem in plan.problems[:PROBLEMS_SHOWN]:
        text.append("\n✕ ", style="red")
        text.append(problem)
    if len(plan.problems) > PROBLEMS_SHOWN:
        text.append(f"\n… and {len(plan.problems) - PROBLEMS_SHOWN} more", style="dim")
    return text


class AddParticipantsScreen(GroupModal[list[Outcome] | None]):
    """`a`: numbers typed or pasted, checked as campaign recipients are; the members among
    them said and left out. Dismisses with each number's outcome."""

    HELP_TITLE = "Add participants"
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
            yield Static(Text("Add participants", style="bold"), classes="dialog-title")
            with VerticalScroll(id="add-form", can_focus=False):
                yield Static(Text(self.subject or self.group_jid, style="dim"))
                yield Label("Numbers — one per line or separated by commas, with country code")
                yield TextArea(id="add-numbers", soft_wrap=True)
                yield Static(id="add-check", classes="field-error")
                yield Static(id="add-result", classes="field-error")
            yield from dialog_buttons(
                self,
                ("Add", "add_participants.save", "add-save"),
                ("Cancel", "add_participants.cancel", "add-no"),
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
            self.say(Text("✕ nobody to add: type at least one number", style="red"))
            return
        self.submit_call(
            self.actions.groups.change_participants(
                self.instance, self.group_jid, ParticipantAction.ADD, plan.numbers
            ),
            what="Adding participants",
            working=f"Adding {len(plan.numbers)}…",
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
        verb, done = ACTION_WORDS[self.action]
        ok = sum(1 for o in self.outcomes if o.ok)
        title = f"{verb}: {ok} of {len(self.outcomes)} {done}"
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
                yield Button(f"Close ({key_for(self, 'outcomes.close')})", id="outcomes-close")

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

    HELP_TITLE = "Group settings"
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
            yield Static(Text("Group settings", style="bold"), classes="dialog-title")
            with VerticalScroll(id="group-settings-form", can_focus=False):
                yield Static(Text(info.subject or self.group_jid, style="dim"))
                yield Checkbox("Only admins send messages", bool(info.announce), id="set-announce")
                yield Checkbox(
                    "Only admins edit the group's info", bool(info.restrict), id="set-locked"
                )
                yield Checkbox(
                    "Every member may add members",
                    bool(info.member_add_mode),
                    id="set-member-add",
                    disabled=not self.member_add,
                )
                if not self.member_add:
                    yield Static(
                        Text(
                            f"(who adds members: Evolution API 2.4; this gateway is "
                            f"{self.version or 'of an unknown version'})",
                            style="dim",
                        )
                    )
                yield Label("Disappearing messages")
                seconds = info.ephemeral_duration or 0
                yield Select(
                    [(DISAPPEARING_LABELS[s], s) for s in DISAPPEARING.values()],
                    value=seconds if seconds in DISAPPEARING_LABELS else 0,
                    allow_blank=False,
                    id="set-disappearing",
                )
                yield Label("Description")
                yield TextArea(info.desc or "", id="set-description", soft_wrap=True)
                yield Static(id="settings-result", classes="field-error")
            yield from dialog_buttons(
                self,
                ("Save", "group_settings.save", "settings-save"),
                ("Cancel", "group_settings.cancel", "settings-no"),
            )

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
            self.say(Text("Nothing changed: nothing to save.", style="yellow"))
            return
        self.submit_call(
            self._write(changes),
            what="Saving the group's settings",
            working=f"Saving {len(changes)} change(s)…",
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
            text.append("\nThe changes before this one were saved.", style="yellow")
        return text

    def cancel_result(self) -> bool | None:
        return self.changed or None


class LeaveGroupScreen(GroupModal[bool | None]):
    """`L`: leaving cannot be undone by this number: the group's subject is typed to go on."""

    HELP_TITLE = "Leave the group"
    RETRY_ID = "leave.confirm"
    NOTE_ID = "leave-result"
    SUBMIT_BUTTON = "leave-yes"
    BINDINGS = dialog_keys("leave.confirm", N_("Leave"), "leave.cancel", N_("Stay"))

    def __init__(self, instance: str, group_jid: str, subject: str | None) -> None:
        super().__init__(instance, group_jid)
        self.phrase = (subject or "").strip() or "leave"

    def compose(self) -> ComposeResult:
        with Vertical(id="leave-dialog", classes="dialog"):
            yield Static(Text("Leave the group", style="bold"), classes="dialog-title")
            body = Text(f"{self.instance} leaves ")
            body.append(self.phrase if self.phrase != "leave" else self.group_jid, style="bold")
            body.append(
                ". Only an admin can add it back; its invite link stops working for it.\n"
                "Type the group's name to go on: "
            )
            body.append(self.phrase, style="bold")
            yield Static(body, classes="dialog-body")
            yield TextInput(placeholder=self.phrase, id="leave-phrase")
            yield Static(id="leave-result", classes="field-error")
            yield from dialog_buttons(
                self,
                ("Leave", "leave.confirm", "leave-yes"),
                ("Stay", "leave.cancel", "leave-no"),
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
            self.say(Text(f"✕ type {self.phrase!r} to leave", style="red"))
            return
        self.submit_call(
            self.actions.groups.leave_group(self.instance, self.group_jid),
            what="Leaving the group",
            working="Leaving…",
            on_done=lambda _r: self.dismiss(True),
            explain=lambda error: self._explain(error, "leave"),
            group="group-admin",
        )


class CreateGroupScreen(FormModal[GroupMetadata | None]):
    """A new group: its subject, its first participants (checked as for adding), a
    description. Dismisses with the group made."""

    HELP_TITLE = "Create a group"
    NOTE_ID = "create-result"
    SUBMIT_BUTTON = "create-save"
    BINDINGS = dialog_keys("create_group.save", N_("Create the group"), "create_group.cancel")

    def __init__(self, instance: str) -> None:
        super().__init__()
        self.instance = instance

    def compose(self) -> ComposeResult:
        with Vertical(id="create-dialog", classes="dialog"):
            yield Static(Text("Create a group", style="bold"), classes="dialog-title")
            with VerticalScroll(id="create-form", can_focus=False):
                yield Static(Text(f"on {self.instance}", style="dim"))
                yield Label("Subject")
                yield TextInput(placeholder="the group's name", id="create-subject")
                yield Label("Participants — one per line or separated by commas")
                yield TextArea(id="create-numbers", soft_wrap=True)
                yield Static(id="create-check", classes="field-error")
                yield Label("Description (optional)")
                yield TextInput(id="create-description")
                yield Static(id="create-result", classes="field-error")
            yield from dialog_buttons(
                self,
                ("Create", "create_group.save", "create-save"),
                ("Cancel", "create_group.cancel", "create-no"),
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
            self.say(Text("✕ a group needs at least one participant besides you", style="red"))
            return
        description = self.query_one("#create-description", Input).value
        self.submit_call(
            self.actions.groups.create_group(self.instance, subject, plan.numbers, description),
            what="Creating the group",
            working="Creating…",
            on_done=self.dismiss,
            explain=self._explain,
            group="group-admin",
        )

    def _explain(self, error) -> Text:
        title, advice = explain_on(self, self.instance, error, "create")
        return problem_text(title, advice, error, show_lines=True)
