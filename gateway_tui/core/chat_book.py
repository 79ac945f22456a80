"""The chats of an instance as the gateway stores them, merged with what this app sent.

Plain Python (no Textual, no I/O): ``actions/chats.py`` fills a ``ChatBook`` from the gateway,
``chat_rows`` turns it and the sent history into the rows the chats screen shows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache
from typing import Any

from gateway_tui.core.api.chat_models import Contact, StatusRow, StoredChat, StoredMessage
from gateway_tui.core.api.errors import GatewayError
from gateway_tui.core.api.label_models import labels_of_chat
from gateway_tui.core.api.models import MessageKey, MessageStatus, jid_number
from gateway_tui.core.identity import Identities, Identity, channel_title, is_channel, is_lid
from gateway_tui.core.text import sanitize
from gateway_tui.core.text.formatting import format_number

GROUP_SUFFIX = "@g.us"


def printable(value: Any) -> Any:
    """Text from outside (names, messages, list fields, nested in dicts and lists) with every
    control character shown as a visible placeholder (sanitize.printable; line breaks kept): an
    escape sequence in a message must not reach the terminal."""
    if isinstance(value, str):
        return sanitize.printable(value, multiline=True)
    if isinstance(value, dict):
        return {key: printable(item) for key, item in value.items()}
    if isinstance(value, list):
        return [printable(item) for item in value]
    return value


@dataclass
class ChatBook:
    """One load of an instance's store: chats, contact names, each chat's newest message."""

    chats: list[StoredChat]
    names: dict[str, str]  # JID -> pushName, only the non-empty ones
    last: dict[str, StoredMessage]  # JID -> its newest stored message
    skipped: int = 0  # items the store held that could not be read
    groups_note: str | None = None  # why group names are missing, when they are
    groups_error: GatewayError | None = None  # fetchAllGroups' failure, when it failed
    # chat_rows' work per chat, kept across the book's renewals (a live batch renews the book
    # with dataclasses.replace, which hands this same dict on): a batch over a list of
    # 10,000 chats redoes only the chats it changed, not every row's names, texts and times.
    worked: _Worked = field(default_factory=lambda: _Worked(), repr=False, compare=False)

    def listed(self) -> dict[str, StoredChat]:
        """The listed chats by JID (worked out once per list: a renewed book shares it)."""
        worked = self.worked
        if worked.listed is None or worked.chats is not self.chats:
            worked.chats, worked.listed = self.chats, {c.id: c for c in self.chats}
        return worked.listed

    @classmethod
    def build(
        cls,
        chats: list[StoredChat],
        contacts: Iterable[Contact],
        last: Iterable[StoredMessage],
        skipped: int = 0,
    ) -> ChatBook:
        names = {c.id: c.name for c in contacts if c.name}
        by_chat = {m.remote_jid: m for m in last}
        return cls(chats=list(chats), names=names, last=by_chat, skipped=skipped)

    @property
    def empty(self) -> bool:
        return not self.chats and not self.last


# One chat's part of a row that depends only on the store: (the StoredChat, the newest
# StoredMessage, the name as found) it was worked out from, then the name, the last text, the
# time, the direction and the labels, as the row shows them.
_RowParts = tuple[
    "StoredChat | None",
    "StoredMessage | None",
    "str | None",
    str,
    str,
    "datetime | None",
    "bool | None",
    tuple[str, ...],
]


class _Worked:
    """What chat_rows worked out of a book: each chat's parts, the listed chats by JID."""

    __slots__ = ("chats", "listed", "parts")

    def __init__(self) -> None:
        self.parts: dict[str, _RowParts] = {}
        self.chats: list[StoredChat] | None = None  # the list ``listed`` was made from
        self.listed: dict[str, StoredChat] | None = None


@lru_cache(maxsize=4096)  # a table redraw asks for the same rows' numbers each frame
def person_label(number_or_jid: str) -> str:
    """A number or JID for reading: "+49 1511 2340001"; a group's or a channel's JID as it is
    (no number)."""
    if number_or_jid.endswith(GROUP_SUFFIX) or is_channel(number_or_jid):
        return number_or_jid  # a group's or a channel's id is no phone number
    digits = jid_number(number_or_jid) if "@" in number_or_jid else number_or_jid
    return format_number(digits) if digits.isdigit() else number_or_jid


@dataclass(slots=True)
class ChatRow:
    """A row of the chats screen. What only some rows need (the number as shown, the key,
    the search text) is worked out when asked: a list may hold 10,000."""

    jid: str
    name: str  # contact or group name; "" when unknown
    last: StoredMessage | None  # the store's newest message of the chat
    last_text: str
    last_at: datetime | None
    from_me: bool | None  # direction of the last message (None: no message known)
    archived: bool
    in_store: bool  # listed by the gateway (else known from this app's sent history only)
    sent_here: int  # messages this app sent to the chat
    sent_key: MessageKey | None = None  # the sent history's last key, when it is newer
    unread: int = 0  # new messages live events brought since the chat was last open
    labels: tuple[str, ...] = ()  # label ids on the chat (1.7.1's findChats; set from here)
    phone: str | None = None  # an ``@lid`` chat's number, when known (core/identity.py)

    @property
    def is_group(self) -> bool:
        return self.jid.endswith(GROUP_SUFFIX)

    @property
    def number(self) -> str:
        """The number; an ``@lid`` chat's number beside the LID, or "number hidden"."""
        if self.is_group:
            return printable(self.jid)
        if is_lid(self.jid):
            return printable(Identity(self.jid, phone=self.phone, lid=self.jid).label())
        return printable(person_label(self.jid))

    @property
    def is_channel(self) -> bool:
        return is_channel(self.jid)

    @property
    def title(self) -> str:
        if self.is_channel:
            return channel_title(self.name)
        return self.name or self.number

    @property
    def last_key(self) -> MessageKey | None:
        if self.sent_key is not None:
            return self.sent_key
        return self.last.key if self.last is not None else None

    @property
    def search(self) -> str:
        return " ".join((self.jid, self.phone or "", self.name, self.number, self.last_text))


def _at(seconds: int | None) -> datetime | None:
    if not seconds or seconds <= 0:
        return None
    try:
        return datetime.fromtimestamp(seconds)
    except (OverflowError, OSError, ValueError):
        return None


def _row_parts(
    stored: StoredChat | None, last: StoredMessage | None, found: str | None
) -> _RowParts:
    last_at = _at(last.timestamp) if last is not None else None
    listed_at = _at(stored.last_timestamp) if stored is not None else None
    if listed_at is not None and (last_at is None or listed_at > last_at):
        last_at = listed_at
    name = found
    if not name and stored is not None:
        name = stored.name  # the chat row's own name (a group's, where no list has it)
    return (
        stored,
        last,
        found,
        printable(name or ""),
        printable(last.text) if last is not None else "",
        last_at,
        last.from_me if last is not None else None,
        labels_of_chat(stored.raw) if stored is not None else (),
    )


def chat_rows(
    book: ChatBook | None,
    sent: dict,  # JID -> state.ChatRecord (this app's sent history and flags)
    subject_of: Callable[[str], str | None],
    identities: Identities | None = None,
) -> list[ChatRow]:
    """The gateway's chats plus chats only the sent history knows, newest activity first.

    A chat is one row whichever side knows it; its last message is the newer of the store's
    and the sent history's. An ``@lid`` chat carries its number when ``identities`` knows it
    (remoteJidAlt, senderPn, group members, contacts: core/identity.py).
    """
    rows: dict[str, ChatRow] = {}
    if book is not None:
        listed = book.listed()
        jids = list(listed) + [jid for jid in book.last if jid not in listed]
        names, newest, kept = book.names, book.last, book.worked.parts
        for jid in jids:
            stored = listed.get(jid)
            last = newest.get(jid)
            found = subject_of(jid) if jid.endswith(GROUP_SUFFIX) else names.get(jid)
            parts = kept.get(jid)
            if parts is None or parts[0] is not stored or parts[1] is not last or parts[2] != found:
                parts = kept[jid] = _row_parts(stored, last, found)
            _, _, _, name, last_text, last_at, from_me, labels = parts
            record = sent.get(jid)
            rows[jid] = ChatRow(
                jid=jid,
                name=name,
                last=last,
                last_text=last_text,
                last_at=last_at,
                from_me=from_me,
                archived=bool(record and record.archived),
                in_store=True,
                sent_here=len(record.texts) if record else 0,
                labels=labels,
            )
    for jid, record in sent.items():
        row = rows.get(jid)
        if row is None and not record.texts and record.last_key is None:
            continue  # only a flag set from here (archived) for a chat the gateway no longer lists
        if row is None:
            name = subject_of(jid) if jid.endswith(GROUP_SUFFIX) else None
            row = rows[jid] = ChatRow(
                jid=jid,
                name=printable(name or ""),
                last=None,
                last_text="",
                last_at=None,
                from_me=None,
                archived=record.archived,
                in_store=False,
                sent_here=len(record.texts),
            )
        # The store holds the message this app sent: the store's copy shows.
        same = (
            row.last is not None
            and record.last_key is not None
            and row.last.id == record.last_key.id
        )
        newer = (
            not same
            and record.last_at is not None
            and (row.last_at is None or record.last_at > row.last_at)
        )
        if newer or (row.last_key is None and record.last_key is not None):
            row.last_text = printable(record.last_text) or row.last_text
            row.last_at = record.last_at or row.last_at
            row.from_me = True
            row.sent_key = record.last_key
    result = list(rows.values())
    if identities is not None:
        for row in result:
            if is_lid(row.jid):
                row.phone = identities.phone_of(row.jid)
    result.sort(key=lambda r: r.last_at or datetime.min, reverse=True)
    return result


# --- delivery marks ---

UNREAD_OWN = frozenset(
    {MessageStatus.PENDING, MessageStatus.SERVER_ACK, MessageStatus.DELIVERY_ACK}
)


def waiting_for_read(messages: Iterable[StoredMessage], statuses: dict[str, StatusRow]) -> bool:
    """Whether an own message of these has a status short of READ (so it is worth polling)."""
    for message in messages:
        if message.from_me:
            row = statuses.get(message.id)
            if row is not None and row.kind in UNREAD_OWN:
                return True
    return False
