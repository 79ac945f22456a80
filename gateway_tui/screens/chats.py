"""`t` on an instance: the chats the app knows, and what can be done to them.

This screen does not ask the gateway for its chats yet (a 1.7.1 gateway lists them with
findChats): the list is built from what the app has seen: the recipients of list messages
sent from here (this run and, from the stored history, earlier ones) and the chats the gateway
named in its answers.
"""

from __future__ import annotations

from datetime import datetime

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Footer, Static

from gateway_tui.actions.messages import sent_text
from gateway_tui.api.models import MessageKey, jid_number
from gateway_tui.drafts import ComposeStore
from gateway_tui.screens.base import GatewayScreen
from gateway_tui.screens.chat_modals import (
    EditMessageScreen,
    PickMessageScreen,
    ProfileScreen,
    number_label,
)
from gateway_tui.state import ChatRecord, Topic
from gateway_tui.widgets.gateway_bar import GatewayBar
from gateway_tui.widgets.record_table import Column, RecordTable
from gateway_tui.widgets.status_panel import StatusPanel
from gateway_tui.widgets.table_filter import TableFilter


def chat_name(chat: ChatRecord) -> str:
    if chat.jid.endswith("@g.us"):
        return f"group {chat.jid}"
    return number_label(chat.jid)


def _when(chat: ChatRecord) -> str:
    return chat.last_at.strftime("%Y-%m-%d %H:%M") if chat.last_at else "—"


CHAT_COLUMNS: list[Column[ChatRecord]] = [
    Column("chat", "Chat", chat_name, max_width=36),
    Column("last", "Last message", lambda c: c.last_text or "—", max_width=40),
    Column("when", "Sent", _when, width=16),
    Column("status", "Status", lambda c: c.last_status or "—", width=12),
    Column(
        "archived",
        "Archived",
        lambda c: "archived" if c.archived else "—",
        style=lambda c: "yellow" if c.archived else "dim",
        width=9,
    ),
    Column("count", "Sent here", lambda c: str(len(c.texts)), width=9),
]


def chat_search_text(chat: ChatRecord) -> str:
    return " ".join((chat.jid, chat_name(chat), chat.last_text, *chat.texts.values()))


class ChatsScreen(GatewayScreen):
    HELP_TITLE = "Chats"
    TOPICS = frozenset({Topic.CHATS, Topic.SENT})

    BINDINGS = [
        Binding("a", "archive", "Archive / unarchive", id="chats.archive"),
        Binding("e", "edit", "Edit a sent message", id="chats.edit"),
        Binding("p", "profile", "Business profile", id="chats.profile"),
        Binding("m", "compose", "Compose to this chat", id="chats.compose"),
        Binding("slash", "filter", "Filter", id="chats.filter"),
        Binding("escape", "back", "Back", id="chats.back"),
    ]

    def __init__(self, instance: str, *, store: ComposeStore | None = None) -> None:
        """``store`` (the sent history) defaults to the instance's files."""
        super().__init__()
        self.instance = instance
        self.store: ComposeStore | None = store

    def compose(self) -> ComposeResult:
        yield GatewayBar()
        with Vertical(id="chats-body"):
            title = Text("Chats of ", style="bold")
            title.append(self.instance, style="bold")
            yield Static(title, classes="title")
            yield Static(id="chats-summary", classes="summary")
            yield StatusPanel(id="chats-panel")
            yield RecordTable(
                CHAT_COLUMNS,
                row_key=lambda c: c.jid,
                search_text=chat_search_text,
                id="chats-table",
            )
            yield Static(id="chat-details")
            yield TableFilter(
                "chats-table", placeholder="filter by number, JID or text", id="chats-filter"
            )
        yield Footer()

    @property
    def table(self) -> RecordTable[ChatRecord]:
        return self.query_one("#chats-table", RecordTable)

    def on_mount(self) -> None:
        self.table.focus()
        if self.store is None:
            self.store = ComposeStore(self.gateway_app.gateway_url, self.instance)
        try:
            stored = self.store.stored_chats()
        except OSError as problem:
            self.notify(
                f"Could not read the sent history: {problem}", severity="warning", markup=False
            )
            return
        self.actions.restore_sent(
            self.instance, stored.records, texts=stored.texts, archived=stored.archived
        )

    # --- drawing ---------------------------------------------------------------------------------

    def chats(self) -> list[ChatRecord]:
        """Newest first."""
        chats = list(self.state.chats_of(self.instance).values())
        return sorted(chats, key=lambda c: c.last_at or datetime.min, reverse=True)

    def refresh_from_state(self) -> None:
        chats = self.chats()
        panel = self.query_one("#chats-panel", StatusPanel)
        table = self.table
        if not chats:
            table.display = False
            panel.display = True
            panel.show_message(
                "No chats yet",
                "Chats appear here once a list message is sent from this app: m composes one. "
                "p looks up the profile of any number.",
            )
        else:
            panel.display = False
            table.display = True
            table.set_rows(chats)
        archived = sum(1 for c in chats if c.archived)
        parts = [f"{len(chats)} chat(s)", f"{archived} archived"]
        if table.filter_text:
            parts.append(f"filter: “{table.filter_text}” ({table.visible_count} shown)")
        parts.append("a archive / unarchive · e edit · p profile · m compose")
        self.query_one("#chats-summary", Static).update(Text(" · ".join(parts)))
        self._draw_details()

    def _draw_details(self) -> None:
        details = self.query_one("#chat-details", Static)
        chat = self.table.cursor_row if self.table.display else None
        details.display = chat is not None
        if chat is None:
            return
        text = Text(chat.jid, style="bold")
        text.append(
            "  archived" if chat.archived else "  not archived",
            style="yellow" if chat.archived else "dim",
        )
        if chat.last_key is not None:
            text.append(f"\nlast message id {chat.last_key.id}", style="dim")
        for record in self.actions.sent_in_chat(self.instance, chat.jid)[:6]:
            key = record.result.key
            if key is None:
                continue
            text.append(f"\n{record.sent_at:%Y-%m-%d %H:%M}  ", style="dim")
            text.append(chat.texts.get(key.id, sent_text(record)))
            text.append(f"  {key.id}", style="dim")
        details.update(text)

    def on_record_table_cursor_moved(self, event: RecordTable.CursorMoved) -> None:
        event.stop()
        self._draw_details()

    # --- actions ------------------------------------------------------------------------------

    def _current(self) -> ChatRecord | None:
        chat = self.table.cursor_row if self.table.display else None
        if chat is None:
            self.notify("No chat here yet: send a list message first (m).", markup=False)
        return chat

    def action_archive(self) -> None:
        chat = self._current()
        if chat is None:
            return
        if chat.last_key is None:
            self.notify("No message of this chat is known: it cannot be archived.", markup=False)
            return
        archive = not chat.archived
        jid = chat.jid

        def done(_result: object) -> None:
            if self.store is None:
                return
            try:
                self.store.record_archived(jid, archive)
            except OSError as problem:
                self.notify(
                    f"Could not store the flag: {problem}", severity="warning", markup=False
                )

        self.call(
            self.actions.set_archived(self.instance, jid, archive),
            what="Archiving the chat" if archive else "Unarchiving the chat",
            done="Chat archived" if archive else "Chat unarchived",
            on_done=done,
            group="archive",
        )

    def action_edit(self) -> None:
        chat = self._current()
        if chat is None:
            return
        records = self.actions.sent_in_chat(self.instance, chat.jid)
        if not records:
            self.notify("Only messages sent from this app can be edited.", markup=False)
            return
        keys = {r.result.key.id: r.result.key for r in records if r.result.key is not None}
        if len(records) == 1:
            self._edit(chat, records[0].result.key)  # type: ignore[arg-type]
            return
        choices = [
            (
                r.result.key.id,
                chat.texts.get(r.result.key.id, sent_text(r)),
                f"{r.sent_at:%Y-%m-%d %H:%M}",
            )
            for r in records
            if r.result.key is not None
        ]
        self.app.push_screen(
            PickMessageScreen(chat.jid, choices),
            lambda message_id: self._edit(chat, keys[message_id]) if message_id else None,
        )

    def _edit(self, chat: ChatRecord, key: MessageKey) -> None:
        old = chat.texts.get(key.id, "")

        def edited(text: str | None) -> None:
            if text is None:
                return
            self.notify("Message edited", markup=False)
            if self.store is not None:
                try:
                    self.store.record_edit(key.id, text)
                except OSError as problem:
                    self.notify(
                        f"Could not store the edit: {problem}", severity="warning", markup=False
                    )

        self.app.push_screen(EditMessageScreen(self.instance, key, old), edited)

    def action_profile(self) -> None:
        chat = self.table.cursor_row if self.table.display else None
        number = ""
        if chat is not None and not chat.jid.endswith("@g.us"):
            number = jid_number(chat.jid)
        self.app.push_screen(ProfileScreen(self.instance, number))

    def action_compose(self) -> None:
        from gateway_tui.screens.composer import ComposerScreen

        chat = self.table.cursor_row if self.table.display else None
        if chat is None:
            self.gateway_app.open_composer(self.instance)
            return
        recipient = chat.jid if chat.jid.endswith("@g.us") else jid_number(chat.jid)
        self.app.push_screen(ComposerScreen(self.instance, recipient=recipient, store=self.store))

    def action_filter(self) -> None:
        self.query_one(TableFilter).open()

    def on_table_filter_applied(self, _event: TableFilter.Applied) -> None:
        self.refresh_from_state()

    def action_back(self) -> None:
        if not self.query_one(TableFilter).close():
            self.app.pop_screen()
