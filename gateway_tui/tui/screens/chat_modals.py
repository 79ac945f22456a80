"""The chat dialogs: edit an own message, and a business profile card.

The edit and profile dialogs run their gateway call themselves (they are GatewayScreens), so a
refusal is shown inside the dialog, where the input can be fixed and tried again.
"""

from __future__ import annotations

from typing import TypeVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Input, Label, Static

from gateway_tui.core.api.errors import GatewayError
from gateway_tui.core.api.models import BusinessProfile, MessageKey
from gateway_tui.core.api.validation import check_recipient, normalise_number
from gateway_tui.core.chat_book import person_label
from gateway_tui.core.services.messages import profile_key
from gateway_tui.core.state import Loadable, Topic
from gateway_tui.core.text.i18n import N_, _
from gateway_tui.tui.screens.form_modal import FormModal
from gateway_tui.tui.widgets.styled import styled
from gateway_tui.tui.widgets.text_input import TextInput

_R = TypeVar("_R")


def error_text(error: GatewayError) -> Text:
    """✕ the error and the server's lines, as data (never markup)."""
    text = Text.assemble(("✕ ", "bold red"))
    text.append(error.title, style="bold")
    for line in error.messages[:6]:
        text.append("\n  ")
        text.append(line)
    if error.hint:
        text.append("\n")
        text.append(error.hint, style="yellow")
    return text


class ChatModal(FormModal[_R]):
    """A dialog about the chats of one instance that runs gateway calls."""

    def __init__(self, instance: str) -> None:
        super().__init__()
        self.instance = instance


class EditMessageScreen(ChatModal[str | None]):
    """`e`: the message's text, prefilled with the old one → updateMessage; dismisses with the
    new text once the gateway took it."""

    HELP_TITLE = N_("Edit a sent message")
    NOTE_ID = "edit-note"
    BINDINGS = [
        Binding("ctrl+s", "submit", "Save the new text", id="edit_message.save", priority=True),
        Binding("escape", "cancel", "Cancel", id="edit_message.cancel"),
    ]

    def __init__(self, instance: str, key: MessageKey, old_text: str, *, seen: bool = True) -> None:
        super().__init__(instance)
        self.key = key
        self.old_text = old_text
        self.seen = seen  # False: past WhatsApp's window, the customer will not see the edit

    def compose(self) -> ComposeResult:
        with Vertical(id="edit-dialog", classes="dialog"):
            yield Static(Text(_("Edit a sent message"), style="bold"), classes="dialog-title")
            yield Static(
                styled(
                    _("Chat {chat} · message id {id}"),
                    "dim",
                    chat=(person_label(self.key.remote_jid), ""),
                    id=(self.key.id, ""),
                )
            )
            yield Label(_("New text"))
            # The old text is there to be added to: no selection that the first key replaces.
            yield TextInput(
                self.old_text,
                placeholder=_("the message's new text"),
                select_on_focus=False,
                id="edit-text",
            )
            yield Static(
                Text(_(TOO_OLD_TO_SEE), style="yellow") if not self.seen else "",
                id="edit-note",
                classes="field-error",
            )
            save, cancel = self.key_for("edit_message.save"), self.key_for("edit_message.cancel")
            yield Static(
                Text(
                    _("enter or {save} saves · {cancel} cancels").format(save=save, cancel=cancel),
                    style="dim",
                )
            )

    def on_mount(self) -> None:
        field = self.query_one("#edit-text", Input)
        field.focus()
        field.cursor_position = len(self.old_text)

    @property
    def value(self) -> str:
        return self.query_one("#edit-text", Input).value

    def submit(self) -> None:
        if self.busy:
            return
        text = self.value
        if not text.strip():
            self.say(Text("✕ " + _("The new text cannot be empty."), style="red"))
            return
        if text == self.old_text:
            self.say(Text(_("That is the text already: nothing to change."), style="yellow"))
            return
        self.submit_call(
            self.actions.messages.edit_message(self.instance, self.key, text, seen=self.seen),
            what=_("Editing the message"),
            working=_("Saving…"),
            on_done=lambda _answer: self.dismiss(text),
            explain=error_text,
            group="edit",
        )


TOO_OLD_TO_SEE = N_(
    "Sent more than 15 minutes ago: WhatsApp will not show this edit to the customer "
    "(the gateway accepts the call all the same)."
)


def profile_card(number: str, loadable: Loadable[BusinessProfile]) -> Text | Table:
    """The card of a fetched profile: who, whether a business, how to reach them."""
    error = loadable.error
    if loadable.loading:
        return Text(_("Asking the gateway…"), style="dim")
    if error is not None and error.not_on_whatsapp:
        text = Text.assemble(("✕ ", "bold red"))
        text.append(
            _("{who} is not on WhatsApp.").format(
                who=person_label(error.not_on_whatsapp[0] or number)
            )
        )
        text.append("\n" + _("The gateway cannot message or look up this number."), style="dim")
        return text
    if error is not None:
        return error_text(error)
    profile = loadable.value
    if profile is None:
        return Text("")
    if profile.number_exists is False:
        said = _("{who} is not on WhatsApp.").format(who=person_label(number))
        return Text(f"✕ {said}", style="bold red")
    table = Table.grid(padding=(0, 2))
    table.add_column(style="dim", no_wrap=True)
    table.add_column()
    table.add_row(_("Name"), Text(profile.name or "—", style="bold"))
    number_text = person_label(profile.wuid or number)
    if profile.wuid:
        number_text += f"  ({profile.wuid})"
    table.add_row(_("Number"), Text(number_text))
    if profile.is_business:
        table.add_row(_("Business"), Text(_("✓ business account"), style="green"))
    else:
        table.add_row(
            _("Business"),
            Text(_("no — a personal account") if profile.is_business is False else _("unknown")),
        )
    table.add_row(_("Description"), Text(profile.description or "—"))
    table.add_row(_("Email"), Text(profile.email or "—"))
    table.add_row(_("Website"), Text("\n".join(profile.websites) or "—"))
    table.add_row(_("Status"), Text(profile.status_text or "—"))
    table.add_row(_("Picture URL"), Text(profile.picture or "—"))
    return table


class ProfileScreen(ChatModal[None]):
    """`p`: a number (prefilled with the chat's) → fetchProfile → the card."""

    HELP_TITLE = N_("Business profile")
    TOPICS = frozenset({Topic.PROFILES})
    NOTE_ID = "profile-note"
    BINDINGS = [
        Binding("escape", "cancel", "Close", id="profile.close"),
    ]

    def __init__(self, instance: str, number: str = "") -> None:
        super().__init__(instance)
        self.number = number
        self.shown: str | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="profile-dialog", classes="dialog"):
            yield Static(Text(_("Business profile"), style="bold"), classes="dialog-title")
            yield Label(_("Number (international digits)"))
            yield TextInput(
                self.number,
                placeholder=_("e.g. {number}").format(number="447700900456"),
                id="profile-number",
            )
            yield Static(id="profile-note", classes="field-error")
            yield Static(id="profile-card")
            yield Static(
                Text(
                    _("enter fetches · {key} closes").format(key=self.key_for("profile.close")),
                    style="dim",
                )
            )

    def on_mount(self) -> None:
        self.query_one("#profile-number", Input).focus()
        if self.number and not check_recipient(self.number):
            self.fetch(self.number)

    def action_cancel(self) -> None:
        self.dismiss(None)  # only a read: nothing is left half done by closing

    def refresh_from_state(self) -> None:
        card = self.query_one("#profile-card", Static)
        if self.shown is None:
            card.update(Text(""))
            return
        loadable = self.state.profiles.get(profile_key(self.instance, self.shown))
        card.update(profile_card(self.shown, loadable or Loadable()))

    def submit(self) -> None:
        self.fetch(self.query_one("#profile-number", Input).value)

    def fetch(self, raw: str) -> None:
        note = self.query_one("#profile-note", Static)
        problems = check_recipient(raw)
        if problems:
            note.update(Text(f"✕ {problems[0].message}", style="red"))
            return
        note.update(Text(""))
        number = normalise_number(raw)
        self.shown = number
        self.busy = True

        def finished(_result: object = None) -> None:
            self.busy = False
            self.refresh_from_state()

        def failed(_error: GatewayError) -> bool:
            finished()
            return True  # the card says it

        self.call(
            self.actions.messages.fetch_profile(self.instance, number),
            what=_("Fetching the profile"),
            on_done=finished,
            on_error=failed,
            group="profile",
            exclusive=True,
        )
