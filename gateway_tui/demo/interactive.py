"""Interactive messages and 2.4's additions on the demo gateway: buttons (reply, URL, call,
copy, PIX), carousels, "played" receipts, and a caller-chosen ``messageId`` on sends.

No activated 2.4 was ever recorded (``../shared/recordings/v2.4.0-rc2`` is the licence gate
only): what is here was read in the sources of 2.3.6/2.3.7 and of 2.4.0-rc2 (the rules and
their texts, the schemas, the shapes sent, the answers). 2.3.x: at most 3 reply buttons, not
mixed with others; one PIX, alone; a message in ``viewOnceMessage``. 2.4 adds: at most 2
call-to-action buttons (url, call, copy), the texts name CTA, no ``viewOnceMessage``;
``sendCarousel`` (one card without image: a plain native-flow message), ``getPollVote``,
``findChannels`` and ``markMessageAsPlayed`` (every send takes 2.4's caller-chosen
``messageId`` through demo/message_ids.py, registered in demo/more_routes.py).
"""

from __future__ import annotations

import json
import time
import uuid
from typing import TYPE_CHECKING, Any

from gateway_tui.demo import versions
from gateway_tui.demo.data import Chat, DemoState, Instance, Message
from gateway_tui.demo.errors import GatewayError
from gateway_tui.demo.session import (
    Reply,
    body_of,
    extras,
    is_v24,
    labelled,
    only_on_24,
    require_open,
)

if TYPE_CHECKING:
    from gateway_tui.demo.app import Call

_STRING = {"type": "string"}
BUTTON_TYPES = ["reply", "copy", "url", "call", "pix"]
CTA_TYPES = ("copy", "url", "call")
_BUTTON = {
    "type": "object",
    "properties": {
        "type": {"type": "string", "enum": BUTTON_TYPES},
        "displayText": _STRING,
        "id": _STRING,
        "url": _STRING,
        "copyCode": _STRING,
        "phoneNumber": _STRING,
        "currency": _STRING,
        "name": _STRING,
        "keyType": {"type": "string", "enum": ["phone", "email", "cpf", "cnpj", "random"]},
        "key": _STRING,
    },
    "required": ["type"],
    "notEmpty": ["id", "url", "phoneNumber"],
}
SEND_BUTTONS = {
    "type": "object",
    "properties": {
        "number": {"type": "string", "description": "Invalid format"},
        "thumbnailUrl": _STRING,
        "title": _STRING,
        "description": _STRING,
        "footer": _STRING,
        "buttons": {"type": "array", "items": _BUTTON},
        "delay": {"type": "integer", "description": "Enter a value in milliseconds"},
    },
    "required": ["number"],
}
# A carousel card's button: no PIX.
_CARD_BUTTON = _BUTTON | {
    "properties": {
        "type": {"type": "string", "enum": ["reply", "copy", "url", "call"]},
        **{k: _STRING for k in ("displayText", "id", "url", "copyCode", "phoneNumber")},
    }
}
SEND_CAROUSEL = {
    "type": "object",
    "properties": {
        "number": {"type": "string", "description": "Invalid format"},
        "body": {"type": "string", "minLength": 1},
        "cards": {
            "type": "array",
            "minItems": 1,
            "maxItems": 10,
            "items": {
                "type": "object",
                "properties": {
                    "title": _STRING,
                    "body": {"type": "string", "minLength": 1},
                    "footer": _STRING,
                    "imageUrl": _STRING,
                    "buttons": {
                        "type": "array",
                        "minItems": 1,
                        "maxItems": 3,
                        "items": _CARD_BUTTON,
                    },
                },
                "required": ["body", "buttons"],
            },
        },
        "delay": {"type": "integer", "description": "Enter a value in milliseconds"},
    },
    "required": ["number", "body", "cards"],
}
_KEY = {
    "type": "object",
    "properties": {
        "id": _STRING,
        "fromMe": {"type": "boolean", "enum": [True, False]},
        "remoteJid": _STRING,
    },
    "required": ["id", "fromMe", "remoteJid"],
    "notEmpty": ["id", "remoteJid"],
}
MARK_PLAYED = {
    "type": "object",
    "properties": {"playedMessages": {"type": "array", "minItems": 1, "items": _KEY}},
    "required": ["playedMessages"],
}
_NATIVE_NAMES = {
    "reply": "quick_reply",
    "copy": "cta_copy",
    "url": "cta_url",
    "call": "cta_call",
    "pix": "payment_info",
}


def _params(button: dict[str, Any]) -> str:
    """A button's ``buttonParamsJson`` as the server builds it."""
    text = button.get("displayText")
    kind = button["type"]
    if kind == "reply":
        params: dict[str, Any] = {"display_text": text, "id": button.get("id")}
    elif kind == "copy":
        params = {"display_text": text, "copy_code": button.get("copyCode")}
    elif kind == "url":
        params = {"display_text": text, "url": button.get("url"), "merchant_url": button.get("url")}
    elif kind == "call":
        params = {"display_text": text, "phone_number": button.get("phoneNumber")}
    else:
        pix = {"merchant_name": button.get("name"), "key": button.get("key")}
        pix["key_type"] = {"random": "EVP"}.get(
            button.get("keyType", ""), str(button.get("keyType", "")).upper()
        )
        params = {
            "currency": button.get("currency"),
            "payment_settings": [{"type": "pix_static_code", "pix_static_code": pix}],
        }
    return json.dumps(params, separators=(",", ":"))


def _native(buttons: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "buttons": [
            {"name": _NATIVE_NAMES[b["type"]], "buttonParamsJson": _params(b)} for b in buttons
        ],
        "messageParamsJson": json.dumps({"from": "api", "templateId": str(uuid.uuid4())}),
    }


def button_problem(buttons: list[dict[str, Any]], *, v24: bool) -> str | None:
    """Why the line refuses these buttons, in its source's order and words."""
    if not buttons:
        return "At least one button is required"
    kinds = [b["type"] for b in buttons]
    replies, pix = "reply" in kinds, "pix" in kinds
    cta = any(kind in CTA_TYPES for kind in kinds)
    if replies and len(kinds) > 3:
        return "Maximum of 3 reply buttons allowed"
    if replies and (cta or pix):
        if v24:
            return "Reply buttons cannot be mixed with CTA or PIX buttons"
        return "Reply buttons cannot be mixed with other button types"
    if pix and len(kinds) > 1:
        return "Only one PIX button is allowed"
    if v24 and cta and len(kinds) > 2:
        return "Maximum of 2 CTA buttons allowed"
    return None


async def send_buttons(call: Call, instance: Instance) -> Reply:
    from gateway_tui.demo.message_kinds import deliver

    body = call.validated(SEND_BUTTONS)
    v24 = is_v24(call.state)
    buttons = body.get("buttons")
    if not isinstance(buttons, list):
        if not v24:  # 2.3.x reads buttons.length first
            raise GatewayError(500, "Cannot read properties of undefined (reading 'length')")
        buttons = []
    if problem := button_problem(buttons, v24=v24):
        raise GatewayError(400, [problem])
    interactive: dict[str, Any] = {}
    if buttons[0]["type"] != "pix":
        text = f"*{body.get('title')}*"
        if body.get("description"):
            text += f"\n\n{body['description']}" + ("" if v24 else "\n")
        interactive = {"body": {"text": text}}
        if body.get("footer") or not v24:
            interactive["footer"] = {"text": body.get("footer")}
    interactive["nativeFlowMessage"] = _native(buttons)
    # 2.3.x wraps it in viewOnceMessage; 2.4 sends the interactive message as it is.
    content = (
        {"interactiveMessage": interactive}
        if v24
        else {"viewOnceMessage": {"message": {"interactiveMessage": interactive}}}
    )
    options = {k: body[k] for k in ("delay", "quoted") if k in body}
    return await deliver(call, instance, body["number"], content, options)


async def send_carousel(call: Call, instance: Instance) -> Reply:
    """2.4: cards (1-10) of text, an image and 1-3 buttons each; one card without an image is
    sent as a plain native-flow message (as 2.4.0-rc2 does for iOS)."""
    from gateway_tui.demo.message_kinds import deliver

    body = call.validated(SEND_CAROUSEL)
    cards = body["cards"]
    if len(cards) == 1 and not cards[0].get("imageUrl"):
        (card,) = cards
        interactive: dict[str, Any] = {"body": {"text": card["body"]}}
        if card.get("footer"):
            interactive["footer"] = {"text": card["footer"]}
        interactive["nativeFlowMessage"] = _native(card["buttons"])
    else:
        made = []
        for card in cards:
            item: dict[str, Any] = {}
            if card.get("imageUrl"):
                # The demo has no internet: the image is named, not fetched.
                item["header"] = {
                    "hasMediaAttachment": True,
                    "imageMessage": {"url": card["imageUrl"]},
                }
            item["body"] = {"text": card["body"]}
            if card.get("footer"):
                item["footer"] = {"text": card["footer"]}
            item["nativeFlowMessage"] = {"buttons": _native(card["buttons"])["buttons"]}
            made.append(item)
        carousel = {"cards": made, "messageVersion": 1}
        interactive = {"body": {"text": body["body"]}, "carouselMessage": carousel}
    options = {k: body[k] for k in ("delay", "quoted") if k in body}
    return await deliver(
        call, instance, body["number"], {"interactiveMessage": interactive}, options
    )


async def mark_played(call: Call, instance: Instance) -> Reply:
    """2.4: the "played" receipt of voice notes; keys on ``@lid`` chats are skipped."""
    body = call.validated(MARK_PLAYED)
    require_open(instance, "sendReceipts", labelled(500, "Mark messages as played fail"))
    for key in body["playedMessages"]:
        if (
            key["remoteJid"].endswith(("@s.whatsapp.net", "@g.us"))
            and key["remoteJid"] in instance.chats
        ):
            extras(call.state).played.append(key["id"])
    return 201, {"message": "Played messages", "played": "success"}


POLL_VOTE = {
    "type": "object",
    "properties": {
        "message": {
            "type": "object",
            "properties": {
                "key": {"type": "object", "properties": {"id": _STRING}, "required": ["id"]}
            },
            "required": ["key"],
        },
        "remoteJid": _STRING,
    },
    "required": ["message", "remoteJid"],
}
_POLL_KINDS = ("pollCreationMessage", "pollCreationMessageV3")


async def get_poll_vote(call: Call, instance: Instance) -> Reply:
    """2.4: a poll's votes, per option (read from the store: no session needed)."""
    from gateway_tui.demo.validation import create_jid

    body = call.validated(POLL_VOTE)
    chat = instance.chats.get(create_jid(body["remoteJid"]))
    message = chat.find(body["message"]["key"]["id"]) if chat else None
    poll = next(
        (
            message.content[kind]
            for kind in _POLL_KINDS
            if message and message.content and kind in message.content
        ),
        None,
    )
    if message is None or poll is None:
        # NotFoundException throws a plain object: the server shows its toString().
        raise GatewayError(500, ["Error decrypting poll votes", "[object Object]"])
    votes = extras(call.state).poll_votes.get(message.key["id"], {})
    results = {option["optionName"]: {"votes": 0, "voters": []} for option in poll["options"]}
    for voter, chosen in votes.items():
        for name in chosen:
            if name in results:
                results[name]["votes"] += 1
                results[name]["voters"].append(voter)
    return 200, {"poll": {"name": poll["name"], "totalVotes": len(votes), "results": results}}


def receive_poll_vote(
    state: DemoState, chat: Chat, poll_id: str, voter: str, chosen: list[str]
) -> None:
    """A contact votes on a poll of ``chat`` (a demo scenario hook; a new vote of the same
    voter replaces theirs). 2.4 answers it through getPollVote; 2.3.7 and later also keep the
    vote in the store as a ``pollUpdateMessage`` whose ``vote.selectedOptions`` holds the
    chosen option names (decrypted on arrival), returned by findMessages. 2.3.6 and 1.7.1
    drop a vote on arrival: nothing is kept."""
    extras(state).poll_votes.setdefault(poll_id, {})[voter] = list(chosen)
    if not versions.at_least(state, "2.3.7"):
        return
    poll = chat.find(poll_id)
    if poll is None:
        return
    group = chat.jid.endswith("@g.us")
    # After every message of the chat: a vote changed within a second still reads as later.
    stamp = max([int(time.time()), *(m.timestamp + 1 for m in chat.messages)])
    vote = {
        "pollCreationMessageKey": dict(poll.key),
        "vote": {"encPayload": "", "encIv": "", "selectedOptions": list(chosen)},
        "senderTimestampMs": stamp * 1000,
    }
    chat.messages.append(
        Message(
            key={"remoteJid": chat.jid, "fromMe": False, "id": uuid.uuid4().hex[:20].upper()},
            text="",
            timestamp=stamp,
            content={"pollUpdateMessage": vote},
            participant=voter if group else None,
        )
    )


async def find_channels(call: Call, instance: Instance) -> Reply:
    """2.4: the channels (``…@newsletter``) the store has messages of, newest first, paged."""
    body = body_of(call)
    page = int(body.get("page") or 1)
    limit = int(body.get("limit") or body.get("rows") or 50)
    channels = [
        {"remoteJid": jid, "lastMessageTimestamp": max(m.timestamp for m in chat.messages)}
        for jid, chat in instance.chats.items()
        if jid.endswith("@newsletter") and chat.messages
    ]
    channels.sort(key=lambda item: -item["lastMessageTimestamp"])
    skip = (page - 1) * limit
    return 200, {
        "total": len(channels),
        "pages": -(-len(channels) // limit),
        "currentPage": page,
        "limit": limit,
        "records": channels[skip : skip + limit],
    }


ROUTES_2 = (
    ("POST", "/message/sendButtons/{instance}", send_buttons),
    ("POST", "/message/sendCarousel/{instance}", only_on_24(send_carousel)),
    ("POST", "/chat/markMessageAsPlayed/{instance}", only_on_24(mark_played)),
    ("POST", "/chat/getPollVote/{instance}", only_on_24(get_poll_vote)),
    ("POST", "/chat/findChannels/{instance}", only_on_24(find_channels)),
)
