"""Sending the kinds beyond text, media and lists (voice notes, polls, locations, contact
cards; 2.4's buttons and carousels), deleting for everyone, marking a chat unread or a voice
note played, and presence: ``actions.kinds``."""

from __future__ import annotations

from typing import Any

from gateway_tui.core.api import message_kinds as kinds
from gateway_tui.core.api.message_views import PollVotes
from gateway_tui.core.api.models import MessageKey, SentMessage
from gateway_tui.core.services.base import ActionsBase
from gateway_tui.core.services.messages import recipient_of
from gateway_tui.core.state import Topic
from gateway_tui.core.text.i18n import _

# What the sent history shows of each kind (the chats list's last line).
_SHOWN = {
    "send_voice_note": lambda kind: _("🎤 Voice message"),
    "send_poll": lambda kind: f"📊 {kind.name}",
    "send_location": lambda kind: f"📍 {kind.name}" if kind.name else _("📍 Location"),
    "send_contacts": lambda kind: (
        f"👤 {kind.cards[0].full_name}"
        + (f" +{len(kind.cards) - 1}" if len(kind.cards) > 1 else "")
    ),
    "send_buttons": lambda kind: f"▣ {kind.title}",
    "send_carousel": lambda kind: f"▤ {kind.body}",
}
SEND_METHODS = tuple(_SHOWN)


class KindActions(ActionsBase):
    async def send(self, method: str, instance: str, jid: str, kind: Any) -> SentMessage:
        """Send ``kind`` with the client's ``method`` (one of SEND_METHODS) to chat ``jid``;
        sent once, never retried."""
        if method not in _SHOWN:
            raise ValueError(f"not a send of a kind: {method}")
        # An @lid goes to its number before 2.4.0-rc2 (core/identity.py), as texts and lists do.
        path = f"/message/{method}/{instance}"
        target = self.actions.people.send_jid(instance, jid, path)
        result = await getattr(self.client.messages, method)(instance, recipient_of(target), kind)
        shown = {"textMessage": {"text": _SHOWN[method](kind)}}
        self.actions.messages._after_send(instance, jid, result, shown)
        return result

    async def delete_for_everyone(self, instance: str, key: MessageKey) -> dict | None:
        answer = await self.client.chats.delete_for_everyone(instance, key)
        self.state.notify(Topic.MESSAGES)
        return answer

    async def mark_unread(
        self, instance: str, key: MessageKey, timestamp: int | None = None
    ) -> dict | None:
        answer = await self.client.chats.mark_unread(instance, key, timestamp)
        self.state.notify(Topic.CHATS)
        return answer

    async def mark_played(self, instance: str, keys: list[MessageKey]) -> dict | None:
        return await self.client.chats.mark_played(instance, keys)

    async def version(self) -> str | None:
        """The gateway's version, asked of GET / (quietly) when nothing told it yet; None when
        the gateway does not say it (what needs 2.4 is then refused, saying the version is
        unknown). A failed read raises: the caller says it (it was swallowed)."""
        if self.client.server_version is None:
            await self.client.fetch_server_info(quiet=True)
        return self.client.server_version

    async def poll_votes(self, instance: str, jid: str, message_id: str) -> PollVotes:
        """2.4: the votes of the poll ``message_id`` in chat ``jid``."""
        return await self.client.chats.get_poll_votes(instance, jid, message_id)

    async def send_presence(
        self, instance: str, jid: str, presence: str, delay: int = kinds.PRESENCE_DELAY_MS
    ) -> dict | None:
        return await self.client.chats.send_presence(instance, recipient_of(jid), presence, delay)
