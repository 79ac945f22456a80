"""Chats, contacts, stored messages and delivery statuses as a 1.7.1 gateway stores them.

The store answers findChats / findMessages / findContacts / findStatusMessage with what it wrote,
and that is not uniform: ``messageTimestamp`` is a number for received messages and the protobuf
Long ``{"low", "high", "unsigned"}`` for messages the server sent; ``pushName`` is "" for sent
ones; group messages carry ``participant``; a message kind this app does not know must still be
shown. The file store ignores most filters and has no paging, so callers filter, sort and bound
on the client (``messages_of_chat``, ``latest_statuses``) and never trust the server's order.

These are plain slotted classes, not pydantic models, on purpose: a chat can hold 100,000
messages, and validating each through pydantic took ~25 µs (2.5 s for such a chat) and four
times the memory. Every reader below is liberal: a field of the wrong type reads as absent, and
an item that is not a message at all is skipped and counted (``StoreList.skipped``).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar, overload

from gateway_tui.core.api.models import MessageKey, MessageStatus
from gateway_tui.core.text.i18n import _, ngettext, number

_T = TypeVar("_T")
GROUP_SUFFIX = "@g.us"
TWO_32 = 2**32
# Longer one-line texts are cut: they go in table cells and notifications.
ONE_LINE_LIMIT = 200


class StoreList(list[_T]):
    """A list read from the store, with how many items could not be read and were left out."""

    skipped: int = 0


def read_items(data: Any, reader: Callable[[dict[str, Any]], _T | None]) -> StoreList[_T]:
    """Every item of a JSON array that ``reader`` can read; the others are counted as skipped."""
    result: StoreList[_T] = StoreList()
    if not isinstance(data, list):
        raise ValueError(f"expected an array, got {type(data).__name__}")
    for item in data:
        value = reader(item) if isinstance(item, dict) else None
        if value is None:
            result.skipped += 1
        else:
            result.append(value)
    return result


def parse_long(value: Any) -> int | None:
    """A number as the store writes it: int, float, numeric text, or a protobuf Long object."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return int(value) if value == value and abs(value) < 1e18 else None  # NaN, inf
    if isinstance(value, str):
        text = value.strip()
        return int(text) if text.isdigit() and len(text) < 19 else None
    if isinstance(value, dict):
        low, high = value.get("low"), value.get("high", 0)
        if (
            isinstance(low, int)
            and isinstance(high, int)
            and not isinstance(low, bool)
            and not isinstance(high, bool)
        ):
            # low/high are 32-bit halves; JavaScript writes low as signed when bit 31 is set.
            return (low & 0xFFFFFFFF) + high * TWO_32
    return None


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _dict(value: Any) -> dict[str, Any] | None:
    return value if isinstance(value, dict) else None


def one_line(text: str, limit: int = ONE_LINE_LIMIT) -> str:
    """Line breaks and runs of spaces folded; long text cut with "…"."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


# --- message kinds ---

# Keys of a message's content that are not the content itself.
_NOT_CONTENT = frozenset({"messageContextInfo", "senderKeyDistributionMessage", "contextInfo"})
# Wrappers whose ``message`` holds the real content.
_WRAPPERS = frozenset(
    {
        "ephemeralMessage",
        "viewOnceMessage",
        "viewOnceMessageV2",
        "viewOnceMessageV2Extension",
        "documentWithCaptionMessage",
        "editedMessage",
    }
)
TEXT_KINDS = frozenset({"conversation", "extendedTextMessage"})


def content_kind(content: dict[str, Any] | None) -> tuple[str, dict[str, Any] | None]:
    """The kind of a message's content (its key) and what is under it, unwrapping wrappers."""
    for _depth in range(4):  # wrappers nest at most a few deep; never loop on a hostile body
        if not content:
            return "", None
        kind = next((k for k in content if k not in _NOT_CONTENT), "")
        if kind in _WRAPPERS:
            inner = _dict(content[kind])
            content = _dict(inner.get("message")) if inner else None
            continue
        return kind, content
    return "", None


def _caption(label: str, body: dict[str, Any], *fields: str) -> str:
    for field in fields:
        extra = _str(body.get(field))
        if extra and extra.strip():
            return f"{label}: {extra}"
    return label


def _seconds(body: dict[str, Any]) -> str:
    seconds = parse_long(body.get("seconds"))
    return f" {seconds // 60}:{seconds % 60:02d}" if seconds else ""


def _describe(kind: str, body: Any, content: dict[str, Any]) -> str:
    """One line for a message of ``kind``; ``body`` is ``content[kind]``. The words are the
    app's (in the reader's language: this runs when a message is read for showing); what the
    contact wrote is kept as it is."""
    if kind == "conversation":
        return body if isinstance(body, str) else ""
    if not isinstance(body, dict):
        body = {}
    if kind == "extendedTextMessage":
        return _str(body.get("text")) or ""
    if kind == "listMessage":
        return "☰ " + (_str(body.get("title")) or _str(body.get("description")) or _("list"))
    if kind == "listResponseMessage":
        return "↩ " + (_str(body.get("title")) or selected_row_id(content) or _("a list row"))
    if kind == "buttonsResponseMessage":
        return "↩ " + (_str(body.get("selectedDisplayText")) or _("a button"))
    if kind == "templateButtonReplyMessage":
        return "↩ " + (_str(body.get("selectedDisplayText")) or _("a button"))
    if kind == "buttonsMessage":
        return "▣ " + (_str(body.get("contentText")) or _("buttons"))
    if kind == "imageMessage":
        return _caption(_("📷 Photo"), body, "caption")
    if kind == "videoMessage":
        label = _("🎞 GIF") if body.get("gifPlayback") is True else _("🎥 Video")
        return _caption(label + _seconds(body), body, "caption")
    if kind == "audioMessage":
        voice = body.get("ptt") is True
        return (_("🎤 Voice message") if voice else _("🎵 Audio")) + _seconds(body)
    if kind == "documentMessage":
        return _caption(_("📄 Document"), body, "fileName", "title", "caption")
    if kind == "stickerMessage":
        return _("Sticker")
    if kind in ("locationMessage", "liveLocationMessage"):
        live = kind == "liveLocationMessage"
        label = _("📍 Live location") if live else _("📍 Location")
        named = _caption(label, body, "name", "address", "caption")
        if named != label:
            return named
        lat, lon = body.get("degreesLatitude"), body.get("degreesLongitude")
        if isinstance(lat, int | float) and isinstance(lon, int | float):
            return f"{label}: {lat:.5f}, {lon:.5f}"
        return label
    if kind == "contactMessage":
        return _caption(_("👤 Contact"), body, "displayName")
    if kind == "contactsArrayMessage":
        contacts = body.get("contacts")
        count = len(contacts) if isinstance(contacts, list) else 0
        if count:
            return ngettext("👤 {n} contact", "👤 {n} contacts", count).format(n=number(count))
        return _("👤 Contacts")
    if kind == "reactionMessage":
        emoji = _str(body.get("text"))
        return _("Reacted {emoji}").format(emoji=emoji) if emoji else _("Reaction removed")
    if kind in ("pollCreationMessage", "pollCreationMessageV2", "pollCreationMessageV3"):
        return _caption(_("📊 Poll"), body, "name")
    if kind == "pollUpdateMessage":
        return _("📊 Poll vote")
    if kind == "protocolMessage":
        kind_name = _str(body.get("type")) or ""
        if kind_name == "REVOKE":
            return _("🚫 Message deleted")
        if kind_name == "MESSAGE_EDIT":
            edited_kind, edited = content_kind(_dict(body.get("editedMessage")))
            new_text = _describe(edited_kind, edited.get(edited_kind), edited) if edited else ""
            return _("✎ Edited: {text}").format(text=new_text) if new_text else _("✎ Edited")
        if kind_name:
            return _("protocol message ({type})").format(type=kind_name)
        return _("protocol message (unknown)")
    if kind == "orderMessage":
        return _caption(_("🛒 Order"), body, "orderTitle", "message")
    if kind == "productMessage":
        return _("🛍 Product")
    if kind == "groupInviteMessage":
        return _caption(_("👥 Group invite"), body, "groupName")
    if kind == "call":
        return _("📞 Call")
    return f"[{kind}]"  # an unknown kind is kept and shown as its type


def _quotes(content: dict[str, Any] | None, kind: str) -> bool:
    body = _dict((content or {}).get(kind))
    info = _dict(body.get("contextInfo")) if body else None
    return bool(info and info.get("stanzaId"))


def selected_row_id(content: dict[str, Any] | None) -> str | None:
    body = _dict((content or {}).get("listResponseMessage"))
    reply = _dict(body.get("singleSelectReply")) if body else None
    return _str(reply.get("selectedRowId")) if reply else None


# --- stored objects ---


@dataclass(slots=True, frozen=True)
class StoredChat:
    """A chat row: ``owner`` is the instance name or its own JID; the timestamp is optional."""

    id: str
    owner: str | None
    last_timestamp: int | None
    archived: bool | None
    raw: dict[str, Any]

    @property
    def is_group(self) -> bool:
        return self.id.endswith(GROUP_SUFFIX)

    @property
    def name(self) -> str | None:
        """The chat's own name as the server stores it: a group's ``subject`` or ``name``, or
        2.x's ``pushName`` (its findChats rows carry the chat's name there, a group's subject
        included); 1.7.1's rows have none (``{id, owner}``). Blank is no name."""
        for field in ("subject", "name", "pushName"):
            value = self.raw.get(field)
            if isinstance(value, str) and value.strip():
                return value.strip()
        return None

    @classmethod
    def read(cls, data: dict[str, Any]) -> StoredChat | None:
        jid = _str(data.get("id"))
        if not jid:
            return None
        archived = data.get("archived")
        return cls(
            id=jid,
            owner=_str(data.get("owner")),
            last_timestamp=parse_long(data.get("lastMsgTimestamp")),
            archived=archived if isinstance(archived, bool) else None,
            raw=data,
        )


@dataclass(slots=True, frozen=True)
class Contact:
    id: str
    push_name: str | None
    picture_url: str | None
    raw: dict[str, Any]

    @property
    def name(self) -> str | None:
        """The name to show; an empty or blank pushName is no name."""
        return self.push_name.strip() if self.push_name and self.push_name.strip() else None

    @classmethod
    def read(cls, data: dict[str, Any]) -> Contact | None:
        jid = _str(data.get("id"))
        if not jid:
            return None
        return cls(jid, _str(data.get("pushName")), _str(data.get("profilePictureUrl")), data)


STATUS_RANK = {
    MessageStatus.ERROR: 0,
    MessageStatus.PENDING: 1,
    MessageStatus.SERVER_ACK: 2,
    MessageStatus.DELIVERY_ACK: 3,
    MessageStatus.READ: 4,
    MessageStatus.PLAYED: 5,
    MessageStatus.DELETED: 6,
}


def status_kind(raw: str | None) -> MessageStatus:
    try:
        return MessageStatus(raw or "")
    except ValueError:
        return MessageStatus.UNKNOWN


@dataclass(slots=True, frozen=True)
class StatusRow:
    """One delivery update (``datetime`` in milliseconds). The file store keeps the last only."""

    message_id: str
    remote_jid: str | None
    from_me: bool | None
    participant: str | None
    status: str
    at_ms: int | None

    @property
    def kind(self) -> MessageStatus:
        return status_kind(self.status)

    @property
    def rank(self) -> int:
        return STATUS_RANK.get(self.kind, -1)

    @classmethod
    def read(cls, data: dict[str, Any]) -> StatusRow | None:
        message_id = _str(data.get("id"))
        if not message_id:
            return None
        from_me = data.get("fromMe")
        return cls(
            message_id=message_id,
            remote_jid=_str(data.get("remoteJid")),
            from_me=from_me if isinstance(from_me, bool) else None,
            participant=_str(data.get("participant")),
            status=sys.intern(_str(data.get("status")) or ""),
            at_ms=parse_long(data.get("datetime")),
        )


@dataclass(slots=True, frozen=True)
class StoredMessage:
    """A message as the store keeps it, with its kind and a one-line text worked out once.

    Compact on purpose (a chat may hold 100,000): the stored JSON is not kept, only what the
    screens draw; ``content`` only for kinds other than text. The exact stored JSON of one
    message is one findMessages call away (``GatewayClient.find_message_json``).
    """

    id: str
    remote_jid: str
    from_me: bool
    participant: str | None
    push_name: str | None
    timestamp: int | None  # seconds, from either stored form
    kind: str
    text: str  # one line, cut: for tables, search and notices
    full_text: str  # the whole text of a text message; else the same as ``text``
    content: dict[str, Any] | None  # the ``message`` object, unwrapped (None for plain text)
    context: dict[str, Any] | None  # the top-level contextInfo, when the store has one
    # The phone JID 2.x writes beside an ``@lid`` sender (remoteJidAlt, participantAlt,
    # senderPn): core/identity.py reads it.
    alt: str | None = None
    # 2.x marks a message deleted for everyone in its stored key (``key.deleted: true``).
    deleted: bool = False

    @classmethod
    def read(cls, data: dict[str, Any]) -> StoredMessage | None:
        key = _dict(data.get("key"))
        message_id = _str(key.get("id")) if key else None
        remote_jid = _str(key.get("remoteJid")) if key else None
        if not key or not message_id or not remote_jid:
            return None
        kind, content = content_kind(_dict(data.get("message")))
        if not kind:
            kind = _str(data.get("messageType")) or ""
        described = _describe(kind, content.get(kind), content) if content else ""
        text = one_line(described) if content else (f"[{kind}]" if kind else "")
        full_text = described if kind in TEXT_KINDS else text
        if kind in TEXT_KINDS and not _quotes(content, kind):
            content = None  # the text is all there is to draw (a reply keeps its quote)
        from_me = key.get("fromMe")
        push_name = _str(data.get("pushName"))
        context = _dict(data.get("contextInfo"))
        return cls(
            id=message_id,
            remote_jid=sys.intern(remote_jid),  # 100,000 messages of one chat share one string
            from_me=from_me is True,
            participant=_str(key.get("participant")) or _str(data.get("participant")),
            push_name=sys.intern(push_name) if push_name is not None else None,
            timestamp=parse_long(data.get("messageTimestamp")),
            kind=sys.intern(kind),
            text=text,
            full_text=full_text if full_text != text else text,
            content=content,
            context=context or None,
            alt=_alt_of(key),
            deleted=key.get("deleted") is True,
        )

    @property
    def key(self) -> MessageKey:
        return MessageKey(remoteJid=self.remote_jid, fromMe=self.from_me, id=self.id)

    @property
    def is_text(self) -> bool:
        """Plain text: the only kind WhatsApp lets the sender edit."""
        return self.kind in TEXT_KINDS

    @property
    def sender(self) -> str:
        """Who wrote it: the group member, else the chat (for received messages)."""
        return self.participant or self.remote_jid

    @property
    def sender_name(self) -> str | None:
        """pushName as sent; "" (the server's own sent messages) reads as no name."""
        return self.push_name.strip() if self.push_name and self.push_name.strip() else None

    @property
    def body(self) -> dict[str, Any]:
        """What is under the kind key ({} when it is not an object)."""
        value = (self.content or {}).get(self.kind)
        return value if isinstance(value, dict) else {}

    @property
    def list_message(self) -> dict[str, Any] | None:
        return self.body if self.kind == "listMessage" else None

    @property
    def selected_row_id(self) -> str | None:
        return selected_row_id(self.content) if self.kind == "listResponseMessage" else None

    @property
    def quoted_id(self) -> str | None:
        """The id of the message this one answers (a list reply names the list message)."""
        info = _dict(self.body.get("contextInfo")) or self.context
        return _str(info.get("stanzaId")) if info else None

    @property
    def quoted_content(self) -> dict[str, Any] | None:
        info = _dict(self.body.get("contextInfo")) or self.context
        return _dict(info.get("quotedMessage")) if info else None


def _alt_of(key: dict[str, Any]) -> str | None:
    """The phone JID beside an ``@lid`` in a message key (None when there is none)."""
    for field in ("remoteJidAlt", "participantAlt", "senderPn"):
        value = _str(key.get(field))
        if value:
            return value
    return None


# --- client-side filter, sort and bound (the file store ignores them) ---


def message_order(message: StoredMessage) -> int:
    return message.timestamp if message.timestamp is not None else 0


def messages_of_chat(
    messages: Iterable[StoredMessage], jid: str | None = None, *, limit: int | None = None
) -> list[StoredMessage]:
    """The messages of ``jid`` (all when None), oldest first, the last ``limit`` of them.

    Messages without a readable time sort first; equal times keep the server's order.
    """
    chosen = [m for m in messages if m.remote_jid == jid] if jid else list(messages)
    chosen.sort(key=message_order)
    if limit is not None:
        chosen = chosen[-limit:] if limit > 0 else []
    return chosen


def latest_statuses(rows: Iterable[StatusRow]) -> dict[str, StatusRow]:
    """The newest status of each message id. A server with history (MongoDB) answers one row
    per update; on equal times the further status wins (READ after DELIVERY_ACK)."""
    latest: dict[str, StatusRow] = {}
    for row in rows:
        known = latest.get(row.message_id)
        if known is None or (row.at_ms or 0, row.rank) >= (known.at_ms or 0, known.rank):
            latest[row.message_id] = row
    return latest


def newest_per_chat(data: Any) -> StoreList[StoredMessage]:
    """The newest message of each chat in a findMessages answer (a JSON array).

    For the chat list, which needs only these: the others are looked at (chat and time) but
    not read, which halves the work on a store of many chats.
    """
    if not isinstance(data, list):
        raise ValueError(f"expected an array, got {type(data).__name__}")
    best: dict[str, tuple[int, int]] = {}  # chat -> (time, position)
    for position, item in enumerate(data):
        key = item.get("key") if isinstance(item, dict) else None
        jid = key.get("remoteJid") if isinstance(key, dict) else None
        if not isinstance(jid, str):
            continue
        stamp = parse_long(item.get("messageTimestamp")) or 0
        known = best.get(jid)
        if known is None or stamp >= known[0]:
            best[jid] = (stamp, position)
    result: StoreList[StoredMessage] = StoreList()
    for _stamp, position in best.values():
        message = StoredMessage.read(data[position])
        if message is None:
            result.skipped += 1
        else:
            result.append(message)
    result.skipped += sum(1 for item in data if not isinstance(item, dict))
    return result


class ChatMessages(Sequence[StoredMessage]):
    """One chat's messages, oldest first, read only when looked at.

    A chat of 100,000 messages is sorted from the stored items' times alone; a message becomes a
    ``StoredMessage`` when a screen draws, searches or acts on it. That keeps the first screen
    of a long chat at the cost of its parse, and its memory at the stored items' own.
    """

    def __init__(self, items: list[dict[str, Any]], skipped: int = 0) -> None:
        self._items = items
        self._read: dict[int, StoredMessage] = {}
        self._index: dict[str, int] | None = None
        self.skipped = skipped
        # A paged store (2.x): the next older page to read (None: none left, or not paged), and
        # how many messages the gateway holds for the chat (None: not told).
        self.older_page: int | None = None
        self.total: int | None = None

    @property
    def older_left(self) -> int:
        """How many older messages the gateway still holds beyond these (0: none, or unknown)."""
        if self.older_page is None or self.total is None:
            return 0
        return max(0, self.total - len(self._items))

    def _paged_as(self, other: ChatMessages) -> ChatMessages:
        self.older_page, self.total = other.older_page, other.total
        return self

    def joined(self, other: ChatMessages) -> ChatMessages:
        """These messages and ``other``'s, one per id (this one's item where both hold it), in
        time order; ``other``'s paging (a page read later knows the store better)."""
        ids = {item["key"]["id"] for item in self._items}
        items = self._items + [item for item in other._items if item["key"]["id"] not in ids]
        items.sort(key=lambda item: parse_long(item.get("messageTimestamp")) or 0)
        return ChatMessages(items, self.skipped + other.skipped)._paged_as(other)

    @classmethod
    def of_chat(cls, data: Any, jid: str | None, limit: int | None = None) -> ChatMessages:
        """The items of ``jid`` (all chats when None) in a findMessages answer, by time."""
        if not isinstance(data, list):
            raise ValueError(f"expected an array, got {type(data).__name__}")
        chosen: list[tuple[int, int]] = []
        skipped = 0
        for position, item in enumerate(data):
            key = item.get("key") if isinstance(item, dict) else None
            if not isinstance(key, dict) or not isinstance(key.get("id"), str):
                skipped += 1
                continue
            remote = key.get("remoteJid")
            if not isinstance(remote, str) or not remote:
                skipped += 1
            elif jid is None or remote == jid:
                chosen.append((parse_long(item.get("messageTimestamp")) or 0, position))
        chosen.sort()  # by time; equal times keep the server's order
        if limit is not None:
            chosen = chosen[-limit:] if limit > 0 else []
        return cls([data[position] for _stamp, position in chosen], skipped)

    def __len__(self) -> int:
        return len(self._items)

    @overload
    def __getitem__(self, index: int) -> StoredMessage: ...
    @overload
    def __getitem__(self, index: slice) -> list[StoredMessage]: ...
    def __getitem__(self, index: int | slice) -> StoredMessage | list[StoredMessage]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self._items)))]
        if index < 0:
            index += len(self._items)
        if not 0 <= index < len(self._items):
            raise IndexError(index)
        message = self._read.get(index)
        if message is None:
            message = StoredMessage.read(self._items[index]) or _unreadable(self._items[index])
            self._read[index] = message
        return message

    def __iter__(self) -> Iterator[StoredMessage]:
        for index in range(len(self._items)):
            yield self[index]

    def with_items(self, new: Sequence[dict[str, Any]]) -> ChatMessages:
        """A new sequence with more stored items (a frame's live events) in time order; an
        item whose id is there already takes its place. Messages read so far are kept. One
        copy and one index for the whole batch: a flood into a chat of 10,000 messages costs
        a copy per frame, not per event."""
        items = list(self._items)
        index = dict(self._id_index())
        read = dict(self._read)
        first_moved = len(items)
        for item in new:
            key = item.get("key") if isinstance(item, dict) else None
            message_id = key.get("id") if isinstance(key, dict) else None
            if not isinstance(message_id, str):
                continue
            known = index.get(message_id, -1)
            if known >= 0:
                items[known] = item
                read.pop(known, None)
                continue
            stamp = parse_long(item.get("messageTimestamp")) or 0
            at = len(items)
            while at > 0 and (parse_long(items[at - 1].get("messageTimestamp")) or 0) > stamp:
                at -= 1
            items.insert(at, item)
            if at < len(items) - 1:  # later positions moved
                first_moved = min(first_moved, at)
                index = {i["key"]["id"]: n for n, i in enumerate(items)}
            else:
                index[message_id] = at
        if first_moved < len(self._items):  # forget what was read where positions moved
            read = {i: m for i, m in read.items() if i < first_moved}
        result = ChatMessages(items, self.skipped)._paged_as(self)
        result._read = read
        result._index = index
        return result

    def _id_index(self) -> dict[str, int]:
        if self._index is None:
            self._index = {item["key"]["id"]: i for i, item in enumerate(self._items)}
        return self._index

    def index_of(self, message_id: str) -> int:
        """The position of ``message_id`` (-1: not in this chat), without reading messages."""
        return self._id_index().get(message_id, -1)


def _unreadable(item: dict[str, Any]) -> StoredMessage:
    # of_chat only keeps items with a key id and chat, so StoredMessage.read cannot refuse them;
    # this keeps the sequence total anyway.
    key = item.get("key") or {}
    return StoredMessage(
        id=str(key.get("id")), remote_jid=str(key.get("remoteJid")), from_me=False,
        participant=None, push_name=None, timestamp=None, kind="", text="", full_text="",
        content=None, context=None,
    )  # fmt: skip
