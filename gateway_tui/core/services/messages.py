"""List messages and chats: send, archive / unarchive, edit a sent message, business profiles."""

from __future__ import annotations

from collections.abc import Iterable

from gateway_tui.core.api.message_bodies import MediaFile, MediaUpload, Quote
from gateway_tui.core.api.models import (
    BusinessProfile,
    MessageKey,
    SendListRequest,
    SentMessage,
)
from gateway_tui.core.api.validation import JID_SUFFIXES, normalise_number
from gateway_tui.core.services.base import ActionsBase
from gateway_tui.core.state import ChatRecord, Loadable, SentRecord, Topic

PERSON_SUFFIX = "@s.whatsapp.net"


def chat_jid(recipient: str) -> str:
    """The chat a recipient as typed ends up in: digits get the person domain; a JID stays."""
    value = normalise_number(recipient)
    return value if value.endswith(JID_SUFFIXES) else value + PERSON_SUFFIX


def record_jid(record: SentRecord) -> str:
    """The chat of a sent message: what the gateway answered, else the recipient as sent."""
    if record.result.key is not None and record.result.key.remote_jid:
        return record.result.key.remote_jid
    return chat_jid(record.recipient)


def sent_text(record: SentRecord) -> str:
    """The text a list message shows in a chat list: its title (what the gateway stores)."""
    content = record.result.message.list_message
    if content is not None and content.title:
        return content.title
    text_message = record.body.get("textMessage") if isinstance(record.body, dict) else None
    if isinstance(text_message, dict) and isinstance(text_message.get("text"), str):
        return text_message["text"]
    list_message = record.body.get("listMessage") if isinstance(record.body, dict) else None
    title = list_message.get("title") if isinstance(list_message, dict) else None
    return title if isinstance(title, str) else ""


def recipient_of(jid: str) -> str:
    """What a send to chat ``jid`` names: a group or an ``@lid`` by its JID, a person by the
    number (its digits would name another person: services/people.send_jid chooses first)."""
    return jid if jid.endswith(("@g.us", "@lid")) else jid.split("@", 1)[0]


def profile_key(instance: str, number: str) -> tuple[str, str]:
    """Where a fetched profile lives in ``AppState.profiles``."""
    return instance, normalise_number(number)


class MessageActions(ActionsBase):
    # --- sending ---------------------------------------------------------------------------

    def send_list_curl(self, instance: str, request: SendListRequest) -> str:
        """The curl command that would send ``request`` (nothing is sent)."""
        return self.client.messages.send_list_curl(instance, request)

    async def send_list(self, instance: str, request: SendListRequest) -> SentMessage:
        """Send once (never retried); record the message and its chat in the state. An
        ``@lid`` recipient goes to the JID that works on the gateway's version (its number
        before 2.4.0-rc2; refused, nothing sent, when the number is not known)."""
        if request.number.lower().endswith("@lid"):
            path = f"/message/sendList/{instance}"
            target = self.actions.people.send_jid(instance, request.number, path)
            if target != request.number:
                sent = request.model_copy(update={"number": recipient_of(target)})
                result = await self.client.messages.send_list(instance, sent)
                self._record_list(instance, request, result)
                return result
        result = await self.client.messages.send_list(instance, request)
        self._record_list(instance, request, result)
        return result

    def _record_list(self, instance: str, request: SendListRequest, result: SentMessage) -> None:
        record = SentRecord(
            instance=instance,
            recipient=request.number,
            result=result,
            body=request.to_json(),
            sent_at=self.state.now(),
        )
        self._add_sent(record)
        self.state.notify(Topic.SENT)
        self.state.notify(Topic.CHATS)

    def restore_sent(
        self,
        instance: str,
        records: Iterable[SentRecord],
        *,
        texts: dict[str, str] | None = None,
        archived: dict[str, bool] | None = None,
    ) -> int:
        """Put messages sent in earlier runs (the stored history) back in the state.

        Messages already in the state are left alone: what this run did is newer. ``texts`` are
        edited texts by message id; ``archived`` the last known flag of chats by JID, applied to
        chats this call brings back. Returns how many messages were added.
        """
        known = {r.result.key.id for r in self.state.sent.get(instance, ()) if r.result.key}
        chats = self.state.chats_of(instance)
        existing_chats = set(chats)
        added = 0
        for record in sorted(records, key=lambda r: r.sent_at):
            message_id = record.result.key.id if record.result.key else None
            if message_id is not None and message_id in known:
                continue
            if message_id is not None:
                known.add(message_id)
            self._add_sent(record, text=(texts or {}).get(message_id or ""), notify=False)
            added += 1
        for jid, flag in (archived or {}).items():
            if jid in chats and jid not in existing_chats:
                chats[jid].archived = flag
        if added:
            self.state.sent.setdefault(instance, []).sort(key=lambda r: r.sent_at)
            self.state.notify(Topic.SENT)
            self.state.notify(Topic.CHATS)
        return added

    def _add_sent(
        self, record: SentRecord, *, text: str | None = None, notify: bool = True
    ) -> None:
        self.state.sent.setdefault(record.instance, []).append(record)
        jid = record_jid(record)
        chat = self.state.chats_of(record.instance).setdefault(jid, ChatRecord(jid))
        shown = text if text is not None else sent_text(record)
        key = record.result.key
        if key is not None:
            chat.texts[key.id] = shown
            if text is not None:  # the stored history's texts are edits
                chat.edited.add(key.id)
        if chat.last_at is None or record.sent_at >= chat.last_at:
            if key is not None:
                chat.last_key = key
            chat.last_text = shown
            chat.last_at = record.sent_at
            chat.last_status = record.result.status

    def sent_in_chat(self, instance: str, jid: str) -> list[SentRecord]:
        """Messages this app sent to one chat (with keys), newest first."""
        return [
            record
            for record in reversed(self.state.sent.get(instance, []))
            if record.result.key is not None and record_jid(record) == jid
        ]

    # --- the conversation: text, reactions, read receipts, media ----------------------------

    async def send_text(
        self, instance: str, jid: str, text: str, quoted: Quote | None = None
    ) -> SentMessage:
        """Send once (never retried); the chat's messages are read again to show it."""
        target = self.actions.people.send_jid(instance, jid, f"/message/sendText/{instance}")
        result = await self.client.messages.send_text(
            instance, recipient_of(target), text, quoted=quoted
        )
        self._after_send(instance, jid, result, {"textMessage": {"text": text}})
        return result

    async def send_media(self, instance: str, jid: str, upload: MediaUpload) -> SentMessage:
        target = self.actions.people.send_jid(instance, jid, f"/message/sendMedia/{instance}")
        result = await self.client.messages.send_media(instance, recipient_of(target), upload)
        self._after_send(instance, jid, result, {"mediaMessage": {"mediatype": upload.mediatype}})
        return result

    async def send_reaction(self, instance: str, key: MessageKey, emoji: str) -> SentMessage:
        result = await self.client.messages.send_reaction(instance, key, emoji)
        self.state.notify(Topic.MESSAGES)
        return result

    async def mark_read(self, instance: str, keys: list[MessageKey]) -> dict | None:
        return await self.client.chats.mark_read(instance, keys)

    async def media_of(self, instance: str, message_id: str) -> MediaFile:
        return await self.client.chats.media_of(instance, message_id)

    def _after_send(self, instance: str, jid: str, result: SentMessage, body: dict) -> None:
        record = SentRecord(
            instance=instance, recipient=jid, result=result, body=body, sent_at=self.state.now()
        )
        self._add_sent(record)
        self.state.notify(Topic.SENT)
        self.state.notify(Topic.CHATS)

    # --- chats -----------------------------------------------------------------------------

    async def edit_message(
        self, instance: str, key: MessageKey, text: str, *, seen: bool = True
    ) -> dict | None:
        """Edit a sent message (updateMessage); its new text goes in the state. An edit the
        customer will never see (``seen`` False: past WhatsApp's 15 minutes, though the
        gateway accepts the call) leaves the state as it was: nothing shows "edited"."""
        answer = await self.client.messages.update(instance, key, text)
        if not seen:
            return answer
        chat = self.state.chats_of(instance).setdefault(key.remote_jid, ChatRecord(key.remote_jid))
        chat.texts[key.id] = text
        chat.edited.add(key.id)
        if chat.last_key is None or chat.last_key.id == key.id:
            chat.last_key = key
            chat.last_text = text
            chat.last_at = chat.last_at or self.state.now()
        self.state.notify(Topic.CHATS)
        return answer

    # --- profiles --------------------------------------------------------------------------

    def profile_of(self, instance: str, number: str) -> Loadable[BusinessProfile]:
        return self.state.profiles.setdefault(profile_key(instance, number), Loadable())

    async def fetch_profile(self, instance: str, number: str) -> BusinessProfile:
        """Read a profile; a number not on WhatsApp is in the error's ``not_on_whatsapp``."""
        loadable = self.profile_of(instance, number)
        return await self._load(
            loadable, Topic.PROFILES, self.client.contacts.fetch_profile(instance, number)
        )
