"""A conversation drawn as bubbles, newest at the bottom, for chats of any length.

Only the bubbles on screen are rendered (Textual's line API): a chat of 100,000 messages costs
the same per frame as one of ten. A cursor picks one message; the view follows it. List messages
are drawn as the composer previews them (``widgets/list_preview.py``), and a reply to a list
shows the row that was chosen.

Everything shown came from outside: it is built as ``rich.text.Text``, never markup.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import ClassVar

from rich import box
from rich.align import Align
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.message import Message
from textual.strip import Strip
from textual.widget import Widget

from gateway_tui.core.api.chat_models import (
    ChatMessages,
    StatusRow,
    StoredMessage,
    one_line,
)
from gateway_tui.core.api.message_views import POLL_KINDS, Decorations
from gateway_tui.core.api.models import MessageStatus
from gateway_tui.core.chat_book import person_label, printable
from gateway_tui.core.draft import Draft
from gateway_tui.core.text.i18n import N_, _, clock, date_time, ngettext, number
from gateway_tui.tui.widgets.list_preview import BUBBLE_WIDTH, bubble, opened_list
from gateway_tui.tui.widgets.message_kinds_view import (
    DEFAULT_KEYS,
    MEDIA_KINDS,
    NO_DECORATIONS,
    deleted_line,
    kind_card,
    media_card,
    reactions_line,
)

MAX_BUBBLE_WIDTH = 64
_CACHE_LIMIT = 600
DECORATION_WINDOW = 2_000

# Delivery marks for own messages: PENDING ◷, SERVER_ACK ✓, DELIVERY_ACK ✓✓, READ ✓✓ in colour.
DELIVERY_MARKS: dict[MessageStatus, tuple[str, str]] = {
    MessageStatus.PENDING: ("◷", "dim"),
    MessageStatus.SERVER_ACK: ("✓", "dim"),
    MessageStatus.DELIVERY_ACK: ("✓✓", "dim"),
    MessageStatus.READ: ("✓✓", "bold bright_blue"),
    MessageStatus.PLAYED: ("✓✓", "bold bright_blue"),
    MessageStatus.ERROR: (N_("✕ not sent"), "bold red"),
    MessageStatus.DELETED: (N_("🚫 deleted"), "red"),
}


def delivery_mark(status: StatusRow | None) -> Text:
    if status is None:
        return Text("")
    if status.kind in DELIVERY_MARKS:
        mark, style = DELIVERY_MARKS[status.kind]
        return Text(_(mark), style=style)  # the ticks are the same in every language
    return Text(printable(status.status) or "?", style="dim italic")


def when(timestamp: int | None, today: datetime | None = None) -> str:
    """When a message was sent: the time of day when it is today, else the date too (the
    reader's locale's way)."""
    if not timestamp:
        return _("time unknown")
    try:
        at = datetime.fromtimestamp(timestamp)
    except (OverflowError, OSError, ValueError):
        return _("time unknown")
    if today is not None and at.date() == today.date():
        return clock(at, seconds=False)
    return date_time(at)


def _list_draft(list_message: dict) -> Draft:
    return Draft.from_body({"listMessage": printable(list_message)})


def _chosen_row(
    message: StoredMessage, find: Callable[[str], StoredMessage | None]
) -> tuple[str, str, str]:
    """(list title, row title, row description) of a list reply: from the list message when it
    is in the chat, else from the quote the reply carries, else the reply's own fields."""
    row_id = message.selected_row_id or ""
    body = message.body
    title = body.get("title") if isinstance(body.get("title"), str) else ""
    description = body.get("description") if isinstance(body.get("description"), str) else ""
    quoted = find(message.quoted_id) if message.quoted_id else None
    source = quoted.list_message if quoted is not None else None
    if source is None:
        quote = message.quoted_content or {}
        source = quote.get("listMessage") if isinstance(quote.get("listMessage"), dict) else None
    list_title = ""
    if source is not None:
        list_title = source.get("title") if isinstance(source.get("title"), str) else ""
        for section in source.get("sections") or []:
            for row in (section.get("rows") or []) if isinstance(section, dict) else []:
                if isinstance(row, dict) and row.get("rowId") == row_id:
                    title = row.get("title") if isinstance(row.get("title"), str) else title
                    description = (
                        row.get("description")
                        if isinstance(row.get("description"), str)
                        else description
                    )
    return printable(list_title), printable(title or row_id or _("(a row)")), printable(description)


def message_body(
    message: StoredMessage,
    find: Callable[[str], StoredMessage | None],
    *,
    edited: str | None = None,
    max_lines: int | None = None,
    keys: dict[str, str] = DEFAULT_KEYS,
    votes: dict[str, int] | None = None,
    votes_note: str | None = None,
) -> list[RenderableType]:
    """What the bubble holds, by kind (a poll with ``votes`` when known, else ``votes_note``)."""
    if message.kind == "listMessage" and message.list_message is not None:
        draft = _list_draft(message.list_message)
        return [bubble(draft), opened_list(draft)]
    if message.kind == "listResponseMessage":
        list_title, title, description = _chosen_row(message, find)
        text = Text(_("↩ chose {row}").format(row=f"● {title}"), style="dim")
        start = text.plain.rfind(f"● {title}")
        text.stylize("not dim bold", start, start + len(title) + 2)
        if description:
            text.append(f"\n  {description}", style="dim")
        if list_title:
            said = Text(_("from the list “{title}”").format(title=list_title), style="dim")
            start = said.plain.rfind(list_title)
            said.stylize("italic", start, start + len(list_title))
            text.append("\n")
            text.append_text(said)
        return [text]
    if message.kind in MEDIA_KINDS:
        return [media_card(message, keys)]
    if (card := kind_card(message, votes, votes_note)) is not None:
        return [card]
    if message.is_text:
        quote = quote_line(message, find)
        body = clipped_text(
            printable(edited or message.full_text) or _("(empty text)"), max_lines, keys
        )
        return [quote, body] if quote is not None else [body]
    if message.text:
        return [Text(printable(message.text), style="italic")]
    kind = printable(message.kind)  # the gateway's name of the kind: data
    return [Text(f"[{kind}]" if kind else _("[message]"), style="italic")]


def quote_line(message: StoredMessage, find: Callable[[str], StoredMessage | None]) -> Text | None:
    """The "↩ quoted text" line of a reply (the quoted message when in the chat, else the
    quote the reply carries)."""
    quoted_id = message.quoted_id
    if not quoted_id:
        return None
    original = find(quoted_id)
    if original is not None:
        said = original.text
        who = (
            _("You")
            if original.from_me
            else (original.sender_name or person_label(original.sender))
        )
    else:
        content = message.quoted_content or {}
        said = content.get("conversation") if isinstance(content.get("conversation"), str) else ""
        who = ""
    line = Text("↩ ", style="dim")
    if who:
        line.append(printable(who) + ": ", style="bold dim")
    line.append(printable(one_line(said or _("a message"), 60)), style="dim italic")
    return line


# A message taller than this many lines (or characters, for one long line) is cut in its
# bubble; the pager (`v` on the conversation) shows it whole.
_CHARS_PER_LINE = 60


def clipped_text(text: str, max_lines: int | None, keys: dict[str, str] = DEFAULT_KEYS) -> Text:
    """``text`` as a bubble shows it: whole, or its first ``max_lines`` lines and a note."""
    if max_lines is None:
        return Text(text)
    max_lines = max(3, max_lines)
    lines = text.split("\n", max_lines)
    budget = max_lines * _CHARS_PER_LINE
    if len(lines) <= max_lines and len(text) <= budget:
        return Text(text)
    shown = "\n".join(lines[:max_lines])[:budget]
    rest = text.count("\n") - shown.count("\n")
    result = Text(shown)
    if rest:
        more = ngettext(
            "… {n} more line: {key} shows the whole message",
            "… {n} more lines: {key} shows the whole message",
            rest,
        )
    else:
        rest = len(text) - len(shown)
        more = ngettext(
            "… {n} more character: {key} shows the whole message",
            "… {n} more characters: {key} shows the whole message",
            rest,
        )
    result.append("\n" + more.format(n=number(rest), key=keys["view"]), style="dim italic")
    return result


def search_text(message: StoredMessage) -> str:
    """All the text of a message that search looks in: a list's title, description, button,
    footer, sections and rows; a list reply's row; the sender."""
    parts = [message.full_text, message.text, message.sender_name or ""]
    body = message.body
    if message.kind in ("listMessage", "listResponseMessage"):
        for name in ("title", "description", "buttonText", "footerText"):
            if isinstance(body.get(name), str):
                parts.append(body[name])
        for section in body.get("sections") or []:
            if not isinstance(section, dict):
                continue
            if isinstance(section.get("title"), str):
                parts.append(section["title"])
            for row in section.get("rows") or []:
                if isinstance(row, dict):
                    parts += [
                        row[k] for k in ("title", "description") if isinstance(row.get(k), str)
                    ]
    return "\n".join(parts).casefold()


def render_message(
    message: StoredMessage,
    *,
    status: StatusRow | None,
    find: Callable[[str], StoredMessage | None],
    is_group: bool,
    selected: bool,
    today: datetime | None = None,
    edited: str | None = None,
    highlight: str = "",
    max_lines: int | None = None,
    keys: dict[str, str] = DEFAULT_KEYS,
    decorations: Decorations = NO_DECORATIONS,
    votes: dict[str, int] | None = None,
    votes_note: str | None = None,
    sender: tuple[str | None, str] | None = None,
) -> RenderableType:
    """``sender``: a group member's (name, label) as the screen knows them (a contact's name
    where the message carries no pushName; the number beside a LID); by default the message's
    own pushName and person_label."""
    parts: list[RenderableType] = []
    if not message.from_me and is_group:
        name, label = sender or (message.sender_name, person_label(message.sender))
        line = Text(printable(name or label), style="bold cyan")
        if name:
            line.append(f"  {printable(label)}", style="dim")
        parts.append(line)
    # Deleted for everyone: a revoke in the chat, 2.x's key.deleted, or 1.7.1's DELETED status.
    deleted = (
        message.id in decorations.deleted
        or message.deleted
        or (status is not None and status.kind == MessageStatus.DELETED)
    )
    body = message_body(
        message,
        find,
        edited=edited,
        max_lines=max_lines,
        keys=keys,
        votes=votes,
        votes_note=votes_note,
    )
    for part in body:
        if not isinstance(part, Text):
            continue
        if deleted:
            part.stylize("strike dim")
        if highlight:
            part.highlight_words([highlight], style="black on yellow", case_sensitive=False)
    parts += body
    if deleted:
        parts.append(deleted_line())
    if (reactions := reactions_line(decorations, message.id)) is not None:
        parts.append(reactions)
    meta = Text(when(message.timestamp, today), style="dim")
    if edited is not None:
        meta.append("  " + _("edited"), style="dim italic")
    if message.from_me or deleted:
        meta.append("  ")
        meta.append_text(delivery_mark(status))
    meta.justify = "right"
    parts.append(meta)
    border = "bold yellow" if selected else ("green" if message.from_me else "bright_black")
    panel = Panel(
        Group(*parts),
        box=box.HEAVY if selected else box.ROUNDED,
        border_style=border,
        expand=False,
        padding=(0, 1),
    )
    return Align.right(panel) if message.from_me else panel


def index_of_message(messages: Sequence[StoredMessage], message_id: str) -> int:
    """Where ``message_id`` is (-1: absent); a lazy chat answers without reading messages."""
    if isinstance(messages, ChatMessages):
        return messages.index_of(message_id)
    return next((i for i in range(len(messages) - 1, -1, -1) if messages[i].id == message_id), -1)


class ConversationView(Widget, can_focus=True):
    """Messages oldest → newest, bottom-anchored like a chat, with a cursor message."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up,k", "previous", "Older message", show=False, id="conversation.previous"),
        Binding("down,j", "next", "Newer message", show=False, id="conversation.next"),
        Binding("pageup", "page_up", "Page up", show=False, id="conversation.page_up"),
        Binding("pagedown", "page_down", "Page down", show=False, id="conversation.page_down"),
        Binding("home,g", "first", "Oldest", show=False, id="conversation.first"),
        Binding("end,G,shift+g", "last", "Newest", show=False, id="conversation.last"),
    ]

    DEFAULT_CSS = """
    ConversationView {
        height: 1fr;
        background: $surface;
        padding: 0 1;
    }
    """

    class Moved(Message):
        """The cursor is on another message."""

        def can_replace(self, message: Message) -> bool:
            return isinstance(message, ConversationView.Moved)  # only the latest place matters

    def __init__(self, *, is_group: bool = False, id: str | None = None) -> None:  # noqa: A002
        super().__init__(id=id)
        self.is_group = is_group
        self.messages: Sequence[StoredMessage] = ()
        self.statuses: dict[str, StatusRow] = {}
        self.index = -1
        self.today: datetime | None = None
        # New texts of messages edited from here (drawn instead of the stored text, "edited").
        self.edits: dict[str, str] = {}
        self.highlight = ""  # the search's text, marked in every bubble that holds it
        self.keys = dict(DEFAULT_KEYS)  # what the hints in bubbles name
        # Who a group member is, as the screen knows (core/identity.py): (name, label).
        self.who: Callable[[StoredMessage], tuple[str | None, str]] = lambda message: (
            message.sender_name,
            person_label(message.sender),
        )
        self._cache: dict[tuple, list[Strip]] = {}
        # Where the view is pinned: ("bottom", i) shows message i at the bottom edge, ("top", i)
        # at the top; the cursor moving out of sight re-pins it.
        self._anchor: tuple[str, int] = ("bottom", -1)
        self._lines: list[Strip] = []
        self._shown: tuple[int, int] = (0, -1)  # first and last fully visible message
        # Reactions and revokes of the newest messages, drawn on the message they point at.
        self.decorations = NO_DECORATIONS
        # Polls' votes per option, by message id (2.4's getPollVote), and what a poll says
        # when the gateway cannot tell its votes (before 2.4).
        self.poll_votes: dict[str, dict[str, int]] = {}
        self.votes_note: str | None = None
        # The gateway keeps the votes among the chat's messages (2.3.7): counted from them.
        self.stored_votes = False

    # --- the model ----------------------------------------------------------------------------

    @property
    def selected(self) -> StoredMessage | None:
        return self.messages[self.index] if 0 <= self.index < len(self.messages) else None

    def set_messages(
        self,
        messages: Sequence[StoredMessage],
        statuses: dict[str, StatusRow],
        *,
        select_id: str | None = None,
    ) -> None:
        """New messages (or statuses); the cursor stays on its message, else goes newest."""
        keep = select_id or (self.selected.id if self.selected is not None else None)
        at_end = self.index == len(self.messages) - 1
        side, pinned = self._anchor
        pinned_id = self.messages[pinned].id if 0 <= pinned < len(self.messages) else None
        self.messages = messages
        self.statuses = statuses
        # The newest DECORATION_WINDOW messages only: a 100,000-message chat is not read whole.
        self.decorations = Decorations.of(messages[-DECORATION_WINDOW:])
        index = -1
        if keep is not None and not (at_end and select_id is None):
            index = index_of_message(messages, keep)
        self.index = index if index >= 0 else len(messages) - 1
        while self.index > 0 and self._hidden(self.index):
            self.index -= 1  # drawn on its message: the cursor rests on a message of its own
        if index < 0 or select_id is not None:
            self._anchor = ("bottom", self.index)
        elif pinned_id is not None:
            # Older messages put before (a paged store's next page): the view stays where it was.
            moved = index_of_message(messages, pinned_id)
            self._anchor = (side, moved if moved >= 0 else self.index)
        self._relayout()

    def set_poll_votes(
        self,
        votes: dict[str, dict[str, int]] | None = None,
        *,
        votes_note: str | None = None,
        stored: bool = False,
    ) -> None:
        """Polls' votes read (by message id), or why the gateway cannot tell them; ``stored``:
        counted from the votes among the chat's messages."""
        self.poll_votes.update(votes or {})
        self.votes_note = votes_note
        self.stored_votes = stored
        self._relayout()

    def votes_of(self, message: StoredMessage) -> dict[str, int] | None:
        """A poll's votes per option: read from the gateway, else counted from the store's."""
        votes = self.poll_votes.get(message.id)
        if votes is None and self.stored_votes and message.kind in POLL_KINDS:
            votes = self.decorations.poll_votes.get(message.id, {})
        return votes

    def find(self, message_id: str) -> StoredMessage | None:
        index = index_of_message(self.messages, message_id)
        return self.messages[index] if index >= 0 else None

    # --- moving -------------------------------------------------------------------------------

    def _hidden(self, index: int) -> bool:
        return self.messages[index].id in self.decorations.hidden

    def select(self, index: int) -> None:
        if not self.messages:
            return
        index = max(0, min(index, len(self.messages) - 1))
        # A reaction or revoke drawn on its message is no stop of its own.
        step = 1 if index > self.index else -1
        while self._hidden(index) and 0 <= index + step < len(self.messages):
            index += step
        while self._hidden(index) and index - step in range(len(self.messages)):
            index -= step
        first, last = self._shown
        self.index = index
        if index > last:
            self._anchor = ("bottom", index)
        elif index < first:
            self._anchor = ("top", index)
        self._relayout()
        self.post_message(self.Moved())

    def action_previous(self) -> None:
        self.select(self.index - 1)

    def action_next(self) -> None:
        self.select(self.index + 1)

    def _page(self) -> int:
        first, last = self._shown
        return max(1, last - first)

    def action_page_up(self) -> None:
        self.select(self.index - self._page())

    def action_page_down(self) -> None:
        self.select(self.index + self._page())

    def action_first(self) -> None:
        self.select(0)

    def action_last(self) -> None:
        self.select(len(self.messages) - 1)

    # --- drawing ------------------------------------------------------------------------------

    def _strips(self, index: int, width: int) -> list[Strip]:
        message = self.messages[index]
        status = self.statuses.get(message.id)
        selected = index == self.index
        if message.id in self.decorations.hidden and not selected:
            return []
        edited = self.edits.get(message.id)
        votes = self.votes_of(message)
        max_lines = max(3, self.size.height - 8)
        sender = self.who(message) if self.is_group and not message.from_me else None
        key = (
            message.id,
            index,
            selected,
            status.status if status else None,
            width,
            message.full_text,  # an edit read back from the store redraws the bubble
            message.quoted_id,  # a reply read back with its quote (first seen without it)
            edited,
            self.highlight,
            max_lines,
            message.id in self.decorations.deleted or message.deleted,
            self.decorations.reaction_line(message.id),
            tuple((votes or {}).items()) if votes is not None else None,
            self.votes_note,
            sender,  # a contact's name learnt since redraws the bubble
        )
        strips = self._cache.get(key)
        if strips is None:
            if len(self._cache) > _CACHE_LIMIT:
                self._cache.clear()
            renderable = render_message(
                message,
                status=status,
                find=self.find,
                is_group=self.is_group,
                selected=selected,
                today=self.today,
                edited=edited,
                highlight=self.highlight,
                max_lines=max_lines,
                keys=self.keys,
                decorations=self.decorations,
                votes=votes,
                votes_note=self.votes_note,
                sender=sender,
            )
            console = self.app.console
            options = console.options.update_width(width).update(highlight=False)
            lines = console.render_lines(renderable, options, pad=True)
            strips = [Strip(line, width) for line in lines]
            strips.append(Strip([Segment(" " * width)], width))  # the gap between bubbles
            self._cache[key] = strips
        return strips

    def _bubble_width(self) -> int:
        return max(BUBBLE_WIDTH + 4, min(self.size.width, MAX_BUBBLE_WIDTH + 20))

    def _relayout(self) -> None:
        height, width = self.size.height, self.size.width
        if not height or not width or not self.messages:
            self._lines, self._shown = [], (0, -1)
            self.refresh()
            return
        mode, anchor = self._anchor
        anchor = max(
            0, min(anchor if anchor >= 0 else len(self.messages) - 1, len(self.messages) - 1)
        )
        chunks: list[tuple[int, list[Strip]]] = []
        total = 0
        if mode == "bottom":
            i = anchor
            while i >= 0 and total < height:
                strips = self._strips(i, width)
                chunks.insert(0, (i, strips))
                total += len(strips)
                i -= 1
            # Too short to fill the screen: add newer messages below (the chat's end stays last).
            j = anchor + 1
            while total < height and j < len(self.messages):
                strips = self._strips(j, width)
                chunks.append((j, strips))
                total += len(strips)
                j += 1
            lines = [s for _index, chunk in chunks for s in chunk]
            cut = max(0, len(lines) - height) if chunks and chunks[-1][0] == anchor else 0
            lines = lines[cut : cut + height] if cut else lines[:height]
            first_full = self._first_full(chunks, cut)
            last_full = self._last_full(chunks, cut, height)
        else:
            j = anchor
            while j < len(self.messages) and total < height:
                strips = self._strips(j, width)
                chunks.append((j, strips))
                total += len(strips)
                j += 1
            lines = [s for _index, chunk in chunks for s in chunk][:height]
            first_full = anchor
            last_full = self._last_full(chunks, 0, height)
        self._lines = lines
        self._shown = (first_full, last_full)
        self.refresh()

    @staticmethod
    def _first_full(chunks: list[tuple[int, list[Strip]]], cut: int) -> int:
        offset = 0
        for index, strips in chunks:
            if offset >= cut:
                return index
            offset += len(strips)
        return chunks[-1][0] if chunks else 0

    @staticmethod
    def _last_full(chunks: list[tuple[int, list[Strip]]], cut: int, height: int) -> int:
        offset, last = -cut, chunks[0][0] if chunks else -1
        for index, strips in chunks:
            # The trailing gap line may fall off the bottom: the bubble itself still shows.
            if offset + len(strips) - 1 <= height:
                last = index
            offset += len(strips)
        return last

    def refresh_lines(self) -> None:
        """Draw again (after ``edits`` or ``highlight`` changed)."""
        self._relayout()

    def on_resize(self) -> None:
        self._cache.clear()
        self._relayout()

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return container.height

    def render_line(self, y: int) -> Strip:
        if y < len(self._lines):
            return self._lines[y]
        if not self.messages and y == 0:
            said = _("No messages in this chat.")
            return Strip([Segment(said, Style(dim=True, italic=True))])
        return Strip.blank(self.size.width)
