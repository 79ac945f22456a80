"""Interactive messages and 2.4's additions on the demo gateway: buttons (reply, URL, call,
copy, PIX), carousels, "played" receipts, and a caller-chosen ``messageId`` on sends.

No activated 2.4 was ever recorded (``../shared/recordings/v2.4.0-rc2`` is the licence gate
only). What is here comes from the 2.3.6 source (sendButtons' schema and rules, its texts), a
later upstream revision of the message schemas (the carousel's), and what 2.4 announced:
at most 2 call-to-action buttons; CTA buttons not mixed with reply or PIX buttons; PIX alone,
exactly one; ``sendCarousel``, ``markMessageAsPlayed``, ``updateMemberAddMode`` and a
``messageId`` field on sends. Texts no source gave are marked "demo's words" below.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from gateway_tui.demo.data import Instance, Message
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
    """Why the line refuses these buttons (2.3.x: its source's rules and texts; 2.4 adds at
    most 2 CTA buttons and CTA never beside reply or PIX)."""
    if not buttons:
        return "At least one button is required"
    kinds = [b["type"] for b in buttons]
    replies, pix = kinds.count("reply"), kinds.count("pix")
    others = len(kinds) - replies - pix
    if replies:
        if len(kinds) > 3:
            return "Maximum of 3 reply buttons allowed"
        if others or pix:
            return "Reply buttons cannot be mixed with other button types"
    if pix:
        if len(kinds) > 1:
            return "Only one PIX button is allowed"
        if others:
            return "PIX button cannot be mixed with other button types"
    if v24 and others > 2:
        return "Maximum of 2 CTA buttons allowed"  # demo's words for 2.4's rule
    return None


async def send_buttons(call: Call, instance: Instance) -> Reply:
    from gateway_tui.demo.message_kinds import deliver

    body = call.validated(SEND_BUTTONS)
    buttons = body.get("buttons")
    if not isinstance(buttons, list):
        raise GatewayError(500, "Cannot read properties of undefined (reading 'length')")
    if problem := button_problem(buttons, v24=is_v24(call.state)):
        raise GatewayError(400, [problem])
    interactive: dict[str, Any] = {}
    if buttons[0]["type"] != "pix":
        text = f"*{body.get('title')}*"
        if body.get("description"):
            text += f"\n\n{body['description']}\n"
        interactive = {"body": {"text": text}, "footer": {"text": body.get("footer")}}
    interactive["nativeFlowMessage"] = _native(buttons)
    content = {"viewOnceMessage": {"message": {"interactiveMessage": interactive}}}
    options = {k: body[k] for k in ("delay", "quoted") if k in body}
    return await deliver(call, instance, body["number"], content, options)


async def send_carousel(call: Call, instance: Instance) -> Reply:
    """2.4: cards (1-10) of text, an image and 1-3 buttons each."""
    from gateway_tui.demo.message_kinds import deliver

    body = call.validated(SEND_CAROUSEL)
    cards = []
    for card in body["cards"]:
        header: dict[str, Any] = {"title": card.get("title", ""), "hasMediaAttachment": False}
        if card.get("imageUrl"):
            # The demo has no internet: the image is named, not fetched.
            header |= {"hasMediaAttachment": True, "imageMessage": {"url": card["imageUrl"]}}
        cards.append(
            {
                "header": header,
                "body": {"text": card["body"]},
                "footer": {"text": card.get("footer", "")},
                "nativeFlowMessage": _native(card["buttons"]),
            }
        )
    interactive = {
        "body": {"text": body["body"]},
        "carouselMessage": {"cards": cards, "messageVersion": 1},
    }
    options = {k: body[k] for k in ("delay", "quoted") if k in body}
    return await deliver(
        call, instance, body["number"], {"interactiveMessage": interactive}, options
    )


async def mark_played(call: Call, instance: Instance) -> Reply:
    """2.4: the "played" receipt of voice notes; keys on ``@lid`` chats are skipped."""
    body = call.validated(MARK_PLAYED)
    require_open(instance, "readMessages", labelled(500, "Played messages fail"))  # demo's words
    for key in body["playedMessages"]:
        if (
            key["remoteJid"].endswith(("@s.whatsapp.net", "@g.us"))
            and key["remoteJid"] in instance.chats
        ):
            extras(call.state).played.append(key["id"])
    return 201, {"message": "Played messages", "played": "success"}


# ---------------------------------------------------------------- 2.4's messageId

SendHandler = Callable[["Call", Instance], Awaitable[Reply]]


def _sent(instance: Instance, message_id: str) -> Message | None:
    return next(
        (m for chat in instance.chats.values() for m in chat.messages if m.key["id"] == message_id),
        None,
    )


def with_message_id(handler: SendHandler) -> SendHandler:
    """On 2.4 a send may name its message's id (``messageId``): the message gets that id, and
    a second send with the same id makes no second message (it answers the first one)."""

    async def send(call: Call, instance: Instance) -> Reply:
        wanted = body_of(call).get("messageId")
        if not is_v24(call.state) or not isinstance(wanted, str) or not wanted:
            return await handler(call, instance)
        if (existing := _sent(instance, wanted)) is not None and existing.key["fromMe"]:
            content = existing.content or (
                {"listMessage": existing.list_message}
                if existing.list_message
                else {"extendedTextMessage": {"text": existing.text}}
            )
            return 201, {
                "key": existing.key,
                "message": content,
                "messageTimestamp": str(existing.timestamp),
                "status": existing.status,
            }
        status, answer = await handler(call, instance)
        if isinstance(answer, dict) and isinstance(answer.get("key"), dict):
            made = _sent(instance, answer["key"]["id"])
            if made is not None:
                made.key["id"] = wanted  # the same dict the answer holds
        return status, answer

    send.__name__ = handler.__name__
    return send


ROUTES_2 = (
    ("POST", "/message/sendButtons/{instance}", with_message_id(send_buttons)),
    ("POST", "/message/sendCarousel/{instance}", only_on_24(with_message_id(send_carousel))),
    ("POST", "/chat/markMessageAsPlayed/{instance}", only_on_24(mark_played)),
)
