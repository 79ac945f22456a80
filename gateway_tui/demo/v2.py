"""The demo gateway as a 2.x server answers (Evolution API 2.3.6, as recorded; the later
releases' differences are in demo/versions.py).

The routes that did not change are the 1.7.1 demo's own handlers; the ones that did (verbs,
flat camelCase bodies, flat fetchInstances rows, paged findMessages) are written here, from the
recordings of a real 2.3.6 (``../shared/recordings/v2.3.6*``). Like the rest of the demo, this
shares nothing with ``gateway_tui.core.api``.
"""

from __future__ import annotations

import hashlib
import math
import time
from typing import Any

from starlette.routing import Route

from gateway_tui.demo import app as v1
from gateway_tui.demo import chats as chat_store
from gateway_tui.demo import contacts as contact_book
from gateway_tui.demo import lifecycle, message_ids, message_routes, more_routes, versions
from gateway_tui.demo.data import SETTING_FLAGS, DemoState, Instance
from gateway_tui.demo.errors import GatewayError, not_connected_text, unauthorized
from gateway_tui.demo.lifecycle import EVENTS
from gateway_tui.demo.routing import JSON_NULL
from gateway_tui.demo.validation import create_jid, list_sections

CLIENT_NAME = versions.CLIENT_NAME
# A delete answers 200 at once; the instance goes a moment later (as recorded: still listed
# right after, gone 1.5 s on).
DELETE_SECONDS = 1.5

# Up to this many rows, fetchInstances counts each open instance's store (building it).
COUNTED_ROWS = 50

V2_ROUTES: list[Route] = []
_STRING = {"type": "string"}
_BOOLEAN = {"type": "boolean"}

# 2.x names of the settings, in the order the server lists and requires them.
SETTINGS_V2 = {
    "reject_call": "rejectCall",
    "msg_call": "msgCall",
    "groups_ignore": "groupsIgnore",
    "always_online": "alwaysOnline",
    "read_messages": "readMessages",
    "read_status": "readStatus",
    "sync_full_history": "syncFullHistory",
}
_REQUIRED_SETTINGS = [SETTINGS_V2[flag] for flag in SETTING_FLAGS]

SEND_LIST = {
    "type": "object",
    "properties": {
        "number": _STRING,
        "title": _STRING,
        "description": _STRING,
        "footerText": _STRING,
        "buttonText": _STRING,
        "delay": {"type": "integer"},
        "sections": list_sections(not_empty=False),
    },
    "required": ["number", "title", "footerText", "buttonText", "sections"],
}
SETTINGS = {
    "type": "object",
    "properties": {**dict.fromkeys(_REQUIRED_SETTINGS, _BOOLEAN), "msgCall": _STRING},
    "required": _REQUIRED_SETTINGS,
}


def route(method: str, path: str, *, instance: bool = True):
    return (v1.instance_route if instance else v1.global_route)(method, path, into=V2_ROUTES)


# ---------------------------------------------------------------- instances


def _moment(seconds: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime(seconds))


def _settings(instance: Instance) -> dict[str, Any]:
    stored = instance.settings
    found = {SETTINGS_V2[k]: stored.get(k, "" if k == "msg_call" else False) for k in SETTINGS_V2}
    return found | {"wavoipToken": ""}


def instance_row(instance: Instance, count_store: bool = True) -> dict[str, Any]:
    """A fetchInstances row of 2.x: the flat Prisma row. ``count_store``: build an open
    instance's store to count it (not for thousands of rows: their counts stay 0)."""
    open_ = instance.status == "open"
    # A seeded closed instance was paired once; one created through the interface never was
    # (a real one then lists no owner and no disconnection).
    was_paired = (
        instance.status in ("close", "refused")
        and bool(instance.owner_number)
        and instance.integration_fields is None
    )
    # A fixed moment per instance: the demo's pictures must not change from run to run.
    stamp = 1763970000 + int(hashlib.sha256(instance.name.encode()).hexdigest()[:5], 16)
    workspace_counts = (0, 0, 0)
    if instance._workspace is not None or (count_store and open_):
        chats = instance.chats
        workspace_counts = (
            sum(len(chat.messages) for chat in chats.values()),
            len(instance.workspace.contacts),
            len(chats),
        )
    disconnection = {
        "disconnectionReasonCode": 401 if was_paired else None,
        "disconnectionObject": None,
        "disconnectionAt": _moment(stamp) if was_paired else None,
    }
    if instance.disconnection is not None:  # demo/conditions.py
        disconnection = {
            "disconnectionReasonCode": instance.disconnection["code"],
            "disconnectionObject": instance.disconnection["object"],
            "disconnectionAt": _moment(instance.disconnection["at"]),
        }
    return {
        "id": instance.instance_id,
        "name": instance.name,
        "connectionStatus": instance.status,
        "ownerJid": instance.owner if open_ or was_paired else None,
        "profileName": instance.profile_name if open_ else None,
        "profilePicUrl": instance.profile_picture_url if open_ else None,
        "integration": "WHATSAPP-BAILEYS",
        "number": None,
        "businessId": None,
        "token": instance.apikey,
        "clientName": CLIENT_NAME,
        **disconnection,
        "createdAt": _moment(stamp - 86400 * 30),
        "updatedAt": _moment(stamp),
        "Chatwoot": None,
        "Proxy": None,
        "Rabbitmq": None,
        "Nats": None,
        "Sqs": None,
        "Websocket": None,
        "Setting": {
            "id": "demo-setting-" + instance.instance_id[:8],
            **_settings(instance),
            "createdAt": _moment(stamp - 86400 * 30),
            "updatedAt": _moment(stamp),
            "instanceId": instance.instance_id,
        },
        "_count": dict(zip(("Message", "Contact", "Chat"), workspace_counts, strict=True)),
    }


def _settle_deletes(state: DemoState) -> None:
    now = time.monotonic()
    for name, at in list(state.deleting.items()):
        if now - at >= DELETE_SECONDS:
            del state.deleting[name]
            if name in state.instances:
                del state.instances[name]
                lifecycle.forget(state, name)


async def fetch_instances(request: Any) -> Any:
    """2.x accepts the global key (all rows) or an instance's own token (its row)."""
    state: DemoState = request.app.state.demo
    key = request.headers.get("apikey")
    if not key:
        raise unauthorized()
    _settle_deletes(state)
    lifecycle.settle(state)
    rows = list(state.instances.values())
    if key != state.api_key:
        rows = [instance for instance in rows if instance.apikey == key]
        if not rows:
            raise unauthorized()
    if name := request.query_params.get("instanceName"):
        rows = [instance for instance in rows if instance.name == name]
        if not rows:
            raise GatewayError(404, [f'Instance "{name}" not found'])
    count = len(rows) <= COUNTED_ROWS
    return v1.json_response(200, [instance_row(instance, count) for instance in rows])


V2_ROUTES.append(Route("/instance/fetchInstances", fetch_instances, methods=["GET"]))


@route("DELETE", "/instance/delete/{instance}")
async def delete_instance(call: v1.Call, instance: Instance) -> v1.Reply:
    if instance.status == "open":
        raise GatewayError(400, [f'The "{instance.name}" instance needs to be disconnected'])
    if instance.name not in call.state.deleting and call.state.events is not None:
        # 2.3.7 ends the session first; 2.3.6 only for an instance whose socket started at
        # its creation (qrcode:true, events-002).
        logged_out = versions.at_least(call.state, "2.3.7") or instance.qrcode_at_create
        call.state.events.instance_deleted(instance, logged_out=logged_out)
    call.state.deleting.setdefault(instance.name, time.monotonic())
    return 200, v1.success("Instance deleted")


@route("POST", "/instance/create", instance=False)
async def create(call: v1.Call) -> v1.Reply:
    body = call.body if isinstance(call.body, dict) else {}
    if body.get("integration") not in ("WHATSAPP-BAILEYS", "WHATSAPP-BUSINESS", "EVOLUTION"):
        raise GatewayError(400, ["Invalid integration"])
    status, reply = await lifecycle.create(call)
    instance = call.state.instances[reply["instance"]["instanceName"]]
    if call.state.events is not None:
        call.state.events.instance_created(instance)
    record = reply["instance"]
    return status, {
        "instance": {
            "instanceName": record["instanceName"],
            "instanceId": record["instanceId"],
            "integration": body["integration"],
            "webhookWaBusiness": record.get("webhook_wa_business"),
            "accessTokenWaBusiness": "",
            "status": "connecting" if instance.status == "connecting" else "close",
        },
        "hash": instance.apikey,
        "webhook": {},
        "websocket": {},
        "rabbitmq": {},
        "nats": {},
        "sqs": {},
        "settings": _settings(instance),
        **({"qrcode": reply["qrcode"]} if "qrcode" in reply else {}),
    }


@route("POST", "/instance/restart/{instance}")
async def restart(call: v1.Call, instance: Instance) -> v1.Reply:
    lifecycle.settle(call.state)
    if instance.status == "open":
        return 200, {"instance": {"instanceName": instance.name, "state": "open"}}
    # As recorded for an instance that never paired.
    return 200, {"error": True, "message": "[object Object]"}


# ---------------------------------------------------------------- settings


@route("GET", "/settings/find/{instance}")
async def find_settings(call: v1.Call, instance: Instance) -> v1.Reply:
    return 200, _settings(instance)


@route("POST", "/settings/set/{instance}")
async def set_settings(call: v1.Call, instance: Instance) -> v1.Reply:
    body = call.validated(SETTINGS)
    instance.settings = {flag: body[SETTINGS_V2[flag]] for flag in SETTING_FLAGS}
    instance.settings["msg_call"] = body.get("msgCall", "")
    applied = {k: v for k, v in _settings(instance).items() if k != "wavoipToken"}
    return 201, {"settings": {"instanceName": instance.name, "settings": applied}}


# ---------------------------------------------------------------- webhook and websocket


def _nested(call: v1.Call, name: str) -> dict[str, Any]:
    body = call.body if isinstance(call.body, dict) else {}
    inner = body.get(name)
    if not isinstance(inner, dict):
        raise GatewayError(400, [[f'instance requires property "{name}"']])
    events = inner.get("events", [])
    for index, event in enumerate(events if isinstance(events, list) else []):
        if event not in events_of(call.state):
            known = ",".join(events_of(call.state))
            raise GatewayError(
                400,
                [[f"{name}.events[{index}] is not one of enum values: {known}"]],
            )
    return inner


V2_EVENTS = tuple(
    name
    for old in EVENTS
    if old not in ("NEW_JWT_TOKEN", "CHAMA_AI_ACTION")
    for name in (
        old,
        *{
            "MESSAGES_UPSERT": ("MESSAGES_EDITED",),
            "SEND_MESSAGE": ("SEND_MESSAGE_UPDATE",),
            "TYPEBOT_CHANGE_STATUS": (
                "REMOVE_INSTANCE",
                "LOGOUT_INSTANCE",
                "INSTANCE_CREATE",
                "INSTANCE_DELETE",
                "STATUS_INSTANCE",
            ),
        }.get(old, ()),
    )
)


def events_of(state: DemoState) -> list[str]:
    """The events a webhook or websocket may tick: 2.4 adds MESSAGING_HISTORY_SET (refused
    in event lists before it)."""
    extra = ["MESSAGING_HISTORY_SET"] if versions.at_least(state, "2.4.0") else []
    return [*V2_EVENTS, *extra]


def _row(instance: Instance, stored: dict[str, Any]) -> dict[str, Any]:
    stamp = _moment(time.time())
    return {"id": "demo-" + instance.instance_id[:8], **stored, "createdAt": stamp} | {
        "updatedAt": stamp,
        "instanceId": instance.instance_id,
    }


@route("POST", "/webhook/set/{instance}")
async def set_webhook(call: v1.Call, instance: Instance) -> v1.Reply:
    inner = _nested(call, "webhook")
    if not isinstance(inner.get("url"), str):
        raise GatewayError(400, [['webhook requires property "url"']])
    enabled = inner.get("enabled") is True
    stored = {
        "url": inner["url"],  # 2.x stores any text, a URL or not
        "headers": None,
        "enabled": enabled,
        "events": (list(inner.get("events") or []) or events_of(call.state)) if enabled else [],
        "webhookByEvents": inner.get("byEvents") is True,
        "webhookBase64": inner.get("base64") is True,
    }
    lifecycle.of(call.state).webhooks[instance.name] = stored
    return 201, _row(instance, stored)


@route("GET", "/webhook/find/{instance}")
async def find_webhook(call: v1.Call, instance: Instance) -> v1.Reply:
    stored = lifecycle.of(call.state).webhooks.get(instance.name)
    return 200, _row(instance, stored) if stored else JSON_NULL


@route("POST", "/websocket/set/{instance}")
async def set_websocket(call: v1.Call, instance: Instance) -> v1.Reply:
    inner = _nested(call, "websocket")
    if "enabled" not in inner:
        raise GatewayError(400, [['websocket requires property "enabled"']])
    enabled = inner["enabled"] is True
    events = (list(inner.get("events") or []) or events_of(call.state)) if enabled else []
    stored = {"enabled": enabled, "events": events}
    lifecycle.of(call.state).websockets[instance.name] = stored
    return 201, _row(instance, stored)


@route("GET", "/websocket/find/{instance}")
async def find_websocket(call: v1.Call, instance: Instance) -> v1.Reply:
    stored = lifecycle.of(call.state).websockets.get(instance.name)
    return 200, _row(instance, stored) if stored else JSON_NULL


# ---------------------------------------------------------------- messages


@route("POST", "/message/sendList/{instance}")
async def send_list(call: v1.Call, instance: Instance) -> v1.Reply:
    body = call.validated(SEND_LIST)
    fields = {
        key: body[key]
        for key in ("title", "description", "buttonText", "footerText", "sections")
        if key in body
    }
    return await message_ids.send_once(
        call,
        instance,
        lambda: message_routes.deliver_list(
            call, instance, body["number"], fields, body.get("delay")
        ),
    )


@route("POST", "/chat/updateMessage/{instance}")
async def update_message(call: v1.Call, instance: Instance) -> v1.Reply:
    body = call.validated(v1.schemas.UPDATE_MESSAGE)
    # 2.x looks the message up in its store first, then needs the session.
    key = body["key"]
    chat = instance.chats.get(create_jid(key["remoteJid"]))
    if chat is None or chat.find(key["id"]) is None:
        raise GatewayError(400, ["Message not compatible"])
    if instance.status != "open":
        raise GatewayError(500, not_connected_text("sendMessage").removeprefix("TypeError: "))
    return await message_routes.update_message(call, instance)


@route("POST", "/chat/archiveChat/{instance}")
async def archive_chat(call: v1.Call, instance: Instance) -> v1.Reply:
    body = call.body if isinstance(call.body, dict) else {}
    if body.get("chat") and not body.get("lastMessage"):
        # 2.3.6 looks the last message up with a filter Prisma refuses: always this 500.
        raise message_routes.archive_failure(
            "PrismaClientValidationError: \nInvalid `this.prismaRepository.contact.findMany()` "
            "invocation"
        )
    return await message_routes.archive_chat(call, instance)


route("POST", "/group/updateGroupSubject/{instance}")(v1.update_group_subject)
route("POST", "/group/revokeInviteCode/{instance}")(v1.revoke_invite_code)


# ---------------------------------------------------------------- the chat store


def message_row(instance: Instance, message: Any) -> dict[str, Any]:
    data = chat_store.message_json(instance, message)
    data.pop("owner", None)
    stamp = data.get("messageTimestamp")
    if isinstance(stamp, dict):  # 1.7.1's Long object; 2.x stores a number
        data["messageTimestamp"] = message.timestamp
    data["key"] = contact_book.v2_key(instance, data["key"])  # @lid: the phone JID beside it
    return {"id": "m-" + message.key["id"], **data, "instanceId": instance.instance_id}


def _where(call: v1.Call) -> dict[str, Any]:
    body = call.body if isinstance(call.body, dict) else {}
    where = body.get("where") or {}
    if not isinstance(where, dict):
        raise GatewayError(400, [["where is not of a type(s) object"]])
    return where


@route("POST", "/chat/findChats/{instance}")
async def find_chats(call: v1.Call, instance: Instance) -> v1.Reply:
    where = _where(call)
    wanted = where.get("remoteJid")
    contacts = instance.workspace.contacts
    rows = []
    for jid, chat in instance.chats.items():
        if isinstance(wanted, str) and create_jid(wanted) != jid:
            continue
        last = max(chat.messages, key=lambda m: m.timestamp, default=None)
        at = _moment(last.timestamp if last else 0)
        rows.append(
            {
                "id": contact_book.contact_id(jid),
                "remoteJid": jid,
                "pushName": contacts.get(jid),
                "profilePicUrl": None,
                "updatedAt": at,
                "windowStart": at,
                "windowExpires": _moment((last.timestamp if last else 0) + 86400),
                "windowActive": False,
                "lastMessage": message_row(instance, last) if last else None,
                "unreadCount": 1 if chat.marked_unread else 0,
                "isSaved": True,
            }
        )
    rows.sort(key=lambda r: -(r.get("lastMessage") or {}).get("messageTimestamp", 0))
    body = call.body if isinstance(call.body, dict) else {}
    skip, take = body.get("skip") or 0, body.get("take")
    return 200, rows[skip : skip + take if isinstance(take, int) else None]


@route("POST", "/chat/findMessages/{instance}")
async def find_messages(call: v1.Call, instance: Instance) -> v1.Reply:
    where = _where(call)
    key = where.get("key") or {}
    if key.get("id") == "" or key.get("remoteJid") == "":
        raise GatewayError(400, [["The property cannot be empty"]])
    messages = [m for chat in instance.chats.values() for m in chat.messages]
    if isinstance(key.get("id"), str):
        messages = [m for m in messages if m.key["id"] == key["id"]]
    if isinstance(key.get("remoteJid"), str):
        jid = create_jid(key["remoteJid"])
        messages = [m for m in messages if m.key["remoteJid"] == jid]
    messages.sort(key=lambda m: m.timestamp, reverse=True)  # newest first, as 2.x pages
    body = call.body if isinstance(call.body, dict) else {}
    offset = body.get("offset") if isinstance(body.get("offset"), int) else 50
    page = body.get("page") if isinstance(body.get("page"), int) else 1
    offset, page = max(1, offset), max(1, page)
    pages = math.ceil(len(messages) / offset) if messages else 0
    chosen = messages[(page - 1) * offset : page * offset]
    return 200, {
        "messages": {
            "total": len(messages),
            "pages": pages,
            "currentPage": page,
            "records": [message_row(instance, m) for m in chosen],
        }
    }


# ---------------------------------------------------------------- closed instances, as 2.x says it


def _raw_error(status: int, body: Any) -> GatewayError:
    """An error whose body is not the usual envelope (2.x passes some through as they come)."""
    error = GatewayError(status, None)
    error.body = body
    return error


@route("DELETE", "/instance/logout/{instance}")
async def logout(call: v1.Call, instance: Instance) -> v1.Reply:
    # 1.7.1 logs out a connecting instance; 2.x says it is not connected (as recorded).
    lifecycle.settle(call.state)
    if instance.status != "open":
        raise GatewayError(400, [f'The "{instance.name}" instance is not connected'])
    return await lifecycle.logout(call, instance)


@route("POST", "/chat/whatsappNumbers/{instance}")
async def whatsapp_numbers(call: v1.Call, instance: Instance) -> v1.Reply:
    body = call.body if isinstance(call.body, dict) else {}
    if body.get("numbers") == []:
        # The validation error without its "response" envelope, as recorded.
        raise _raw_error(
            400,
            {
                "status": 400,
                "error": "Bad Request",
                "message": [["numbers does not meet minimum length of 1"]],
            },
        )
    if instance.status == "connecting" or instance.zombie:  # Baileys' own error, whole
        payload = {
            "statusCode": 428,
            "error": "Precondition Required",
            "message": "Connection Closed",
        }
        raise _raw_error(
            400,
            {
                "data": None,
                "isBoom": True,
                "isServer": False,
                "output": {"statusCode": 428, "payload": payload, "headers": {}},
            },
        )
    if instance.status != "open":
        raise _raw_error(400, {})  # a closed instance: an empty object, nothing else
    return await message_routes.whatsapp_numbers(call, instance)


@route("GET", "/group/fetchAllGroups/{instance}")
async def fetch_all_groups(call: v1.Call, instance: Instance) -> v1.Reply:
    if call.query("getParticipants") and (instance.status != "open" or instance.zombie):
        text = (
            "Connection Closed"
            if instance.status == "connecting" or instance.zombie
            else "Cannot convert undefined or null to object"
        )
        raise GatewayError(500, text)
    return await v1.fetch_all_groups(call, instance)


# ---------------------------------------------------------------- the conversation, flat


def _flat_to_nested(call: v1.Call, inner: str, fields: tuple[str, ...]) -> v1.Call:
    """2.x's flat body (text, mediatype … at the top; delay and quoted too) as the 1.7.1
    handler reads it, so one handler serves both lines."""
    body = call.body if isinstance(call.body, dict) else {}
    nested: dict[str, Any] = {k: body[k] for k in ("number",) if k in body}
    nested[inner] = {k: body[k] for k in fields if k in body}
    options = {k: body[k] for k in ("delay", "quoted") if k in body}
    if options:
        nested["options"] = options
    return v1.Call(call.request, call.state, nested)


def _require_fields(call: v1.Call, *names: str) -> None:
    body = call.body if isinstance(call.body, dict) else {}
    missing = [name for name in names if name not in body]
    if missing:
        raise GatewayError(400, [[f'instance requires property "{name}"' for name in missing]])


@route("POST", "/message/sendText/{instance}")
async def send_text(call: v1.Call, instance: Instance) -> v1.Reply:
    _require_fields(call, "number", "text")
    if not str(call.body["text"]).strip():
        raise GatewayError(400, ["Text is required"])  # as recorded (v2.3.6-more/070)
    nested = _flat_to_nested(call, "textMessage", ("text",))
    return await message_ids.send_once(
        call, instance, lambda: message_routes.send_text(nested, instance)
    )


@route("POST", "/message/sendMedia/{instance}")
async def send_media(call: v1.Call, instance: Instance) -> v1.Reply:
    _require_fields(call, "number", "mediatype", "media")
    fields = ("mediatype", "media", "caption", "fileName")
    nested = _flat_to_nested(call, "mediaMessage", fields)
    return await message_ids.send_once(
        call, instance, lambda: message_routes.send_media(nested, instance)
    )


@route("POST", "/message/sendReaction/{instance}")
async def send_reaction(call: v1.Call, instance: Instance) -> v1.Reply:
    _require_fields(call, "key", "reaction")
    nested = {"reactionMessage": {k: call.body[k] for k in ("key", "reaction")}}
    return await message_routes.send_reaction(v1.Call(call.request, call.state, nested), instance)


@route("POST", "/chat/markMessageAsRead/{instance}")
async def mark_read(call: v1.Call, instance: Instance) -> v1.Reply:
    _require_fields(call, "readMessages")
    nested = {"read_messages": call.body["readMessages"]}
    return await message_routes.mark_read(v1.Call(call.request, call.state, nested), instance)


# Group administration, labels, contacts, more kinds of message (demo/more_routes.py).
for _method, _path, _handler in more_routes.ROUTES_2:
    route(_method, _path)(_handler)

# ---------------------------------------------------------------- what did not change

_SAME = {
    ("GET", "/instance/connect/{instance}"),
    ("GET", "/instance/connectionState/{instance}"),
    ("POST", "/chat/fetchProfile/{instance}"),
    ("POST", "/group/sendInvite/{instance}"),
    ("GET", "/group/inviteCode/{instance}"),
    ("POST", "/chat/findStatusMessage/{instance}"),
    ("POST", "/chat/getBase64FromMediaMessage/{instance}"),
}
V2_ROUTES.extend(r for r in v1.ROUTES_1_7_1 if any((m, r.path) in _SAME for m in (r.methods or ())))


async def root(request: Any) -> Any:
    """GET /: 2.x adds clientName and whatsappWebVersion, drops swagger (2.3.7: manager)."""
    return v1.json_response(200, versions.root_body(request.app.state.demo))


V2_ROUTES.append(Route("/", root, methods=["GET"]))
