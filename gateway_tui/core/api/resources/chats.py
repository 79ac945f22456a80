"""The chat store (chats, messages, delivery statuses) and what is done to a chat: archive,
read receipts, a media message's file.

The file store of a 1.7.1 gateway ignores filters and has no paging: both are done here."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TypeVar

import httpx
from pydantic_core import from_json

from gateway_tui.core.api import message_bodies as bodies
from gateway_tui.core.api import validation
from gateway_tui.core.api.chat_models import (
    ChatMessages,
    StatusRow,
    StoredChat,
    StoredMessage,
    StoreList,
    messages_of_chat,
    newest_per_chat,
    read_items,
)
from gateway_tui.core.api.errors import (
    Problem,
)
from gateway_tui.core.api.message_bodies import MediaFile
from gateway_tui.core.api.models import (
    ArchiveResult,
    MessageKey,
)
from gateway_tui.core.api.paths import instance_path, require, seg_path
from gateway_tui.core.api.resources.base import Resource
from gateway_tui.core.api.resources.kinds import KindChats
from gateway_tui.core.api.transport import (
    built,
    json_object_or_none,
    parse_answer,
    store_parser,
)
from gateway_tui.core.text.i18n import _

_T = TypeVar("_T")
# Messages per findMessages page on 2.x (its default is 50: a long chat would take thousands).
MESSAGES_PAGE = 1000


class Chats(KindChats, Resource):
    async def find(self, instance: str) -> StoreList[StoredChat]:
        """Every stored chat (``[]`` when the server keeps no store)."""
        line = await self.line()
        verb = line.verb("find_chats")
        path = instance_path("/chat/findChats/", instance, verb)
        return await self._call(
            verb, path, store_parser(verb, path, line.read_chat), body=line.find_chats_body()
        )

    async def find_messages(
        self,
        instance: str,
        *,
        remote_jid: str | None = None,
        message_id: str | None = None,
        limit: int | None = None,
    ) -> StoreList[StoredMessage]:
        """Stored messages, oldest first: of one chat, or the one with ``message_id``; the last
        ``limit``. No limit is sent: the file store applies it before its (broken) sort."""
        path = instance_path("/chat/findMessages/", instance, "POST")
        key: dict[str, str] = {}
        if message_id:
            key["id"] = message_id
        if remote_jid:
            key["remoteJid"] = remote_jid
        body = {"where": {"key": key}} if key else {}
        found = await self._store_messages(path, body, StoredMessage.read)
        chosen = [m for m in found if m.id == message_id] if message_id else found
        result: StoreList[StoredMessage] = StoreList(
            messages_of_chat(chosen, remote_jid, limit=limit)
        )
        result.skipped = found.skipped
        return result

    async def chat_messages(
        self, instance: str, jid: str, *, limit: int | None = None
    ) -> ChatMessages:
        """One chat's messages, oldest first, read lazily (``ChatMessages``): for long chats."""
        path = instance_path("/chat/findMessages/", instance, "POST")
        body = {"where": {"key": {"remoteJid": jid}}}
        return await self._messages(
            path, body, lambda items: ChatMessages.of_chat(items, jid, limit), limit=limit
        )

    async def chat_page(self, instance: str, jid: str, page: int = 1) -> ChatMessages:
        """One page of a chat's messages, oldest first, for a conversation read as it scrolls.

        2.x pages newest first: page 1 holds the newest ``MESSAGES_PAGE``; the answer's
        ``older_page`` is the next page to ask for (None when there is none) and ``total`` the
        chat's messages on the gateway. A line without pages (1.7.1) answers the whole chat,
        with no older page.
        """
        line = await self.line()
        if not line.paged_messages:
            return await self.chat_messages(instance, jid)
        path = instance_path("/chat/findMessages/", instance, "POST")
        body = {"where": {"key": {"remoteJid": jid}}, "page": page, "offset": MESSAGES_PAGE}
        records, pages, total = await self._read(
            "POST",
            path,
            lambda content: line.messages_page(from_json(content, cache_strings="all")),
            body=body,
        )
        found = built(lambda items: ChatMessages.of_chat(items, jid), records, path)
        found.older_page = page + 1 if page < pages and records else None
        found.total = total
        return found

    async def last_messages(self, instance: str) -> StoreList[StoredMessage]:
        """The newest stored message of each chat (all are read: the store cannot say)."""
        path = instance_path("/chat/findMessages/", instance, "POST")
        return await self._messages(path, {}, newest_per_chat)

    async def message_json(self, instance: str, message_id: str) -> dict[str, Any] | None:
        """The message with ``message_id`` exactly as the store holds it (None: not stored)."""
        path = instance_path("/chat/findMessages/", instance, "POST")
        body = {"where": {"key": {"id": message_id}}}

        def pick(items: Any) -> dict[str, Any] | None:
            if not isinstance(items, list):
                raise ValueError(
                    _("expected an array, got {kind}").format(kind=type(items).__name__)
                )
            return next(
                (
                    item
                    for item in items
                    if isinstance(item, dict)
                    and isinstance(item.get("key"), dict)
                    and item["key"].get("id") == message_id
                ),
                None,
            )

        return await self._messages(path, body, pick, parse=json.loads)

    async def statuses(
        self, instance: str, *, message_id: str | None = None, remote_jid: str | None = None
    ) -> StoreList[StatusRow]:
        """Delivery updates; ``remote_jid`` is applied here only (the store ignores it, and a
        server applying it would drop rows written without it)."""
        path = instance_path("/chat/findStatusMessage/", instance, "POST")
        body = {"where": {"id": message_id}} if message_id else {}
        line = await self.line()
        found = await self._call(
            "POST", path, store_parser("POST", path, line.read_status_row), body=body
        )
        if message_id or remote_jid:
            found[:] = [
                row
                for row in found
                if (not message_id or row.message_id == message_id)
                and (not remote_jid or row.remote_jid in (None, remote_jid))
            ]
        return found

    async def _store_messages(
        self, path: str, body: dict[str, Any], reader: Callable[[dict[str, Any]], _T | None]
    ) -> StoreList[_T]:
        return await self._messages(path, body, lambda items: read_items(items, reader))

    async def _messages(
        self,
        path: str,
        body: dict[str, Any],
        build: Callable[[Any], _T],
        *,
        limit: int | None = None,
        parse: Callable[[bytes], Any] | None = None,
    ) -> _T:
        """findMessages, its items handed to ``build`` (in the answer's JSON form).

        1.7.1 answers one array. 2.x answers pages, newest first: they are fetched in turn
        until the last, or until ``limit`` messages are in.
        """
        line = await self.line()
        load = parse or (lambda content: from_json(content, cache_strings="all"))
        if not line.paged_messages:
            return await self._read("POST", path, lambda content: build(load(content)), body=body)
        items: list[Any] = []
        page = 1
        while True:
            paged = {**body, "page": page, "offset": MESSAGES_PAGE}
            records, pages, _total = await self._read(
                "POST", path, lambda content: line.messages_page(load(content)), body=paged
            )
            items.extend(records)
            if page >= pages or not records or (limit is not None and len(items) >= limit):
                break
            page += 1
        return built(build, items, path)

    async def archive(self, instance: str, key: MessageKey, archive: bool) -> ArchiveResult:
        """Archive or unarchive the chat of ``key``. A real server always says archived=true."""
        path = seg_path("/chat/archiveChat/", instance)
        verb = (await self.line()).verb("archive_chat")
        problems = validation.check_instance_name(instance) + validation.check_message_key(key)
        require(problems, verb, path)
        # Both lines take this form; 2.3.6's {"chat": jid} form always fails (a Prisma error).
        body = {"lastMessage": {"key": key.to_json()}, "archive": archive}
        return await self._model(ArchiveResult, verb, path, body=body)

    async def mark_read(self, instance: str, keys: list[MessageKey]) -> dict[str, Any] | None:
        """Send read receipts (the contacts see them: the app asks only when told to)."""
        path = seg_path("/chat/markMessageAsRead/", instance)
        problems = validation.check_instance_name(instance)
        if not keys:
            problems.append(Problem("read_messages", _("give at least one message")))
        for key in keys:
            problems += validation.check_message_key(key)
        line = await self.line()
        verb = line.verb("mark_read")
        require(problems, verb, path)

        def parse(response: httpx.Response) -> dict[str, Any] | None:
            return parse_answer(response, verb, path, json_object_or_none)

        return await self._call(verb, path, parse, body=line.mark_read_body(keys))

    async def media_of(self, instance: str, message_id: str) -> MediaFile:
        """A media message's file (getBase64FromMediaMessage), decoded."""
        path = seg_path("/chat/getBase64FromMediaMessage/", instance)
        problems = validation.check_instance_name(instance)
        if not message_id.strip():
            problems.append(Problem("id", _("the message id is missing")))
        require(problems, "POST", path)

        def read(content: bytes) -> MediaFile:
            media = bodies.MediaFile.read(from_json(content))
            if media is None:
                raise ValueError(_("the answer holds no base64 content"))
            return media

        def parse(response: httpx.Response) -> MediaFile:
            return parse_answer(response, "POST", path, read)

        body = bodies.media_base64_body(message_id)
        return await self._call("POST", path, parse, body=body, call_timeout=self.timeout * 4)
