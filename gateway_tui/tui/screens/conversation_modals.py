"""The conversation's small dialogs: a reaction to choose, a file to send with its caption.

Both only collect input and dismiss with it; the conversation screen makes the call (one
place that sends, one place that reports).
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Input, Label, Static

from gateway_tui.core.api.message_bodies import MediaUpload
from gateway_tui.core.chat_book import printable
from gateway_tui.core.files.media_files import MediaFileProblem, read_for_upload
from gateway_tui.core.text.i18n import N_, _
from gateway_tui.tui.screens.form_modal import FormModal
from gateway_tui.tui.widgets.text_input import TextInput

REACTIONS = ("👍", "❤️", "😂", "😮", "😢", "🙏")


class ReactionScreen(FormModal[str | None]):
    """`+`: 1–6 react with that emoji, 0 takes a reaction away, or type any emoji."""

    HELP_TITLE = N_("React to a message")
    BINDINGS = [
        # One literal per key (the catalogue finds them; REACTIONS[n - 1] is key n's emoji).
        Binding("1", "choose(1)", "React 👍", id="reaction.choose_1"),
        Binding("2", "choose(2)", "React ❤️", id="reaction.choose_2"),
        Binding("3", "choose(3)", "React 😂", id="reaction.choose_3"),
        Binding("4", "choose(4)", "React 😮", id="reaction.choose_4"),
        Binding("5", "choose(5)", "React 😢", id="reaction.choose_5"),
        Binding("6", "choose(6)", "React 🙏", id="reaction.choose_6"),
        Binding("0", "choose(0)", "Take the reaction away", id="reaction.remove"),
        Binding("escape", "cancel", "Cancel", id="reaction.cancel"),
    ]

    def __init__(self, quoted: str) -> None:
        super().__init__()
        self.quoted = quoted

    def compose(self) -> ComposeResult:
        with Vertical(id="reaction-dialog", classes="dialog"):
            yield Static(Text(_("React to"), style="bold"), classes="dialog-title")
            yield Static(Text(printable(self.quoted), style="italic"))
            choices = Text()
            for n, emoji in enumerate(REACTIONS, start=1):
                choices.append(f" {n} ", style="bold")
                choices.append(emoji + " ")
            choices.append(" 0 ", style="bold")
            choices.append(_("none"))
            yield Static(choices)
            yield Label(_("or type an emoji and press {enter}").format(enter="enter"))
            yield TextInput(placeholder="🎉", max_length=16, id="reaction-other")
            cancels = _("{key} cancels").format(key=self.key_for("reaction.cancel"))
            yield Static(Text(cancels, style="dim"))

    def on_mount(self) -> None:
        self.query_one("#reaction-other", Input).focus()

    def action_choose(self, number: int) -> None:
        self.dismiss("" if number == 0 else REACTIONS[number - 1])

    def on_input_changed(self, event: Input.Changed) -> None:
        # A digit chooses at once; anything else waits for enter.
        value = event.value.strip()
        if value.isdigit() and len(value) == 1 and int(value) <= len(REACTIONS):
            event.stop()
            self.action_choose(int(value))

    def submit(self) -> None:
        if value := self.query_one("#reaction-other", Input).value.strip():
            self.dismiss(value)


@dataclass(frozen=True)
class FileToSend:
    upload: MediaUpload
    size: int


class SendFileScreen(FormModal[FileToSend | None]):
    """`f`: a local file and a caption; checked (exists, size within WhatsApp's limit) here,
    before anything is sent."""

    HELP_TITLE = N_("Send a file")
    NOTE_ID = "send-file-note"
    BINDINGS = [
        Binding("ctrl+s", "submit", "Send the file", id="send_file.send", priority=True),
        Binding("escape", "cancel", "Cancel", id="send_file.cancel"),
    ]

    def __init__(self, chat_title: str) -> None:
        super().__init__()
        self.chat_title = chat_title

    def compose(self) -> ComposeResult:
        with Vertical(id="send-file-dialog", classes="dialog"):
            title = _("Send a file to {chat}").format(chat=printable(self.chat_title))
            yield Static(Text(title, style="bold"), classes="dialog-title")
            yield Label(
                _("File (a photo, video or audio goes as one; anything else as a document)")
            )
            yield TextInput(placeholder=_("~/Pictures/receipt.jpg"), id="send-file-path")
            yield Label(_("Caption (optional)"))
            yield TextInput(placeholder=_("shown under the file"), id="send-file-caption")
            yield Static(id="send-file-note", classes="field-error")
            send, cancel = self.key_for("send_file.send"), self.key_for("send_file.cancel")
            keys = _("{enter} or {send} sends · {tab} to the caption · {cancel} cancels").format(
                enter="enter", send=send, tab="tab", cancel=cancel
            )
            yield Static(Text(keys, "dim"))

    def on_mount(self) -> None:
        self.query_one("#send-file-path", Input).focus()

    def submit(self) -> None:
        path = self.query_one("#send-file-path", Input).value
        caption = self.query_one("#send-file-caption", Input).value
        try:
            upload = read_for_upload(path, caption)
        except MediaFileProblem as problem:
            self.say(Text(f"✕ {printable(str(problem))}", style="red"))
            return
        self.dismiss(FileToSend(upload, len(upload.media) * 3 // 4))
