"""More kinds of message on the demo gateway: voice notes, polls, locations, contact cards,
delete for everyone, mark a chat unread, typing / recording presence.

Bodies and errors as the real servers have them (../shared/recordings v1.7.1-more 079-087,
v2.3.6-more 079-087, v2.3.7 911-912, 928-940, 952, 957-962; the 1.7.1 and 2.3.6 schemas):
1.7.1 nests the fields (``pollMessage``, ``locationMessage``, ``contactMessage``,
``audioMessage``, presence in ``options``), 2.x has them flat. On an open instance a send
stores the message as a real server stores it (``pollCreationMessage``, ``locationMessage``,
``contactMessage`` / ``contactsArrayMessage``, ``audioMessage`` with ``ptt``), so the
conversation reads it back; a delete for everyone marks the message deleted.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import re
import struct
import time
from typing import TYPE_CHECKING, Any
from urllib.parse import urlparse

from gateway_tui.demo.data import Instance, Message, number_of
from gateway_tui.demo.errors import GatewayError
from gateway_tui.demo.session import (
    Reply,
    extras,
    failure_text,
    is_v2,
    is_v24,
    labelled,
    plain_500,
    require_open,
)
from gateway_tui.demo.validation import PRESENCES, create_jid

if TYPE_CHECKING:
    from gateway_tui.demo.app import Call

_STRING = {"type": "string"}
_NUMBER_FIELD = {"type": "string", "description": "Invalid format"}
_OPTIONS = {
    "type": "object",
    "properties": {
        "delay": {"type": "integer", "description": "Enter a value in milliseconds"},
        "presence": {"type": "string", "enum": PRESENCES},
    },
}


def _nested(inner: str, schema: dict[str, Any]) -> dict[str, Any]:
    """A 1.7.1 body: ``{number, options, <inner>: {...}}``."""
    return {
        "type": "object",
        "properties": {"number": _NUMBER_FIELD, "options": _OPTIONS, inner: schema},
        "required": [inner, "number"],
    }


def _flat(schema: dict[str, Any], required: list[str]) -> dict[str, Any]:
    """A 2.x body: the fields at the top, with ``delay``."""
    properties = {"number": _NUMBER_FIELD, **schema["properties"]}
    properties["delay"] = {"type": "integer", "description": "Enter a value in milliseconds"}
    return {"type": "object", "properties": properties, "required": required}


POLL = {
    "type": "object",
    "properties": {
        "name": _STRING,
        "selectableCount": {"type": "integer", "minimum": 0, "maximum": 10},
        "values": {
            "type": "array",
            "minItems": 2,
            "maxItems": 10,
            "uniqueItems": True,
            "items": _STRING,
        },
    },
    "required": ["name", "selectableCount", "values"],
}
LOCATION = {
    "type": "object",
    "properties": {
        "latitude": {"type": "number"},
        "longitude": {"type": "number"},
        "name": _STRING,
        "address": _STRING,
    },
    "required": ["latitude", "longitude"],
}
CONTACTS = {
    "type": "array",
    "minItems": 1,
    "uniqueItems": True,
    "items": {
        "type": "object",
        "properties": {
            "fullName": _STRING,
            "wuid": {
                "type": "string",
                "minLength": 10,
                "pattern": r"\d+",
                "description": '"wuid" must be a numeric string',
            },
            "phoneNumber": {"type": "string", "minLength": 10},
            "organization": _STRING,
            "email": _STRING,
            "url": _STRING,
        },
        "required": ["fullName", "phoneNumber"],
        "notEmpty": ["fullName"],
    },
}
AUDIO = {"type": "object", "properties": {"audio": _STRING}, "required": ["audio"]}

SCHEMAS_1 = {
    "poll": _nested("pollMessage", POLL | {"notEmpty": ["name", "selectableCount", "values"]}),
    "location": _nested("locationMessage", LOCATION),
    "contact": _nested("contactMessage", CONTACTS),
    "audio": _nested("audioMessage", AUDIO | {"notEmpty": ["audio"]}),
}
SCHEMAS_2 = {
    "poll": _flat(POLL, ["number", "name", "selectableCount", "values"]),
    "location": _flat(LOCATION, ["number", "latitude", "longitude", "name", "address"]),
    "contact": {
        "type": "object",
        "properties": {"number": _NUMBER_FIELD, "contact": CONTACTS},
        "required": ["number", "contact"],
    },
    "audio": _flat(AUDIO, ["number"]),
}
_KEY = {
    "id": _STRING,
    "fromMe": {"type": "boolean", "enum": [True, False]},
    "remoteJid": _STRING,
    "participant": _STRING,
}
DELETE_MESSAGE = {
    "type": "object",
    "properties": _KEY,
    "required": ["id", "fromMe", "remoteJid"],
    "notEmpty": ["id", "remoteJid", "participant"],
}
PRESENCE_1 = {
    "type": "object",
    "properties": {
        "number": _NUMBER_FIELD,
        "options": _OPTIONS | {"required": ["presence", "delay"]},
    },
    "required": ["options", "number"],
}
PRESENCE_2 = {
    "type": "object",
    "properties": {
        "number": _NUMBER_FIELD,
        "delay": {"type": "number"},
        "presence": {"type": "string", "enum": PRESENCES},
    },
    "required": ["number", "presence", "delay"],
}
MARK_UNREAD = {
    "type": "object",
    "properties": {
        "chat": _STRING,
        "lastMessage": {
            "type": "object",
            "properties": {
                "key": {
                    "type": "object",
                    "properties": {k: _KEY[k] for k in ("id", "remoteJid", "fromMe")},
                    "required": ["id", "fromMe", "remoteJid"],
                    "notEmpty": ["id", "remoteJid"],
                },
                "messageTimestamp": {"type": "integer"},
            },
            "required": ["key"],
        },
    },
    "required": ["lastMessage"],
}


# ---------------------------------------------------------------- sending


def _fields(call: Call, kind: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The validated body's fields of this kind and its options (delay, quoted), either line."""
    if is_v2(call.state):
        body = call.validated(SCHEMAS_2[kind])
        options = {k: body[k] for k in ("delay", "quoted") if k in body}
        return body, options
    body = call.validated(SCHEMAS_1[kind])
    inner = {"poll": "pollMessage", "location": "locationMessage", "contact": "contactMessage"}
    inner |= {"audio": "audioMessage"}
    fields = body[inner[kind]]
    fields = {"contact": fields} if kind == "contact" else dict(fields)
    return fields | {"number": body["number"]}, dict(body.get("options") or {})


async def deliver(
    call: Call,
    instance: Instance,
    number: str,
    content: dict[str, Any],
    options: dict[str, Any],
    *,
    media: bytes | None = None,
) -> Reply:
    """Send ``content`` (the stored ``message`` object) to ``number`` on an open instance."""
    from gateway_tui.demo import message_routes

    require_open(instance, "onWhatsApp", plain_500)
    jid = message_routes.recipient_jid(call.state, instance, number)
    if number_of(jid) in call.state.not_on_whatsapp:
        raise GatewayError(400, [{"exists": False, "jid": jid, "number": number_of(jid)}])
    delay = options.get("delay")
    if isinstance(delay, int | float) and delay > 0:
        await asyncio.sleep(delay / 1000)  # the real server shows the presence this long
    kind = next(iter(content))
    if quote := message_routes.reply_context(options, instance, jid):
        content[kind] = {**content[kind], "contextInfo": quote}
    message = instance.add_sent_message(jid, call.state.new_message_id(), "")
    message.content = content
    message.media = media
    call.state.sends_by_number[number_of(jid)] += 1
    message_routes.announce(call, instance, message)
    return 201, message_routes.sent_answer(message, content)


async def send_poll(call: Call, instance: Instance) -> Reply:
    fields, options = _fields(call, "poll")
    poll = {
        "name": fields["name"],
        "options": [{"optionName": value} for value in fields["values"]],
        "selectableOptionsCount": fields["selectableCount"],
    }
    # Baileys 7 (2.x) sends a single-choice poll as pollCreationMessageV3.
    kind = "pollCreationMessage"
    if is_v2(call.state) and fields["selectableCount"] == 1:
        kind = "pollCreationMessageV3"
    secret = base64.b64encode(call.state.rng.randbytes(32)).decode()
    content = {kind: poll, "messageContextInfo": {"messageSecret": secret}}
    return await deliver(call, instance, fields["number"], content, options)


async def send_location(call: Call, instance: Instance) -> Reply:
    fields, options = _fields(call, "location")
    location: dict[str, Any] = {
        "degreesLatitude": fields["latitude"],
        "degreesLongitude": fields["longitude"],
    }
    location |= {k: fields[k] for k in ("name", "address") if k in fields}
    return await deliver(call, instance, fields["number"], {"locationMessage": location}, options)


def vcard(contact: dict[str, Any]) -> str:
    """The vCard the real server writes for one contact."""
    lines = ["BEGIN:VCARD", "VERSION:3.0", f"N:{contact['fullName']}", f"FN:{contact['fullName']}"]
    if contact.get("organization"):
        lines.append(f"ORG:{contact['organization']};")
    if contact.get("email"):
        lines.append(f"EMAIL:{contact['email']}")
    if contact.get("url"):
        lines.append(f"URL:{contact['url']}")
    wuid = contact.get("wuid") or create_jid(contact["phoneNumber"])
    lines += [f"item1.TEL;waid={wuid}:{contact['phoneNumber']}", "item1.X-ABLabel:Celular"]
    return "\n".join([*lines, "END:VCARD"])


async def send_contact(call: Call, instance: Instance) -> Reply:
    fields, options = _fields(call, "contact")
    contacts = fields["contact"]
    if len(contacts) == 1:
        content = {
            "contactMessage": {"displayName": contacts[0]["fullName"], "vcard": vcard(contacts[0])}
        }
    else:
        cards = [{"displayName": c["fullName"], "vcard": vcard(c)} for c in contacts]
        content = {
            "contactsArrayMessage": {"displayName": f"{len(cards)} contacts", "contacts": cards}
        }
    return await deliver(call, instance, fields["number"], content, options)


def _wav_seconds(data: bytes) -> float | None:
    """A WAV file's duration, from its header."""
    if data[:4] != b"RIFF" or data[8:12] != b"WAVE" or len(data) < 44:
        return None
    byte_rate = struct.unpack("<I", data[28:32])[0]
    return (len(data) - 44) / byte_rate if byte_rate else None


async def send_audio(call: Call, instance: Instance) -> Reply:
    v2 = is_v2(call.state)
    if v2:
        body = call.validated(SCHEMAS_2["audio"])
        audio, options = body.get("audio"), {k: body[k] for k in ("delay", "quoted") if k in body}
    else:
        body = call.validated(SCHEMAS_1["audio"])
        if not isinstance(body.get("options"), dict):
            # 1.7.1 sets options.encoding before anything else: without options it crashes.
            raise GatewayError(500, "Cannot set properties of undefined (setting 'encoding')")
        audio, options = body["audioMessage"]["audio"], body["options"]
    data = None
    if isinstance(audio, str) and re.match(r"^https?://", audio):
        # The server fetches the file first; the demo has no internet.
        raise GatewayError(500, f"getaddrinfo ENOTFOUND {urlparse(audio).hostname}")
    if isinstance(audio, str) and audio:
        try:
            data = base64.b64decode(audio, validate=True)
        except (binascii.Error, ValueError):
            data = None
    if data is None and v2:
        raise GatewayError(400, ["Owned media must be a url, base64, or valid file with buffer"])
    if data is None:
        raise GatewayError(400, ["Error: the audio is neither a URL nor base64"])
    seconds = _wav_seconds(data)
    fields = {
        "url": f"https://mmg.whatsapp.net/demo/{call.state.new_message_id()}.enc",
        # 2.x converts to Opus; 1.7.1 with encoding converts to MP4 (AAC).
        "mimetype": "audio/ogg; codecs=opus" if v2 else "audio/mp4",
        "fileLength": str(len(data)),
        "seconds": max(1, round(seconds)) if seconds is not None else max(1, len(data) // 4000),
        "ptt": True,
    }
    if is_v24(call.state):  # 2.4 also sends the voice note's waveform (64 levels)
        levels = bytes(min(100, 20 + (i * 37) % 80) for i in range(64))
        fields["waveform"] = base64.b64encode(levels).decode()
    return await deliver(
        call, instance, body["number"], {"audioMessage": fields}, options, media=data
    )


# ---------------------------------------------------------------- chat actions


def _find(instance: Instance, jid: str, message_id: str) -> Message | None:
    chat = instance.chats.get(jid)
    return chat.find(message_id) if chat else None


async def delete_for_everyone(call: Call, instance: Instance) -> Reply:
    body = call.validated(DELETE_MESSAGE)
    label = "Error while deleting message for everyone"
    if instance.status == "connecting":  # as recorded (v2.3.7/960)
        raise GatewayError(
            500, [label, "TypeError: Cannot read properties of undefined (reading 'id')"]
        )
    require_open(instance, "sendMessage", labelled(500, label))
    jid = create_jid(body["remoteJid"]) if body["remoteJid"] else ""
    if not jid:
        raise GatewayError(
            500, [label, "TypeError: Cannot read properties of undefined (reading 'id')"]
        )
    key = {k: body[k] for k in ("remoteJid", "fromMe", "id", "participant") if k in body}
    key["remoteJid"] = jid
    original = _find(instance, jid, body["id"])
    # WhatsApp revokes the sender's own messages, and in a group an admin's revoke too.
    group = instance.groups.get(jid)
    may = original is not None and (
        original.key["fromMe"] or (group is not None and group.role_of(instance.owner) is not None)
    )
    if may:
        original.status = "DELETED"
        original.sent_clock = None  # its status stays DELETED
        if is_v2(call.state):
            original.key["deleted"] = True  # 2.x keeps the row, marked (logical delete)
    now = time.time()
    content = {
        "protocolMessage": {"key": key, "type": "REVOKE"},
    }
    return 201, {
        "key": {"remoteJid": jid, "fromMe": True, "id": call.state.new_message_id()},
        "message": content,
        "messageTimestamp": str(int(now)),
        "status": "PENDING",
    }


def _unread_failure(reason: str) -> GatewayError:
    message = ["An error occurred while marked unread the chat. Open a calling.", reason]
    return GatewayError(500, [{"markedChatUnread": False, "message": message}])


async def mark_chat_unread(call: Call, instance: Instance) -> Reply:
    """2.x only: ``{lastMessage: {key, messageTimestamp?}}`` marks the chat unread."""
    body = call.validated(MARK_UNREAD)
    if instance.status == "connecting":  # as recorded (v2.3.7/962)
        raise _unread_failure("Error: App state key not present!")
    require_open(instance, "chatModify", lambda text: _unread_failure(text))
    key = body["lastMessage"]["key"]
    # WhatsApp takes the mark whatever the key names; a chat the store has shows it.
    if (chat := instance.chats.get(create_jid(key["remoteJid"]))) is not None:
        chat.marked_unread = True
    return 201, {"chatId": key["remoteJid"], "markedChatUnread": True}


async def send_presence(call: Call, instance: Instance) -> Reply:
    """Typing or recording in a chat for ``delay`` ms (the answer comes after it)."""
    from gateway_tui.demo import message_routes

    v2 = is_v2(call.state)
    body = call.validated(PRESENCE_2 if v2 else PRESENCE_1)
    options = body if v2 else body["options"]
    if instance.status != "open":
        raise GatewayError(400, [failure_text(instance, "onWhatsApp")])
    jid = create_jid(body["number"])
    if not message_routes.exists_on_whatsapp(call.state, instance, jid):
        # The server throws a plain object and answers its toString().
        raise GatewayError(400, ["[object Object]"])
    extras(call.state).presences.append((jid, options["presence"]))
    if options["delay"] > 0:
        await asyncio.sleep(options["delay"] / 1000)
    extras(call.state).presences.append((jid, "paused"))
    # 1.7.1 returns nothing (an empty 201); 2.x the presence.
    return 201, {"presence": options["presence"]} if v2 else None


ROUTES_1 = (
    ("POST", "/message/sendWhatsAppAudio/{instance}", send_audio),
    ("POST", "/message/sendPoll/{instance}", send_poll),
    ("POST", "/message/sendLocation/{instance}", send_location),
    ("POST", "/message/sendContact/{instance}", send_contact),
    ("DELETE", "/chat/deleteMessageForEveryone/{instance}", delete_for_everyone),
    ("POST", "/chat/sendPresence/{instance}", send_presence),
)
ROUTES_2 = (*ROUTES_1, ("POST", "/chat/markChatUnread/{instance}", mark_chat_unread))
