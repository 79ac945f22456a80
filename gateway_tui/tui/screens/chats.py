"""`t` on an instance: the gateway's chats (findChats), named and with their last message.

Names come from the stored contacts (pushName) and, for groups, from fetchAllGroups when the
instance can answer it (else the JID shows). Chats this app sent to are merged in, never twice;
when the gateway's store is empty (switched off) the sent history is all there is, and the
screen says so. `enter` opens the conversation (screens/messages.py).
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Static

from gateway_tui.core.api.chat_models import StoredMessage
from gateway_tui.core.api.errors import GatewayError
from gateway_tui.core.api.label_models import Label
from gateway_tui.core.api.models import jid_number
from gateway_tui.core.chat_book import ChatBook, ChatRow, chat_rows, printable
from gateway_tui.core.files.drafts import ComposeStore
from gateway_tui.core.identity import is_lid
from gateway_tui.core.services.messages import recipient_of
from gateway_tui.core.state import Topic
from gateway_tui.core.text.i18n import N_, _, date_time, ngettext, number
from gateway_tui.tui.screens.base import GatewayScreen
from gateway_tui.tui.screens.chat_labels import ChatLabels, labels_column
from gateway_tui.tui.screens.chat_modals import ProfileScreen
from gateway_tui.tui.screens.table_screen import TableScreen
from gateway_tui.tui.widgets.record_table import Column, RecordTable


def when_text(row: ChatRow) -> str:
    """The last activity: date and time, the reader's locale's way."""
    return date_time(row.last_at) if row.last_at else "—"


def _last(row: ChatRow) -> str:
    if not row.last_text:
        return "—"
    text = _("You: {text}").format(text=row.last_text) if row.from_me else row.last_text
    if row.unread:
        return ngettext("● {n} new · {text}", "● {n} new · {text}", row.unread).format(
            n=number(row.unread), text=text
        )
    return text


def _source(row: ChatRow) -> str:
    if row.sent_here and row.in_store:
        return ngettext("gateway + {n} sent", "gateway + {n} sent", row.sent_here).format(
            n=number(row.sent_here)
        )
    if not row.in_store:
        return ngettext("{n} sent here", "{n} sent here", row.sent_here).format(
            n=number(row.sent_here)
        )
    return _("gateway")


# At a narrow width the chat's name and its last message give up width first, then the columns
# go in this order: where it is known from, archived, labels, last activity (issue 29: never a
# column cut at the table's edge).
CHAT_COLUMNS: list[Column[ChatRow]] = [
    Column(
        "chat",
        N_("Chat"),
        lambda r: ("👥 " if r.is_group else "📢 " if r.is_channel else "") + r.title,
        style=lambda r: "bold" if r.name else "",
        max_width=28,
        shrink_to=18,
    ),
    Column("number", N_("Number / JID"), lambda r: r.number, max_width=30),
    Column(
        "last",
        N_("Last message"),
        _last,
        style=lambda r: "bold" if r.unread else "",
        max_width=48,
        shrink_to=20,
    ),
    Column(
        "when",
        N_("Last activity"),
        when_text,
        width=16,
        sort_key=lambda r: r.last_at.timestamp() if r.last_at else 0,
        drop_priority=3,
    ),
    Column(
        "archived",
        N_("Archived"),
        lambda r: _("archived") if r.archived else "—",
        style=lambda r: "yellow" if r.archived else "dim",
        width=9,
        drop_priority=5,
    ),
    Column(
        "source", N_("Known from"), _source, style=lambda r: "dim", max_width=20, drop_priority=6
    ),
]


class ChatsScreen(ChatLabels, TableScreen[ChatRow]):
    HELP_TITLE = N_("Chats")
    ID_PREFIX = "chats"
    COLUMNS = CHAT_COLUMNS
    FILTER_PLACEHOLDER = N_("filter by name, number or last message")
    REFRESH_BINDING = "chats.refresh"
    STALE_BANNER = False  # a failed refresh over kept chats is said in the summary
    TOPICS = frozenset({Topic.CHATS, Topic.SENT, Topic.GROUPS, Topic.LABELS})

    BINDINGS = [
        # Short words for the footer (it must fit 80 columns); the tooltip is what help and the
        # palette say.
        Binding("enter", "open", "Open", tooltip=N_("Open the conversation"), id="chats.open"),
        Binding(
            "a",
            "archive",
            "Archive",
            tooltip=N_("Archive / unarchive the chat"),
            id="chats.archive",
        ),
        Binding("e", "edit", "Edit", tooltip=N_("Edit your last text message"), id="chats.edit"),
        Binding("p", "profile", "Profile", tooltip=N_("Business profile"), id="chats.profile"),
        Binding(
            "m",
            "compose",
            "Compose",
            tooltip=N_("Compose a list message to this chat"),
            id="chats.compose",
        ),
        Binding("r", "refresh", "Refresh", id="chats.refresh"),
        Binding("s", "sort", "Sort", id="chats.sort"),
        Binding("slash", "filter", "Filter", id="chats.filter"),
        Binding("escape", "back", "Back", id="chats.back"),
        # Labels (screens/chat_labels.py).
        Binding(
            "l",
            "label_filter",
            "Label",
            tooltip=N_("Show one label's chats"),
            id="chats.label_filter",
        ),
        Binding(
            "b", "labels", "Labels", tooltip=N_("Put a label on / take it off"), id="chats.labels"
        ),
    ]

    def __init__(self, instance: str, *, store: ComposeStore | None = None) -> None:
        """``store`` (the sent history) defaults to the instance's files."""
        super().__init__()
        self.instance = instance
        self.store: ComposeStore | None = store
        self.rows: list[ChatRow] = []
        # The gateway's chats arrive after the sent history: the cursor goes to the newest row
        # once they are in (the row it was on may now be far down the list).
        self._placed = False
        self.label_filter: str | None = None
        self._labels_asked: set[str] = set()  # 2.x: chats whose labels were read (chat_labels)
        self._labels_timer = None
        self._labels_error: GatewayError | None = None  # the last chat's labels read (2.x)
        self._labels: dict[str, Label] = {}  # by id, as last read (the labels column's)
        self.COLUMNS = [CHAT_COLUMNS[0], labels_column(self._labels), *CHAT_COLUMNS[1:]]

    def row_key(self, row: ChatRow) -> str:
        return row.jid

    def search_text(self, row: ChatRow) -> str:
        return row.search  # built once, on the first filter key

    def compose_head(self) -> ComposeResult:
        # The instance's name is data: a placeholder's value, never parsed as markup.
        title = Text(_("Chats of {instance}").format(instance=self.instance), style="bold")
        yield Static(title, classes="title")

    def compose_below_table(self) -> ComposeResult:
        yield Static(id="chat-details")

    def on_mount(self) -> None:
        self.gateway_app.follow_live(self.instance)  # new messages reorder the list
        if self.store is None:
            self.store = ComposeStore(self.gateway_app.gateway_identity, self.instance)
        try:
            stored = self.store.stored_chats()
        except OSError as problem:
            self.notify(
                _("Could not read the sent history: {problem}").format(problem=problem),
                severity="warning",
                markup=False,
            )
        else:
            self.actions.messages.restore_sent(
                self.instance, stored.records, texts=stored.texts, archived=stored.archived
            )
            # The gateway's store keeps no archived flag: the ones set from here are ours.
            self.actions.chats.restore_archived(self.instance, stored.archived)
        self.load_labels()
        self._read_chats()

    def action_refresh(self) -> None:
        self.refresh_labels_if_failed()
        self._read_chats()

    def _read_chats(self) -> None:
        if self.actions.chats.chat_book(self.instance).loading:
            return  # a read is under way: its answer is the fresh one
        self.call(
            self.actions.chats.load_chat_book(self.instance),
            what=_("Reading the gateway's chats"),
            on_done=self._loaded,
            on_error=self._failed,
            group="chat-book",
        )

    def recover(self) -> None:
        self.action_refresh()  # quiet: a failure is drawn in the panel or summary (_failed)

    def refresh_labels_if_failed(self) -> None:
        if self.actions.people.labels_of(self.instance).error is not None:
            self.load_labels()  # read again with the chats: its failure line then goes

    def data_error(self) -> GatewayError | None:
        return self.actions.chats.chat_book(self.instance).error

    def live_instance(self) -> str | None:
        return self.instance

    def _loaded(self, book: ChatBook) -> None:
        if book.groups_error is not None:  # the chats are there; their group names are not
            self.gateway_app.report_error(book.groups_error, _("Reading group names"))

    def _failed(self, _error: GatewayError) -> bool:
        self.refresh_from_state()  # the loadable holds the error: the panel or summary says it
        return True

    # --- drawing ---------------------------------------------------------------------------------

    def refresh_from_state(self) -> None:
        loadable = self.actions.chats.chat_book(self.instance)
        book = loadable.value
        sent = self.state.chats_of(self.instance)
        self.rows = chat_rows(
            book,
            sent,
            lambda jid: self.state.subject_of(self.instance, jid),
            self.actions.people.identities_of(self.instance),
        )
        self._labels.clear()
        self._labels.update(self.labels_by_id())
        self.apply_labels(self.rows)
        unread = self.state.unread.get(self.instance, {})
        for row in self.rows if unread else ():
            row.unread = unread.get(row.jid, 0)
        # Nothing to show is "not read yet" (or the error) until the gateway's chats are in.
        unread_yet = not self.rows and (
            loadable.error is not None or loadable.loading or book is None
        )
        compose, profile = self.key_for("chats.compose"), self.key_for("chats.profile")
        self.show_rows(
            None if unread_yet else self.rows,
            error=loadable.error,
            loading=(_("Reading the gateway's chats…"), ""),
            empty=(
                _("No chats"),
                _(
                    "The gateway keeps no chats for this instance (its store is empty or "
                    "switched off), and nothing was sent from here yet. {compose} composes a "
                    "list message; {profile} looks up the profile of any number."
                ).format(compose=compose, profile=profile),
            ),
        )
        table = self.table
        if self.rows and book is not None and not self._placed and table.visible_rows:
            self._placed = True
            table.move_cursor_to_key(table.visible_rows[0].jid)
        self.update_summary()
        self._draw_details()

    def update_summary(self) -> None:
        # The loadable's error and loading, also after a filter or a sort (they were dropped).
        loadable = self.actions.chats.chat_book(self.instance)
        book, error, loading = loadable.value, loadable.error, loadable.loading
        table = self.table
        rows = self.rows
        archived = sum(r.archived for r in rows)
        parts = [
            ngettext("{n} chat", "{n} chats", len(rows)).format(n=number(len(rows))),
            ngettext("{n} archived", "{n} archived", archived).format(n=number(archived)),
        ]
        groups = sum(r.is_group for r in rows)
        if groups:
            parts.append(ngettext("{n} group", "{n} groups", groups).format(n=number(groups)))
        parts += table.view_summary()
        if label := self.label_summary():
            parts.append(label)
        if table.filter_text:
            shown = table.visible_count
            parts.append(ngettext("{n} shown", "{n} shown", shown).format(n=number(shown)))
        text = Text(" · ".join(parts))
        notes: list[tuple[str, str]] = []
        if book is None and rows and error is None:
            # Before the first read answers, the rows are only what this app sent: say so.
            notes.append(
                (
                    _(
                        "⟳ loading the gateway's chats… showing only the chats this app sent "
                        "to until it answers"
                    ),
                    "yellow",
                )
            )
        elif loading:
            notes.append((_("refreshing…"), "dim"))
        if error is not None and rows:
            notes.append(
                (
                    _("✕ could not read the gateway's chats: {reason}").format(reason=error.title),
                    "red",
                )
            )
            if book is None:
                notes.append((_("showing only the chats this app sent to"), "yellow"))
        if book is not None and book.empty and rows:
            notes.append(
                (
                    _(
                        "the gateway's chat store is empty (store switched off?): "
                        "showing the chats this app sent to"
                    ),
                    "yellow",
                )
            )
        if book is not None and book.groups_note:
            notes.append((book.groups_note, "dim"))
        if book is not None and book.skipped:
            skipped = ngettext(
                "{n} stored item could not be read",
                "{n} stored items could not be read",
                book.skipped,
            )
            notes.append((skipped.format(n=number(book.skipped)), "yellow"))
        if labels_note := self.labels_note():
            notes.append((labels_note, "dim"))
        if labels_failure := self.labels_failure():
            notes.append((labels_failure, "red" if "✕" in labels_failure else "dim"))
        for note, style in notes:
            text.append("\n")
            text.append(note, style=style)
        self.query_one("#chats-summary", Static).update(text)

    def _draw_details(self) -> None:
        details = self.query_one("#chat-details", Static)
        row = self.table.cursor_row if self.table.display else None
        details.display = row is not None
        self.read_labels_of(row)
        if row is None:
            return
        text = Text(row.title, style="bold")
        if row.name and not row.is_group:
            text.append(f"  {row.number}", style="dim")
        text.append(f"  {printable(row.jid)}", style="dim")
        text.append(
            "  " + (_("archived") if row.archived else _("not archived")),
            style="yellow" if row.archived else "dim",
        )
        if row.last_text:
            text.append(f"\n{when_text(row)}  ", style="dim")
            if row.from_me:
                said = Text(_("You: {text}").format(text=row.last_text), style="dim")
                start = said.plain.rfind(row.last_text)
                said.stylize("not dim", start, start + len(row.last_text))
                text.append_text(said)
            else:
                text.append(row.last_text)
        hints = self.key_hints(
            ("chats.open", _("opens the conversation")),
            ("chats.archive", _("archive")),
            ("chats.profile", _("profile")),
            ("chats.compose", _("compose")),
        )
        text.append(f"\n{hints}", style="dim")
        details.update(text)

    def on_record_table_cursor_moved(self, event: RecordTable.CursorMoved) -> None:
        event.stop()
        self._draw_details()

    def on_record_table_row_selected(self, event: RecordTable.RowSelected) -> None:
        event.stop()
        self.action_open()

    # --- actions ------------------------------------------------------------------------------

    def _current(self) -> ChatRow | None:
        row = self.table.cursor_row if self.table.display else None
        if row is None:
            compose = self.key_for("chats.compose")
            self.notify(
                _("No chat here: {key} composes a list message to start one.").format(key=compose),
                markup=False,
            )
        return row

    def action_open(self) -> None:
        from gateway_tui.tui.screens.messages import MessagesScreen

        row = self._current()
        if row is not None:
            self.app.push_screen(
                MessagesScreen(self.instance, row.jid, title=row.title, store=self.store)
            )

    def action_edit(self) -> None:
        """The edit dialog for the chat's newest own text message (read from the gateway)."""
        from gateway_tui.tui.screens.conversation_actions import edit_own_message

        row = self._current()
        if row is None:
            return
        jid = row.jid

        def edit(messages: Sequence[StoredMessage]) -> None:
            own = next((m for m in reversed(messages) if m.from_me and m.is_text), None)
            if own is None:
                self.notify(
                    _("You sent no text message in this chat: nothing to edit."), markup=False
                )
                return
            edit_own_message(self, own, self.store)

        self.call(
            self.actions.chats.load_messages(self.instance, jid),
            what=_("Reading the chat's messages"),
            on_done=edit,
            group="edit-last",
            exclusive=True,
        )

    def action_archive(self) -> None:
        row = self._current()
        if row is None:
            return
        if row.last_key is None:
            self.notify(_("No message of this chat is known: it cannot be archived."), markup=False)
            return
        archive_chat(self, row.jid, row.last_key, not row.archived)

    def action_profile(self) -> None:
        row = self.table.cursor_row if self.table.display else None
        number = ""
        if row is not None and not row.is_group:
            # A LID's digits are no phone number: its known number, else the profile asks.
            number = row.phone or ("" if is_lid(row.jid) else jid_number(row.jid))
        self.app.push_screen(ProfileScreen(self.instance, number))

    def action_compose(self) -> None:
        row = self.table.cursor_row if self.table.display else None
        if row is None:
            self.gateway_app.open_composer(self.instance)
            return
        open_composer_to(self, row.jid)

    def view_changed(self) -> None:
        super().view_changed()
        self._draw_details()


# --- shared with the messages screen ---


def archive_chat(screen: GatewayScreen, jid: str, key, archive: bool) -> None:  # noqa: ANN001
    """Archive or unarchive ``jid`` by its real last message; the flag is kept in the history."""
    store: ComposeStore | None = getattr(screen, "store", None)
    instance: str = screen.instance  # type: ignore[attr-defined]

    def done(_result: object) -> None:
        if store is None:
            return
        try:
            store.record_archived(jid, archive)
        except OSError as problem:
            screen.notify(
                _("Could not store the flag: {problem}").format(problem=problem),
                severity="warning",
                markup=False,
            )

    screen.call(
        screen.actions.chats.archive_chat(instance, jid, key, archive),
        what=_("Archiving the chat") if archive else _("Unarchiving the chat"),
        done=_("Chat archived") if archive else _("Chat unarchived"),
        on_done=done,
        group="archive",
    )


def open_composer_to(screen: GatewayScreen, jid: str) -> None:
    from gateway_tui.tui.screens.composer import ComposerScreen

    # A group or an ``@lid`` by its JID (its digits are no number; the send picks the JID
    # that works on the gateway's version), a person by the number.
    recipient = recipient_of(jid)
    screen.app.push_screen(
        ComposerScreen(screen.instance, recipient=recipient, store=getattr(screen, "store", None))  # type: ignore[attr-defined]
    )
