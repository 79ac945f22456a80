"""`enter` on a chat: its conversation as bubbles, and what can be done to one message.

Messages come from findMessages (filtered and ordered here: the file store does neither),
delivery marks from findStatusMessage, re-read on `r` and every few seconds while an own
message is not read yet. Messages this app sent that the store does not hold (store off) are
shown too, from the sent history.

The screen is split along its seams into mixins: conversation_loading.py (the reads and the
polling), conversation_actions.py (what is done to one message), conversation_compose.py (the
message line, replies, reactions, files) and conversation_kinds.py (the other kinds of message).
Search stays here: its handlers are `@on` ones, which Textual finds only on the screen's class.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Footer, Input, Static

from gateway_tui.core.api.chat_models import StoredMessage
from gateway_tui.core.api.errors import GatewayError
from gateway_tui.core.chat_book import person_label, printable, waiting_for_read
from gateway_tui.core.files.drafts import ComposeStore
from gateway_tui.core.state import Topic
from gateway_tui.core.text.i18n import N_, _, ngettext, number
from gateway_tui.tui.screens.base import GatewayScreen
from gateway_tui.tui.screens.conversation_actions import ConversationActions
from gateway_tui.tui.screens.conversation_compose import ConversationCompose
from gateway_tui.tui.screens.conversation_kinds import KIND_BINDINGS, ConversationKinds
from gateway_tui.tui.screens.conversation_loading import POLL_LOOKBACK, ConversationLoading
from gateway_tui.tui.widgets.conversation import (
    MEDIA_KINDS,
    ConversationView,
    delivery_mark,
    search_text,
    when,
)
from gateway_tui.tui.widgets.gateway_bar import GatewayBar
from gateway_tui.tui.widgets.message_line import MessageLine
from gateway_tui.tui.widgets.text_input import TextInput

POLL_SECONDS = 2.0
# A paged store (2.x): the next older page is read when the cursor comes this near the oldest
# message read so far.
OLDER_NEAR = 10


class MessagesScreen(
    ConversationLoading, ConversationActions, ConversationKinds, ConversationCompose, GatewayScreen
):
    HELP_TITLE = N_("Conversation")
    TOPICS = frozenset({Topic.MESSAGES, Topic.SENT, Topic.CHATS})

    BINDINGS = [
        # Short words for the footer (it must fit 80 columns); the tooltip is what help and the
        # palette say.
        Binding("e", "edit", "Edit", tooltip=N_("Edit your text message"), id="messages.edit"),
        Binding(
            "a",
            "archive",
            "Archive",
            tooltip=N_("Archive / unarchive the chat"),
            id="messages.archive",
        ),
        Binding(
            "p",
            "profile",
            "Profile",
            tooltip=N_("Business profile of the sender"),
            id="messages.profile",
        ),
        Binding(
            "m",
            "compose",
            "Answer",
            tooltip=N_("Answer with a list message"),
            id="messages.compose",
        ),
        Binding(
            "y", "copy_id", "Copy id", tooltip=N_("Copy the message id"), id="messages.copy_id"
        ),
        Binding(
            "Y",
            "copy_json",
            "Copy JSON",
            tooltip=N_("Copy the message JSON"),
            id="messages.copy_json",
        ),
        Binding(
            "i", "write", "Write", tooltip=N_("Write a message (enter sends)"), id="messages.write"
        ),
        Binding(
            "R",
            "reply",
            "Reply",
            show=False,
            tooltip=N_("Reply quoting the chosen message"),
            id="messages.reply",
        ),
        Binding(
            "plus",
            "react",
            "React",
            show=False,
            tooltip=N_("React to the chosen message"),
            id="messages.react",
        ),
        Binding(
            "s",
            "save_media",
            "Save",
            show=False,
            tooltip=N_("Save the chosen photo, video, audio or document to a file"),
            id="messages.save_media",
        ),
        Binding(
            "f",
            "send_file",
            "File",
            show=False,
            tooltip=N_("Send a file (photo, video, audio or document) with a caption"),
            id="messages.send_file",
        ),
        Binding("r", "refresh", "Refresh", id="messages.refresh"),
        Binding(
            "o",
            "load_older",
            "Older",
            tooltip=N_("Read older messages from the gateway (a paged store: 2.x)"),
            show=False,
            id="messages.older",
        ),
        Binding("slash", "search", "Search", tooltip=N_("Search the chat"), id="messages.search"),
        Binding(
            "n",
            "next_hit",
            "Next hit",
            show=False,
            tooltip=N_("Next search hit (older)"),
            id="messages.next_hit",
        ),
        Binding(
            "N",
            "previous_hit",
            "Previous hit",
            show=False,
            tooltip=N_("Previous search hit (newer)"),
            id="messages.previous_hit",
        ),
        Binding(
            "v",
            "view_whole",
            "View",
            show=False,
            tooltip=N_("Open the chosen message whole, in a pager"),
            id="messages.view_whole",
        ),
        *KIND_BINDINGS,
        Binding("escape", "back", "Back", id="messages.back"),
    ]

    def __init__(
        self,
        instance: str,
        jid: str,
        *,
        title: str | None = None,
        store: ComposeStore | None = None,
    ) -> None:
        super().__init__()
        self.instance = instance
        self.jid = jid
        self.chat_title = title or ""
        self.store = store
        self.all_messages: Sequence[StoredMessage] = []
        self.query_text = ""
        # Group members' names learnt so far (_learn_names): what they were learnt from.
        self._names: object = None
        self._members: object = None
        self._learnt = 0
        self._first_learnt: str | None = None
        self._search_texts: list[str] | None = None
        self.hits: list[int] = []  # indices of the messages the search text is in
        self._polling = False
        self.status_error: GatewayError | None = None
        self.older_loading = False
        self.older_error: GatewayError | None = None

    @property
    def is_group(self) -> bool:
        return self.jid.endswith("@g.us")

    def _title(self) -> str:
        """The chat's name: as given, else the contact's or group's name, else its number."""
        if self.chat_title:
            return self.chat_title
        if self.is_group:
            return self.state.subject_of(self.instance, self.jid) or self.jid
        book = self.actions.chats.chat_book(self.instance).value
        return (book.names.get(self.jid) if book else None) or person_label(self.jid)

    def compose(self) -> ComposeResult:
        yield GatewayBar()
        self.chat_title = self._title()
        with Vertical(id="messages-body"):
            title = Text(printable(self.chat_title), style="bold")
            if self.chat_title != self.jid:
                title.append(f"  {printable(self.jid)}", style="dim")
            yield Static(title, classes="title")
            yield Static(id="messages-summary", classes="summary")
            yield ConversationView(is_group=self.is_group, id="conversation")
            yield Static(id="message-details")
            search = TextInput(placeholder=_("search this chat's text"), id="messages-search")
            search.display = False
            yield search
            banner = Static(id="reply-banner")
            banner.display = False
            yield banner
            line_hint = _("Write a message · {send} sends · {new_line} new line")
            yield MessageLine(
                placeholder=line_hint.format(send="enter", new_line="ctrl+j"), id="message-line"
            )
        yield Footer()

    @on(MessageLine.Changed, "#message-line")
    def _line_changed(self) -> None:
        self.typing_in_line()

    @property
    def view(self) -> ConversationView:
        return self.query_one("#conversation", ConversationView)

    def on_mount(self) -> None:
        self.view.focus()
        self.set_interval(POLL_SECONDS, self._poll)
        self.view.keys = {
            "save": self.key_for("messages.save_media") or "s",
            "view": self.key_for("messages.view_whole") or "v",
        }
        self.gateway_app.follow_live(self.instance)  # new messages come without a key
        if self.is_group:
            self.view.who = self._who
        # The first read starts on_screen_resume, which comes with the push too.

    # --- drawing ---------------------------------------------------------------------------------

    def refresh_from_state(self) -> None:
        self.all_messages = self._merged()
        if self.is_group:
            self._learn_names()
        if self.app.screen is self:
            self.actions.chats.mark_seen(self.instance, self.jid)
        self._follow_pending_reload()
        self._search_texts = None
        view = self.view
        view.today = self.state.now()
        record = self.state.chats_of(self.instance).get(self.jid)
        view.edits = (
            {i: record.texts[i] for i in record.edited if i in record.texts} if record else {}
        )
        view.set_messages(self.all_messages, self.actions.chats.statuses_of(self.instance))
        self.read_poll_votes()
        if self.query_text:
            self._find_hits()
        self._draw_summary()
        self._draw_details()

    def _find_hits(self) -> None:
        """Where the search text is: every message stays shown, the hits are marked."""
        needle = self.query_text.casefold()
        if not needle:
            self.hits = []
            return
        if self._search_texts is None:
            self._search_texts = [search_text(m) for m in self.all_messages]
        self.hits = [i for i, text in enumerate(self._search_texts) if needle in text]

    def _draw_summary(self) -> None:
        loadable = self.actions.chats.messages_of(self.instance, self.jid)
        total = len(self.all_messages)
        text = Text(ngettext("{n} message", "{n} messages", total).format(n=number(total)))
        if self.query_text:
            text.append(" · ")
            text.append_text(self._hits_text())
        record = self.state.chats_of(self.instance).get(self.jid)
        if record is not None and record.archived:
            text.append(" · " + _("archived"), style="yellow")
        if self.gateway_app.config.mark_read_on_open:
            text.append(" · " + _("read receipts on"), style="dim")
        if loadable.loading:
            text.append(" · " + _("reading…"), style="dim")
        older_left = getattr(loadable.value, "older_left", 0)
        if self.older_loading:
            text.append(" · " + _("older messages: loading…"), style="dim")
        elif self._older_page() is not None:
            key = self.key_for("messages.older")
            if older_left:
                left = ngettext(
                    "{n} older on the gateway: scroll to the top or press {key}",
                    "{n} older on the gateway: scroll to the top or press {key}",
                    older_left,
                ).format(n=number(older_left), key=key)
            else:
                left = _("older messages on the gateway: scroll to the top or press {key}").format(
                    key=key
                )
            text.append(" · " + left, style="dim")
        if self.older_error is not None:
            said = _("⚠ older messages could not be read: {reason}")
            text.append("\n" + said.format(reason=self.older_error.title), style="yellow")
        if waiting_for_read(
            self.all_messages[-POLL_LOOKBACK:], self.actions.chats.statuses_of(self.instance)
        ):
            text.append(" · " + _("following delivery"), style="dim")
        if self.status_error is not None:
            said = _("⚠ delivery statuses could not be read: {reason}")
            text.append("\n" + said.format(reason=self.status_error.title), style="yellow")
        if loadable.error is not None:
            said = _("✕ could not read the messages: {reason}")
            text.append("\n" + said.format(reason=loadable.error.title), style="red")
            for line in loadable.error.messages[:2]:
                text.append(f"\n  {line}", style="red")
        skipped = getattr(loadable.value, "skipped", 0)
        if skipped:
            said = ngettext(
                "{n} stored message could not be read",
                "{n} stored messages could not be read",
                skipped,
            )
            text.append("\n" + said.format(n=number(skipped)), style="yellow")
        self.query_one("#messages-summary", Static).update(text)

    def _hits_text(self) -> Text:
        """Where the search stands: "hit 2 of 5 for “word” (n/N next/previous)", or no match.
        The searched text is data: a placeholder's value, never parsed as markup."""
        needle = self.query_text
        if not self.hits:
            return Text(_("no match for “{text}”").format(text=needle), style="yellow")
        index = self.view.index
        # Counted the way n (next) goes: from the newest hit back, so n counts up.
        at = len(self.hits) - self.hits.index(index) if index in self.hits else None
        keys = f"{self.key_for('messages.next_hit')}/{self.key_for('messages.previous_hit')}"
        count = len(self.hits)
        if at:
            said = _("hit {at} of {n} for “{text}” ({keys} next/previous)")
        else:
            said = ngettext(
                "{n} hit for “{text}” ({keys} next/previous)",
                "{n} hits for “{text}” ({keys} next/previous)",
                count,
            )
        return Text(said.format(at=number(at or 0), n=number(count), text=needle, keys=keys))

    def _draw_details(self) -> None:
        details = self.query_one("#message-details", Static)
        message = self.view.selected
        if message is None:
            hints = self.key_hints(
                ("messages.search", _("search")),
                ("messages.write", _("write")),
                ("messages.send_file", _("send a file")),
                ("messages.compose", _("answer with a list")),
            )
            said = _("{keys} choose a message · {hints}").format(keys="↑↓", hints=hints)
            details.update(Text(said, style="dim"))
            return
        text = Text(
            _("You")
            if message.from_me
            else printable(message.sender_name or person_label(message.sender)),
            style="bold",
        )
        said = " · " + _("{when} · {kind} · id {id}").format(
            when=when(message.timestamp),
            kind=printable(message.kind) or _("unknown kind"),
            id=printable(message.id),
        )
        text.append(said, style="dim")
        status = self.actions.chats.statuses_of(self.instance).get(message.id)
        if status is not None:
            text.append(" · ", style="dim")
            text.append_text(delivery_mark(status))
            text.append(f" {printable(status.status)}", style="dim")
            if status.at_ms:
                at = " " + _("at {when}").format(when=when(status.at_ms // 1000))
                text.append(at, style="dim")
        hints = [
            ("messages.reply", _("replies")),
            ("messages.react", _("reacts")),
            ("messages.write", _("writes")),
        ]
        if message.kind in MEDIA_KINDS:
            hints.insert(0, ("messages.save_media", _("saves the file")))
        if message.from_me and message.is_text:
            hints.insert(0, ("messages.edit", _("edits")))
        hints.append(("messages.copy_id", _("copies the id")))
        text.append("\n" + self.key_hints(*hints), style="dim")
        details.update(text)

    def on_conversation_view_moved(self, event: ConversationView.Moved) -> None:
        event.stop()
        self._draw_details()
        if self.view.index <= OLDER_NEAR and self.older_error is None:
            self.action_load_older()

    # --- search -----------------------------------------------------------------------------------

    def action_search(self) -> None:
        search = self.query_one("#messages-search", Input)
        search.display = True
        search.focus()

    @on(Input.Changed, "#messages-search")
    def _search_changed(self, event: Input.Changed) -> None:
        event.stop()
        self.query_text = event.value.strip()
        self.view.highlight = self.query_text
        self._find_hits()
        self._jump(older=True, from_here=True)

    @on(Input.Submitted, "#messages-search")
    def _search_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.view.focus()

    def _jump(self, *, older: bool, from_here: bool = False) -> None:
        """To the nearest hit older (or newer) than the cursor; round the chat's end."""
        view = self.view
        if self.hits:
            here = view.index
            if older:
                before = [i for i in self.hits if i < here or (from_here and i == here)]
                target = before[-1] if before else self.hits[-1]
            else:
                after = [i for i in self.hits if i > here]
                target = after[0] if after else self.hits[0]
            view.select(target)
        else:
            view.refresh_lines()
        self._draw_summary()
        self._draw_details()

    def action_next_hit(self) -> None:
        if not self.query_text:
            self._no_search()
            return
        self._jump(older=True)

    def action_previous_hit(self) -> None:
        if not self.query_text:
            self._no_search()
            return
        self._jump(older=False)

    def _no_search(self) -> None:
        key = self.key_for("messages.search") or "/"
        self.notify(_("No search: {key} searches this chat.").format(key=key), markup=False)

    def action_back(self) -> None:
        if self.reply_to is not None:
            self._set_reply(None)
            return
        if self.line.has_focus:  # what is typed stays
            self.view.focus()
            return
        search = self.query_one("#messages-search", Input)
        if search.display:
            search.value = ""
            search.display = False
            self.query_text = ""
            self.hits = []
            self.view.highlight = ""
            self.view.refresh_lines()
            self._draw_summary()
            self.view.focus()
            return
        self.app.pop_screen()
