"""The chats of an instance as the gateway stores them, merged with what this app sent.

Plain Python (no Textual, no I/O): ``actions/chats.py`` fills a ``ChatBook`` from the gateway,
``chat_rows`` turns it and the sent history into the rows the chats screen shows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime

from gateway_tui.api.chat_models import (
    Contact,
    StatusRow,
    StoredChat,
    StoredMessage,
    messages_of_chat,
)
from gateway_tui.api.models import MessageKey, MessageStatus, jid_number
from gateway_tui.formatting import format_number

GROUP_SUFFIX = "@g.us"


@dataclass
class ChatBook:
    """One load of an instance's store: chats, contact names, and messages by chat."""

    chats: list[StoredChat]
    names: dict[str, str]  # JID -> pushName, only the non-empty ones
    by_chat: dict[str, list[StoredMessage]]  # oldest first
    skipped: int = 0  # items the store held that could not be read
    groups_note: str | None = None  # why group names are missing, when they are

    @classmethod
    def build(
        cls,
        chats: list[StoredChat],
        contacts: Iterable[Contact],
        messages: Iterable[StoredMessage],
        skipped: int = 0,
    ) -> ChatBook:
        by_chat: dict[str, list[StoredMessage]] = {}
        for message in messages:
            by_chat.setdefault(message.remote_jid, []).append(message)
        for jid, items in by_chat.items():
            by_chat[jid] = messages_of_chat(items)
        names = {c.id: c.name for c in contacts if c.name}
        return cls(chats=list(chats), names=names, by_chat=by_chat, skipped=skipped)

    @property
    def empty(self) -> bool:
        return not self.chats and not self.by_chat


def person_label(jid: str) -> str:
    digits = jid_number(jid)
    return format_number(digits) if digits else jid


@dataclass(slots=True)
class ChatRow:
    """A row of the chats screen."""

    jid: str
    name: str  # contact or group name; "" when unknown
    last_text: str
    last_at: datetime | None
    from_me: bool | None  # direction of the last message (None: no message known)
    archived: bool
    in_store: bool  # listed by the gateway (else known from this app's sent history only)
    sent_here: int  # messages this app sent to the chat
    last_key: MessageKey | None
    search: str = field(default="", repr=False)

    @property
    def is_group(self) -> bool:
        return self.jid.endswith(GROUP_SUFFIX)

    @property
    def number(self) -> str:
        return self.jid if self.is_group else person_label(self.jid)

    @property
    def title(self) -> str:
        return self.name or self.number


def _at(seconds: int | None) -> datetime | None:
    if not seconds or seconds <= 0:
        return None
    try:
        return datetime.fromtimestamp(seconds)
    except (OverflowError, OSError, ValueError):
        return None


def chat_rows(
    book: ChatBook | None,
    sent: dict,  # JID -> state.ChatRecord (this app's sent history and flags)
    subject_of: Callable[[str], str | None],
) -> list[ChatRow]:
    """The gateway's chats plus chats only the sent history knows, newest activity first.

    A chat is one row whichever side knows it; its last message is the newer of the store's
    and the sent history's.
    """
    rows: dict[str, ChatRow] = {}
    chats = book.chats if book else []
    listed = {c.id: c for c in chats}
    jids = list(listed)
    if book:
        jids += [jid for jid in book.by_chat if jid not in listed]
    for jid in jids:
        stored = listed.get(jid)
        messages = book.by_chat.get(jid, []) if book else []
        last = messages[-1] if messages else None
        last_at = _at(last.timestamp if last else None)
        listed_at = _at(stored.last_timestamp) if stored else None
        if listed_at and (last_at is None or listed_at > last_at):
            last_at = listed_at
        name = subject_of(jid) if jid.endswith(GROUP_SUFFIX) else book.names.get(jid)  # type: ignore[union-attr]
        record = sent.get(jid)
        rows[jid] = ChatRow(
            jid=jid,
            name=name or "",
            last_text=last.text if last else "",
            last_at=last_at,
            from_me=last.from_me if last else None,
            archived=bool(record and record.archived),
            in_store=True,
            sent_here=len(record.texts) if record else 0,
            last_key=last.key if last else None,
        )
    for jid, record in sent.items():
        row = rows.get(jid)
        same = (
            row is not None
            and row.last_key is not None
            and record.last_key is not None
            and row.last_key.id == record.last_key.id
        )  # the store holds the message this app sent: the store's copy shows
        newer = (
            not same
            and record.last_at is not None
            and (row is None or row.last_at is None or record.last_at > row.last_at)
        )
        if row is None:
            name = subject_of(jid) if jid.endswith(GROUP_SUFFIX) else None
            row = rows[jid] = ChatRow(
                jid=jid,
                name=name or "",
                last_text="",
                last_at=None,
                from_me=None,
                archived=record.archived,
                in_store=False,
                sent_here=len(record.texts),
                last_key=None,
            )
        if newer or row.last_key is None:
            row.last_text = record.last_text or row.last_text
            row.last_at = record.last_at or row.last_at
            row.from_me = True
            row.last_key = record.last_key or row.last_key
    result = list(rows.values())
    for row in result:
        row.search = " ".join((row.jid, row.name, row.number, row.last_text)).casefold()
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
