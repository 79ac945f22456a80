"""The dialog with a form: submit, cancel, and "busy" while the gateway answers a submit.

Enter in a field submits (a subclass may move on to the next field first), so does the
dialog's submit key and its submit button; escape (its cancel key) and the other button
cancel. While a submit's call runs, a second submit does nothing and cancel waits: the
dialog never closes over a call whose outcome it would then not show.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, ClassVar, TypeVar

from rich.text import Text
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Static

from gateway_tui.core.api.errors import GatewayError
from gateway_tui.core.text.i18n import _
from gateway_tui.tui.screens.base import GatewayScreen

_R = TypeVar("_R")


class FormModal(ModalScreen[_R], GatewayScreen):
    """ModalScreen comes first: Textual takes a widget's CSS type names from its first base
    only, so the dialog is styled (centred, over the dimmed screen) like every modal."""

    # The line where the dialog says what is happening ("Saving…", why it failed).
    NOTE_ID: ClassVar[str] = ""
    # The button that submits (any other button of the dialog cancels).
    SUBMIT_BUTTON: ClassVar[str] = ""

    def __init__(self) -> None:
        super().__init__()
        self.busy = False

    def submit(self) -> None:
        """Check the form and act on it (``submit_call`` for a gateway call)."""
        raise NotImplementedError

    def cancel_result(self) -> _R | None:
        """What cancelling dismisses with."""
        return None

    def say(self, text: Text | str) -> None:
        self.query_one(f"#{self.NOTE_ID}", Static).update(
            text if isinstance(text, Text) else Text(text)
        )

    # Textual runs a handler of every class in the MRO: subclasses override these hooks, not
    # the handlers (a handler of their own would run, and then the base's too).
    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.field_submitted(event.input)

    def field_submitted(self, _field: Input) -> None:
        """Enter in ``field``: submits (a dialog may move on to its next field instead)."""
        self.submit()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == self.SUBMIT_BUTTON:
            self.submit()
        else:
            self.action_cancel()

    def action_submit(self) -> None:
        if not self.busy:
            self.submit()

    def action_enter(self) -> None:
        """Enter as a dialog's submit key: a focused button is pressed (Cancel cancels),
        anywhere else the form is submitted."""
        if isinstance(self.focused, Button):
            self.focused.press()
        else:
            self.action_submit()

    def action_cancel(self) -> None:
        if self.busy:
            self.notify(_("Waiting for the gateway's answer…"), markup=False)
            return
        self.dismiss(self.cancel_result())

    def submit_call(
        self,
        work: Awaitable[Any],
        *,
        what: str,
        working: str,
        on_done: Callable[[Any], None],
        explain: Callable[[GatewayError], Text],
        group: str,
    ) -> None:
        """Run the submit's gateway call: busy until it answers, ``working`` said meanwhile,
        the failure explained in the note line (the dialog stays open to try again)."""
        self.busy = True
        self.say(Text(working, style="dim"))

        def failed(error: GatewayError) -> bool:
            self.busy = False
            self.say(explain(error))
            return True

        def done(result: Any) -> None:
            self.busy = False
            on_done(result)

        self.call(work, what=what, on_done=done, on_error=failed, group=group, exclusive=True)
