"""The demo gateway's instance lifecycle: create, connect (QR / pairing code), a phone that
"scans", restart, logout, webhook and websocket settings — with a real 1.7.1 server's shapes,
status codes and quirks (checked with curl; gateway-behaviour-1.7.1-more.md §2-3).

The scan is the demo-side knob: ``scan(state, name)`` completes a pairing at once, and
``DemoState.auto_scan_seconds`` (when set) completes it that long after the first code was
issued. Time is read lazily: each request first ``settle``s pairings that are due, so no
background task is needed.
"""

from __future__ import annotations

import base64
import json
import random
import re
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import segno

from gateway_tui.demo.data import DemoState, Instance, new_instance
from gateway_tui.demo.errors import GatewayError

if TYPE_CHECKING:
    from gateway_tui.demo.app import Call, Reply

EVENTS = (
    "APPLICATION_STARTUP QRCODE_UPDATED MESSAGES_SET MESSAGES_UPSERT MESSAGES_UPDATE "
    "MESSAGES_DELETE SEND_MESSAGE CONTACTS_SET CONTACTS_UPSERT CONTACTS_UPDATE PRESENCE_UPDATE "
    "CHATS_SET CHATS_UPSERT CHATS_UPDATE CHATS_DELETE GROUPS_UPSERT GROUP_UPDATE "
    "GROUP_PARTICIPANTS_UPDATE CONNECTION_UPDATE LABELS_EDIT LABELS_ASSOCIATION CALL "
    "NEW_JWT_TOKEN TYPEBOT_START TYPEBOT_CHANGE_STATUS CHAMA_AI_ACTION"
).split()
# Baileys lets the first QR code live 60 s and each later one 20 s.
FIRST_CODE_SECONDS = 60.0
NEXT_CODE_SECONDS = 20.0
_PAIRING_ALPHABET = "ABCDEFGHJKLMNPQRSTVWXYZ0123456789"
_NUMBER_PATTERN = re.compile(r"^\d+[\.@\w-]+")
_URL = re.compile(r"^[a-zA-Z][\w+.-]*:\S+$|^[\w.-]+(:\d+)?(/\S*)?$")


@dataclass
class Pairing:
    """A connect under way: the code now shown, when it was issued, and for which number."""

    number: str | None
    started: float
    code: str = ""
    pairing_code: str | None = None
    issued: float = 0.0
    count: int = 0


@dataclass
class Lifecycle:
    """What the demo keeps per instance beyond data.Instance."""

    pairings: dict[str, Pairing] = field(default_factory=dict)
    webhooks: dict[str, dict[str, Any]] = field(default_factory=dict)
    websockets: dict[str, dict[str, Any]] = field(default_factory=dict)
    # How WhatsApp answers the gateway: "reachable" (codes), "offline" (a real server without
    # internet: {"count":0}) or "failing" (an exception the server swallows: an empty body).
    whatsapp: str = "reachable"


def of(state: DemoState) -> Lifecycle:
    if state.lifecycle is None:
        state.lifecycle = Lifecycle()
    return state.lifecycle


# ---------------------------------------------------------------- the phone side


def scan(state: DemoState, name: str) -> bool:
    """The phone scanned the QR (or typed the pairing code): the instance turns open."""
    pairing = of(state).pairings.pop(name, None)
    instance = state.instances.get(name)
    if pairing is None or instance is None:
        return False
    if pairing.number:
        instance.owner_number = pairing.number
    instance.status = "open"
    _announce_state(state, instance)
    if state.history_sync and state.events is not None:
        state.events.history_sync(instance, stop_at=state.history_stop_at)
    return True


def settle(state: DemoState) -> None:
    """Complete the pairings whose automatic scan is due."""
    delay = state.auto_scan_seconds
    if delay is None:
        return
    now = time.monotonic()
    for name, pairing in list(of(state).pairings.items()):
        if now - pairing.started >= delay:
            scan(state, name)


def _fake_code(rng: random.Random) -> str:
    """A text shaped like WhatsApp's: ref, noise key, identity key, adv secret (~237 chars)."""

    def b64(size: int) -> str:
        return base64.b64encode(rng.randbytes(size)).decode()

    ref = "2@" + b64(66).rstrip("=")
    return ",".join((ref, b64(32), b64(32), b64(32)))


def _issue_code(state: DemoState, pairing: Pairing) -> None:
    pairing.code = _fake_code(state.rng)
    if pairing.number:
        pairing.pairing_code = "".join(state.rng.choices(_PAIRING_ALPHABET, k=8))
    pairing.issued = time.monotonic()
    pairing.count += 1


def _qr_object(pairing: Pairing) -> dict[str, Any]:
    qr = segno.make(pairing.code, error="L", micro=False)
    body: dict[str, Any] = {}
    if pairing.pairing_code:
        body["pairingCode"] = pairing.pairing_code
    body |= {
        "code": pairing.code,
        "base64": qr.png_data_uri(scale=5, border=4),
        "count": pairing.count,
    }
    return body


def _announce_state(state: DemoState, instance: Instance) -> None:
    """connection.update over socket.io, as recorded: ``{instance, state, statusReason}``."""
    if state.events is not None:
        data = {"instance": instance.name, "state": instance.status, "statusReason": 200}
        state.events.emit(instance, "connection.update", data)


def _announce_code(state: DemoState, instance: Instance, pairing: Pairing) -> None:
    """qrcode.updated: ``{qrcode: {instance, pairingCode, code, base64}}`` (a real server
    emits it with each new code; the recordings never paired, so never saw one)."""
    if state.events is not None:
        qrcode = {"instance": instance.name, "pairingCode": pairing.pairing_code}
        qrcode |= {k: v for k, v in _qr_object(pairing).items() if k in ("code", "base64")}
        state.events.emit(instance, "qrcode.updated", {"qrcode": qrcode})


def _state_body(instance: Instance) -> dict[str, Any]:
    from gateway_tui.demo.conditions import session_state

    return {"instance": {"instanceName": instance.name, "state": session_state(instance)}}


# ---------------------------------------------------------------- handlers


async def create(call: Call) -> Reply:
    from gateway_tui.demo import validation as schemas

    body = call.validated(schemas.CREATE_INSTANCE)
    state = call.state
    name = body["instanceName"]
    if name in state.instances:
        raise GatewayError(403, [f'This name "{name}" is already in use.'])
    number = body.get("number")
    if isinstance(number, str) and number and not _NUMBER_PATTERN.match(number):
        # The validator writes the pattern with JSON.stringify (backslashes doubled).
        pattern = json.dumps(_NUMBER_PATTERN.pattern)
        raise GatewayError(400, [[f"number does not match pattern {pattern}"]])
    token = body.get("token")
    if token and any(i.apikey == token for i in state.instances.values()):
        raise GatewayError(400, ["Token already exists"])
    integration = body.get("integration")
    if integration == "WHATSAPP-BUSINESS":
        if not token:
            raise GatewayError(400, ["token is required"])
        if not number:
            raise GatewayError(400, ["number is required"])
    instance = new_instance(state.rng, name, "close", token=token, owner_number=number or None)
    instance.has_integration = integration is not None
    instance.qrcode_at_create = body.get("qrcode") is True
    # fetchInstances shows what the instance was created with (token, integration, number).
    instance.integration_fields = {
        key: body[key] for key in ("integration", "number", "token") if body.get(key)
    }
    state.instances[name] = instance
    record: dict[str, Any] = {"instanceName": name, "instanceId": instance.instance_id}
    if integration:
        record["integration"] = integration
    record |= {"webhook_wa_business": None, "access_token_wa_business": "", "status": "created"}
    if integration == "WHATSAPP-BUSINESS":
        # A Business API instance has no socket: it is open from the start.
        record["webhook_wa_business"] = f"{state.server_url}/webhook/whatsapp/{name}"
        instance.status = "open"
    reply: dict[str, Any] = {
        "instance": record,
        "hash": {"apikey": instance.apikey},
        "webhook": {},
        "websocket": {},
        "rabbitmq": {},
        "sqs": {},
        "typebot": {"enabled": False},
        "settings": dict(instance.settings),
    }
    if body.get("qrcode") and instance.status != "open":
        reply["qrcode"] = _connect(state, instance, number or None)
    return 201, reply


def _connect(state: DemoState, instance: Instance, number: str | None) -> dict[str, Any]:
    pairings = of(state).pairings
    pairing = pairings.get(instance.name)
    now = time.monotonic()
    if pairing is None or instance.status != "connecting":
        pairing = pairings[instance.name] = Pairing(number=number, started=now)
        instance.status = "connecting"
        _announce_state(state, instance)
        _issue_code(state, pairing)
        _announce_code(state, instance, pairing)
    else:
        if number and number != pairing.number:
            pairing.number = number
            pairing.pairing_code = None
        lifetime = FIRST_CODE_SECONDS if pairing.count <= 1 else NEXT_CODE_SECONDS
        if now - pairing.issued >= lifetime or (number and not pairing.pairing_code):
            _issue_code(state, pairing)
            _announce_code(state, instance, pairing)
    return _qr_object(pairing)


async def connect(call: Call, instance: Instance) -> Reply:
    settle(call.state)
    if instance.status == "open":
        return 200, _state_body(instance)
    whatsapp = of(call.state).whatsapp
    if whatsapp == "offline":
        # The socket never opens: the instance goes on trying (connecting / close) for ever.
        # 2.3.6 says connecting meanwhile; 2.3.7 says close, while its events say connecting
        # (v2.3.7-vs-2.3.6.md row 2).
        from gateway_tui.demo.versions import at_least

        instance.status = "connecting"
        _announce_state(call.state, instance)
        if at_least(call.state, "2.3.7"):
            instance.status = "close"
        return 200, {"count": 0}
    if whatsapp == "failing":
        return 200, None
    number = call.query("number") or None
    return 200, _connect(call.state, instance, number)


async def connection_state(call: Call, instance: Instance) -> Reply:
    settle(call.state)
    return 200, _state_body(instance)


async def restart(call: Call, instance: Instance) -> Reply:
    settle(call.state)
    # Only an open instance reconnects; the answer is the connection state either way.
    return 200, _state_body(instance)


async def logout(call: Call, instance: Instance) -> Reply:
    settle(call.state)
    if instance.status == "close":
        raise GatewayError(400, [f'The "{instance.name}" instance is not connected'])
    of(call.state).pairings.pop(instance.name, None)
    instance.status = "close"
    _announce_state(call.state, instance)
    return 200, {
        "status": "SUCCESS",
        "error": False,
        "response": {"message": "Instance logged out"},
    }


def _check_events(body: dict[str, Any]) -> None:
    events = body.get("events")
    if events is None:
        return
    if not isinstance(events, list):
        raise GatewayError(400, [["events is not of a type(s) array"]])
    for index, event in enumerate(events):
        if event not in EVENTS:
            raise GatewayError(
                400, [[f"events[{index}] is not one of enum values: {','.join(EVENTS)}"]]
            )


def _body(call: Call) -> dict[str, Any]:
    return call.body if isinstance(call.body, dict) else {}


async def set_webhook(call: Call, instance: Instance) -> Reply:
    body = _body(call)
    url = body.get("url")
    if "url" not in body:
        raise GatewayError(400, [['instance requires property "url"']])
    if not isinstance(url, str) or not url or not _URL.match(url):
        raise GatewayError(400, ['Invalid "url" property'])
    _check_events(body)
    enabled = body.get("enabled") is True
    if enabled and body.get("events") is None:
        raise GatewayError(500, "Cannot read properties of undefined (reading 'length')")
    stored: dict[str, Any] = {
        "url": url if enabled else "",
        "enabled": enabled,
        "events": (list(body["events"]) or list(EVENTS)) if enabled else [],
    }
    for flag in ("webhook_by_events", "webhook_base64"):
        if isinstance(body.get(flag), bool):
            stored[flag] = body[flag]
    of(call.state).webhooks[instance.name] = stored
    return 201, {"webhook": {"instanceName": instance.name, "webhook": dict(stored)}}


async def find_webhook(call: Call, instance: Instance) -> Reply:
    stored = of(call.state).webhooks.get(instance.name)
    if not stored:
        return 200, {}
    order = ("enabled", "url", "events", "webhook_by_events", "webhook_base64")
    return 200, {key: stored[key] for key in order if key in stored}


async def set_websocket(call: Call, instance: Instance) -> Reply:
    body = _body(call)
    if "enabled" not in body:
        raise GatewayError(400, [['instance requires property "enabled"']])
    if not isinstance(body["enabled"], bool):
        raise GatewayError(400, [["enabled is not of a type(s) boolean"]])
    _check_events(body)
    enabled = body["enabled"]
    if enabled and body.get("events") is None:
        raise GatewayError(500, "Cannot read properties of undefined (reading 'length')")
    events = list(body.get("events") or []) if enabled else []
    stored = {"enabled": enabled, "events": events or list(EVENTS)}
    of(call.state).websockets[instance.name] = stored
    return 201, {"websocket": {"instanceName": instance.name, "websocket": dict(stored)}}


async def find_websocket(call: Call, instance: Instance) -> Reply:
    stored = of(call.state).websockets.get(instance.name)
    return 200, dict(stored) if stored else {}


def forget(state: DemoState, name: str) -> None:
    """The instance was deleted: its pairing and settings go with it."""
    lifecycle = of(state)
    for table in (lifecycle.pairings, lifecycle.webhooks, lifecycle.websockets):
        table.pop(name, None)
