"""The client's calls for the kinds beyond text, media and lists (``message_kinds.py``): voice
notes, polls, locations, contact cards, 2.4's buttons and carousels; and on chats: presence,
delete for everyone, mark unread, and 2.4's "played" and poll votes (getPollVote).

Two mixins of the client's resources: ``KindMessages`` of ``client.messages`` (sends) and
``KindChats`` of ``client.chats``. Each call is
checked as the real server checks it before anything is sent (``InvalidRequest``), and what a
gateway's version cannot do is refused with the reason and the version
(``capabilities.unsupported``: one place for version → capability).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from gateway_tui.core.api import message_kinds as kinds
from gateway_tui.core.api import validation
from gateway_tui.core.api.capabilities import unsupported
from gateway_tui.core.api.dialects import Dialect
from gateway_tui.core.api.errors import GatewayError, Problem
from gateway_tui.core.api.message_views import PollVotes, read_poll_votes
from gateway_tui.core.api.models import MessageKey, SentMessage
from gateway_tui.core.api.paths import require, seg_path
from gateway_tui.core.api.transport import json_object_or_none
from gateway_tui.core.text.i18n import _

_Kind = Any  # VoiceNote | Poll | Location | ContactCards | Buttons | Carousel


class _Calls:
    """What a resource of the client gives (``core/api/resources/base.py``)."""

    _client: Any  # the GatewayClient
    _model: Callable[..., Awaitable[Any]]
    _read: Callable[..., Awaitable[Any]]
    line: Callable[[], Awaitable[Dialect]]
    timeout: float

    async def _version(self) -> str | None:
        """The gateway's version, asked of GET / when nothing told it yet (None: unknown)."""
        client = self._client
        if client.server_version is None:
            try:
                await client.fetch_server_info(quiet=True)
            except GatewayError:
                return None
        return client.server_version


class KindMessages(_Calls):
    async def _send_kind(
        self,
        route: str,
        instance: str,
        number: str,
        kind: _Kind,
        *,
        delay: int | None = None,
        message_id: str | None = None,
        needs_24: str | None = None,
    ) -> SentMessage:
        path = seg_path(f"/message/{route}/", instance)
        problems = (
            validation.check_instance_name(instance)
            + validation.check_recipient(number)
            + kind.problems()
            + validation.check_delay(delay)
        )
        require(problems, "POST", path)
        if needs_24 is not None or message_id:
            version = await self._version()
            for feature in filter(None, (needs_24, "message_id" if message_id else None)):
                if why := unsupported(feature, version):
                    require([Problem("", why)], "POST", path)
        line = await self.line()
        body = line.kind_body(
            validation.normalise_number(number), kind, delay=delay, message_id=message_id
        )
        timeout = self.timeout + (delay or 0) / 1000
        return await self._model(SentMessage, "POST", path, body=body, call_timeout=timeout)

    async def send_voice_note(
        self, instance: str, number: str, note: kinds.VoiceNote, **kw: Any
    ) -> SentMessage:
        """A voice note (the gateway converts the file to ogg/opus and sends it as recorded)."""
        return await self._send_kind("sendWhatsAppAudio", instance, number, note, **kw)

    async def send_poll(self, instance: str, number: str, poll: kinds.Poll, **kw: Any):
        return await self._send_kind("sendPoll", instance, number, poll, **kw)

    async def send_location(self, instance: str, number: str, place: kinds.Location, **kw: Any):
        return await self._send_kind("sendLocation", instance, number, place, **kw)

    async def send_contacts(
        self, instance: str, number: str, cards: kinds.ContactCards, **kw: Any
    ) -> SentMessage:
        return await self._send_kind("sendContact", instance, number, cards, **kw)

    async def send_buttons(self, instance: str, number: str, message: kinds.Buttons, **kw: Any):
        """2.4 only: before it WhatsApp does not show them."""
        return await self._send_kind(
            "sendButtons", instance, number, message, needs_24="buttons", **kw
        )

    async def send_carousel(self, instance: str, number: str, message: kinds.Carousel, **kw: Any):
        return await self._send_kind(
            "sendCarousel", instance, number, message, needs_24="carousel", **kw
        )


class KindChats(_Calls):
    async def send_presence(
        self, instance: str, number: str, presence: str, delay: int = 0
    ) -> dict[str, Any] | None:
        """Show "typing…" / "recording…" (or available, paused) to ``number`` for ``delay``
        ms; the gateway holds the request for that long."""
        path = seg_path("/chat/sendPresence/", instance)
        problems = (
            validation.check_instance_name(instance)
            + validation.check_recipient(number)
            + kinds.check_presence(presence, delay)
        )
        require(problems, "POST", path)
        line = await self.line()
        body = line.presence_body(validation.normalise_number(number), presence, delay)
        timeout = self.timeout + delay / 1000
        return await self._read("POST", path, json_object_or_none, body=body, call_timeout=timeout)

    async def delete_for_everyone(self, instance: str, key: MessageKey) -> dict[str, Any] | None:
        """Delete one of this instance's own messages for everyone in the chat."""
        path = seg_path("/chat/deleteMessageForEveryone/", instance)
        problems = validation.check_instance_name(instance) + validation.check_message_key(key)
        if not key.from_me:
            problems.append(
                Problem("fromMe", _("only your own messages can be deleted for everyone"))
            )
        require(problems, "DELETE", path)
        return await self._read("DELETE", path, json_object_or_none, body=key.to_json())

    async def mark_unread(
        self, instance: str, key: MessageKey, timestamp: int | None = None
    ) -> dict[str, Any] | None:
        """Mark the chat of ``key`` (its last message) unread."""
        path = seg_path("/chat/markChatUnread/", instance)
        problems = validation.check_instance_name(instance) + validation.check_message_key(key)
        require(problems, "POST", path)
        last: dict[str, Any] = {"key": key.to_json()}
        if timestamp is not None:
            last["messageTimestamp"] = timestamp
        return await self._read("POST", path, json_object_or_none, body={"lastMessage": last})

    async def mark_played(self, instance: str, keys: list[MessageKey]) -> dict[str, Any] | None:
        """2.4: tell the sender their voice notes were played."""
        path = seg_path("/chat/markMessageAsPlayed/", instance)
        problems = validation.check_instance_name(instance)
        if not keys:
            problems.append(Problem("playedMessages", _("give at least one message")))
        for key in keys:
            problems += validation.check_message_key(key)
        require(problems, "POST", path)
        if why := unsupported("played", await self._version()):
            require([Problem("", why)], "POST", path)
        body = {"playedMessages": [key.to_json() for key in keys]}
        return await self._read("POST", path, json_object_or_none, body=body)

    async def get_poll_votes(self, instance: str, remote_jid: str, message_id: str) -> PollVotes:
        """2.4: a poll's votes, per option (the gateway decrypts the votes it stored)."""
        path = seg_path("/chat/getPollVote/", instance)
        problems = validation.check_instance_name(instance)
        if not remote_jid.strip():
            problems.append(Problem("remoteJid", _("give the chat the poll was sent in")))
        if not message_id.strip():
            problems.append(Problem("message.key.id", _("give the poll's message id")))
        require(problems, "POST", path)
        if why := unsupported("poll_votes", await self._version()):
            require([Problem("", why)], "POST", path)
        body = (await self.line()).poll_votes_body(remote_jid, message_id)
        return await self._read("POST", path, read_poll_votes, body=body)
