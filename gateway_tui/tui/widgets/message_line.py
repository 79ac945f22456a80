"""The conversation's message line: enter sends, a key for a new line, it grows up to a few
lines and scrolls beyond.

A text area whose enter posts ``MessageLine.Send`` instead of breaking the line; ctrl+j (also
alt+enter and shift+enter, where the terminal tells them apart) breaks it. What is typed stays
until the gateway took it: a failed send leaves it there to try again.
"""

from __future__ import annotations

from textual import events
from textual.message import Message
from textual.widgets import TextArea

from gateway_tui.tui.textual_private import replace_via_keyboard

NEW_LINE_KEYS = frozenset({"ctrl+j", "alt+enter", "shift+enter"})


class MessageLine(TextArea):
    DEFAULT_CSS = """
    MessageLine {
        height: auto;
        max-height: 6;
        min-height: 3;
        border: round $primary 50%;
    }
    MessageLine:focus {
        border: round $accent;
    }
    """

    class Send(Message):
        """Enter: send what is typed."""

        def __init__(self, line: MessageLine, text: str) -> None:
            super().__init__()
            self.line = line
            self.text = text

    def __init__(self, *, placeholder: str = "", id: str | None = None) -> None:  # noqa: A002
        super().__init__(
            "",
            soft_wrap=True,
            tab_behavior="focus",
            show_line_numbers=False,
            placeholder=placeholder,
            compact=True,
            id=id,
        )

    async def _on_key(self, event: events.Key) -> None:
        if event.key == "enter":
            event.stop()
            event.prevent_default()
            self.post_message(self.Send(self, self.text))
            return
        if event.key in NEW_LINE_KEYS:
            event.stop()
            event.prevent_default()
            start, end = self.selection
            replace_via_keyboard(self, "\n", start, end)
            return
        await super()._on_key(event)
