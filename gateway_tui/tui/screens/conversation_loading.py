"""The conversation's reading side, mixed into MessagesScreen: the messages read (and the
older pages of a paged store), the delivery statuses polled while an own message is not read
yet, the messages this app sent that the store does not hold, and the group members' names.

A failure is said in the screen's summary, not notified (the reads repeat every few seconds).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from gateway_tui.core.api.chat_models import StoredMessage
from gateway_tui.core.api.errors import GatewayError
from gateway_tui.core.chat_book import waiting_for_read
from gateway_tui.core.services.messages import sent_text
from gateway_tui.core.state import SentRecord
from gateway_tui.core.text.i18n import _
from gateway_tui.tui.widgets.conversation import index_of_message

if TYPE_CHECKING:
    from gateway_tui.tui.screens.messages import MessagesScreen

    _Base = MessagesScreen
else:
    _Base = object

# Own messages looked at to decide whether to poll: the newest ones are the ones in flight.
POLL_LOOKBACK = 200


def _from_sent(record: SentRecord, text: str | None) -> StoredMessage | None:
    """A message sent from this app, shaped like a stored one (for a gateway without store)."""
    key = record.result.key
    if key is None:
        return None
    body = record.body.get("listMessage") if isinstance(record.body, dict) else None
    content = {"listMessage": body} if isinstance(body, dict) and text is None else None
    return StoredMessage.read(
        {
            "key": key.to_json(),
            "pushName": "",
            "message": content or {"conversation": text or sent_text(record)},
            "messageTimestamp": int(record.sent_at.timestamp()),
        }
    )


class ConversationLoading(_Base):
    # --- loading ---------------------------------------------------------------------------------

    def action_refresh(self) -> None:
        self.forget_poll_votes()
        if not self.actions.chats.messages_of(self.instance, self.jid).loading:
            self.call(
                self.actions.chats.load_messages(self.instance, self.jid),
                what=_("Reading the conversation"),
                on_done=lambda _m: self._mark_read_once(),
                on_error=self._failed,
                group="messages",
            )
        self._read_statuses()

    def on_screen_resume(self) -> None:
        self.action_refresh()  # shown, or back from the composer or an edit: read it again

    def _older_page(self) -> int | None:
        value = self.actions.chats.messages_of(self.instance, self.jid).value
        return getattr(value, "older_page", None)

    def action_load_older(self) -> None:
        """The chat's next older page, when the gateway pages its store (2.x)."""
        if self.older_loading or self._older_page() is None:
            return
        self.older_error = None  # said in place; moving up (or o) asks again
        self._said_in_place(
            "older_loading",
            "older_error",
            self.actions.chats.load_older_messages(self.instance, self.jid),
            what=_("Reading older messages"),
        )
        self._draw_summary()

    def _said_in_place(self, busy: str, error: str, work: Any, *, what: str) -> None:
        """Run ``work`` with ``self.<busy>`` set meanwhile; its failure is kept in
        ``self.<error>`` and shown in the summary, not notified."""
        setattr(self, busy, True)

        def finished(failure: GatewayError | None) -> bool:
            setattr(self, busy, False)
            setattr(self, error, failure)
            self._draw_summary()
            return True

        self.call(
            work,
            what=what,
            on_done=lambda _result: finished(None),
            on_error=finished,
            group=busy,
        )

    def recover(self) -> None:
        self.action_refresh()  # quiet: the summary says a failure

    def data_error(self) -> GatewayError | None:
        return self.actions.chats.messages_of(self.instance, self.jid).error

    def live_instance(self) -> str | None:
        return self.instance

    def _failed(self, _error: GatewayError) -> bool:
        self._draw_summary()  # the loadable holds the error: the summary says it
        return True

    def _read_statuses(self) -> None:
        if self._polling:
            return
        self._said_in_place(  # no notification every few seconds
            "_polling",
            "status_error",
            self.actions.chats.load_statuses(self.instance, self.jid),
            what=_("Reading delivery statuses"),
        )

    def _poll(self) -> None:
        """Re-read statuses while an own message is short of READ (only when on screen, and
        not while live events bring them)."""
        if self.app.screen is not self or self.gateway_app.live_marks_for(self.instance):
            return  # the socket brings the delivery marks (messages.update)
        recent = self.all_messages[-POLL_LOOKBACK:]
        if waiting_for_read(recent, self.actions.chats.statuses_of(self.instance)):
            self._read_statuses()

    # --- the messages and names shown ----------------------------------------------------------

    def _merged(self) -> Sequence[StoredMessage]:
        """The store's messages (kept lazy: a chat may hold 100,000) plus any sent from here
        that the store does not hold (a gateway without store)."""
        loadable = self.actions.chats.messages_of(self.instance, self.jid)
        messages: Sequence[StoredMessage] = loadable.value if loadable.value is not None else []
        record = self.state.chats_of(self.instance).get(self.jid)
        extra = []
        for sent in self.actions.messages.sent_in_chat(self.instance, self.jid):
            key = sent.result.key
            if key is None or index_of_message(messages, key.id) >= 0:
                continue
            edited = record.texts.get(key.id) if record else None
            shown = _from_sent(sent, edited if edited != sent_text(sent) else None)
            if shown is not None:
                extra.append(shown)
        if not extra:
            return messages
        merged = [*messages, *extra]
        merged.sort(key=lambda m: m.timestamp or 0)
        return merged

    def _who(self, message: StoredMessage) -> tuple[str | None, str]:
        """A group member as known on this instance (core/identity.py): the message's own
        pushName, else a name learnt from contacts, members or their other messages (a live
        message may carry none); the number beside a LID."""
        identity = self.actions.people.identities_of(self.instance).resolve(
            message.sender, name=message.sender_name
        )
        return identity.name, identity.label()

    def _learn_names(self) -> None:
        """What tells group members' names: the chat book's contacts, the group's members,
        the pushNames of messages read (each learnt once)."""
        known = self.actions.people.identities_of(self.instance)
        book = self.state.chat_books.get(self.instance)
        if book is not None and book.value is not None and book.value.names is not self._names:
            self._names = book.value.names
            known.learn_contacts(self._names.items())
        members = self.state.participants_of(self.instance, self.jid).value
        if members and members is not self._members:
            self._members = members
            for member in members:
                known.learn_participant(member)
        messages = self.all_messages
        first = messages[0].id if messages else None
        if first != self._first_learnt:  # an older page joined in front: all again
            self._first_learnt, self._learnt = first, 0
        for message in messages[self._learnt :]:
            known.learn_message(message)
        self._learnt = len(messages)
