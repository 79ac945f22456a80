"""The store readers: both timestamp forms, every message kind, client-side order and statuses."""

from __future__ import annotations

import pytest

from gateway_tui.core.api.chat_models import (
    ChatMessages,
    Contact,
    StatusRow,
    StoredChat,
    StoredMessage,
    latest_statuses,
    messages_of_chat,
    parse_long,
    read_items,
)

ANA = "5511987650001@s.whatsapp.net"
GROUP = "120363025912345678@g.us"


def message(content, *, ts=1795261259, jid=ANA, from_me=False, mid="M1", **extra):
    return {
        "key": {"remoteJid": jid, "fromMe": from_me, "id": mid},
        "message": content,
        "messageTimestamp": ts,
        **extra,
    }


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (1795261259, 1795261259),
        ("1795261259", 1795261259),
        ({"low": 1795257105, "high": 0, "unsigned": True}, 1795257105),
        ({"low": -1, "high": 0, "unsigned": True}, 2**32 - 1),  # JS writes low signed
        ({"low": 5, "high": 1}, 5 + 2**32),
        (None, None),
        (True, None),
        ("soon", None),
        (float("nan"), None),
        ({"low": "x"}, None),
    ],
)
def test_parse_long_reads_numbers_text_and_protobuf_longs(value, expected):
    assert parse_long(value) == expected


@pytest.mark.parametrize(
    ("content", "kind", "text"),
    [
        ({"conversation": "Oi!\nTudo bem?"}, "conversation", "Oi! Tudo bem?"),
        ({"extendedTextMessage": {"text": "hello"}}, "extendedTextMessage", "hello"),
        ({"listMessage": {"title": "Horários"}}, "listMessage", "☰ Horários"),
        (
            {"listResponseMessage": {"singleSelectReply": {"selectedRowId": "r1"}}},
            "listResponseMessage",
            "↩ r1",
        ),
        ({"imageMessage": {"caption": "the receipt"}}, "imageMessage", "📷 Photo: the receipt"),
        ({"imageMessage": {}}, "imageMessage", "📷 Photo"),
        ({"videoMessage": {"seconds": 75}}, "videoMessage", "🎥 Video 1:15"),
        ({"audioMessage": {"ptt": True, "seconds": 7}}, "audioMessage", "🎤 Voice message 0:07"),
        ({"documentMessage": {"fileName": "nf.pdf"}}, "documentMessage", "📄 Document: nf.pdf"),
        ({"stickerMessage": {}}, "stickerMessage", "Sticker"),
        (
            {"locationMessage": {"degreesLatitude": -23.5, "degreesLongitude": -46.6}},
            "locationMessage",
            "📍 Location: -23.50000, -46.60000",
        ),
        ({"contactMessage": {"displayName": "Eva"}}, "contactMessage", "👤 Contact: Eva"),
        ({"reactionMessage": {"text": "👍"}}, "reactionMessage", "Reacted 👍"),
        ({"protocolMessage": {"type": "REVOKE"}}, "protocolMessage", "🚫 Message deleted"),
        (
            {
                "protocolMessage": {
                    "type": "MESSAGE_EDIT",
                    "editedMessage": {"conversation": "new"},
                }
            },
            "protocolMessage",
            "✎ Edited: new",
        ),
        (
            {"ephemeralMessage": {"message": {"conversation": "inside"}}},
            "conversation",
            "inside",
        ),
        ({"brandNewMessage": {"x": 1}}, "brandNewMessage", "[brandNewMessage]"),
        (
            {"messageContextInfo": {}, "conversation": "after context"},
            "conversation",
            "after context",
        ),
    ],
)
def test_every_kind_has_a_one_line_text(content, kind, text):
    read = StoredMessage.read(message(content))
    assert read is not None
    assert (read.kind, read.text) == (kind, text)


def test_a_message_without_content_keeps_its_stored_type():
    read = StoredMessage.read({**message(None), "messageType": "pollUpdateMessage"})
    assert read is not None and read.text == "[pollUpdateMessage]"


def test_sent_message_long_timestamp_empty_push_name_and_group_participant():
    sent = StoredMessage.read(
        message(
            {"extendedTextMessage": {"text": "Combinado"}},
            ts={"low": 1795423259, "high": 0, "unsigned": True},
            jid=GROUP,
            from_me=True,
            pushName="",
            contextInfo=None,
        )
    )
    member = StoredMessage.read(
        {
            "key": {"remoteJid": GROUP, "fromMe": False, "id": "7B3D", "participant": "5521@s"},
            "pushName": "Carla Dias",
            "participant": "5521@s",
            "message": {"conversation": "reunião"},
            "messageTimestamp": 1795351259,
        }
    )
    assert sent is not None and member is not None
    assert sent.timestamp == 1795423259 and sent.sender_name is None and sent.is_text
    assert sent.key.to_json() == {"remoteJid": GROUP, "fromMe": True, "id": "M1"}
    assert member.sender == "5521@s" and member.sender_name == "Carla Dias"


def test_a_list_reply_names_the_list_and_the_chosen_row():
    reply = StoredMessage.read(
        message(
            {
                "listResponseMessage": {
                    "title": "Manhã",
                    "singleSelectReply": {"selectedRowId": "sab-manha"},
                    "contextInfo": {"stanzaId": "BAE5F1A2B3C4D5E6"},
                }
            }
        )
    )
    assert reply is not None
    assert (reply.text, reply.selected_row_id, reply.quoted_id) == (
        "↩ Manhã",
        "sab-manha",
        "BAE5F1A2B3C4D5E6",
    )


def test_unreadable_items_are_skipped_and_counted():
    items = read_items(
        [message({"conversation": "ok"}), {"key": {"id": "no chat"}}, "text", 3, {"key": None}],
        StoredMessage.read,
    )
    assert [m.text for m in items] == ["ok"] and items.skipped == 4
    with pytest.raises(ValueError):
        read_items({"not": "a list"}, StoredMessage.read)


def test_chats_and_contacts_read_both_owner_forms_and_empty_names():
    chats = read_items(
        [
            {"id": ANA, "owner": "evo-a", "lastMsgTimestamp": 1795256689},
            {"id": GROUP, "owner": "5511912340000@s.whatsapp.net"},
        ],
        StoredChat.read,
    )
    assert [(c.id, c.last_timestamp, c.is_group) for c in chats] == [
        (ANA, 1795256689, False),
        (GROUP, None, True),
    ]
    contact = Contact.read({"id": ANA, "pushName": "  ", "profilePictureUrl": None})
    assert contact is not None and contact.name is None


def test_messages_are_filtered_and_sorted_on_the_client_whatever_the_server_order():
    raw = [
        message({"conversation": "third"}, ts={"low": 300, "high": 0}, mid="c"),
        message({"conversation": "other chat"}, ts=150, jid=GROUP, mid="x"),
        message({"conversation": "first"}, ts=100, mid="a"),
        message({"conversation": "second"}, ts="200", mid="b"),
    ]
    messages = read_items(raw, StoredMessage.read)
    assert [m.id for m in messages_of_chat(messages, ANA)] == ["a", "b", "c"]
    assert [m.id for m in messages_of_chat(messages, ANA, limit=2)] == ["b", "c"]
    assert messages_of_chat(messages, ANA, limit=0) == []
    assert [m.id for m in messages_of_chat(messages)] == ["a", "x", "b", "c"]


def test_latest_status_per_message_with_history_rows():
    rows = read_items(
        [
            {"id": "A", "status": "SERVER_ACK", "datetime": 1000},
            {"id": "A", "status": "READ", "datetime": 3000},
            {"id": "A", "status": "DELIVERY_ACK", "datetime": 2000},
            {"id": "B", "status": "DELIVERY_ACK", "datetime": 5000},
            {"id": "B", "status": "READ", "datetime": 5000},
            {"id": "C", "status": "SOMETHING_NEW", "datetime": {"low": 9, "high": 0}},
        ],
        StatusRow.read,
    )
    latest = latest_statuses(rows)
    assert {k: v.status for k, v in latest.items()} == {
        "A": "READ",
        "B": "READ",
        "C": "SOMETHING_NEW",
    }
    assert latest["C"].at_ms == 9 and latest["C"].rank == -1


def test_a_chats_messages_are_sorted_from_the_stored_times_and_read_when_looked_at():
    from gateway_tui.core.api.chat_models import ChatMessages

    raw = [
        message({"conversation": "third"}, ts={"low": 300, "high": 0}, mid="c"),
        message({"conversation": "other chat"}, ts=150, jid=GROUP, mid="x"),
        message({"conversation": "first"}, ts=100, mid="a"),
        {"key": {"id": "no chat"}},
        message({"conversation": "second"}, ts="200", mid="b"),
    ]
    chat = ChatMessages.of_chat(raw, ANA)
    assert len(chat) == 3 and chat.skipped == 1
    assert not chat._read  # nothing read yet
    assert chat[-1].text == "third" and list(chat._read) == [2]
    assert [m.id for m in chat] == ["a", "b", "c"]
    assert [m.id for m in chat[1:]] == ["b", "c"]
    assert chat.index_of("b") == 1 and chat.index_of("x") == -1
    assert [m.id for m in ChatMessages.of_chat(raw, ANA, limit=2)] == ["b", "c"]
    assert [m.id for m in ChatMessages.of_chat(raw, None)] == ["a", "x", "b", "c"]


def test_the_chat_list_reads_only_each_chats_newest_message():
    from gateway_tui.core.api.chat_models import newest_per_chat

    raw = [
        message({"conversation": "old"}, ts=100, mid="a"),
        message({"conversation": "new"}, ts={"low": 300, "high": 0}, mid="b"),
        message({"conversation": "group"}, ts=150, jid=GROUP, mid="g"),
        "not a message",
    ]
    newest = newest_per_chat(raw)
    assert sorted(m.id for m in newest) == ["b", "g"] and newest.skipped == 1


async def test_the_client_reads_odd_store_answers_without_failing_on_one_item():
    import httpx

    from gateway_tui.core.api import GatewayClient, InvalidResponse

    answers = {
        "/chat/findChats/a": b'[{"id": "1@s.whatsapp.net"}, {"owner": "no id"}, 7]',
        "/chat/findChats/b": b'{"not": "an array"}',
        "/chat/findChats/c": b"[{",
    }

    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=answers[request.url.path])

    async with GatewayClient("http://gw", "k", transport=httpx.MockTransport(answer)) as client:
        chats = await client.chats.find("a")
        assert [c.id for c in chats] == ["1@s.whatsapp.net"] and chats.skipped == 2
        for instance in ("b", "c"):
            with pytest.raises(InvalidResponse):
                await client.chats.find(instance)


def test_a_batch_of_live_items_is_one_copy_that_replaces_known_ids_and_keeps_time_order():
    def item(message_id: str, stamp: int, text: str) -> dict:
        key = {"remoteJid": "4915100000001@s.whatsapp.net", "fromMe": False, "id": message_id}
        return {"key": key, "messageTimestamp": stamp, "message": {"conversation": text}}

    first = ChatMessages([item("A", 10, "a"), item("B", 20, "b"), item("C", 30, "c")])
    assert first[0].text == "a"  # read: kept where nothing moved
    batch = [item("D", 40, "d"), item("B", 20, "b edited"), item("E", 15, "e"), item("D", 40, "d2")]
    after = first.with_items(batch)
    assert [m.id for m in after] == ["A", "E", "B", "C", "D"]
    assert [m.text for m in after] == ["a", "e", "b edited", "c", "d2"]
    assert after.index_of("D") == 4 and after.index_of("E") == 1
    assert [m.id for m in first] == ["A", "B", "C"]  # the old sequence is left as it was
