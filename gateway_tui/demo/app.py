"""The demo gateway's HTTP side: a Starlette app answering like a real 1.7.1 server.

Payloads are plain dicts written here on purpose: the client's models are checked against
this server, so nothing is shared with ``gateway_tui.api``.

Every instance route runs the real server's guards in its order: body parsing (malformed
JSON is a 400 before anything else), does the ``{instance}`` exist (404 even without a key),
then the API key. ``DemoGateway`` wraps the routes with write counting, added latency and
fault injection.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
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
from gateway_tui.demo import validation as schemas
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
from gateway_tui.demo.errors import GatewayError, not_connected, not_connected_text, unauthorized
from gateway_tui.demo.faults import (
    FaultInjector,
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

    def group_request(
        self, schema: dict[str, Any], *, body_fallback: bool = False
    ) -> dict[str, Any]:
        """Body fields plus the ``groupJid`` query parameter, validated for a group endpoint."""
        body = self.body if isinstance(self.body, dict) else {}
        group_jid = self.query("groupJid") or (body.get("groupJid") if body_fallback else None)
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
        if instance is None:
            raise GatewayError(403, ["Missing global api key", "The global api key must be set"])
        raise unauthorized()
    if key == state.api_key or (instance is not None and key == instance.apikey):
        return
    raise unauthorized()


def _json(status: int, payload: Any) -> Response:
    return JSONResponse(payload, status_code=status)


def instance_route(method: str, path: str):
    """Register a handler for a route whose path names an instance."""

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

        _ROUTES.append(Route(path, endpoint, methods=[method]))
        return handler

    return register


def global_route(method: str, path: str):
    """Register a handler for a route that only the global key may use."""

    def register(handler: Callable[[Call], Awaitable[Reply]]):
        async def endpoint(request: Request) -> Response:
            state: DemoState = request.app.state.demo
            body = await _read_body(request)
            _authorize(request, state, None)
            return _json(*await handler(Call(request, state, body)))

        _ROUTES.append(Route(path, endpoint, methods=[method]))
        return handler

    return register


def _require_open(instance: Instance, client_method: str) -> None:
    if instance.status != "open":
        raise not_connected(client_method)


# ---------------------------------------------------------------- helpers on the WhatsApp side


def _exists_on_whatsapp(instance: Instance, jid: str) -> bool:
    if jid.endswith(GROUP_DOMAIN):
        return jid in instance.groups
    if jid.endswith(PERSON_DOMAIN):
        return is_on_whatsapp(number_of(jid))
    return True  # @lid and @broadcast addresses


def _recipient(instance: Instance, number: str) -> str:
    """The JID for ``number``, or 400 ``[{"exists": false, ...}]`` when it is not on WhatsApp."""
    jid = create_jid(number)
    if not _exists_on_whatsapp(instance, jid):
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
    _require_open(instance, "sendMessage")
    jid = _recipient(instance, body["number"])
    delay = body.get("options", {}).get("delay")
    if delay and delay > 0:
        # The real server shows the presence for the whole delay before it answers.
        await asyncio.sleep(delay / 1000)
    fields = body["listMessage"]
    list_message = {
        key: fields[key]
        for key in ("title", "description", "buttonText", "footerText")
        if key in fields
    }
    list_message |= {"listType": "PRODUCT_LIST", "sections": fields["sections"], "contextInfo": {}}
    message = instance.add_sent_message(
        jid, call.state.new_message_id(), fields["title"], list_message
    )
    return 201, _sent_result(message)


@instance_route("PUT", "/chat/updateMessage/{instance}")
async def update_message(call: Call, instance: Instance) -> Reply:
    body = call.validated(schemas.UPDATE_MESSAGE)
    _require_open(instance, "sendMessage")
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


def _archive_failure(reason: str) -> GatewayError:
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
    # The real server wraps every failure of this endpoint, a disconnected instance included.
    if instance.status != "open":
        raise _archive_failure(not_connected_text("chatModify"))
    if last_message := body.get("lastMessage"):
        chat_id = last_message["key"]["remoteJid"]
        chat = instance.chats.get(create_jid(chat_id))
        if chat is None or chat.find(last_message["key"]["id"]) is None:
            raise _archive_failure("Error: message not found")
    elif chat_id := body.get("chat"):
        chat = instance.chats.get(create_jid(chat_id))
        if chat is None or not chat.messages:
            raise _archive_failure("Error: Last message not found")
    else:
        raise _archive_failure("TypeError: Cannot read properties of undefined (reading 'key')")
    chat.archived = body["archive"]
    # Says archived: true even when unarchiving, like the real server.
    return 201, {"chatId": chat_id, "archived": True}


@instance_route("POST", "/chat/fetchProfile/{instance}")
async def fetch_profile(call: Call, instance: Instance) -> Reply:
    body = call.validated(schemas.FETCH_PROFILE)
    _require_open(instance, "onWhatsApp")
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
    return 200, _profile(_recipient(instance, body["number"]))


# ---------------------------------------------------------------- groups


@instance_route("POST", "/group/sendInvite/{instance}")
async def send_invite(call: Call, instance: Instance) -> Reply:
    values = call.body if isinstance(call.body, dict) else {}
    if isinstance(values.get("groupJid"), str):
        values = {**values, "groupJid": normalize_group_jid(values["groupJid"])}
    request = call.validated_group(values, schemas.SEND_INVITE)
    _require_open(instance, "groupInviteCode")
    jid = request["groupJid"]
    recipients = [create_jid(number) for number in request["numbers"]]
    if _group_problem(instance, jid, as_admin=True) or not all(
        _exists_on_whatsapp(instance, recipient) for recipient in recipients
    ):
        raise GatewayError(404, ["No send invite"])
    invite_url = INVITE_URL_PREFIX + instance.groups[jid].invite_code
    text = f"{request.get('description', '')}\n\n{invite_url}"
    for recipient in recipients:
        instance.add_sent_message(recipient, call.state.new_message_id(), text)
    return 200, {"send": True, "inviteUrl": invite_url}


@instance_route("PUT", "/group/updateGroupSubject/{instance}")
async def update_group_subject(call: Call, instance: Instance) -> Reply:
    request = call.group_request(schemas.UPDATE_GROUP_SUBJECT, body_fallback=True)
    _require_open(instance, "groupUpdateSubject")
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
    _require_open(instance, "groupMetadata")
    if problem := _group_problem(instance, jid):
        raise GatewayError(404, ["No participants", problem])
    return 200, {"participants": instance.groups[jid].participants}


@instance_route("GET", "/group/inviteCode/{instance}")
async def group_invite_code(call: Call, instance: Instance) -> Reply:
    jid = call.group_request(schemas.GROUP_ONLY)["groupJid"]
    _require_open(instance, "groupInviteCode")
    if problem := _group_problem(instance, jid, as_admin=True):
        raise GatewayError(404, ["No invite code", problem])
    code = instance.groups[jid].invite_code
    return 200, {"inviteUrl": INVITE_URL_PREFIX + code, "inviteCode": code}


@instance_route("PUT", "/group/revokeInviteCode/{instance}")
async def revoke_invite_code(call: Call, instance: Instance) -> Reply:
    jid = call.group_request(schemas.GROUP_ONLY)["groupJid"]
    _require_open(instance, "groupRevokeInvite")
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
    _require_open(instance, "groupFetchAllParticipating")
    with_participants = get_participants == "true"
    return 200, [
        group.summary(with_participants=with_participants) for group in instance.groups.values()
    ]


# ---------------------------------------------------------------- instances and settings


@global_route("GET", "/instance/fetchInstances")
async def fetch_instances(call: Call) -> Reply:
    state = call.state
    if name := call.query("instanceName"):
        instance = state.instances.get(name)
        if instance is None:
            raise GatewayError(404, [f'Instance "{name}" not found'])
        # With a name, the real server answers one object, not an array.
        return 200, instance.fetch_item(state.server_url)
    return 200, [
        instance.fetch_item(state.server_url) for instance in list(state.instances.values())
    ]


@global_route("POST", "/instance/create")
async def create_instance(call: Call) -> Reply:
    body = call.validated(schemas.CREATE_INSTANCE)
    name = body["instanceName"]
    if name in call.state.instances:
        raise GatewayError(403, [f'This name "{name}" is already in use.'])
    instance = call.state.create_instance(name, body.get("token"))
    return 201, {
        "instance": {
            "instanceName": name,
            "instanceId": instance.instance_id,
            "integration": body.get("integration", "WHATSAPP-BAILEYS"),
            "webhook_wa_business": None,
            "access_token_wa_business": "",
            "status": "created",
        },
        "hash": {"apikey": instance.apikey},
        "settings": instance.settings,
    }


def _success(message: str) -> dict[str, Any]:
    return {"status": "SUCCESS", "error": False, "response": {"message": message}}


@instance_route("GET", "/instance/connectionState/{instance}")
async def connection_state(call: Call, instance: Instance) -> Reply:
    return 200, {"instance": {"instanceName": instance.name, "state": instance.status}}


@instance_route("DELETE", "/instance/logout/{instance}")
async def logout_instance(call: Call, instance: Instance) -> Reply:
    if instance.status != "open":
        raise GatewayError(400, [f'The "{instance.name}" instance is not connected'])
    instance.status = "close"
    return 200, {
        "status": "SUCCESS",
        "error": False,
        "response": {"message": "Instance logged out"},
    }


@instance_route("DELETE", "/instance/delete/{instance}")
async def delete_instance(call: Call, instance: Instance) -> Reply:
    if instance.status == "open":
        raise GatewayError(400, [f'The "{instance.name}" instance needs to be disconnected'])
    del call.state.instances[instance.name]
    return 200, _success("Instance deleted")


@instance_route("GET", "/settings/find/{instance}")
async def find_settings(call: Call, instance: Instance) -> Reply:
    return 200, dict(instance.settings)


@instance_route("POST", "/settings/set/{instance}")
async def set_settings(call: Call, instance: Instance) -> Reply:
    body = call.validated(schemas.SETTINGS)
    instance.settings = {flag: body[flag] for flag in SETTING_FLAGS}
    instance.settings["msg_call"] = body.get("msg_call", "")
    return 201, {"settings": {"instanceName": instance.name, "settings": dict(instance.settings)}}


# The chat store: findChats, findMessages, findContacts, findStatusMessage, whatsappNumbers.
for _method, _path, _handler in chat_store.ROUTES:
    instance_route(_method, _path)(_handler)


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
        self._routes = Starlette(
            routes=_ROUTES,
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
        if method.upper() in WRITE_METHODS:
            self.state.record_write(method, path, _header(scope, b"x-request-id"))
        if self.latency_ms > 0:
            await asyncio.sleep(self.latency_ms / 1000)
        # Route on the path as sent, like the real (Express) server: "%2F" inside an instance
        # name must not split the segment. Handlers decode the parameter themselves.
        raw_path = scope.get("raw_path")
        if raw_path:
            scope = {**scope, "path": raw_path.decode("latin-1")}
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
        else:
            await send_response(send, *canned_response(rule, method, path))
