"""The demo gateway's HTTP side: a Starlette app answering like a real 1.7.1 server.

Payloads are plain dicts written here on purpose: the client's models are checked against
this server, so nothing is shared with ``gateway_tui.core.api``.

Every instance route runs the real server's guards in its order (demo/routing.py). Here: the
group and instance routes, the route table (messages and chats: demo/message_routes.py; the
lifecycle, the chat store and more routes: their modules), and ``DemoGateway``, which wraps
the routes with write counting, added latency and fault injection.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections import deque
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response
from starlette.routing import Route

from gateway_tui.demo import chats as chat_store
from gateway_tui.demo import lifecycle, more_routes, versions
from gateway_tui.demo import validation as schemas
from gateway_tui.demo.data import INVITE_URL_PREFIX, SETTING_FLAGS, DemoState, Instance
from gateway_tui.demo.errors import GatewayError
from gateway_tui.demo.faults import (
    FaultInjector,
    answer_dropper,
    canned_response,
    drop_connection,
    hide_dropped_connection_logs,
    send_response,
    stall,
)

# Importing message_routes registers the messages and chats routes: first in the table.
from gateway_tui.demo.message_routes import exists_on_whatsapp
from gateway_tui.demo.routing import (
    ROUTES_1_7_1,
    Call,
    Reply,
    global_route,
    instance_route,
    json_response,
    refuse_unless_open,
)
from gateway_tui.demo.session import labelled
from gateway_tui.demo.validation import create_jid, normalize_group_jid

WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})

# ---------------------------------------------------------------- groups


def _group_problem(instance: Instance, jid: str, *, as_admin: bool = False) -> str | None:
    """Why WhatsApp would refuse this group operation, as the error text Baileys gives."""
    group = instance.groups.get(jid)
    if group is None:
        return "Error: item-not-found"
    if as_admin and group.role_of(instance.owner) is None:
        return "Error: not-authorized"
    return None


@instance_route("POST", "/group/sendInvite/{instance}")
async def send_invite(call: Call, instance: Instance) -> Reply:
    # Unlike the other group routes, the real server validates the body as it is: no query
    # fallback, no "@g.us" added before the schema (the lookup below is lenient).
    request = call.validated_group(
        call.body if isinstance(call.body, dict) else {}, schemas.SEND_INVITE
    )
    # The real server swallows the reason: every failure is the same 404.
    refuse_unless_open(
        instance, "groupInviteCode", lambda _text: GatewayError(404, ["No send invite"])
    )
    jid = normalize_group_jid(request["groupJid"])
    recipients = [create_jid(number) for number in request["numbers"]]
    if _group_problem(instance, jid, as_admin=True) or not all(
        exists_on_whatsapp(call.state, instance, recipient) for recipient in recipients
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
    refuse_unless_open(
        instance, "groupUpdateSubject", labelled(500, "Error updating group subject")
    )
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
    refuse_unless_open(instance, "groupMetadata", labelled(404, "No participants"))
    if problem := _group_problem(instance, jid):
        raise GatewayError(404, ["No participants", problem])
    return 200, {"participants": instance.groups[jid].participants}


@instance_route("GET", "/group/inviteCode/{instance}")
async def group_invite_code(call: Call, instance: Instance) -> Reply:
    jid = call.group_request(schemas.GROUP_ONLY)["groupJid"]
    refuse_unless_open(instance, "groupInviteCode", labelled(404, "No invite code"))
    if problem := _group_problem(instance, jid, as_admin=True):
        raise GatewayError(404, ["No invite code", problem])
    code = instance.groups[jid].invite_code
    return 200, {"inviteUrl": INVITE_URL_PREFIX + code, "inviteCode": code}


@instance_route("PUT", "/group/revokeInviteCode/{instance}")
async def revoke_invite_code(call: Call, instance: Instance) -> Reply:
    jid = call.group_request(schemas.GROUP_ONLY)["groupJid"]
    refuse_unless_open(instance, "groupRevokeInvite", labelled(404, "Revoke error"))
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
    refuse_unless_open(
        instance, "groupFetchAllParticipating", labelled(404, "Error fetching group")
    )
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
    return json_response(
        200,
        {
            "status": 200,
            "message": "Welcome to the Evolution API, it is working!",
            "version": "1.7.1",
            "swagger": f"{request.app.state.demo.server_url}/docs",
            "documentation": "https://doc.evolution-api.com",
        },
    )


ROUTES_1_7_1.append(Route("/", _root, methods=["GET"]))


# ---------------------------------------------------------------- the ASGI app


async def _gateway_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, GatewayError)
    return json_response(exc.status, exc.body)


async def _unknown_route(request: Request, exc: Exception) -> Response:
    # A wrong method on a known path is "not found" too, as on the real (Express) server.
    target = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    return json_response(404, GatewayError(404, [f"Cannot {request.method} {target}"]).body)


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
        routes = ROUTES_1_7_1
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
