"""A yes/no modal that names what it is about."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Static

from gateway_tui.core.text.i18n import _
from gateway_tui.tui.screens.base import key_for
from gateway_tui.tui.widgets.text_input import TextInput


class ConfirmScreen(ModalScreen[bool]):
    """Dismisses with True on confirm, False on cancel. Text parts are data, never markup."""

    BINDINGS = [
        Binding("y", "confirm", "Yes", id="confirm.yes"),
        Binding("n,escape", "cancel", "No", id="confirm.no"),
    ]

    def __init__(
        self,
        title: str,
        body: Text | str,
        *,
        confirm_label: str | None = None,
        cancel_label: str | None = None,
    ) -> None:
        """``confirm_label`` (default "Yes") and ``cancel_label`` (default "Cancel"), in the
        reader's language; ``cancel_label``: what "no" does, when "Cancel" would read as the
        confirm (a dialog that cancels something says "Keep …" on its other button)."""
        super().__init__()
        self._title = title
        self._body = body if isinstance(body, Text) else Text(body)
        self._confirm_label = confirm_label or _("Yes")
        self._cancel_label = cancel_label or _("Cancel")

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-dialog", classes="dialog"):
            yield Static(Text(self._title, style="bold"), classes="dialog-title")
            yield Static(self._body, classes="dialog-body")
            with Horizontal(classes="dialog-buttons"):
                yes, no = key_for(self, "confirm.yes"), key_for(self, "confirm.no")
                yield Button(f"{self._confirm_label} ({yes})", variant="error", id="confirm-yes")
                yield Button(f"{self._cancel_label} ({no})", id="confirm-no")

    def on_mount(self) -> None:
        self.query_one("#confirm-no", Button).focus()

    @on(Button.Pressed, "#confirm-yes")
    def action_confirm(self) -> None:
        self.dismiss(True)

    @on(Button.Pressed, "#confirm-no")
    def action_cancel(self) -> None:
        self.dismiss(False)


class PromptScreen(ModalScreen[str | None]):
    """One line of text: dismisses with it on enter, with None on escape."""

    BINDINGS = [Binding("escape", "cancel", "Cancel", id="prompt.cancel")]

    def __init__(self, title: str, body: Text | str, value: str = "", *, placeholder: str = ""):
        super().__init__()
        self._title = title
        self._body = body if isinstance(body, Text) else Text(body)
        self._value = value
        self._placeholder = placeholder

    def compose(self) -> ComposeResult:
        with Vertical(id="prompt-dialog", classes="dialog"):
            yield Static(Text(self._title, style="bold"), classes="dialog-title")
            yield Static(self._body, classes="dialog-body")
            yield TextInput(self._value, placeholder=self._placeholder, id="prompt-input")
            cancel = key_for(self, "prompt.cancel")
            said = _("{enter} saves · {cancel} cancels").format(enter="enter", cancel=cancel)
            yield Static(Text(said, style="dim"))

    def on_mount(self) -> None:
        self.query_one("#prompt-input", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)
