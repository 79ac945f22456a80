"""The demo gateway's HTTP side: a Starlette app answering like a real 1.7.1 server.

Payloads are plain dicts written here on purpose: the client's models are checked against
this server, so nothing is shared with ``gateway_tui.core.api``.

Every instance route runs the real server's guards in its order: body parsing (malformed
JSON is a 400 before anything else), does the ``{instance}`` exist (404 even without a key),
then the API key. ``DemoGateway`` wraps the routes with write counting, added latency and
fault injection.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import contextlib
import json
import threading
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from gateway_tui.demo import chats as chat_store
from gateway_tui.demo import lifecycle, more_routes, versions
from gateway_tui.demo import validation as schemas
from gateway_tui.demo.conditions import CONNECTION_CLOSED
from gateway_tui.demo.data import (
    BUSINESS_PROFILES,
    CONTACT_NAMES,
    GROUP_DOMAIN,
    INVITE_URL_PREFIX,
    PERSON_DOMAIN,
    SETTING_FLAGS,
    DemoState,
    Instance,
    Message,
    is_on_whatsapp,
    number_of,
)
from gateway_tui.demo.errors import GatewayError, not_connected_text, unauthorized
from gateway_tui.demo.faults import (
    FaultInjector,
    answer_dropper,
    canned_response,
    drop_connection,
    hide_dropped_connection_logs,
    send_response,
    stall,
)
from gateway_tui.demo.validation import create_jid, normalize_group_jid, schema_errors

WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
DEFAULT_PROFILE_STATUS = "Hey there! I am using WhatsApp."

Reply = tuple[int, Any]


@dataclass
class Call:
    """A request that got past body parsing, with the demo state it acts on."""

    request: Request
    state: DemoState
    body: Any

    def query(self, name: str) -> str | None:
        return self.request.query_params.get(name)

    def validated(self, schema: dict[str, Any]) -> dict[str, Any]:
        """The body, or 400 with ``[["text", ...]]`` as the real server's body validation does."""
        if errors := schema_errors(self.body, schema):
            raise GatewayError(400, [[error.message for error in errors]])
        return self.body

    def validated_group(self, values: Any, schema: dict[str, Any]) -> dict[str, Any]:
        """``values``, or 400 with ``[{"property", "message"}]`` as group endpoints report."""
        if errors := schema_errors(values, schema):
            raise GatewayError(400, [dict(error._asdict()) for error in errors])
        return values

    def group_request(self, schema: dict[str, Any]) -> dict[str, Any]:
        """Body fields plus the group JID, validated for a group endpoint.

        The JID comes from the body, else from the ``groupJid`` query parameter (as the real
        server's groupValidate takes it), with "@g.us" appended when missing.
        """
        body = self.body if isinstance(self.body, dict) else {}
        group_jid = body.get("groupJid") or self.query("groupJid")
        if not group_jid or not isinstance(group_jid, str):
            raise GatewayError(
                400,
                ["The group id needs to be informed in the query", 'ex: "groupJid=120362@g.us"'],
            )
        return self.validated_group({**body, "groupJid": normalize_group_jid(group_jid)}, schema)


# ---------------------------------------------------------------- guards and routing

_ROUTES: list[Route] = []


async def _read_body(request: Request) -> Any:
    raw = await request.body()
    if not raw.strip() or "json" not in request.headers.get("content-type", ""):
        return {}
    try:
        return json.loads(raw)
    except ValueError as exc:
        text = raw.decode("utf-8", "replace")
        position = getattr(exc, "pos", 0)
        message = (
            f"Unexpected token {text[position]} in JSON at position {position}"
            if position < len(text.rstrip())
            else "Unexpected end of JSON input"
        )
        # Like the real server's body parser: status 400, but "error" says 500's phrase.
        raise GatewayError(400, message, error="Internal Server Error") from None


def _authorize(request: Request, state: DemoState, instance: Instance | None) -> None:
    """Global key: every route. An instance's own key: only that instance's routes."""
    key = request.headers.get("apikey")
    if not key:
        if instance is None and not state.api_version.startswith("2"):  # 2.x: 401 as ever
            raise GatewayError(403, ["Missing global api key", "The global api key must be set"])
        raise unauthorized()
    if key == state.api_key or (instance is not None and key == instance.apikey):
        return
    raise unauthorized()


# A handler's answer that is the JSON literal null (2.x's find before any set); None is an
# empty body.
JSON_NULL: Any = object()


def _json(status: int, payload: Any) -> Response:
    if payload is None:  # an empty body, as a real server sends when it swallowed an error
        return Response(status_code=status)
    if payload is JSON_NULL:
        return Response(b"null", status_code=status, media_type="application/json")
    return _JSONResponse(payload, status_code=status)


class _JSONResponse(JSONResponse):
    def render(self, content: Any) -> bytes:
        try:
            return super().render(content)
        except UnicodeEncodeError:
            # A lone surrogate (the hostile data set): Node's JSON.stringify writes "\ud800".
            return json.dumps(content, separators=(",", ":")).encode("ascii")


def instance_route(method: str, path: str, into: list[Route] | None = None):
    """Register a handler for a route whose path names an instance (in ``into``: the 1.7.1
    routes unless told)."""

    def register(handler: Callable[[Call, Instance], Awaitable[Reply]]):
        async def endpoint(request: Request) -> Response:
            state: DemoState = request.app.state.demo
            body = await _read_body(request)
            name = unquote(request.path_params["instance"])
            instance = state.instances.get(name)
            if instance is None:
                raise GatewayError(404, [f'The "{name}" instance does not exist'])
            _authorize(request, state, instance)
            return _json(*await handler(Call(request, state, body), instance))

        (_ROUTES if into is None else into).append(Route(path, endpoint, methods=[method]))
        return handler

    return register


def global_route(method: str, path: str, into: list[Route] | None = None):
    """Register a handler for a route that only the global key may use."""

    def register(handler: Callable[[Call], Awaitable[Reply]]):
        async def endpoint(request: Request) -> Response:
            state: DemoState = request.app.state.demo
            body = await _read_body(request)
            _authorize(request, state, None)
            return _json(*await handler(Call(request, state, body)))

        (_ROUTES if into is None else into).append(Route(path, endpoint, methods=[method]))
        return handler

    return register


def _require_open(
    instance: Instance, client_method: str, failure: Callable[[str], GatewayError]
) -> None:
    """A session call fails on an instance that is not open, each route in its own way.

    ``failure`` turns the session's error text into the route's answer, as a real 1.7.1
    wraps it (checked against one by tests/recorded/test_demo_agrees.py).
    """
    if instance.zombie:  # listed open, its socket closed (demo/conditions.py)
        raise failure(CONNECTION_CLOSED)
    if instance.status != "open":
        raise failure(not_connected_text(client_method))


def _plain_500(text: str) -> GatewayError:
    # sendList and fetchProfile: the exception's message alone, without "TypeError: ".
    return GatewayError(500, text.removeprefix("TypeError: ").removeprefix("Error: "))


def _labelled(status: int, label: str) -> Callable[[str], GatewayError]:
    return lambda text: GatewayError(status, [label, text])


# ---------------------------------------------------------------- helpers on the WhatsApp side


def _exists_on_whatsapp(state: DemoState, instance: Instance, jid: str) -> bool:
    if jid.endswith(GROUP_DOMAIN):
        return jid in instance.groups
    if jid.endswith(PERSON_DOMAIN):
        return is_on_whatsapp(number_of(jid))
    if jid.endswith("@lid"):
        # Before 2.4.0-rc2 the server's onWhatsApp check knows no @lid: a send to one answers
        # exists: false on every line (the issue threads; 2.4.0-rc2 takes it).
        return versions.at_least(state, "2.4.0") and jid in instance.workspace.lids
    return True  # @broadcast addresses


def _recipient(state: DemoState, instance: Instance, number: str) -> str:
    """The JID for ``number``, or 400 ``[{"exists": false, ...}]`` when it is not on WhatsApp."""
    jid = create_jid(number)
    if not _exists_on_whatsapp(state, instance, jid):
        raise GatewayError(400, [{"exists": False, "jid": jid, "number": number_of(jid)}])
    return jid


def _group_problem(instance: Instance, jid: str, *, as_admin: bool = False) -> str | None:
    """Why WhatsApp would refuse this group operation, as the error text Baileys gives."""
    group = instance.groups.get(jid)
    if group is None:
        return "Error: item-not-found"
    if as_admin and group.role_of(instance.owner) is None:
        return "Error: not-authorized"
    return None


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
    _require_open(instance, "onWhatsApp", _plain_500)
    jid = _recipient(call.state, instance, number)
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
    _announce(call, instance, message)
    return 201, _sent_result(message)


@instance_route("PUT", "/chat/updateMessage/{instance}")
async def update_message(call: Call, instance: Instance) -> Reply:
    body = call.validated(schemas.UPDATE_MESSAGE)
    _require_open(instance, "sendMessage", lambda text: GatewayError(400, [text]))
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


def _quote(options: dict[str, Any], instance: Instance, jid: str) -> dict[str, Any] | None:
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


def _announce(call: Call, instance: Instance, message: Message) -> None:
    """A message sent through the API, as a real 1.7.1 emits it (send.message)."""
    if call.state.events is not None:
        call.state.events.emit(instance, "send.message", chat_store.message_json(instance, message))
        call.state.events.marks_after_send(instance, message)


def _sent_answer(message: Message, content: dict[str, Any]) -> dict[str, Any]:
    return {
        "key": message.key,
        "message": content,
        "messageTimestamp": str(message.timestamp),
        "status": message.status,
    }


@instance_route("POST", "/message/sendText/{instance}")
async def send_text(call: Call, instance: Instance) -> Reply:
    body = call.validated(schemas.SEND_TEXT)
    _require_open(instance, "onWhatsApp", _plain_500)
    jid = _recipient(call.state, instance, body["number"])
    options = body.get("options", {})
    if options.get("delay", 0) > 0:
        await asyncio.sleep(options["delay"] / 1000)
    text = body["textMessage"]["text"]
    message = instance.add_sent_message(jid, call.state.new_message_id(), text)
    content: dict[str, Any] = {"extendedTextMessage": {"text": text}}
    if quote := _quote(options, instance, jid):
        content["extendedTextMessage"]["contextInfo"] = quote
        message.content = content  # stored with its quote
    call.state.sends_by_number[number_of(jid)] += 1
    _announce(call, instance, message)
    return 201, _sent_answer(message, content)


_MEDIA_MIMETYPES = {
    "image": "image/jpeg",
    "video": "video/mp4",
    "audio": "audio/ogg; codecs=opus",
    "document": "application/octet-stream",
}


@instance_route("POST", "/message/sendMedia/{instance}")
async def send_media(call: Call, instance: Instance) -> Reply:
    body = call.validated(schemas.SEND_MEDIA)
    _require_open(instance, "waUploadToServer", lambda text: GatewayError(500, [text]))
    jid = _recipient(call.state, instance, body["number"])
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
    _announce(call, instance, message)
    return 201, _sent_answer(message, content)


@instance_route("POST", "/message/sendReaction/{instance}")
async def send_reaction(call: Call, instance: Instance) -> Reply:
    body = call.validated(schemas.SEND_REACTION)
    _require_open(instance, "onWhatsApp", _plain_500)
    reaction = body["reactionMessage"]
    key = reaction["key"]
    jid = create_jid(key["remoteJid"])
    content = {"reactionMessage": {"key": key, "text": reaction["reaction"]}}
    message = instance.add_sent_message(jid, call.state.new_message_id(), "")
    message.content = content  # the store keeps a reaction as a message of its own
    _announce(call, instance, message)
    return 201, _sent_answer(message, content)


@instance_route("PUT", "/chat/markMessageAsRead/{instance}")
async def mark_read(call: Call, instance: Instance) -> Reply:
    body = call.validated(schemas.MARK_READ)
    _require_open(instance, "readMessages", _labelled(500, "Read messages fail"))
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
    _require_open(instance, "updateMediaMessage", lambda text: GatewayError(400, [text]))
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
    _require_open(instance, "onWhatsApp", _plain_500)
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
    jid = _recipient(call.state, instance, body["number"])
    return 200, _profile(jid) | call.state.profile_overrides.get(number_of(jid), {})


@instance_route("POST", "/chat/whatsappNumbers/{instance}")
async def whatsapp_numbers(call: Call, instance: Instance) -> Reply:
    body = call.validated(schemas.WHATSAPP_NUMBERS)
    # A real server reads the list before it looks at the connection; its texts have no prefix.
    if "numbers" not in body:
        raise GatewayError(500, "Cannot read properties of undefined (reading 'forEach')")
    _require_open(instance, "onWhatsApp", _plain_500)
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
        exists = _exists_on_whatsapp(call.state, instance, jid) and (
            number_of(jid) not in call.state.not_on_whatsapp
        )
        answer: dict[str, Any] = {"exists": exists, "jid": jid}
        if name := CONTACT_NAMES.get(number_of(jid)):
            answer["name"] = name
        answer["number"] = number_of(jid)
        answers.append(answer)
    return 200, answers


# ---------------------------------------------------------------- groups


@instance_route("POST", "/group/sendInvite/{instance}")
async def send_invite(call: Call, instance: Instance) -> Reply:
    # Unlike the other group routes, the real server validates the body as it is: no query
    # fallback, no "@g.us" added before the schema (the lookup below is lenient).
    request = call.validated_group(
        call.body if isinstance(call.body, dict) else {}, schemas.SEND_INVITE
    )
    # The real server swallows the reason: every failure is the same 404.
    _require_open(instance, "groupInviteCode", lambda _text: GatewayError(404, ["No send invite"]))
    jid = normalize_group_jid(request["groupJid"])
    recipients = [create_jid(number) for number in request["numbers"]]
    if _group_problem(instance, jid, as_admin=True) or not all(
        _exists_on_whatsapp(call.state, instance, recipient) for recipient in recipients
    ):
        raise GatewayError(404, ["No send invite"])
    invite_url = INVITE_URL_PREFIX + instance.groups[jid].invite_code
    text = f"{request.get('description', '')}\n\n{invite_url}"
    for recipient in recipients:
        instance.add_sent_message(recipient, call.state.new_message_id(), text)
    return 200, {"send": True, "inviteUrl": invite_url}


@instance_route("PUT", "/group/updateGroupSubject/{instance}")
async def update_group_subject(call: Call, instance: Instance) -> Reply:
    request = call.group_request(schemas.UPDATE_GROUP_SUBJECT)
    _require_open(instance, "groupUpdateSubject", _labelled(500, "Error updating group subject"))
    jid = request["groupJid"]
    if problem := _group_problem(instance, jid, as_admin=True):
        raise GatewayError(500, ["Error updating group subject", problem])
    group = instance.groups[jid]
    group.subject = request["subject"]
    group.subject_owner = instance.owner
    group.subject_time = int(time.time())
    return 201, {"update": "success"}


@instance_route("GET", "/group/participants/{instance}")
async def group_participants(call: Call, instance: Instance) -> Reply:
    jid = call.group_request(schemas.GROUP_ONLY)["groupJid"]
    _require_open(instance, "groupMetadata", _labelled(404, "No participants"))
    if problem := _group_problem(instance, jid):
        raise GatewayError(404, ["No participants", problem])
    return 200, {"participants": instance.groups[jid].participants}


@instance_route("GET", "/group/inviteCode/{instance}")
async def group_invite_code(call: Call, instance: Instance) -> Reply:
    jid = call.group_request(schemas.GROUP_ONLY)["groupJid"]
    _require_open(instance, "groupInviteCode", _labelled(404, "No invite code"))
    if problem := _group_problem(instance, jid, as_admin=True):
        raise GatewayError(404, ["No invite code", problem])
    code = instance.groups[jid].invite_code
    return 200, {"inviteUrl": INVITE_URL_PREFIX + code, "inviteCode": code}


@instance_route("PUT", "/group/revokeInviteCode/{instance}")
async def revoke_invite_code(call: Call, instance: Instance) -> Reply:
    jid = call.group_request(schemas.GROUP_ONLY)["groupJid"]
    _require_open(instance, "groupRevokeInvite", _labelled(404, "Revoke error"))
    if problem := _group_problem(instance, jid, as_admin=True):
        raise GatewayError(404, ["Revoke error", problem])
    group = instance.groups[jid]
    group.invite_code = call.state.new_invite_code()
    return 201, {"revoked": True, "inviteCode": group.invite_code}


@instance_route("GET", "/group/fetchAllGroups/{instance}")
async def fetch_all_groups(call: Call, instance: Instance) -> Reply:
    get_participants = call.query("getParticipants")
    if not get_participants:
        raise GatewayError(400, ["The getParticipants needs to be informed in the query"])
    call.validated_group({"getParticipants": get_participants}, schemas.GET_PARTICIPANTS)
    _require_open(instance, "groupFetchAllParticipating", _labelled(404, "Error fetching group"))
    with_participants = get_participants == "true"
    return 200, [
        group.summary(with_participants=with_participants) for group in instance.groups.values()
    ]


# ---------------------------------------------------------------- instances and settings


@global_route("GET", "/instance/fetchInstances")
async def fetch_instances(call: Call) -> Reply:
    state = call.state
    lifecycle.settle(state)
    if name := call.query("instanceName"):
        instance = state.instances.get(name)
        if instance is None:
            raise GatewayError(404, [f'Instance "{name}" not found'])
        # With a name, the real server answers one object, not an array.
        return 200, instance.fetch_item(state.server_url)
    # A real 1.7.1 also looks an instance up by its id or its number (an array then).
    for field_name, key in (("instanceId", "instance_id"), ("number", "owner_number")):
        if wanted := call.query(field_name):
            found = [i for i in state.instances.values() if getattr(i, key) == wanted]
            if not found:
                raise GatewayError(404, [f'Instance "{wanted}" not found'])
            return 200, [i.fetch_item(state.server_url) for i in found]
    return 200, [
        instance.fetch_item(state.server_url) for instance in list(state.instances.values())
    ]


def success(message: str) -> dict[str, Any]:
    return {"status": "SUCCESS", "error": False, "response": {"message": message}}


@instance_route("DELETE", "/instance/delete/{instance}")
async def delete_instance(call: Call, instance: Instance) -> Reply:
    if instance.status == "open":
        raise GatewayError(400, [f'The "{instance.name}" instance needs to be disconnected'])
    del call.state.instances[instance.name]
    lifecycle.forget(call.state, instance.name)
    return 200, success("Instance deleted")


@instance_route("GET", "/settings/find/{instance}")
async def find_settings(call: Call, instance: Instance) -> Reply:
    return 200, dict(instance.settings)


@instance_route("POST", "/settings/set/{instance}")
async def set_settings(call: Call, instance: Instance) -> Reply:
    body = call.validated(schemas.SETTINGS)
    instance.settings = {flag: body[flag] for flag in SETTING_FLAGS}
    instance.settings["msg_call"] = body.get("msg_call", "")
    return 201, {"settings": {"instanceName": instance.name, "settings": dict(instance.settings)}}


# ---------------------------------------------------------------- lifecycle (demo/lifecycle.py)

global_route("POST", "/instance/create")(lifecycle.create)
instance_route("GET", "/instance/connect/{instance}")(lifecycle.connect)
instance_route("GET", "/instance/connectionState/{instance}")(lifecycle.connection_state)
instance_route("PUT", "/instance/restart/{instance}")(lifecycle.restart)
instance_route("DELETE", "/instance/logout/{instance}")(lifecycle.logout)
instance_route("POST", "/webhook/set/{instance}")(lifecycle.set_webhook)
instance_route("GET", "/webhook/find/{instance}")(lifecycle.find_webhook)
instance_route("POST", "/websocket/set/{instance}")(lifecycle.set_websocket)
instance_route("GET", "/websocket/find/{instance}")(lifecycle.find_websocket)

# The chat store: findChats, findMessages, findContacts, findStatusMessage.
for _method, _path, _handler in chat_store.ROUTES:
    instance_route(_method, _path)(_handler)
# Group administration, labels, more kinds of message (demo/more_routes.py).
for _method, _path, _handler in more_routes.ROUTES_1:
    instance_route(_method, _path)(_handler)


async def _root(request: Request) -> Response:
    """GET /: the welcome, with the version (no key needed)."""
    return _json(
        200,
        {
            "status": 200,
            "message": "Welcome to the Evolution API, it is working!",
            "version": "1.7.1",
            "swagger": f"{request.app.state.demo.server_url}/docs",
            "documentation": "https://doc.evolution-api.com",
        },
    )


_ROUTES.append(Route("/", _root, methods=["GET"]))
# What the 1.7.1 demo answers; demo/v2.py builds the 2.x routes from these and its own.
ROUTES_1_7_1 = _ROUTES
json_response = _json


# ---------------------------------------------------------------- the ASGI app


async def _gateway_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, GatewayError)
    return _json(exc.status, exc.body)


async def _unknown_route(request: Request, exc: Exception) -> Response:
    # A wrong method on a known path is "not found" too, as on the real (Express) server.
    target = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    return _json(404, GatewayError(404, [f"Cannot {request.method} {target}"]).body)


def _header(scope: dict[str, Any], name: bytes) -> str | None:
    return next((value.decode("latin-1") for key, value in scope["headers"] if key == name), None)


class DemoGateway:
    """ASGI app: the gateway routes behind write counting, added latency and fault injection."""

    def __init__(
        self, state: DemoState, faults: FaultInjector | None = None, latency_ms: int = 0
    ) -> None:
        self.faults = faults or FaultInjector(seed=state.seed)
        self.latency_ms = latency_ms
        # Set by the server on shutdown so stalled requests give up waiting.
        self.closing = threading.Event()
        # The HTTP requests served, (monotonic time, method, path), newest last: the demo's
        # request log (socket.io's own requests are answered before they come here).
        self.requests: deque[tuple[float, str, str]] = deque(maxlen=100_000)
        routes = _ROUTES
        if state.api_version.startswith("2"):
            from gateway_tui.demo.v2 import V2_ROUTES

            routes = [*V2_ROUTES, *versions.METRICS_ROUTES]
            if versions.at_least(state, "2.4.0"):
                routes += versions.LICENCE_ROUTES
        self._routes = Starlette(
            routes=routes,
            exception_handlers={
                GatewayError: _gateway_error,
                HTTPException: _unknown_route,
            },
        )
        self._routes.router.redirect_slashes = False
        self.state = state
        hide_dropped_connection_logs()

    @property
    def state(self) -> DemoState:
        return self._routes.state.demo

    @state.setter
    def state(self, state: DemoState) -> None:
        # Handlers find the state through the Starlette app, so replacing it here is enough.
        self._routes.state.demo = state

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self._routes(scope, receive, send)
            return
        method, path = scope["method"], scope["path"]
        self.requests.append((time.monotonic(), method, path))
        if method.upper() in WRITE_METHODS:
            self.state.record_write(method, path, _header(scope, b"x-request-id"))
        if self.latency_ms > 0:
            await asyncio.sleep(self.latency_ms / 1000)
        # Route on the path as sent, like the real (Express) server: "%2F" inside an instance
        # name must not split the segment. Handlers decode the parameter themselves.
        raw_path = scope.get("raw_path")
        if raw_path:
            scope = {**scope, "path": raw_path.decode("latin-1")}
        if await versions.gate(self.state, scope, receive, send):
            return  # a 2.4 without a licence: 503 LICENSE_REQUIRED
        rule = self.faults.pick(method, path)
        if rule is None or rule.kind == "stall":
            if rule is not None:
                await stall(rule.seconds, self.closing)
            # A client that gave up during a stall or the added latency has gone before its
            # body was read: nobody is left to answer, and that is not a server error.
            with contextlib.suppress(ClientDisconnect):
                await self._routes(scope, receive, send)
        elif rule.kind == "drop_connection":
            await drop_connection(send)
        elif rule.kind == "drop_after_read":
            # The request is read and acted on; its answer never leaves (outcome unknown).
            with contextlib.suppress(ClientDisconnect):
                await self._routes(scope, receive, answer_dropper(send))
        else:
            await send_response(send, *canned_response(rule, method, path))
