"""More kinds of message on the demo: the recorded answers of real 1.7.1, 2.3.6 and 2.3.7
servers, and on an open instance what each send stores (as the conversation reads it back);
2.4's buttons rules, carousel, played receipts and caller-chosen messageId."""

from __future__ import annotations

import base64
from collections.abc import Iterator

import pytest

from gateway_tui.demo.session import extras
from tests.demo.recorded_replay import Gateway, answer, case_ids, gateway
from tests.support import RECORDINGS, wav_base64

pytestmark = pytest.mark.skipif(
    not (RECORDINGS / "v2.3.7").is_dir(), reason=f"no recordings at {RECORDINGS}"
)

_NAMES = ("Audio", "sendPoll", "sendLocation", "sendContact", "deleteMessage", "sendPresence")
_NAMES += ("markChatUnread",)
RECORDED = [
    *case_ids("v1.7.1-more", *_NAMES),
    *case_ids("v2.3.6-more", *_NAMES),
    *case_ids("v2.3.7", *_NAMES),
    *case_ids("v2.3.7-more", *_NAMES),
]


def test_every_recorded_case_of_these_kinds_is_here() -> None:
    # v2.3.7 911-912, 928-940, 952, 957-962
    assert len([c for c in RECORDED if c.startswith("v2.3.7/")]) == 22
    assert len(RECORDED) >= 40


@pytest.mark.parametrize("case_id", RECORDED)
def test_the_demo_answers_as_the_real_server(case_id: str) -> None:
    demo, real = answer(case_id)
    assert demo == real


@pytest.fixture(params=["1.7.1", "2.3.7"])
def gw(request: pytest.FixtureRequest) -> Iterator[Gateway]:
    with gateway(request.param) as gw:
        yield gw


JONAS = "4915112340001"
JONAS_JID = JONAS + "@s.whatsapp.net"


def _send(gw: Gateway, route: str, flat: dict, nested: str | None = None) -> dict:
    """Send with the line's body: 2.x flat, 1.7.1 nested under ``nested``."""
    if gw.v2 or nested is None:
        body = {"number": JONAS, **flat}
    else:
        inner = flat.get("contact", flat) if nested == "contactMessage" else flat
        body = {"number": JONAS, "options": {"delay": 0}, nested: inner}
    response = gw.call("POST", f"/message/{route}/sales-eu", body)
    assert response.status_code == 201, response.text
    return response.json()


def _stored(gw: Gateway, message_id: str) -> dict:
    (found,) = [m for m in gw.messages(remote_jid=JONAS_JID) if m["key"]["id"] == message_id]
    return found


def test_a_poll_is_stored_with_its_options(gw: Gateway) -> None:
    flat = {"name": "Lunch?", "selectableCount": 1, "values": ["Yes", "No", "Later"]}
    sent = _send(gw, "sendPoll", flat, "pollMessage")
    message = _stored(gw, sent["key"]["id"])["message"]
    kind = "pollCreationMessageV3" if gw.v2 else "pollCreationMessage"
    assert message[kind]["name"] == "Lunch?"
    assert [o["optionName"] for o in message[kind]["options"]] == ["Yes", "No", "Later"]
    assert message[kind]["selectableOptionsCount"] == 1


def test_a_poll_of_several_choices_is_a_poll_creation_message(gw: Gateway) -> None:
    flat = {"name": "Which days?", "selectableCount": 3, "values": ["Mo", "Tu", "We"]}
    sent = _send(gw, "sendPoll", flat, "pollMessage")
    assert "pollCreationMessage" in _stored(gw, sent["key"]["id"])["message"]


def test_a_poll_of_eleven_options_is_refused_as_the_schema_says() -> None:
    with gateway("2.3.7") as gw:
        body = {"number": JONAS, "name": "x", "selectableCount": 1}
        response = gw.call(
            "POST", "/message/sendPoll/sales-eu", body | {"values": [str(i) for i in range(11)]}
        )
        assert response.json()["response"]["message"] == [
            ["values does not meet maximum length of 10"]
        ]


def test_a_location_is_stored(gw: Gateway) -> None:
    flat = {
        "latitude": -23.5617,
        "longitude": -46.6559,
        "name": "Office",
        "address": "Av. Paulista",
    }
    sent = _send(gw, "sendLocation", flat, "locationMessage")
    location = _stored(gw, sent["key"]["id"])["message"]["locationMessage"]
    assert location == {
        "degreesLatitude": -23.5617,
        "degreesLongitude": -46.6559,
        "name": "Office",
        "address": "Av. Paulista",
    }


def test_one_contact_card_and_several(gw: Gateway) -> None:
    bob = {"fullName": "Bob Example", "wuid": "5511977776666", "phoneNumber": "+55 11 97777-6666"}
    ann = {"fullName": "Ann Example", "phoneNumber": "+55 11 96666-5555", "email": "ann@x.test"}
    one = _send(gw, "sendContact", {"contact": [bob]}, "contactMessage")
    card = _stored(gw, one["key"]["id"])["message"]["contactMessage"]
    assert card["displayName"] == "Bob Example"
    assert "item1.TEL;waid=5511977776666:+55 11 97777-6666" in card["vcard"]
    two = _send(gw, "sendContact", {"contact": [bob, ann]}, "contactMessage")
    cards = _stored(gw, two["key"]["id"])["message"]["contactsArrayMessage"]
    assert cards["displayName"] == "2 contacts"
    assert [c["displayName"] for c in cards["contacts"]] == ["Bob Example", "Ann Example"]
    assert "EMAIL:ann@x.test" in cards["contacts"][1]["vcard"]


def test_a_voice_note_is_stored_as_ptt_with_its_duration(gw: Gateway) -> None:
    sent = _send(gw, "sendWhatsAppAudio", {"audio": wav_base64(3.0)}, "audioMessage")
    audio = _stored(gw, sent["key"]["id"])["message"]["audioMessage"]
    assert audio["ptt"] is True and audio["seconds"] == 3
    assert audio["mimetype"] == ("audio/ogg; codecs=opus" if gw.v2 else "audio/mp4")


def test_delete_for_everyone_marks_the_own_message_deleted(gw: Gateway) -> None:
    sent = gw.call("POST", "/message/sendText/sales-eu", _text(gw, "oops")).json()
    key = sent["key"]
    response = gw.call("DELETE", "/chat/deleteMessageForEveryone/sales-eu", key)
    assert response.status_code == 201
    revoke = response.json()["message"]["protocolMessage"]
    assert revoke["type"] == "REVOKE" and revoke["key"]["id"] == key["id"]
    if gw.v2:
        assert _stored(gw, key["id"])["key"]["deleted"] is True
    else:
        statuses = gw.call(
            "POST", "/chat/findStatusMessage/sales-eu", {"where": {"id": key["id"]}}
        ).json()
        assert [s["status"] for s in statuses] == ["DELETED"]


def test_someone_else_s_message_is_not_deleted(gw: Gateway) -> None:
    theirs = {"id": "3A5F0C2D9B7E41A6C8D0", "remoteJid": JONAS_JID, "fromMe": False}
    response = gw.call("DELETE", "/chat/deleteMessageForEveryone/sales-eu", theirs)
    assert response.status_code == 201  # WhatsApp takes the revoke and does nothing
    assert "deleted" not in _stored(gw, theirs["id"])["key"]


def test_a_group_admin_deletes_a_member_s_message(gw: Gateway) -> None:
    war_room = "120363023456789012@g.us"  # sales-eu is an admin there
    theirs = {"id": "3A11B22C33D44E55F660", "remoteJid": war_room, "fromMe": False}
    response = gw.call("DELETE", "/chat/deleteMessageForEveryone/sales-eu", theirs)
    assert response.status_code == 201
    (message,) = [m for m in gw.instance().chats[war_room].messages if m.key["id"] == theirs["id"]]
    assert message.status == "DELETED"


def _text(gw: Gateway, text: str, **extra: str) -> dict:
    if gw.v2:
        return {"number": JONAS, "text": text, **extra}
    return {"number": JONAS, "textMessage": {"text": text}}


def test_a_chat_marked_unread_reads_back_unread() -> None:
    with gateway("2.3.7") as gw:
        last = {"key": {"id": "3EB0C0FFEE0123456789", "remoteJid": JONAS_JID, "fromMe": True}}
        response = gw.call("POST", "/chat/markChatUnread/sales-eu", {"lastMessage": last})
        assert (response.status_code, response.json()) == (
            201,
            {"chatId": JONAS_JID, "markedChatUnread": True},
        )
        chats = gw.call("POST", "/chat/findChats/sales-eu", {}).json()
        assert next(c for c in chats if c["remoteJid"] == JONAS_JID)["unreadCount"] == 1
        # WhatsApp takes the mark whatever message the key names
        other = {"key": {"id": "NOT-STORED", "remoteJid": JONAS_JID, "fromMe": False}}
        again = gw.call("POST", "/chat/markChatUnread/sales-eu", {"lastMessage": other})
        assert again.status_code == 201
    with gateway("1.7.1") as gw:  # 1.7.1 has no such route
        assert gw.call("POST", "/chat/markChatUnread/sales-eu", {}).status_code == 404


@pytest.mark.parametrize("presence", ["composing", "recording"])
def test_presence_is_shown_then_paused(gw: Gateway, presence: str) -> None:
    if gw.v2:
        body = {"number": JONAS, "presence": presence, "delay": 0}
    else:
        body = {"number": JONAS, "options": {"presence": presence, "delay": 0}}
    response = gw.call("POST", "/chat/sendPresence/sales-eu", body)
    assert response.status_code == 201
    assert (response.json() if gw.v2 else response.content) == (
        {"presence": presence} if gw.v2 else b""
    )
    assert gw.demo.state.extras.presences == [(JONAS_JID, presence), (JONAS_JID, "paused")]


# ---------------------------------------------------------------- buttons and 2.4


def _buttons(*kinds: str) -> list[dict]:
    made = {
        "reply": {"type": "reply", "displayText": "Yes", "id": "yes"},
        "url": {"type": "url", "displayText": "Site", "url": "https://example.com"},
        "call": {"type": "call", "displayText": "Call", "phoneNumber": "+5511999999999"},
        "copy": {"type": "copy", "displayText": "Code", "copyCode": "ABC"},
        "pix": {"type": "pix", "currency": "BRL", "name": "Shop", "keyType": "random", "key": "k"},
    }
    return [dict(made[kind], displayText=f"{kind}{n}") for n, kind in enumerate(kinds)]


def _send_buttons(gw: Gateway, *kinds: str):
    body = {"number": JONAS, "title": "Pick", "footer": "f", "buttons": _buttons(*kinds)}
    return gw.call("POST", "/message/sendButtons/sales-eu", body)


@pytest.mark.parametrize(
    ("kinds", "problem"),
    [
        (("pix", "pix"), "Only one PIX button is allowed"),
        # the source counts before it looks at the kinds: PIX beside anything is "only one"
        (("pix", "url"), "Only one PIX button is allowed"),
        (("reply",) * 4, "Maximum of 3 reply buttons allowed"),
        ((), "At least one button is required"),
    ],
)
@pytest.mark.parametrize("version", ["2.3.7", "2.4.0"])
def test_buttons_refused_on_both_2x_lines(version: str, kinds: tuple, problem: str) -> None:
    with gateway(version) as gw:
        response = _send_buttons(gw, *kinds)
        assert (response.status_code, response.json()["response"]["message"]) == (400, [problem])


def test_reply_and_cta_mixed_are_refused_in_each_line_s_words() -> None:
    with gateway("2.3.7") as gw:
        refused = _send_buttons(gw, "reply", "url").json()["response"]["message"]
        assert refused == ["Reply buttons cannot be mixed with other button types"]
    with gateway("2.4.0") as gw:
        refused = _send_buttons(gw, "reply", "url").json()["response"]["message"]
        assert refused == ["Reply buttons cannot be mixed with CTA or PIX buttons"]


def test_three_cta_buttons_pass_on_2_3_7_and_are_refused_on_2_4() -> None:
    with gateway("2.3.7") as gw:
        sent = _send_buttons(gw, "url", "call", "copy")
        assert sent.status_code == 201
        stored = _stored(gw, sent.json()["key"]["id"])["message"]
        flow = stored["viewOnceMessage"]["message"]["interactiveMessage"]["nativeFlowMessage"]
        assert [b["name"] for b in flow["buttons"]] == ["cta_url", "cta_call", "cta_copy"]
    with gateway("2.4.0") as gw:
        refused = _send_buttons(gw, "url", "call", "copy")
        assert refused.json()["response"]["message"] == ["Maximum of 2 CTA buttons allowed"]
        two = _send_buttons(gw, "url", "call")
        assert two.status_code == 201
        interactive = _stored(gw, two.json()["key"]["id"])["message"]["interactiveMessage"]
        assert interactive["body"]["text"] == "*Pick*"  # no viewOnceMessage on 2.4
        pix = _send_buttons(gw, "pix")
        flow = _stored(gw, pix.json()["key"]["id"])["message"]["interactiveMessage"]
        assert [b["name"] for b in flow["nativeFlowMessage"]["buttons"]] == ["payment_info"]


CAROUSEL = {
    "number": JONAS,
    "body": "Our picks",
    "cards": [
        {"title": "Red", "body": "A red one", "buttons": _buttons("reply")},
        {"title": "Blue", "body": "A blue one", "buttons": _buttons("url")},
    ],
}


def test_carousel_and_played_are_2_4_routes() -> None:
    played = {
        "playedMessages": [{"id": "3A5F0C2D9B7E41A6C8D0", "fromMe": False, "remoteJid": JONAS_JID}]
    }
    with gateway("2.3.7") as gw:
        assert gw.call("POST", "/message/sendCarousel/sales-eu", CAROUSEL).status_code == 404
        assert gw.call("POST", "/chat/markMessageAsPlayed/sales-eu", played).status_code == 404
    with gateway("2.4.0") as gw:
        sent = gw.call("POST", "/message/sendCarousel/sales-eu", CAROUSEL)
        assert sent.status_code == 201
        cards = _stored(gw, sent.json()["key"]["id"])["message"]["interactiveMessage"]
        bodies = [c["body"]["text"] for c in cards["carouselMessage"]["cards"]]
        assert bodies == ["A red one", "A blue one"]
        one = gw.call(
            "POST", "/message/sendCarousel/sales-eu", CAROUSEL | {"cards": CAROUSEL["cards"][:1]}
        )
        single = _stored(gw, one.json()["key"]["id"])["message"]["interactiveMessage"]
        assert "carouselMessage" not in single and single["body"]["text"] == "A red one"
        empty = gw.call("POST", "/message/sendCarousel/sales-eu", CAROUSEL | {"cards": []})
        assert empty.json()["response"]["message"] == [["cards does not meet minimum length of 1"]]
        done = gw.call("POST", "/chat/markMessageAsPlayed/sales-eu", played)
        assert (done.status_code, done.json()) == (
            201,
            {"message": "Played messages", "played": "success"},
        )
        assert gw.demo.state.extras.played == ["3A5F0C2D9B7E41A6C8D0"]


def test_a_second_send_with_the_same_message_id_makes_no_second_message() -> None:
    with gateway("2.4.0") as gw:
        body = _text(gw, "once", messageId="CAMPAIGN-0001-ROW-7")
        first = gw.call("POST", "/message/sendText/sales-eu", body)
        second = gw.call("POST", "/message/sendText/sales-eu", body)
        assert first.status_code == second.status_code == 201
        assert first.json()["key"]["id"] == second.json()["key"]["id"] == "CAMPAIGN-0001-ROW-7"
        ids = [m["key"]["id"] for m in gw.messages(remote_jid=JONAS_JID)]
        assert ids.count("CAMPAIGN-0001-ROW-7") == 1
    with gateway("2.3.7") as gw:  # before 2.4 the field means nothing: two messages
        body = _text(gw, "twice", messageId="CAMPAIGN-0001-ROW-7")
        first = gw.call("POST", "/message/sendText/sales-eu", body).json()
        second = gw.call("POST", "/message/sendText/sales-eu", body).json()
        assert first["key"]["id"] != second["key"]["id"]


def test_poll_votes_and_channels_are_2_4_routes() -> None:
    with gateway("2.3.7") as gw:
        assert gw.call("POST", "/chat/getPollVote/sales-eu", {}).status_code == 404
        assert gw.call("POST", "/chat/findChannels/support", {}).status_code == 404
    with gateway("2.4.0") as gw:
        poll = {"number": JONAS, "name": "Lunch?", "selectableCount": 1, "values": ["Yes", "No"]}
        sent = gw.call("POST", "/message/sendPoll/sales-eu", poll).json()
        extras(gw.demo.state).poll_votes[sent["key"]["id"]] = {
            "4915112340002@s.whatsapp.net": ["No"]
        }
        body = {"message": {"key": {"id": sent["key"]["id"]}}, "remoteJid": JONAS_JID}
        votes = gw.call("POST", "/chat/getPollVote/sales-eu", body)
        assert votes.status_code == 200
        assert votes.json() == {
            "poll": {
                "name": "Lunch?",
                "totalVotes": 1,
                "results": {
                    "Yes": {"votes": 0, "voters": []},
                    "No": {"votes": 1, "voters": ["4915112340002@s.whatsapp.net"]},
                },
            }
        }
        missing = gw.call(
            "POST", "/chat/getPollVote/sales-eu", body | {"remoteJid": "1@s.whatsapp.net"}
        )
        assert missing.json()["response"]["message"] == [
            "Error decrypting poll votes",
            "[object Object]",
        ]
        channels = gw.call("POST", "/chat/findChannels/support", {}).json()
        assert (channels["total"], channels["currentPage"]) == (1, 1)
        assert channels["records"][0]["remoteJid"].endswith("@newsletter")


def test_a_2_4_voice_note_carries_its_waveform() -> None:
    with gateway("2.4.0") as gw:
        sent = gw.call(
            "POST",
            "/message/sendWhatsAppAudio/sales-eu",
            {"number": JONAS, "audio": wav_base64(1.0)},
        )
        audio = _stored(gw, sent.json()["key"]["id"])["message"]["audioMessage"]
        assert len(base64.b64decode(audio["waveform"])) == 64
