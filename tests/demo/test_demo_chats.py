"""The demo gateway's chat store behaves like the real 1.7.1 file store (gateway-behaviour-1.7.1-
more.md §1; tests/recorded/ checks the same against the recorded store reads).
"""

from __future__ import annotations

import httpx
import pytest

from gateway_tui.core.api import GatewayClient, ServerError
from gateway_tui.demo import chats as demo_chats

OPEN = "sales-eu"
CLOSED = "onboarding"
JONAS = "4915112340001@s.whatsapp.net"


@pytest.fixture
def http(demo_server):
    with httpx.Client(base_url=demo_server.url, headers={"apikey": demo_server.api_key}) as client:
        yield client


def messages(http, body=None):
    response = http.post(f"/chat/findMessages/{OPEN}", json=body if body is not None else {})
    return response.status_code, response.json()


# findMessages bodies a real 1.7.1 refuses, with its messages (the real suite checks the same
# table against the real server).
BAD_FIND_MESSAGES_BODIES = [
    ({"limit": "x"}, [["limit is not of a type(s) integer"]]),
    ({"where": "x"}, [["where is not of a type(s) object"]]),
    ({"where": {"key": {"id": ""}}}, [["The property cannot be empty"]]),
    (
        {"where": {"key": {"fromMe": "yes"}}},
        [
            [
                "where.key.fromMe is not of a type(s) boolean",
                "where.key.fromMe is not one of enum values: true,false",
            ]
        ],
    ),
]


def test_find_messages_ignores_the_chat_filter_and_honours_the_id(http):
    _status, everything = messages(http)
    _status, filtered = messages(http, {"where": {"key": {"remoteJid": JONAS}}})
    assert len(filtered) == len(everything) > 100  # where.key.remoteJid is ignored
    _status, one = messages(http, {"where": {"key": {"id": "3EB0C0FFEE0123456789"}}})
    assert [m["key"]["id"] for m in one] == ["3EB0C0FFEE0123456789"]
    _status, two = messages(http, {"limit": 2})
    assert len(two) == 2
    assert messages(http, {"limit": 0}) == (200, [])


@pytest.mark.parametrize(("body", "expected"), BAD_FIND_MESSAGES_BODIES)
def test_find_messages_validation_texts(http, body, expected):
    status, answer = messages(http, body)
    assert status == 400 and answer["response"]["message"] == expected


def test_a_sent_message_is_stored_as_the_server_stores_it(http, demo_server):
    body = {
        "number": "4915112340001",
        "listMessage": {
            "title": "Lunch",
            "description": "Pick",
            "buttonText": "Menu",
            "sections": [{"title": "A", "rows": [{"title": "Soup", "rowId": "soup"}]}],
        },
    }
    sent = http.post(f"/message/sendList/{OPEN}", json=body).json()
    _status, [stored] = messages(http, {"where": {"key": {"id": sent["key"]["id"]}}})
    assert stored["pushName"] == "" and stored["contextInfo"] == {}
    assert stored["messageTimestamp"] == {
        "low": int(sent["messageTimestamp"]),
        "high": 0,
        "unsigned": True,
    }
    # The store's own sort cannot place it (its time is an object): it is not first.
    _status, newest_first = messages(http)
    assert newest_first[0]["key"]["id"] != sent["key"]["id"]


async def test_statuses_advance_from_pending_to_read(demo_server, monkeypatch):
    monkeypatch.setattr(
        demo_chats,
        "STATUS_STEPS",
        ((0.0, "PENDING"), (0.2, "SERVER_ACK"), (0.4, "DELIVERY_ACK"), (0.6, "READ")),
    )
    instance = demo_server.state.instances[OPEN]
    message = instance.add_sent_message(JONAS, "3EB0FFFF0000AAAA1111", "Hi")
    seen = [demo_chats.status_of(message, message.sent_clock + t)[0] for t in (0, 0.3, 0.5, 9)]
    assert seen == ["PENDING", "SERVER_ACK", "DELIVERY_ACK", "READ"]
    async with GatewayClient(demo_server.url, demo_server.api_key) as client:
        [row] = await client.chats.statuses(OPEN, message_id=message.key["id"])
    assert row.remote_jid == JONAS and row.from_me and row.at_ms is not None


async def test_contacts_and_chats_read_like_the_real_ones(demo_server):
    async with GatewayClient(demo_server.url, demo_server.api_key) as client:
        chats = await client.chats.find(OPEN)
        [jonas] = await client.contacts.find(OPEN, "4915112340001")
        everyone = await client.contacts.find(OPEN)
    groups = [c for c in chats if c.is_group]
    assert groups and all(c.last_timestamp is None for c in groups)  # group rows carry no time
    assert jonas.name == "Jonas Weber"
    assert any(c.name is None for c in everyone)  # a contact that set no name: pushName ""


async def test_whatsapp_numbers(demo_server):
    async with GatewayClient(demo_server.url, demo_server.api_key) as client:
        found = await client.contacts.whatsapp_numbers(OPEN, ["4915112340001", "4915100000000"])
        with pytest.raises(ServerError) as caught:
            await client.contacts.whatsapp_numbers(CLOSED, ["4915112340001"])
    assert [(n.number, n.exists, n.name) for n in found] == [
        ("4915112340001", True, "Jonas Weber"),
        ("4915100000000", False, None),
    ]
    assert "onWhatsApp" in caught.value.messages[0]


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({"numbers": []}, [["numbers does not meet minimum length of 1"]]),
        ({"numbers": [5511]}, [['"numbers" must be an array of numeric strings']]),
        ({"numbers": ["1", "1"]}, [["numbers contains duplicate item"]]),
    ],
)
def test_whatsapp_numbers_validation_texts(http, body, expected):
    response = http.post(f"/chat/whatsappNumbers/{OPEN}", json=body)
    assert response.status_code == 400 and response.json()["response"]["message"] == expected


def test_the_benchmark_knobs():
    from gateway_tui.cli.parser import build_parser
    from gateway_tui.demo.chats import BIG_CHAT_JID
    from gateway_tui.demo.server import DemoServer

    args = build_parser().parse_args(["demo-server", "--chats", "40", "--big-chat", "500"])
    assert (args.chats, args.big_chat) == (40, 500)
    server = DemoServer(chats=40, big_chat=500)
    instance = server.state.instances[OPEN]
    # Its own 4 chats, 40 of history (one of them the group chat it already had), the big one.
    assert len(instance.chats) == 4 + 40 - 1 + 1
    assert len(instance.chats[BIG_CHAT_JID].messages) == 500
    assert server.state.instances[CLOSED].chats.get(BIG_CHAT_JID) is None  # open ones only
