"""The demo gateway's 1.7.1 routes for messages and chats: sendText, sendList, sendMedia,
sendReaction, updateMessage (edit), markMessageAsRead, getBase64FromMediaMessage, archiveChat,
fetchProfile, whatsappNumbers; and what WhatsApp itself would say (is a number on WhatsApp, a
profile). Registered on import (demo/app.py); demo/v2.py reuses the handlers that did not change.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import time
from typing import Any

from gateway_tui.demo import chats as chat_store
from gateway_tui.demo import validation as schemas
from gateway_tui.demo import versions
from gateway_tui.demo.conditions import CONNECTION_CLOSED
from gateway_tui.demo.data import (
    BUSINESS_PROFILES,
    CONTACT_NAMES,
    GROUP_DOMAIN,
    PERSON_DOMAIN,
    DemoState,
    Instance,
    Message,
    is_on_whatsapp,
    number_of,
)
from gateway_tui.demo.errors import GatewayError, not_connected_text
from gateway_tui.demo.routing import Call, Reply, instance_route, refuse_unless_open
from gateway_tui.demo.session import labelled, plain_500
from gateway_tui.demo.validation import create_jid

DEFAULT_PROFILE_STATUS = "Hey there! I am using WhatsApp."

# ---------------------------------------------------------------- what WhatsApp would say


def exists_on_whatsapp(state: DemoState, instance: Instance, jid: str) -> bool:
    if jid.endswith(GROUP_DOMAIN):
        return jid in instance.groups
    if jid.endswith(PERSON_DOMAIN):
        return is_on_whatsapp(number_of(jid))
    if jid.endswith("@lid"):
        # Before 2.4.0-rc2 the server's onWhatsApp check knows no @lid: a send to one answers
        # exists: false on every line (the issue threads; 2.4.0-rc2 takes it).
        return versions.at_least(state, "2.4.0") and jid in instance.workspace.lids
    return True  # @broadcast addresses


def recipient_jid(state: DemoState, instance: Instance, number: str) -> str:
    """The JID for ``number``, or 400 ``[{"exists": false, ...}]`` when it is not on WhatsApp."""
    jid = create_jid(number)
    if not exists_on_whatsapp(state, instance, jid):
        raise GatewayError(400, [{"exists": False, "jid": jid, "number": number_of(jid)}])
    return jid


def _sent_result(message: Message) -> dict[str, Any]:
    content = (
        {"listMessage": message.list_message}
        if message.list_message
        else {"conversation": message.text}
    )
    return {
        "key": message.key,
        "message": content,
        "messageTimestamp": str(message.timestamp),
        "status": message.status,
    }


def _profile(jid: str) -> dict[str, Any]:
    number = number_of(jid)
    business = BUSINESS_PROFILES.get(number)
    profile: dict[str, Any] = {"wuid": jid}
    if name := CONTACT_NAMES.get(number):
        profile["name"] = name
    profile["numberExists"] = True
    if business is None:
        return profile | {"picture": None, "status": DEFAULT_PROFILE_STATUS, "isBusiness": False}
    profile |= {
        "picture": f"https://pps.whatsapp.net/v/t61.24694-24/{number}_n.jpg",
        "status": business["status"],
        "isBusiness": True,
        "email": business["email"],
        "description": business["description"],
    }
    # The real server leaves out a website the profile does not have.
    if business["website"]:
        profile["website"] = business["website"]
    return profile


# ---------------------------------------------------------------- messages and chats


@instance_route("POST", "/message/sendList/{instance}")
async def send_list(call: Call, instance: Instance) -> Reply:
    body = call.validated(schemas.SEND_LIST)
    return await deliver_list(
        call, instance, body["number"], body["listMessage"], body.get("options", {}).get("delay")
    )


async def deliver_list(
    call: Call, instance: Instance, number: str, fields: dict[str, Any], delay: int | None
) -> Reply:
    """Send a list message whose body passed its line's schema."""
    refuse_unless_open(instance, "onWhatsApp", plain_500)
    jid = recipient_jid(call.state, instance, number)
    if number_of(jid) in call.state.not_on_whatsapp:  # the demo's knob (campaign tests)
        raise GatewayError(400, [{"exists": False, "jid": jid, "number": number_of(jid)}])
    if delay and delay > 0:
        # The real server shows the presence for the whole delay before it answers.
        await asyncio.sleep(delay / 1000)
    list_message = {
        key: fields[key]
        for key in ("title", "description", "buttonText", "footerText")
        if key in fields
    }
    list_message |= {"listType": "PRODUCT_LIST", "sections": fields["sections"], "contextInfo": {}}
    message = instance.add_sent_message(
        jid, call.state.new_message_id(), fields["title"], list_message
    )
    call.state.sends_by_number[number_of(jid)] += 1
    announce(call, instance, message)
    return 201, _sent_result(message)


@instance_route("PUT", "/chat/updateMessage/{instance}")
async def update_message(call: Call, instance: Instance) -> Reply:
    body = call.validated(schemas.UPDATE_MESSAGE)
    refuse_unless_open(instance, "sendMessage", lambda text: GatewayError(400, [text]))
    jid = create_jid(body["number"])
    key = body["key"]
    chat = instance.chats.get(jid)
    message = chat.find(key["id"]) if chat else None
    if message is None or create_jid(key["remoteJid"]) != jid:
        raise GatewayError(400, [f"Error: message {key['id']} not found in chat {jid}"])
    if not message.key["fromMe"]:
        raise GatewayError(400, ["Error: only messages sent by this instance can be edited"])
    message.text = body["text"]
    message.edited = True
    sent_at = time.time()
    return 200, {
        "key": {"remoteJid": jid, "fromMe": True, "id": call.state.new_message_id()},
        "message": {
            "protocolMessage": {
                "key": message.key,
                "type": "MESSAGE_EDIT",
                "editedMessage": {"conversation": body["text"]},
                "timestampMs": str(int(sent_at * 1000)),
            }
        },
        "messageTimestamp": str(int(sent_at)),
        "status": "PENDING",
    }


def reply_context(options: dict[str, Any], instance: Instance, jid: str) -> dict[str, Any] | None:
    """The contextInfo a reply carries: the quoted message's id, author and content."""
    quoted = options.get("quoted")
    if not isinstance(quoted, dict):
        return None
    key = quoted["key"]
    chat = instance.chats.get(jid)
    original = chat.find(key["id"]) if chat else None
    content = quoted.get("message")
    if original is not None:
        content = original.content or {"conversation": original.text}
    author = instance.owner if key.get("fromMe") else (key.get("participant") or jid)
    return {"stanzaId": key["id"], "participant": author, "quotedMessage": content or {}}


def announce(call: Call, instance: Instance, message: Message) -> None:
    """A message sent through the API, as a real 1.7.1 emits it (send.message)."""
    if call.state.events is not None:
        call.state.events.emit(instance, "send.message", chat_store.message_json(instance, message))
        call.state.events.marks_after_send(instance, message)


def sent_answer(message: Message, content: dict[str, Any]) -> dict[str, Any]:
    return {
        "key": message.key,
        "message": content,
        "messageTimestamp": str(message.timestamp),
        "status": message.status,
    }


@instance_route("POST", "/message/sendText/{instance}")
async def send_text(call: Call, instance: Instance) -> Reply:
    body = call.validated(schemas.SEND_TEXT)
    refuse_unless_open(instance, "onWhatsApp", plain_500)
    jid = recipient_jid(call.state, instance, body["number"])
    options = body.get("options", {})
    if options.get("delay", 0) > 0:
        await asyncio.sleep(options["delay"] / 1000)
    text = body["textMessage"]["text"]
    message = instance.add_sent_message(jid, call.state.new_message_id(), text)
    content: dict[str, Any] = {"extendedTextMessage": {"text": text}}
    if quote := reply_context(options, instance, jid):
        content["extendedTextMessage"]["contextInfo"] = quote
        message.content = content  # stored with its quote
    call.state.sends_by_number[number_of(jid)] += 1
    announce(call, instance, message)
    return 201, sent_answer(message, content)


_MEDIA_MIMETYPES = {
    "image": "image/jpeg",
    "video": "video/mp4",
    "audio": "audio/ogg; codecs=opus",
    "document": "application/octet-stream",
}


@instance_route("POST", "/message/sendMedia/{instance}")
async def send_media(call: Call, instance: Instance) -> Reply:
    body = call.validated(schemas.SEND_MEDIA)
    refuse_unless_open(instance, "waUploadToServer", lambda text: GatewayError(500, [text]))
    jid = recipient_jid(call.state, instance, body["number"])
    media = body["mediaMessage"]
    try:
        data = base64.b64decode(media["media"], validate=True)
    except (binascii.Error, ValueError):
        # A URL: the real server downloads it; the demo has no internet.
        raise GatewayError(500, [f"Error: getaddrinfo ENOTFOUND {media['media'][:60]}"]) from None
    kind = media["mediatype"]
    fields: dict[str, Any] = {
        "url": f"https://mmg.whatsapp.net/demo/{call.state.new_message_id()}.enc",
        "mimetype": _MEDIA_MIMETYPES[kind],
        "fileLength": str(len(data)),
    }
    if media.get("caption") and kind != "audio":
        fields["caption"] = media["caption"]
    if kind == "document":
        fields["fileName"] = media.get("fileName") or "file"
    content = {f"{kind}Message": fields}
    message = instance.add_sent_message(jid, call.state.new_message_id(), "")
    message.content = content
    message.media = data
    call.state.sends_by_number[number_of(jid)] += 1
    announce(call, instance, message)
    return 201, sent_answer(message, content)


@instance_route("POST", "/message/sendReaction/{instance}")
async def send_reaction(call: Call, instance: Instance) -> Reply:
    body = call.validated(schemas.SEND_REACTION)
    refuse_unless_open(instance, "onWhatsApp", plain_500)
    reaction = body["reactionMessage"]
    key = reaction["key"]
    jid = create_jid(key["remoteJid"])
    content = {"reactionMessage": {"key": key, "text": reaction["reaction"]}}
    message = instance.add_sent_message(jid, call.state.new_message_id(), "")
    message.content = content  # the store keeps a reaction as a message of its own
    announce(call, instance, message)
    return 201, sent_answer(message, content)


@instance_route("PUT", "/chat/markMessageAsRead/{instance}")
async def mark_read(call: Call, instance: Instance) -> Reply:
    body = call.validated(schemas.MARK_READ)
    refuse_unless_open(instance, "readMessages", labelled(500, "Read messages fail"))
    for key in body["read_messages"]:
        if key["remoteJid"] in instance.chats:
            call.state.read_receipts.append(key["id"])  # what the contacts would see
    return 201, {"message": "Read messages", "read": "success"}


@instance_route("POST", "/chat/getBase64FromMediaMessage/{instance}")
async def media_of(call: Call, instance: Instance) -> Reply:
    body = call.validated(schemas.MEDIA_OF)
    key = body["message"].get("key") or {}
    message = next(
        (
            m
            for chat in instance.chats.values()
            for m in chat.messages
            if m.key["id"] == key.get("id")
        ),
        None,
    )
    if message is None:
        raise GatewayError(400, ["Message not found"])
    refuse_unless_open(instance, "updateMediaMessage", lambda text: GatewayError(400, [text]))
    kind = chat_store.media_kind(message)
    if kind is None:
        raise GatewayError(400, ["TypeError: The message is not of type media"])
    fields = message.content[kind]
    data = chat_store.media_bytes(message)
    return 201, {
        "mediaType": kind.removesuffix("Message"),
        "fileName": fields.get("fileName"),
        "caption": fields.get("caption"),
        "size": {"fileLength": str(len(data)), "height": fields.get("height"), "width": None},
        "mimetype": fields.get("mimetype"),
        "base64": base64.b64encode(data).decode(),
    }


def archive_failure(reason: str) -> GatewayError:
    return GatewayError(
        500,
        [
            {
                "archived": False,
                "message": ["An error occurred while archiving the chat. Open a calling.", reason],
            }
        ],
    )


@instance_route("PUT", "/chat/archiveChat/{instance}")
async def archive_chat(call: Call, instance: Instance) -> Reply:
    body = call.validated(schemas.ARCHIVE_CHAT)
    if not body.get("lastMessage") and not body.get("chat"):
        # The real server then writes to the missing lastMessage (`chat: ""` counts as none).
        raise archive_failure(
            "TypeError: Cannot set properties of undefined (setting 'messageTimestamp')"
        )
    # The real server wraps every failure of this endpoint, a disconnected instance included.
    if instance.zombie:
        raise archive_failure(CONNECTION_CLOSED)
    if instance.status != "open":
        raise archive_failure(not_connected_text("chatModify"))
    if last_message := body.get("lastMessage"):
        chat_id = last_message["key"]["remoteJid"]
        chat = instance.chats.get(create_jid(chat_id))
        if chat is None or chat.find(last_message["key"]["id"]) is None:
            raise archive_failure("Error: message not found")
    elif chat_id := body.get("chat"):
        chat = instance.chats.get(create_jid(chat_id))
        if chat is None or not chat.messages:
            raise archive_failure("Error: Last message not found")
    chat.archived = body["archive"]
    # Says archived: true even when unarchiving, like the real server.
    return 201, {"chatId": chat_id, "archived": True}


@instance_route("POST", "/chat/fetchProfile/{instance}")
async def fetch_profile(call: Call, instance: Instance) -> Reply:
    body = call.validated(schemas.FETCH_PROFILE)
    refuse_unless_open(instance, "onWhatsApp", plain_500)
    if not body.get("number"):
        # Without a number the server describes the instance's own account.
        return 200, {
            "wuid": instance.owner,
            "name": instance.profile_name,
            "numberExists": True,
            "picture": instance.profile_picture_url,
            "status": instance.profile_status,
            "isBusiness": False,
        }
    jid = recipient_jid(call.state, instance, body["number"])
    return 200, _profile(jid) | call.state.profile_overrides.get(number_of(jid), {})


@instance_route("POST", "/chat/whatsappNumbers/{instance}")
async def whatsapp_numbers(call: Call, instance: Instance) -> Reply:
    body = call.validated(schemas.WHATSAPP_NUMBERS)
    # A real server reads the list before it looks at the connection; its texts have no prefix.
    if "numbers" not in body:
        raise GatewayError(500, "Cannot read properties of undefined (reading 'forEach')")
    refuse_unless_open(instance, "onWhatsApp", plain_500)
    answers = []
    for number in body["numbers"]:
        jid = create_jid(number)
        if jid.endswith(GROUP_DOMAIN):
            group = instance.groups.get(jid)
            subject = group.subject if group else None
            answers.append(
                {"jid": jid, "exists": group is not None, "number": number_of(jid), "name": subject}
            )
            continue
        exists = exists_on_whatsapp(call.state, instance, jid) and (
            number_of(jid) not in call.state.not_on_whatsapp
        )
        answer: dict[str, Any] = {"exists": exists, "jid": jid}
        if name := CONTACT_NAMES.get(number_of(jid)):
            answer["name"] = name
        answer["number"] = number_of(jid)
        answers.append(answer)
    return 200, answers
