"""How each recorded request is made with ``GatewayClient``, and what its answer must become.

``operation_for(recording)`` finds the client method for a recording's method and path and
turns the recorded request into that method's arguments (``Call``). When the client cannot
send that exact request (it has no field for a part of the body, or asks in another way), the
builder raises ``NotExpressible`` with the reason; the test module's one table must list it.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from operator import attrgetter
from typing import Any

from gateway_tui.core.api import (
    GatewayClient,
    InstanceSettings,
    ListMessage,
    MessageKey,
    SendListRequest,
)
from gateway_tui.core.api.lifecycle import CreateInstanceRequest, WebhookSettings, WebsocketSettings
from gateway_tui.core.api.message_bodies import MediaUpload, Quote
from gateway_tui.core.api.models import SendListOptions
from tests.recorded.gateway import Recording


class NotExpressible(Exception):
    """The client cannot send this recorded request as it was sent."""


Run = Callable[[GatewayClient], Awaitable[Any]]
Check = Callable[[Any, Recording], None]


@dataclass(frozen=True)
class Call:
    run: Run
    check: Check  # the result of a 2xx against the recorded body
    # Top-level body keys the client always adds (create: its own token, qrcode).
    added: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Operation:
    name: str
    method: str
    pattern: re.Pattern[str]
    build: Callable[[Recording, re.Match[str]], Call]


def _body(rec: Recording) -> dict[str, Any]:
    if rec.raw_body is not None:
        raise NotExpressible("its body is not JSON: the client only sends JSON it built itself")
    body = rec.request_body
    if body is None:
        return {}
    if not isinstance(body, dict):
        raise NotExpressible("its body is not a JSON object")
    return body


def _no_query(rec: Recording, allowed: set[str] = frozenset()) -> None:
    extra = set(rec.query) - allowed
    if extra:
        raise NotExpressible(f"the client sends no {', '.join(sorted(extra))} in the query")


def _no_body(rec: Recording) -> None:
    if rec.request_body not in (None, {}):
        raise NotExpressible("the client sends no body on this route")


def _only_keys(body: dict[str, Any], allowed: set[str], what: str = "the body") -> None:
    extra = set(body) - allowed
    if extra:
        raise NotExpressible(f"the client has no field for {', '.join(sorted(extra))} in {what}")


def _require(body: dict[str, Any], *names: str, what: str = "the body") -> None:
    missing = [n for n in names if n not in body]
    if missing:
        raise NotExpressible(f"the client always sends {', '.join(missing)} in {what}")


def _typed(value: Any, kind: type, what: str) -> Any:
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise NotExpressible(
            f"{what} is a {type(value).__name__}: the client's is a {kind.__name__}"
        )
    return value


# --- result checks: the model holds the recorded values --------------------------------------


def _no_check(result: Any, rec: Recording) -> None:
    return None


def _check_instances(result: Any, rec: Recording) -> None:
    body = rec.response_body
    items = body if isinstance(body, list) else [body]
    expected = []
    for item in items:
        inner = item.get("instance", item) if isinstance(item, dict) else {}
        expected.append(
            (
                inner.get("instanceName") or inner.get("name"),
                inner.get("status") or inner.get("connectionStatus"),
            )
        )
    got = [(i.instance_name, str(i.status)) for i in result]
    assert got == expected


def _check_settings(result: Any, rec: Recording) -> None:
    body = rec.response_body
    for name in ("reject_call", "groups_ignore", "always_online", "read_messages", "read_status"):
        camel = re.sub(r"_(\w)", lambda m: m.group(1).upper(), name)
        recorded = body.get(name, body.get(camel))
        if recorded is not None:
            assert getattr(result, name) is recorded, name
    recorded_msg = body.get("msg_call", body.get("msgCall"))
    if recorded_msg:
        assert result.msg_call == recorded_msg


def _check_state(result: Any, rec: Recording) -> None:
    body = rec.response_body
    inner = body.get("instance", body) if isinstance(body, dict) else {}
    if "state" in inner:
        assert str(result.state) == inner["state"]


def _check_keys_of(*names: str) -> Check:
    """The model carries each named top-level value of the recorded body."""

    def check(result: Any, rec: Recording) -> None:
        body = rec.response_body
        for name in names:
            if isinstance(body, dict) and name in body:
                assert result.model_dump(by_alias=True).get(name) == body[name], name

    return check


def _check_length(result: Any, rec: Recording) -> None:
    """A store read: without a filter every recorded item is read (or counted as skipped);
    with one, the client may keep fewer (it filters again itself), never more."""
    body = rec.response_body
    items = body
    if isinstance(body, dict):  # 2.x's paged findMessages
        items = (body.get("messages") or {}).get("records")
    if not isinstance(items, list):
        return
    got = len(result) + getattr(result, "skipped", 0)
    assert got <= len(items), (got, len(items))
    if not rec.request_body:
        assert got == len(items), (got, len(items))


def _check_webhook(result: Any, rec: Recording) -> None:
    body = rec.response_body
    if isinstance(body, dict) and body:
        assert result.configured
        for name in ("url", "enabled", "events"):
            if name in body:
                assert getattr(result, name) == body[name], name
    else:
        assert not result.configured


def _check_websocket(result: Any, rec: Recording) -> None:
    body = rec.response_body
    if isinstance(body, dict) and body:
        assert result.configured
        for name in ("enabled", "events"):
            if name in body:
                assert getattr(result, name) == body[name], name
    else:
        assert not result.configured


def _check_created(result: Any, rec: Recording) -> None:
    inner = rec.response_body.get("instance", {})
    assert result.name == inner.get("instanceName")


def _check_numbers(result: Any, rec: Recording) -> None:
    assert [n.model_dump(by_alias=True).get("exists") for n in result] == [
        item.get("exists") for item in rec.response_body
    ]


# --- builders -------------------------------------------------------------------------------


def _instance(match: re.Match[str]) -> str:
    return match.group("i")


def b_fetch_instances(rec: Recording, m: re.Match[str]) -> Call:
    _no_query(rec, {"instanceName"})
    _no_body(rec)
    name = rec.query.get("instanceName")
    if name == "":
        raise NotExpressible("an empty instanceName: the client then sends no instanceName")
    return Call(lambda c: c.instances.fetch(name), _check_instances)


def _simple(method_name: str, check: Check = _no_check, query: set[str] = frozenset()):
    def build(rec: Recording, m: re.Match[str]) -> Call:
        _no_query(rec, query)
        _no_body(rec)
        return Call(lambda c: attrgetter(method_name)(c)(_instance(m)), check)

    return build


def b_connect(rec: Recording, m: re.Match[str]) -> Call:
    _no_query(rec, {"number"})
    _no_body(rec)
    number = rec.query.get("number")
    return Call(lambda c: c.instances.connect(_instance(m), number), _no_check)


def b_create(rec: Recording, m: re.Match[str]) -> Call:
    body = _body(rec)
    _no_query(rec)
    allowed = {"instanceName", "token", "number", "qrcode", "integration"}
    _only_keys(body, allowed)
    if "instanceName" not in body:
        raise NotExpressible("no instanceName: the client's request requires one")
    # The client always sends a token of its own making (so it can show it once) and says
    # whether it wants a QR code; the rest of the body is the recorded one.
    always = {"token", "qrcode"} | ({"integration"} if rec.line == "2" else set())
    added = frozenset(always - set(body))
    request = CreateInstanceRequest.model_validate({"token": "gtui-recorded-token"} | body)
    return Call(lambda c: c.instances.create(request), _check_created, added)


def _settings_of(body: dict[str, Any]) -> InstanceSettings:
    names = {"reject_call", "groups_ignore", "always_online", "read_messages", "read_status"}
    names |= {"sync_full_history", "msg_call"}
    _only_keys(body, names)
    for name in names - {"msg_call"}:
        if name in body:
            _typed(body[name], bool, name)
    missing = names - {"msg_call"} - set(body)
    if missing:
        raise NotExpressible(
            f"the client always sends every setting ({', '.join(sorted(missing))})"
        )
    return InstanceSettings.model_validate(body)


_CAMEL = {
    "rejectCall": "reject_call",
    "msgCall": "msg_call",
    "groupsIgnore": "groups_ignore",
    "alwaysOnline": "always_online",
    "readMessages": "read_messages",
    "readStatus": "read_status",
    "syncFullHistory": "sync_full_history",
}


def b_set_settings(rec: Recording, m: re.Match[str]) -> Call:
    _no_query(rec)
    body = _body(rec)
    if rec.line == "2":
        _only_keys(body, set(_CAMEL))
        missing = set(_CAMEL) - set(body)
        if missing:
            raise NotExpressible(f"the client always sends every setting ({sorted(missing)})")
        body = {_CAMEL[key]: value for key, value in body.items()}
    settings = _settings_of(body)
    return Call(lambda c: c.settings.set(_instance(m), settings), _no_check)


def _inner(rec: Recording, body: dict[str, Any], name: str) -> dict[str, Any]:
    """2.x wraps a webhook or websocket in {"webhook": {…}}, with camelCase flags."""
    if rec.line != "2":
        return body
    _only_keys(body, {name})
    _require(body, name)
    inner = dict(_typed(body[name], dict, name))
    renames = {"byEvents": "webhook_by_events", "base64": "webhook_base64"}
    for camel, ours in renames.items():
        if camel in inner:
            inner[ours] = inner.pop(camel)
    return inner


def b_set_webhook(rec: Recording, m: re.Match[str]) -> Call:
    _no_query(rec)
    body = _inner(rec, _body(rec), "webhook")
    _only_keys(body, {"url", "enabled", "events", "webhook_by_events", "webhook_base64"})
    _require(body, "url", "enabled", "events")
    settings = WebhookSettings.model_validate(body)
    return Call(lambda c: c.hooks.set_webhook(_instance(m), settings), _no_check)


def b_set_websocket(rec: Recording, m: re.Match[str]) -> Call:
    _no_query(rec)
    body = _inner(rec, _body(rec), "websocket")
    _only_keys(body, {"enabled", "events"})
    _require(body, "enabled")
    if rec.line != "2" or body["enabled"]:
        _require(body, "events")  # 2.x: the client leaves events out of a disabled websocket
    settings = WebsocketSettings.model_validate(body)
    return Call(lambda c: c.hooks.set_websocket(_instance(m), settings), _no_check)


def b_fetch_all_groups(rec: Recording, m: re.Match[str]) -> Call:
    _no_body(rec)
    if rec.query != {"getParticipants": "false"}:
        raise NotExpressible("the client always asks with getParticipants=false")
    return Call(lambda c: c.groups.fetch_all(_instance(m)), _check_length)


def _group(method_name: str, check: Check = _no_check):
    def build(rec: Recording, m: re.Match[str]) -> Call:
        _no_query(rec, {"groupJid"})
        _no_body(rec)
        if "groupJid" not in rec.query:
            raise NotExpressible("no groupJid: the client always names the group")
        jid = rec.query["groupJid"]
        return Call(lambda c: attrgetter(method_name)(c)(_instance(m), jid), check)

    return build


def b_subject(rec: Recording, m: re.Match[str]) -> Call:
    _no_query(rec, {"groupJid"})
    body = _body(rec)
    _only_keys(body, {"subject"})
    if "groupJid" not in rec.query:
        raise NotExpressible("groupJid in the body: the client names the group in the query")
    _require(body, "subject")
    subject = _typed(body["subject"], str, "subject")
    jid = rec.query["groupJid"]
    return Call(lambda c: c.groups.update_subject(_instance(m), jid, subject), _no_check)


def b_invite(rec: Recording, m: re.Match[str]) -> Call:
    _no_query(rec)
    body = _body(rec)
    _only_keys(body, {"groupJid", "numbers", "description"})
    _require(body, "groupJid", "numbers", "description")
    numbers = _typed(body["numbers"], list, "numbers")
    return Call(
        lambda c: c.groups.send_invite(
            _instance(m), body["groupJid"], numbers, body["description"]
        ),
        _no_check,
    )


def _list_request_v1(body: dict[str, Any]) -> SendListRequest:
    _only_keys(body, {"number", "options", "listMessage"})
    _require(body, "number", "listMessage")
    _typed(body["number"], str, "number")
    message = _typed(body["listMessage"], dict, "listMessage")
    _only_keys(
        message, {"title", "description", "buttonText", "footerText", "sections"}, "listMessage"
    )
    _require(message, "title", "description", "buttonText", "sections", what="listMessage")
    options = body.get("options")
    if options is not None:
        _only_keys(_typed(options, dict, "options"), {"delay", "presence"}, "options")
        if "delay" in options:
            _typed(options["delay"], int, "options.delay")
    return SendListRequest.model_validate(body)


def _list_request_v2(body: dict[str, Any]) -> SendListRequest:
    allowed = {"number", "title", "description", "buttonText", "footerText", "sections", "delay"}
    _only_keys(body, allowed)
    _require(body, "number", "title", "buttonText", "footerText", "sections")
    message = {k: body[k] for k in ("title", "description", "buttonText", "footerText", "sections")}
    message.setdefault("description", "")
    options = (
        SendListOptions(delay=_typed(body["delay"], int, "delay")) if "delay" in body else None
    )
    return SendListRequest(
        number=_typed(body["number"], str, "number"),
        list_message=ListMessage.model_validate(message),
        options=options,
    )


def b_send_list(rec: Recording, m: re.Match[str]) -> Call:
    _no_query(rec)
    body = _body(rec)
    if "listMessage" in body or rec.line == "1":
        request = _list_request_v1(body)
    else:
        request = _list_request_v2(body)
    return Call(lambda c: c.messages.send_list(_instance(m), request), _no_check)


def _key(value: Any, what: str) -> MessageKey:
    key = _typed(value, dict, what)
    _only_keys(key, {"id", "fromMe", "remoteJid"}, what)
    _require(key, "id", "fromMe", "remoteJid", what=what)
    return MessageKey.model_validate(key)


def b_archive(rec: Recording, m: re.Match[str]) -> Call:
    _no_query(rec)
    body = _body(rec)
    _only_keys(body, {"lastMessage", "archive", "chat"})
    if "chat" in body:
        raise NotExpressible("archives by chat: the client names the chat by its last message")
    _require(body, "lastMessage", "archive")
    last = _typed(body["lastMessage"], dict, "lastMessage")
    _only_keys(last, {"key"}, "lastMessage")
    _require(last, "key", what="lastMessage")
    key = _key(last["key"], "lastMessage.key")
    archive = _typed(body["archive"], bool, "archive")
    return Call(lambda c: c.chats.archive(_instance(m), key, archive), _no_check)


def b_update_message(rec: Recording, m: re.Match[str]) -> Call:
    _no_query(rec)
    body = _body(rec)
    _only_keys(body, {"number", "text", "key"})
    _require(body, "number", "text", "key")
    key = _key(body["key"], "key")
    number = _typed(body["number"], str, "number")
    text = _typed(body["text"], str, "text")
    return Call(lambda c: c.messages.update(_instance(m), key, text, number), _no_check)


def b_fetch_profile(rec: Recording, m: re.Match[str]) -> Call:
    _no_query(rec)
    body = _body(rec)
    _only_keys(body, {"number"})
    _require(body, "number")
    number = _typed(body["number"], str, "number")
    return Call(lambda c: c.contacts.fetch_profile(_instance(m), number), _no_check)


def b_whatsapp_numbers(rec: Recording, m: re.Match[str]) -> Call:
    _no_query(rec)
    body = _body(rec)
    _only_keys(body, {"numbers"})
    _require(body, "numbers")
    numbers = _typed(body["numbers"], list, "numbers")
    return Call(lambda c: c.contacts.whatsapp_numbers(_instance(m), numbers), _check_numbers)


def b_find_chats(rec: Recording, m: re.Match[str]) -> Call:
    _no_query(rec)
    if rec.request_body not in (None, {}):
        raise NotExpressible("a filter: the client asks for every chat")
    return Call(lambda c: c.chats.find(_instance(m)), _check_length)


def b_find_messages(rec: Recording, m: re.Match[str]) -> Call:
    _no_query(rec)
    body = _body(rec)
    # 2.x pages its answer: the client asks for each page (page, offset) itself.
    paging = frozenset({"page", "offset"} - set(body)) if rec.line == "2" else frozenset()
    if not body:
        return Call(lambda c: c.chats.find_messages(_instance(m)), _check_length, paging)
    _only_keys(body, {"where"})
    where = _typed(body["where"], dict, "where")
    _only_keys(where, {"key"}, "where")
    key = _typed(where.get("key"), dict, "where.key")
    _only_keys(key, {"id", "remoteJid"}, "where.key")
    message_id = key.get("id")
    jid = key.get("remoteJid")
    if message_id is not None and jid is not None:
        raise NotExpressible("an id and a chat at once: the client asks by one of them")
    if jid == "" or message_id == "":
        raise NotExpressible("an empty filter value: the client leaves the filter out instead")
    return Call(
        lambda c: c.chats.find_messages(_instance(m), remote_jid=jid, message_id=message_id),
        _check_length,
        paging,
    )


def b_find_contacts(rec: Recording, m: re.Match[str]) -> Call:
    _no_query(rec)
    body = _body(rec)
    if not body:
        return Call(lambda c: c.contacts.find(_instance(m)), _check_length)
    _only_keys(body, {"where"})
    where = _typed(body["where"], dict, "where")
    field = "remoteJid" if rec.line == "2" else "id"
    _only_keys(where, {field}, "where")
    jid = _typed(where.get(field), str, f"where.{field}")
    return Call(lambda c: c.contacts.find(_instance(m), jid), _check_length)


def b_find_status(rec: Recording, m: re.Match[str]) -> Call:
    _no_query(rec)
    body = _body(rec)
    if not body:
        return Call(lambda c: c.chats.statuses(_instance(m)), _check_length)
    _only_keys(body, {"where"})
    where = _typed(body["where"], dict, "where")
    _only_keys(where, {"id"}, "where")
    message_id = _typed(where.get("id"), str, "where.id")
    return Call(lambda c: c.chats.statuses(_instance(m), message_id=message_id), _check_length)


def _options(
    body: dict[str, Any], allowed: set[str]
) -> tuple[SendListOptions | None, Quote | None]:
    options = body.get("options")
    if options is None:
        return None, None
    _only_keys(_typed(options, dict, "options"), allowed | {"quoted"}, "options")
    if "delay" in options:
        _typed(options["delay"], int, "options.delay")
    quoted = None
    if "quoted" in options:
        raw = _typed(options["quoted"], dict, "options.quoted")
        _only_keys(raw, {"key", "message"}, "options.quoted")
        message = _typed(raw.get("message"), dict, "options.quoted.message")
        _only_keys(message, {"conversation"}, "options.quoted.message")
        quoted = Quote(_key(raw["key"], "options.quoted.key"), message["conversation"])
    plain = {k: v for k, v in options.items() if k != "quoted"}
    return (SendListOptions.model_validate(plain) if plain else None), quoted


def _nested(rec: Recording, body: dict[str, Any], inner: str, fields: set[str]) -> dict[str, Any]:
    """A 2.x flat body in the 1.7.1 nesting the builders read: ``fields`` go under ``inner``,
    delay and quoted under ``options`` (the client builds each line's own shape)."""
    if rec.line != "2":
        return body
    _only_keys(body, {"number", "delay", "quoted"} | fields)
    nested: dict[str, Any] = {k: body[k] for k in ("number",) if k in body}
    if fields & set(body):
        nested[inner] = {k: body[k] for k in fields if k in body}
    options = {k: body[k] for k in ("delay", "quoted") if k in body}
    if options:
        nested["options"] = options
    return nested


def b_send_text(rec: Recording, m: re.Match[str]) -> Call:
    _no_query(rec)
    body = _nested(rec, _body(rec), "textMessage", {"text"})
    _only_keys(body, {"number", "textMessage", "options"})
    _require(body, "number", "textMessage")
    message = _typed(body["textMessage"], dict, "textMessage")
    _only_keys(message, {"text"}, "textMessage")
    _require(message, "text", what="textMessage")
    number = _typed(body["number"], str, "number")
    text = _typed(message["text"], str, "textMessage.text")
    if not text.strip():
        raise NotExpressible("an empty text: the client refuses it before sending")
    options, quoted = _options(body, {"delay", "presence"})
    return Call(
        lambda c: c.messages.send_text(_instance(m), number, text, options=options, quoted=quoted),
        _no_check,
    )


def b_send_media(rec: Recording, m: re.Match[str]) -> Call:
    _no_query(rec)
    fields = {"mediatype", "media", "caption", "fileName"}
    body = _nested(rec, _body(rec), "mediaMessage", fields)
    _only_keys(body, {"number", "mediaMessage", "options"})
    _require(body, "number", "mediaMessage")
    media = _typed(body["mediaMessage"], dict, "mediaMessage")
    _only_keys(media, {"mediatype", "media", "caption", "fileName"}, "mediaMessage")
    _require(media, "mediatype", "media", what="mediaMessage")
    upload = MediaUpload(
        mediatype=media["mediatype"],
        media=_typed(media["media"], str, "mediaMessage.media"),
        file_name=media.get("fileName"),
        caption=media.get("caption"),
    )
    number = _typed(body["number"], str, "number")
    options, quoted = _options(body, {"delay", "presence"})
    return Call(
        lambda c: c.messages.send_media(
            _instance(m), number, upload, options=options, quoted=quoted
        ),
        _no_check,
    )


def b_send_reaction(rec: Recording, m: re.Match[str]) -> Call:
    _no_query(rec)
    body = _body(rec)
    if rec.line == "2":
        _only_keys(body, {"key", "reaction"})
        body = {"reactionMessage": body}
    _only_keys(body, {"reactionMessage"})
    _require(body, "reactionMessage")
    reaction = _typed(body["reactionMessage"], dict, "reactionMessage")
    _only_keys(reaction, {"key", "reaction"}, "reactionMessage")
    _require(reaction, "key", "reaction", what="reactionMessage")
    key = _key(reaction["key"], "reactionMessage.key")
    emoji = _typed(reaction["reaction"], str, "reaction")
    return Call(lambda c: c.messages.send_reaction(_instance(m), key, emoji), _no_check)


def b_mark_read(rec: Recording, m: re.Match[str]) -> Call:
    _no_query(rec)
    body = _body(rec)
    if rec.line == "2":
        _only_keys(body, {"readMessages"})
        body = {"read_messages": body["readMessages"]} if "readMessages" in body else {}
    _only_keys(body, {"read_messages"})
    _require(body, "read_messages")
    items = _typed(body["read_messages"], list, "read_messages")
    keys = [_key(item, "read_messages[]") for item in items]
    return Call(lambda c: c.chats.mark_read(_instance(m), keys), _no_check)


def b_media_of(rec: Recording, m: re.Match[str]) -> Call:
    _no_query(rec)
    body = _body(rec)
    _only_keys(body, {"message", "convertToMp4"})
    _require(body, "message", "convertToMp4")
    if body["convertToMp4"] is not False:
        raise NotExpressible("convertToMp4 true: the client saves the file as it was sent")
    message = _typed(body["message"], dict, "message")
    _only_keys(message, {"key"}, "message")
    key = _typed(message.get("key"), dict, "message.key")
    _only_keys(key, {"id"}, "message.key")
    message_id = _typed(key.get("id"), str, "message.key.id")
    return Call(lambda c: c.chats.media_of(_instance(m), message_id), _no_check)


from tests.recorded.kind_operations import KIND_ROUTES  # noqa: E402 - uses the helpers above


def _op(name: str, method: str, route: str, build) -> Operation:
    pattern = re.compile("^" + route.replace("{i}", "(?P<i>[^/]+)") + "$")
    return Operation(name, method, pattern, build)


OPERATIONS: tuple[Operation, ...] = (
    *(_op(*route) for route in KIND_ROUTES),
    _op("fetchInstances", "GET", "/instance/fetchInstances", b_fetch_instances),
    _op(
        "connectionState",
        "GET",
        "/instance/connectionState/{i}",
        _simple("instances.connection_state", _check_state),
    ),
    _op("create", "POST", "/instance/create", b_create),
    _op("connect", "GET", "/instance/connect/{i}", b_connect),
    _op("restart", "PUT", "/instance/restart/{i}", _simple("instances.restart")),
    _op("logout", "DELETE", "/instance/logout/{i}", _simple("instances.logout")),
    _op("delete", "DELETE", "/instance/delete/{i}", _simple("instances.delete")),
    _op("settings/find", "GET", "/settings/find/{i}", _simple("settings.find", _check_settings)),
    _op("settings/set", "POST", "/settings/set/{i}", b_set_settings),
    _op("webhook/find", "GET", "/webhook/find/{i}", _simple("hooks.find_webhook", _check_webhook)),
    _op("webhook/set", "POST", "/webhook/set/{i}", b_set_webhook),
    _op(
        "websocket/find",
        "GET",
        "/websocket/find/{i}",
        _simple("hooks.find_websocket", _check_websocket),
    ),
    _op("websocket/set", "POST", "/websocket/set/{i}", b_set_websocket),
    _op("fetchAllGroups", "GET", "/group/fetchAllGroups/{i}", b_fetch_all_groups),
    _op("participants", "GET", "/group/participants/{i}", _group("groups.participants")),
    _op("inviteCode", "GET", "/group/inviteCode/{i}", _group("groups.invite_code")),
    _op("revokeInviteCode", "PUT", "/group/revokeInviteCode/{i}", _group("groups.revoke_invite")),
    _op("updateGroupSubject", "PUT", "/group/updateGroupSubject/{i}", b_subject),
    _op("sendInvite", "POST", "/group/sendInvite/{i}", b_invite),
    _op("sendList", "POST", "/message/sendList/{i}", b_send_list),
    _op("sendText", "POST", "/message/sendText/{i}", b_send_text),
    _op("sendMedia", "POST", "/message/sendMedia/{i}", b_send_media),
    _op("sendReaction", "POST", "/message/sendReaction/{i}", b_send_reaction),
    _op("markMessageAsRead", "PUT", "/chat/markMessageAsRead/{i}", b_mark_read),
    _op("getBase64FromMediaMessage", "POST", "/chat/getBase64FromMediaMessage/{i}", b_media_of),
    _op("archiveChat", "PUT", "/chat/archiveChat/{i}", b_archive),
    _op("updateMessage", "PUT", "/chat/updateMessage/{i}", b_update_message),
    _op("fetchProfile", "POST", "/chat/fetchProfile/{i}", b_fetch_profile),
    _op("whatsappNumbers", "POST", "/chat/whatsappNumbers/{i}", b_whatsapp_numbers),
    _op("findChats", "GET", "/chat/findChats/{i}", b_find_chats),
    _op("findMessages", "POST", "/chat/findMessages/{i}", b_find_messages),
    _op("findContacts", "POST", "/chat/findContacts/{i}", b_find_contacts),
    _op("findStatusMessage", "POST", "/chat/findStatusMessage/{i}", b_find_status),
)


def route_of(rec: Recording) -> str:
    """``METHOD /first/two`` segments: the key of a route the client has no method for."""
    parts = rec.path.split("/")
    return f"{rec.method} {'/'.join(parts[:3]) if len(parts) > 2 else rec.path}"


def operation_for(rec: Recording) -> Operation | None:
    """The operation of a recording's path, whatever the verb: the client chooses the verb
    its line uses, and a recording of another verb is then one it does not send."""
    for op in OPERATIONS:
        if op.pattern.match(rec.path):
            return op
    return None
