"""`v` on a message: the message whole, to read at any length (a bubble shows only its start).

A read-only text area: it scrolls line by line and page by page through a message of any
length (10,000 lines included), and keeps the text selectable. The text is data: it goes in
as the text area's document, never as markup, and every painted line passes the display filter.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Footer, Static, TextArea

from gateway_tui.core.api.chat_models import StoredMessage
from gateway_tui.core.chat_book import person_label, printable
from gateway_tui.core.text.i18n import N_, _, ngettext, number
from gateway_tui.tui.screens.base import GatewayScreen
from gateway_tui.tui.widgets.conversation import when
from gateway_tui.tui.widgets.gateway_bar import GatewayBar


class MessagePagerScreen(GatewayScreen):
    HELP_TITLE = N_("A message, whole")

    BINDINGS = [
        Binding("escape,q", "back", "Back", id="message_pager.back"),
        Binding(
            "ctrl+home,g",
            "start",
            "Start",
            tooltip=N_("The message's start"),
            id="message_pager.start",
        ),
        Binding(
            "ctrl+end,G", "end", "End", tooltip=N_("The message's end"), id="message_pager.end"
        ),
    ]

    def __init__(self, chat_title: str, message: StoredMessage, text: str) -> None:
        super().__init__()
        self.chat_title = chat_title
        self.message = message
        self.text = text

    def compose(self) -> ComposeResult:
        yield GatewayBar()
        with Vertical(id="pager-body"):
            message = self.message
            who = (
                _("You")
                if message.from_me
                else (message.sender_name or person_label(message.sender))
            )
            title = Text(printable(who), style="bold")
            lines = self.text.count("\n") + 1
            said = ngettext(
                "in {chat} · {when} · {n} line", "in {chat} · {when} · {n} lines", lines
            ).format(chat=printable(self.chat_title), when=when(message.timestamp), n=number(lines))
            title.append(" " + said, style="dim")
            yield Static(title, classes="title")
            yield TextArea(
                printable(self.text),
                read_only=True,
                soft_wrap=True,
                show_line_numbers=lines > 1,
                id="pager-text",
            )
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#pager-text", TextArea).focus()

    def action_start(self) -> None:
        self.query_one("#pager-text", TextArea).move_cursor((0, 0), center=True)

    def action_end(self) -> None:
        area = self.query_one("#pager-text", TextArea)
        area.move_cursor(area.document.end, center=True)
