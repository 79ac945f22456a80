"""How the recorded requests of the kinds beyond text and lists (voice notes, polls, locations,
contact cards, presence, delete for everyone, mark unread) are made with the client: its
``messages`` and ``chats`` resources (core/api/kind_calls.py). Part of ``operations.py``."""

from __future__ import annotations

import re
from typing import Any

from gateway_tui.core.api.message_kinds import (
    ContactCard,
    ContactCards,
    Location,
    Poll,
    VoiceNote,
)
from tests.recorded.gateway import Recording
from tests.recorded.operations import (
    Call,
    NotExpressible,
    _body,
    _instance,
    _key,
    _no_check,
    _no_query,
    _only_keys,
    _require,
    _typed,
)


def _content(rec: Recording, inner: str, fields: set[str]) -> tuple[str, dict[str, Any], Any]:
    """(number, the kind's fields, the delay) of a send in either line's shape."""
    body = _body(rec)
    if rec.line == "2":
        _only_keys(body, {"number", "delay"} | fields)
        if inner in body:
            raise NotExpressible(f"the 1.7.1 body ({inner}) on 2.x")
        content = {k: body[k] for k in fields if k in body}
        delay = body.get("delay")
    else:
        _only_keys(body, {"number", "options", inner})
        if fields & set(body):
            raise NotExpressible("the 2.x flat body on 1.7.1")
        _require(body, inner)
        content = body[inner]
        delay = _typed(body.get("options") or {}, dict, "options").get("delay")
    number = body.get("number", "")  # missing: the client refuses it, as the server does
    return _typed(number, str, "number"), content, delay


def b_send_audio(rec: Recording, m: re.Match[str]) -> Call:
    _no_query(rec)
    number, content, delay = _content(rec, "audioMessage", {"audio"})
    _only_keys(content, {"audio"}, "audio")
    note = VoiceNote(_typed(content.get("audio", ""), str, "audio"))
    return Call(
        lambda c: c.messages.send_voice_note(_instance(m), number, note, delay=delay), _no_check
    )


def b_send_poll(rec: Recording, m: re.Match[str]) -> Call:
    _no_query(rec)
    number, content, delay = _content(rec, "pollMessage", {"name", "selectableCount", "values"})
    _require(content, "name", "selectableCount", "values", what="the poll")
    values = tuple(_typed(content["values"], list, "values"))
    poll = Poll(content["name"], values, _typed(content["selectableCount"], int, "count"))
    return Call(lambda c: c.messages.send_poll(_instance(m), number, poll, delay=delay), _no_check)


def b_send_location(rec: Recording, m: re.Match[str]) -> Call:
    _no_query(rec)
    fields = {"name", "address", "latitude", "longitude"}
    number, content, delay = _content(rec, "locationMessage", fields)
    missing = fields - set(content)
    if missing:
        raise NotExpressible(f"the client always sends {', '.join(sorted(missing))}")
    place = Location(content["latitude"], content["longitude"], content["name"], content["address"])
    return Call(
        lambda c: c.messages.send_location(_instance(m), number, place, delay=delay), _no_check
    )


_CARD_FIELDS = {"fullName", "wuid", "phoneNumber", "organization", "email", "url"}


def b_send_contact(rec: Recording, m: re.Match[str]) -> Call:
    _no_query(rec)
    body = _body(rec)
    inner = "contact" if rec.line == "2" else "contactMessage"
    _only_keys(body, {"number", inner, "delay", "options"})
    _require(body, "number", inner)
    cards = []
    for item in _typed(body[inner], list, inner):
        card = _typed(item, dict, f"{inner}[]")
        _only_keys(card, _CARD_FIELDS, f"{inner}[]")
        _require(card, "fullName", "phoneNumber", what=f"{inner}[]")
        cards.append(
            ContactCard(
                card["fullName"],
                card["phoneNumber"],
                wuid=card.get("wuid"),
                organization=card.get("organization"),
                email=card.get("email"),
                url=card.get("url"),
            )
        )
    number = _typed(body["number"], str, "number")
    kind = ContactCards(tuple(cards))
    return Call(lambda c: c.messages.send_contacts(_instance(m), number, kind), _no_check)


def b_send_presence(rec: Recording, m: re.Match[str]) -> Call:
    _no_query(rec)
    body = _body(rec)
    if rec.line == "2":
        _only_keys(body, {"number", "presence", "delay"})
        fields = body
    else:
        _only_keys(body, {"number", "options"})
        _require(body, "options")
        fields = _typed(body["options"], dict, "options")
    _require(body, "number")
    if "delay" not in fields or "presence" not in fields:
        raise NotExpressible("the client always sends presence and delay")
    number, presence = body["number"], fields["presence"]
    delay = _typed(fields["delay"], int, "delay")
    return Call(lambda c: c.chats.send_presence(_instance(m), number, presence, delay), _no_check)


def b_delete_for_everyone(rec: Recording, m: re.Match[str]) -> Call:
    _no_query(rec)
    body = _body(rec)
    _only_keys(body, {"id", "remoteJid", "fromMe"})
    if body.get("fromMe") is not True:
        raise NotExpressible("another's message: the client deletes only its own")
    key = _key({"id": "", **body}, "the body")
    return Call(lambda c: c.chats.delete_for_everyone(_instance(m), key), _no_check)


def b_mark_unread(rec: Recording, m: re.Match[str]) -> Call:
    _no_query(rec)
    body = _body(rec)
    if "lastMessage" not in body:
        raise NotExpressible("the client names the chat by its last message, not by chat")
    _only_keys(body, {"lastMessage"})
    last = _typed(body["lastMessage"], dict, "lastMessage")
    _only_keys(last, {"key", "messageTimestamp"}, "lastMessage")
    key = _key(last.get("key"), "lastMessage.key")
    stamp = last.get("messageTimestamp")
    return Call(lambda c: c.chats.mark_unread(_instance(m), key, stamp), _no_check)


KIND_ROUTES = (
    ("sendWhatsAppAudio", "POST", "/message/sendWhatsAppAudio/{i}", b_send_audio),
    ("sendPoll", "POST", "/message/sendPoll/{i}", b_send_poll),
    ("sendLocation", "POST", "/message/sendLocation/{i}", b_send_location),
    ("sendContact", "POST", "/message/sendContact/{i}", b_send_contact),
    ("sendPresence", "POST", "/chat/sendPresence/{i}", b_send_presence),
    ("deleteMessageForEveryone", "DELETE", "/chat/deleteMessageForEveryone/{i}",
     b_delete_for_everyone),
    ("markChatUnread", "POST", "/chat/markChatUnread/{i}", b_mark_unread),
)  # fmt: skip
