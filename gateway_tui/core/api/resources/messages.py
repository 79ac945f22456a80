"""Sending: list messages, texts, media, reactions; editing a sent message."""

from __future__ import annotations

from typing import Any

from gateway_tui.core.api import message_bodies as bodies
from gateway_tui.core.api import validation
from gateway_tui.core.api.errors import (
    Problem,
)
from gateway_tui.core.api.events import curl_command
from gateway_tui.core.api.message_bodies import MediaUpload, Quote
from gateway_tui.core.api.models import (
    MessageKey,
    SendListOptions,
    SendListRequest,
    SentMessage,
)
from gateway_tui.core.api.paths import require, seg_path
from gateway_tui.core.api.resources.base import Resource
from gateway_tui.core.api.resources.kinds import KindMessages
from gateway_tui.core.api.transport import (
    json_object_or_none,
)
from gateway_tui.core.text.i18n import _
from gateway_tui.core.text.i18n import number as count_text


class Messages(KindMessages, Resource):
    async def send_list(self, instance: str, request: SendListRequest) -> SentMessage:
        path = seg_path("/message/sendList/", instance)
        line = await self.line()
        check = validation.check_list_message(
            request.list_message,
            footer_required=line.footer_required,
            description_required=line.description_required,
        )
        problems = (
            validation.check_instance_name(instance)
            + validation.check_recipient(request.number)
            + check.errors
            + line.send_list_problems(request)
        )
        require(problems, "POST", path)
        # The server holds the request open for the whole delay before it answers.
        timeout = self.timeout + request.delay_ms / 1000
        return await self._model(
            SentMessage, "POST", path, body=line.send_list_body(request), call_timeout=timeout
        )

    def send_list_curl(self, instance: str, request: SendListRequest) -> str:
        """The curl command that would send ``request`` (the key read from the environment),
        in the body of the line known so far."""
        path = seg_path("/message/sendList/", instance)
        url = self._client._http.build_request("POST", path).url
        return curl_command("POST", str(url), self.dialect.send_list_body(request))

    async def send_text(
        self,
        instance: str,
        number: str,
        text: str,
        *,
        options: SendListOptions | None = None,
        quoted: Quote | None = None,
    ) -> SentMessage:
        """A plain text (a reply when ``quoted``); sent once, never retried."""
        path = seg_path("/message/sendText/", instance)
        problems = validation.check_instance_name(instance) + validation.check_recipient(number)
        if not text.strip():
            problems.append(Problem("text", _("the text cannot be empty")))
        require(problems, "POST", path)
        line = await self.line()
        body = line.send_text_body(validation.normalise_number(number), text, options, quoted)
        timeout = self.timeout + ((options.delay or 0) if options else 0) / 1000
        return await self._model(SentMessage, "POST", path, body=body, call_timeout=timeout)

    async def send_media(
        self,
        instance: str,
        number: str,
        upload: MediaUpload,
        *,
        options: SendListOptions | None = None,
        quoted: Quote | None = None,
    ) -> SentMessage:
        """A photo, video, document or audio file (base64 or a URL), with its caption."""
        path = seg_path("/message/sendMedia/", instance)
        problems = validation.check_instance_name(instance) + validation.check_recipient(number)
        if upload.mediatype not in bodies.MEDIA_TYPES:
            problems.append(Problem("mediatype", _("image, video, document or audio")))
        if not upload.media:
            problems.append(Problem("media", _("the file is empty")))
        else:
            limit = bodies.MEDIA_LIMITS.get(upload.mediatype, 0)
            size = len(upload.media) * 3 // 4  # base64: four characters per three bytes
            if limit and size > limit and not upload.media.startswith(("http://", "https://")):
                problems.append(
                    Problem(
                        "media",
                        _("larger than WhatsApp takes ({size} MB)").format(
                            size=count_text(limit // 2**20)
                        ),
                    )
                )
        require(problems, "POST", path)
        line = await self.line()
        body = line.send_media_body(validation.normalise_number(number), upload, options, quoted)
        # An upload takes its time: the server answers once WhatsApp has the file.
        timeout = self.timeout * 4 + ((options.delay or 0) if options else 0) / 1000
        return await self._model(SentMessage, "POST", path, body=body, call_timeout=timeout)

    async def send_reaction(self, instance: str, key: MessageKey, reaction: str) -> SentMessage:
        """React to a message with an emoji ("" takes the reaction away)."""
        path = seg_path("/message/sendReaction/", instance)
        problems = validation.check_instance_name(instance) + validation.check_message_key(key)
        require(problems, "POST", path)
        body = (await self.line()).send_reaction_body(key, reaction)
        return await self._model(SentMessage, "POST", path, body=body)

    async def update(
        self, instance: str, key: MessageKey, text: str, number: str | None = None
    ) -> dict[str, Any] | None:
        """Edit a sent message. ``number`` defaults to the chat of ``key``."""
        path = seg_path("/chat/updateMessage/", instance)
        line = await self.line()
        verb = line.verb("update_message")
        chat = validation.normalise_number(number or key.remote_jid)
        problems = validation.check_instance_name(instance) + validation.check_message_key(key)
        if not text.strip():
            problems.append(Problem("text", _("the new text cannot be empty")))
        if not chat:
            problems.append(Problem("number", _("the chat number is missing")))
        else:
            problems += validation.check_recipient(chat)
        require(problems, verb, path)
        # Declared an integer by the interface text; a real server requires a string.
        body = {"number": line.update_message_number(chat), "text": text, "key": key.to_json()}
        return await self._read(verb, path, json_object_or_none, body=body)
