"""The gateway's chat store: chats with names and last messages, a chat's messages, statuses.

The file store of a 1.7.1 gateway ignores filters and has no paging: the client filters and
orders; here the results go in the state, merged with what this app knows from sending.
"""

from __future__ import annotations

from collections import deque
from dataclasses import replace
from typing import TYPE_CHECKING

from gateway_tui.core.api.chat_models import ChatMessages, StatusRow, StoredMessage, latest_statuses
from gateway_tui.core.api.errors import GatewayError
from gateway_tui.core.api.models import ArchiveResult, InstanceStatus, MessageKey
from gateway_tui.core.chat_book import GROUP_SUFFIX, ChatBook
from gateway_tui.core.services.base import ActionsBase
from gateway_tui.core.state import ChatRecord, Loadable, Topic
from gateway_tui.core.text.i18n import _

# A history sync's events (2.3.7's batches with isLatest/progress at the envelope's top level,
# 2.4's summary): fed to the state's HistoryBook.
HISTORY_EVENTS = frozenset({"messages.set", "messaging-history.set"})

if TYPE_CHECKING:
    from gateway_tui.core.live import LiveEvent


MARKS_EVERY = 2.0  # seconds between writes of the "new" markers while events come


class ChatStoreActions(ActionsBase):
    def chat_book(self, instance: str) -> Loadable[ChatBook]:
        return self.state.chat_books.setdefault(instance, Loadable())

    def messages_of(self, instance: str, jid: str) -> Loadable[ChatMessages]:
        return self.state.messages.setdefault((instance, jid), Loadable())

    def statuses_of(self, instance: str) -> dict[str, StatusRow]:
        return self.state.statuses.setdefault(instance, {})

    async def load_chat_book(self, instance: str) -> ChatBook:
        """findChats, findContacts and findMessages at once; then group names, when the
        instance can answer fetchAllGroups (a disconnected one cannot: the JID stays)."""
        return await self._load(self.chat_book(instance), Topic.CHATS, self._read_book(instance))

    async def _read_book(self, instance: str) -> ChatBook:
        # One after the other: a failure stops the read, and is the one error to tell.
        chats = await self.client.chats.find(instance)
        contacts = await self.client.contacts.find(instance)
        last = await self.client.chats.last_messages(instance)
        skipped = chats.skipped + contacts.skipped + last.skipped
        book = ChatBook.build(chats, contacts, last, skipped)
        self.actions.people.learn_book(instance, contacts, last)
        has_groups = any(jid.endswith(GROUP_SUFFIX) for jid in (*book.last, *(c.id for c in chats)))
        known = self.state.instance(instance)
        if has_groups and known is not None and known.status_kind != InstanceStatus.OPEN:
            book.groups_note = _("group names need a connected instance")
        elif has_groups:
            try:
                await self.actions.groups.load_groups(instance)
            except GatewayError as error:
                book.groups_note = _("⚠ group names unavailable: {reason}").format(
                    reason=error.title
                )
                book.groups_error = error  # the screen tells it once
        return book

    async def load_messages(self, instance: str, jid: str) -> ChatMessages:
        """The chat's messages, oldest first (read lazily: a chat may hold 100,000)."""
        return await self._load(
            self.messages_of(instance, jid), Topic.MESSAGES, self._read_chat(instance, jid)
        )

    async def _read_chat(self, instance: str, jid: str) -> ChatMessages:
        # A paged store (2.x): the newest page; older pages come as the user scrolls up
        # (load_older_messages). Read again, the newest page joins what was read before.
        messages = await self.client.chats.chat_page(instance, jid)
        self.actions.people.learn_chat(instance, jid, messages)
        known = self.messages_of(instance, jid).value
        if messages.total is not None and isinstance(known, ChatMessages) and len(known):
            older_page = known.older_page
            messages = messages.joined(known)
            messages.older_page = older_page
        # A read that left before a live event came back without its message: put it in.
        missing = [
            item
            for item in self.state.live_items.get((instance, jid), ())
            if messages.index_of(item["key"]["id"]) < 0
        ]
        return messages.with_items(missing) if missing else messages

    async def load_older_messages(self, instance: str, jid: str) -> ChatMessages | None:
        """The chat's next older page joined to what is shown (a paged store only); None when
        there is no older page to read."""
        loadable = self.messages_of(instance, jid)
        known = loadable.value
        if not isinstance(known, ChatMessages) or known.older_page is None:
            return None
        older = await self.client.chats.chat_page(instance, jid, known.older_page)
        latest = loadable.value  # live events may have come meanwhile
        base = latest if isinstance(latest, ChatMessages) else known
        loadable.value = base.joined(older)
        self.state.notify(Topic.MESSAGES)
        return loadable.value

    async def load_statuses(self, instance: str, jid: str | None = None) -> dict[str, StatusRow]:
        rows = await self.client.chats.statuses(instance, remote_jid=jid)
        latest = latest_statuses(rows)
        self.statuses_of(instance).update(latest)
        self.state.notify(Topic.MESSAGES)
        return latest

    def apply_live(self, events: list[LiveEvent]) -> list[str]:
        """Live events (one frame's batch), in one notification per topic however many events
        there were: new messages go into the open chats (one copy of each chat per batch) and
        the chat lists; delivery marks into the statuses; connection changes and QR codes into
        the instance rows and the connect screen. Returns the instances that turned open: their
        rows are read again (``opened``), for the profile and number the phone brought."""
        arrived: dict[tuple[str, str], list[dict]] = {}
        changed: set[Topic] = set()
        states: dict[str, str] = {}
        renewed: set[str] = set()  # instances whose chat book's newest messages changed
        for event in events:
            if event.event in ("messages.upsert", "send.message"):
                self._live_message(event.instance, event.data, arrived, changed, renewed)
            elif event.event == "messages.update":
                marks = self.client.dialect.read_event(event.event, event.data)
                self._live_mark(event.instance, marks, changed)
            elif event.event == "connection.update" and isinstance(event.data, dict):
                state = event.data.get("state")
                if isinstance(state, str) and state:
                    states[event.instance] = state  # the last of the batch holds
            elif event.event == "qrcode.updated" and isinstance(event.data, dict):
                self._live_qr(event.instance, event.data.get("qrcode"), changed)
            elif event.event in HISTORY_EVENTS and self.state.history.feed(event):
                changed.add(Topic.INSTANCES)  # the instance view's history sync line
        if getattr(self, "_marks_changed", False):
            self.save_marks(force=False)
        for instance in renewed:
            book = self.state.chat_books.get(instance)
            if book is not None and book.value is not None:
                book.value = replace(book.value)
        for (instance, jid), items in arrived.items():
            loadable = self.state.messages.get((instance, jid))
            if loadable is not None and isinstance(loadable.value, ChatMessages):
                loadable.value = loadable.value.with_items(items)
                changed.add(Topic.MESSAGES)
        current = {i.instance_name: i.status for i in self.state.instances.value or []}
        opened = [
            name
            for name, state in states.items()
            if state == InstanceStatus.OPEN.value and current.get(name, state) != state
        ]
        for name in opened:
            del states[name]
        if states and self._live_states(states):
            changed.add(Topic.INSTANCES)
        for topic in (Topic.INSTANCES, Topic.LIFECYCLE, Topic.MESSAGES, Topic.CHATS):
            if topic in changed:
                self.state.notify(topic)
        return opened

    def _live_message(
        self,
        instance: str,
        item: object,
        arrived: dict[tuple[str, str], list[dict]],
        changed: set[Topic],
        renewed: set[str],
    ) -> None:
        key = item.get("key") if isinstance(item, dict) else None
        jid = key.get("remoteJid") if isinstance(key, dict) else None
        if not isinstance(item, dict) or not isinstance(jid, str) or not jid:
            return
        if (instance, jid) in self.state.messages:
            # Kept only for a chat whose messages were read (open, or being read): a flood
            # over 100,000 chats (a history sync) keeps nothing for the others — the chat
            # book's newest message is their record.
            recent = self.state.live_items.setdefault((instance, jid), deque(maxlen=200))
            recent.append(item)
            arrived.setdefault((instance, jid), []).append(item)
        book = self.state.chat_books.get(instance)
        message = StoredMessage.read(item)
        if book is not None and book.value is not None and message is not None:
            last = book.value.last.get(jid)
            if last is None or (message.timestamp or 0) >= (last.timestamp or 0):
                # In place (a copy per event was O(chats x events)); the book object is
                # renewed once per batch in apply_live: the chats screen hands its table
                # only new lists.
                book.value.last[jid] = message
                renewed.add(instance)
                changed.add(Topic.CHATS)
            if not message.from_me:
                unread = self.state.unread.setdefault(instance, {})
                unread[jid] = unread.get(jid, 0) + 1
                self._marks_changed = True

    def _live_mark(self, instance: str, data: object, changed: set[Topic]) -> None:
        """Delivery marks, as the store's rows ``{id, remoteJid, fromMe, status, datetime}``
        (the dialect reads each line's own shape)."""
        for one in data if isinstance(data, list) else [data]:
            if not isinstance(one, dict):
                continue
            row = StatusRow.read(one)
            if row is None or not row.status:
                continue
            statuses = self.statuses_of(instance)
            known = statuses.get(row.message_id)
            if known is None or latest_statuses([known, row])[row.message_id] is row:
                statuses[row.message_id] = row
                changed.add(Topic.MESSAGES)

    def _live_states(self, states: dict[str, str]) -> bool:
        """Connection changes into the instance rows (one new list for the batch)."""
        current = self.state.instances.value or []
        if not any(i.instance_name in states and i.status != states[i.instance_name]
                   for i in current):  # fmt: skip
            return False
        self.state.instances.value = [
            i.model_copy(update={"status": states[i.instance_name]})
            if i.instance_name in states and i.status != states[i.instance_name]
            else i
            for i in current
        ]
        return True

    def _live_qr(self, instance: str, qrcode: object, changed: set[Topic]) -> None:
        """A new QR code for a connect screen that is waiting for one (none asked: ignored)."""
        from gateway_tui.core.api.lifecycle import ConnectResult

        pairing = self.state.lifecycle.pairings.get(instance)
        if pairing is None or not isinstance(qrcode, dict) or not qrcode.get("code"):
            return
        fields = {k: qrcode[k] for k in ("code", "base64", "pairingCode") if k in qrcode}
        pairing.value = ConnectResult.model_validate(fields)
        changed.add(Topic.LIFECYCLE)

    def mark_seen(self, instance: str, jid: str) -> None:
        """The chat is open: its new messages are seen (here; no read receipt is sent)."""
        if self.state.unread.get(instance, {}).pop(jid, None):
            self._marks_changed = True
            self.save_marks()
            self.state.notify(Topic.CHATS)

    # --- the "new" markers, kept between runs (core/files/new_marks.py) ---

    def restore_marks(self) -> None:
        """The markers this gateway's chats had when the app last ran."""
        from gateway_tui.core.files.new_marks import load_marks

        for instance, chats in load_marks(self.client.base_url).items():
            unread = self.state.unread.setdefault(instance, {})
            for jid, count in chats.items():
                unread[jid] = max(unread.get(jid, 0), count)
        self.state.notify(Topic.CHATS)

    def save_marks(self, *, force: bool = True) -> None:
        """Write the markers (atomically) if they changed: at once when ``force``, else at most
        every MARKS_EVERY seconds (a flood of events changes them every frame); the session
        writes what is left when it closes.

        The timed writes go to a thread of their own: a write reads and rewrites the whole
        file, O(chats marked) — seconds of the app's loop during a flood over 10,000 chats.
        What is written is a copy taken here; writes never overlap and keep their order (a
        forced write waits for the one under way)."""
        import threading
        import time

        from gateway_tui.core.files.new_marks import save_marks

        writing: threading.Thread | None = getattr(self, "_marks_writing", None)
        if force and writing is not None:
            writing.join()  # on disk before this returns (quitting), whatever changed
        if not getattr(self, "_marks_changed", False):
            return
        now = time.monotonic()
        if not force:
            if now - getattr(self, "_marks_saved_at", float("-inf")) < MARKS_EVERY:
                return
            if writing is not None and writing.is_alive():
                return  # the next batch tries again
        self._marks_changed, self._marks_saved_at = False, now
        copy = {instance: dict(chats) for instance, chats in self.state.unread.items()}
        if writing is not None:
            writing.join()  # in order: an older copy never lands after a newer one
        if force:
            save_marks(self.client.base_url, copy)
            return
        self._marks_writing = threading.Thread(
            target=save_marks, args=(self.client.base_url, copy), name="new-marks", daemon=True
        )
        self._marks_writing.start()

    def restore_archived(self, instance: str, flags: dict[str, bool]) -> None:
        """Archived flags this app set in earlier runs, for chats not known yet (the ones the
        sent history brings back keep their own)."""
        chats = self.state.chats_of(instance)
        added = False
        for jid, flag in flags.items():
            if jid not in chats:
                chats[jid] = ChatRecord(jid, archived=flag)
                added = True
        if added:
            self.state.notify(Topic.CHATS)

    async def message_json(self, instance: str, message_id: str) -> dict | None:
        """One message as the gateway stores it (for copying)."""
        return await self.client.chats.message_json(instance, message_id)

    async def archive_chat(
        self, instance: str, jid: str, key: MessageKey, archive: bool
    ) -> ArchiveResult:
        """Archive or unarchive a chat by its real last message. The flag is the one asked
        for: a real gateway says ``archived: true`` either way, and its store keeps no flag."""
        result = await self.client.chats.archive(instance, key, archive)
        chat = self.state.chats_of(instance).setdefault(jid, ChatRecord(jid))
        chat.archived = archive
        if chat.last_key is None:
            chat.last_key = key
        self.state.notify(Topic.CHATS)
        return result
