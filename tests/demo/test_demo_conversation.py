"""The conversation's calls on the demo, through the client: text, a quoted reply, a reaction,
read receipts, a file sent and media saved. The real servers' answers to the same requests
are checked in tests/recorded (test_recorded_cases.py: the client sends them as recorded;
test_demo_agrees.py: the demo refuses them as a real 1.7.1 does)."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest

from gateway_tui.core.api import GatewayClient, MessageKey
from gateway_tui.core.api.errors import InvalidRequest
from gateway_tui.core.api.message_bodies import MediaUpload, Quote
from gateway_tui.demo import chats as demo_chats

OPEN = "sales-eu"
JONAS = "4915112340001"
JONAS_JID = f"{JONAS}@s.whatsapp.net"
JONAS_LAST_ID = "3EB0C0FFEE0123456789"

# The 1.7.1 success answer of sendText (gateway-behaviour-1.7.1-more.md §5): the same keys.
RECORDED_SENT_TEXT_KEYS = {"key", "message", "messageTimestamp", "status"}


def stored(server, message_id: str):
    return server.state.instances[OPEN].chats[JONAS_JID].find(message_id)


async def test_text_and_a_quoted_reply_are_stored_as_a_real_server_stores_them(demo_server):
    async with GatewayClient(demo_server.url, demo_server.api_key) as client:
        seen: list = []
        client.subscribe(seen.append)
        sent = await client.messages.send_text(OPEN, JONAS, "On its way")
        assert sent.key.remote_jid == JONAS_JID and sent.key.from_me
        assert stored(demo_server, sent.key.id).text == "On its way"
        body = json.loads(seen[-1].response_body)
        assert set(body) == RECORDED_SENT_TEXT_KEYS
        assert body["message"] == {"extendedTextMessage": {"text": "On its way"}}
        assert seen[-1].request_body == {"number": JONAS, "textMessage": {"text": "On its way"}}

        quote = Quote(MessageKey(remoteJid=JONAS_JID, fromMe=True, id=JONAS_LAST_ID), "Tracking")
        reply = await client.messages.send_text(OPEN, JONAS, "That one", quoted=quote)
        request = seen[-1].request_body
        assert request["options"]["quoted"]["key"]["id"] == JONAS_LAST_ID
        context = stored(demo_server, reply.key.id).content["extendedTextMessage"]["contextInfo"]
        assert context["stanzaId"] == JONAS_LAST_ID
        assert "Tracking: DHL" in context["quotedMessage"]["conversation"]


async def test_a_reaction_and_read_receipts(demo_server):
    async with GatewayClient(demo_server.url, demo_server.api_key) as client:
        key = MessageKey(remoteJid=JONAS_JID, fromMe=False, id="3EB0C0FFEE0000000001")
        answer = await client.messages.send_reaction(OPEN, key, "👍")
        reaction = stored(demo_server, answer.key.id).content["reactionMessage"]
        assert reaction == {"key": key.to_json(), "text": "👍"}
        result = await client.chats.mark_read(OPEN, [key])
        assert result == {"message": "Read messages", "read": "success"}
        assert demo_server.state.read_receipts == [key.id]


async def test_a_sent_file_comes_back_byte_identical(demo_server, tmp_path: Path):
    content = bytes(range(256)) * 40
    async with GatewayClient(demo_server.url, demo_server.api_key) as client:
        upload = MediaUpload(
            "document", base64.b64encode(content).decode(), "report.bin", "the report"
        )
        sent = await client.messages.send_media(OPEN, JONAS, upload)
        media = await client.chats.media_of(OPEN, sent.key.id)
        assert media.content == content and media.file_name == "report.bin"


async def test_history_media_is_served_as_the_demo_holds_it(demo_server):
    instance = demo_server.state.instances[OPEN]
    message = next(
        m for chat in instance.chats.values() for m in chat.messages if demo_chats.media_kind(m)
    )
    async with GatewayClient(demo_server.url, demo_server.api_key) as client:
        media = await client.chats.media_of(OPEN, message.key["id"])
    assert media.content == demo_chats.media_bytes(message)


async def test_too_big_a_file_is_refused_before_sending(demo_server):
    async with GatewayClient(demo_server.url, demo_server.api_key) as client:
        seen: list = []
        client.subscribe(seen.append)
        big = "A" * (22 * 1024 * 1024)  # 16.5 MB once decoded: over the 16 MB for a photo
        with pytest.raises(InvalidRequest) as refused:
            await client.messages.send_media(OPEN, JONAS, MediaUpload("image", big))
        assert "16 MB" in str(refused.value.messages)
        assert seen == []  # nothing reached the gateway
