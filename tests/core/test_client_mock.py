"""GatewayClient against hand-built responses (httpx.MockTransport).

Covers what a demo server does not produce: proxy error pages, truncated or empty bodies,
broken connections, timeouts, every error body shape, and the exact wire format of each call.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from gateway_tui.core.api import (
    BadRequest,
    CallEvent,
    Forbidden,
    GatewayClient,
    GatewayError,
    GatewayTimeout,
    GatewayUnreachable,
    InstanceStatus,
    InvalidRequest,
    InvalidResponse,
    ListRow,
    ListSection,
    MessageKey,
    MessageStatus,
    NotFound,
    ParticipantRole,
    SendListOptions,
    SendListRequest,
    ServerError,
    Unauthorized,
)
from tests.client_calls import (
    BASE,
    CALLS,
    GROUP,
    GROUP_ID,
    INSTANCE,
    INSTANCE_ITEM,
    JID,
    KEY,
    LIST_MESSAGE,
    MSG_KEY,
    NAMES,
    NUMBER,
    POST_READS,
    READS,
    SENT_MESSAGE,
    SETTINGS,
    WRITES,
    Call,
    by_name,
    list_request,
)


class Server:
    """A MockTransport handler that records each request and answers from a list of replies.

    A reply is an ``httpx.Response`` (a fresh copy is sent each time), an exception to raise,
    or a callable taking the request. The last reply repeats.
    """

    def __init__(self, *replies: Any) -> None:
        self.replies = list(replies)
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        reply = self.replies[min(len(self.requests), len(self.replies)) - 1]
        if isinstance(reply, BaseException):
            raise reply
        if isinstance(reply, httpx.Response):
            return httpx.Response(reply.status_code, headers=reply.headers, content=reply.content)
        return reply(request)


def client_for(server: Server, **kwargs: Any) -> GatewayClient:
    kwargs.setdefault("retry_delays", (0, 0))
    kwargs.setdefault("api_version", "1")  # the line these answers are of: no GET / beside
    return GatewayClient(BASE, KEY, transport=httpx.MockTransport(server), **kwargs)


def json_reply(status: int, body: Any) -> httpx.Response:
    return httpx.Response(status, json=body)


def raw_reply(
    status: int, content: bytes, content_type: str = "application/json"
) -> httpx.Response:
    return httpx.Response(status, content=content, headers={"content-type": content_type})


def error_body(status: int, message: Any, reason: str = "Bad Request") -> dict[str, Any]:
    return {"status": status, "error": reason, "response": {"message": message}}


async def run(call: Call, server: Server, **kwargs: Any) -> tuple[Any, list[CallEvent]]:
    events: list[CallEvent] = []
    async with client_for(server, **kwargs) as client:
        client.subscribe(events.append)
        result = await call.invoke(client)
    return result, events


async def fail(call: Call, server: Server, **kwargs: Any) -> tuple[GatewayError, list[CallEvent]]:
    events: list[CallEvent] = []
    async with client_for(server, **kwargs) as client:
        client.subscribe(events.append)
        with pytest.raises(GatewayError) as info:
            await call.invoke(client)
    return info.value, events


def no_key_anywhere(*things: Any) -> None:
    for thing in things:
        for text in (str(thing), repr(thing)):
            assert KEY not in text


def error_texts(error: GatewayError) -> list[str]:
    return [str(error), repr(error), *error.details(), *error.messages, error.where]


# --- success and wire format ---------------------------------------------------------------------


@pytest.mark.parametrize("call", CALLS, ids=NAMES)
async def test_success_is_parsed_into_the_model(call: Call) -> None:
    server = Server(json_reply(call.status, call.answer))
    result, events = await run(call, server)
    assert call.check(result)
    assert len(server.requests) == 1
    assert [(e.status, e.error, e.ok) for e in events] == [(call.status, None, True)]


@pytest.mark.parametrize("call", CALLS, ids=NAMES)
async def test_request_method_path_query_and_body(call: Call) -> None:
    server = Server(json_reply(call.status, call.answer))
    await run(call, server)
    (request,) = server.requests
    assert request.method == call.method
    assert request.url.path == call.path
    assert dict(request.url.params) == call.query
    if call.sent is None:
        assert request.content == b""
    else:
        assert request.headers["content-type"] == "application/json"
        assert json.loads(request.content) == call.sent


@pytest.mark.parametrize("call", CALLS, ids=NAMES)
async def test_key_header_and_a_fresh_request_id_per_call(call: Call) -> None:
    server = Server(json_reply(call.status, call.answer))
    async with client_for(server) as client:
        await call.invoke(client)
        await call.invoke(client)
    first, second = server.requests
    assert first.headers["apikey"] == KEY
    assert KEY not in str(first.url) and KEY.encode() not in first.content
    assert first.headers["x-request-id"] and second.headers["x-request-id"]
    assert first.headers["x-request-id"] != second.headers["x-request-id"]


async def test_an_empty_key_sends_no_apikey_header() -> None:
    server = Server(json_reply(200, []))
    async with GatewayClient(
        BASE, "", transport=httpx.MockTransport(server), api_version="1"
    ) as client:
        await client.instances.fetch()
    assert "apikey" not in server.requests[0].headers


async def test_a_pasted_key_loses_its_newline() -> None:
    server = Server(json_reply(200, []))
    transport = httpx.MockTransport(server)
    async with GatewayClient(BASE, f" {KEY}\n", transport=transport, api_version="1") as client:
        await client.instances.fetch()
    assert server.requests[0].headers["apikey"] == KEY


@pytest.mark.parametrize("bad_key", [f"{KEY}\x00", f"{KEY}\nX-Evil: 1", f"{KEY}é"])
def test_a_key_that_cannot_be_a_header_is_refused_without_showing_it(bad_key: str) -> None:
    with pytest.raises(InvalidRequest) as info:
        GatewayClient(BASE, bad_key)
    assert info.value.problems[0].field == "api_key"
    no_key_anywhere(info.value, *info.value.details())


@pytest.mark.parametrize("base", ["http://gateway.test", "http://gateway.test/"])
async def test_base_url_with_or_without_slash(base: str) -> None:
    server = Server(json_reply(200, SETTINGS))
    async with GatewayClient(
        base, KEY, transport=httpx.MockTransport(server), api_version="1"
    ) as client:
        await client.settings.find("shop")
    assert str(server.requests[0].url) == "http://gateway.test/settings/find/shop"


async def test_base_url_with_a_path_prefix_is_kept() -> None:
    server = Server(json_reply(200, SETTINGS))
    transport = httpx.MockTransport(server)
    async with GatewayClient(
        "http://gateway.test/gw", KEY, transport=transport, api_version="1"
    ) as client:
        await client.settings.find("shop")
    assert server.requests[0].url.path == "/gw/settings/find/shop"


@pytest.mark.parametrize(
    ("name", "raw_segment"),
    [
        ("my shop", b"my%20shop"),
        ("eu/sales", b"eu%2Fsales"),
        ("a?b#c", b"a%3Fb%23c"),
        ("50%", b"50%25"),
        ("..", b"%2E%2E"),
        (".", b"%2E"),
        ("loja-são", b"loja-s%C3%A3o"),
    ],
)
@pytest.mark.parametrize(
    ("call", "prefix"),
    [
        (lambda c, n: c.settings.find(n), b"/settings/find/"),
        (lambda c, n: c.instances.delete(n), b"/instance/delete/"),
        (lambda c, n: c.groups.invite_code(n, GROUP), b"/group/inviteCode/"),
        (lambda c, n: c.messages.send_list(n, list_request()), b"/message/sendList/"),
        (lambda c, n: c.messages.update(n, MSG_KEY, "x"), b"/chat/updateMessage/"),
    ],
    ids=["settings", "delete", "inviteCode", "sendList", "updateMessage"],
)
async def test_instance_name_is_one_quoted_path_segment(
    name: str, raw_segment: bytes, call: Any, prefix: bytes
) -> None:
    server = Server(json_reply(200, {"participants": []}))
    async with client_for(server) as client:
        await call(client, name)
    assert server.requests[0].url.raw_path.split(b"?")[0] == prefix + raw_segment


@pytest.mark.parametrize(
    ("invoke", "where"),
    [
        (lambda c: c.groups.participants(INSTANCE, GROUP_ID), "query"),
        (lambda c: c.groups.invite_code(INSTANCE, f" {GROUP_ID} "), "query"),
        (lambda c: c.groups.revoke_invite(INSTANCE, GROUP_ID), "query"),
        (lambda c: c.groups.update_subject(INSTANCE, GROUP_ID, "S"), "query"),
        (lambda c: c.groups.send_invite(INSTANCE, GROUP_ID, ["4915123456701"], "Hi"), "body"),
    ],
    ids=["participants", "inviteCode", "revoke", "subject", "sendInvite"],
)
async def test_a_bare_group_id_gets_the_group_domain(invoke: Any, where: str) -> None:
    server = Server(json_reply(200, {}))
    async with client_for(server) as client:
        await invoke(client)
    request = server.requests[0]
    if where == "query":
        assert request.url.params["groupJid"] == GROUP
        assert b"groupJid" not in request.content
    else:
        assert json.loads(request.content)["groupJid"] == GROUP
        assert "groupJid" not in request.url.params


@pytest.mark.parametrize(
    "group", ["120363012345678901-1717000000@g.us", "4915123456701-1600000000"]
)
async def test_group_jids_with_a_creation_suffix_pass(group: str) -> None:
    server = Server(json_reply(200, {"participants": []}))
    async with client_for(server) as client:
        await client.groups.participants(INSTANCE, group)
    assert server.requests[0].url.params["groupJid"] == group.removesuffix("@g.us") + "@g.us"


@pytest.mark.parametrize(
    ("number", "sent"),
    [(None, JID), ("+55 (11) 91234-5678", NUMBER), (NUMBER, NUMBER)],
)
async def test_update_message_number_is_sent_as_a_string(number: str | None, sent: str) -> None:
    server = Server(json_reply(200, {}))
    async with client_for(server) as client:
        await client.messages.update(INSTANCE, MSG_KEY, "t", number=number)
    body = json.loads(server.requests[0].content)
    assert body["number"] == sent and isinstance(body["number"], str)


async def test_send_invite_numbers_are_sent_as_the_server_reads_them() -> None:
    server = Server(json_reply(200, {"send": True}))
    async with client_for(server) as client:
        await client.groups.send_invite(
            INSTANCE, GROUP, ["+49 151 2345-6701", "(44) 7700900123"], "Hi"
        )
    assert json.loads(server.requests[0].content)["numbers"] == ["4915123456701", "447700900123"]


@pytest.mark.parametrize(
    ("name", "query"),
    [
        (None, {}),
        ("", {}),
        ("shop", {"instanceName": "shop"}),
        ("a b/c", {"instanceName": "a b/c"}),
    ],
)
async def test_fetch_instances_name_goes_in_the_query(name: str | None, query: dict) -> None:
    server = Server(json_reply(200, [INSTANCE_ITEM]))
    async with client_for(server) as client:
        await client.instances.fetch(name)
    assert dict(server.requests[0].url.params) == query


@pytest.mark.parametrize(
    "answer",
    [
        INSTANCE_ITEM,
        [INSTANCE_ITEM],
        INSTANCE_ITEM["instance"],  # unwrapped
        [INSTANCE_ITEM["instance"]],
    ],
    ids=["object", "list", "bare-object", "bare-list"],
)
async def test_fetch_instances_by_name_always_returns_a_list(answer: Any) -> None:
    async with client_for(Server(json_reply(200, answer))) as client:
        result = await client.instances.fetch("shop")
    assert isinstance(result, list) and [i.instance_name for i in result] == ["shop"]


# --- timeouts of sendList -------------------------------------------------------------------------


@pytest.mark.parametrize(("delay", "expected"), [(None, 7.0), (0, 7.0), (300, 7.3), (45_000, 52.0)])
async def test_send_list_timeout_is_normal_timeout_plus_delay(
    delay: int | None, expected: float
) -> None:
    seen: list[dict[str, float]] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request.extensions["timeout"])
        return json_reply(201, SENT_MESSAGE)

    request = list_request(delay=delay, presence=None)
    async with client_for(Server(handler), timeout=7.0) as client:
        await client.messages.send_list(INSTANCE, request)
        await client.settings.find(INSTANCE)  # other calls keep the normal timeout
    send_timeout, other_timeout = seen
    assert send_timeout["read"] == pytest.approx(expected)
    assert send_timeout["write"] == pytest.approx(expected)
    assert send_timeout["connect"] <= 5.0
    assert other_timeout["read"] == pytest.approx(7.0)


# --- answers that are not what the model expects --------------------------------------------------


MUST_RETURN_DATA = [c for c in CALLS if not c.empty_means_default]
EMPTY_MEANS_DEFAULT = [c for c in CALLS if c.empty_means_default]


@pytest.mark.parametrize("call", MUST_RETURN_DATA, ids=[c.name for c in MUST_RETURN_DATA])
@pytest.mark.parametrize("content", [b"", b"   \n"], ids=["empty", "blank"])
async def test_an_empty_success_body_is_invalid_where_data_is_needed(
    call: Call, content: bytes
) -> None:
    error, events = await fail(call, Server(raw_reply(call.status, content)))
    assert type(error) is InvalidResponse
    assert error.status == call.status and error.method == call.method and error.path == call.path
    assert events[-1].error == error.title and not events[-1].ok


@pytest.mark.parametrize("call", EMPTY_MEANS_DEFAULT, ids=[c.name for c in EMPTY_MEANS_DEFAULT])
async def test_an_empty_success_body_gives_defaults_where_documented_empty(call: Call) -> None:
    result, events = await run(call, Server(raw_reply(call.status, b"")))
    if call.name == "update_message":
        assert result is None
    else:
        assert result == type(result)()
    assert events[-1].ok


@pytest.mark.parametrize("call", CALLS, ids=NAMES)
@pytest.mark.parametrize(
    "content",
    [
        b'{"participants": [{"id": "1@s.whats',
        b"<html><body>Welcome to the captive portal</body></html>",
        b"\xff\xfe\x00garbage",
        b"[" * 5000 + b"]" * 5000,
    ],
    ids=["truncated", "html", "bytes", "deep"],
)
async def test_a_success_body_that_is_not_json_is_invalid_response(
    call: Call, content: bytes
) -> None:
    error, events = await fail(call, Server(raw_reply(call.status, content)))
    assert type(error) is InvalidResponse
    assert error.messages
    assert len(events) == 1 and events[0].status == call.status and not events[0].ok


@pytest.mark.parametrize(
    ("call_name", "answer"),
    [
        ("send_list", {"key": "not an object", "message": {}}),
        ("archive_chat", ["chatId"]),
        ("fetch_instances", [{"instance": {"status": "open"}}]),  # no instanceName
        ("fetch_instances", {"instances": []}),
        ("fetch_instances_by_name", {"instance": "shop"}),
        ("find_settings", {"reject_call": "maybe"}),
        ("group_participants", {"participants": [{"admin": "admin"}]}),  # no id
        ("group_participants", {"participants": "none"}),
        ("fetch_all_groups", {"id": GROUP}),
        ("update_message", [1, 2, 3]),
        ("update_message", "done"),
        ("fetch_profile", ["profile"]),
        ("revoke_group_invite_code", 42),
    ],
)
async def test_json_that_does_not_fit_the_model_is_invalid_response(
    call_name: str, answer: Any
) -> None:
    call = by_name(call_name)
    error, _ = await fail(call, Server(json_reply(call.status, answer)))
    assert type(error) is InvalidResponse
    assert error.messages and error.path == call.path


async def test_extra_fields_are_kept_and_absent_optional_fields_are_none() -> None:
    answer = [
        {"instance": {"instanceName": "bare", "instanceId": "x", "status": "close"}},
        {
            "instance": {**INSTANCE_ITEM["instance"], "chatwoot": {"enabled": False}},
            "tenant": "acme",
        },
    ]
    async with client_for(Server(json_reply(200, answer))) as client:
        bare, full = await client.instances.fetch()
    assert bare.owner is None and bare.profile_name is None and bare.integration is None
    assert bare.owner_number == "" and bare.wa_business_callback_url is None
    assert full.instance_name == INSTANCE_ITEM["instance"]["instanceName"]
    assert not full.model_extra  # unknown fields of listed instances are dropped


@pytest.mark.parametrize(
    ("status", "kind"),
    [
        ("open", InstanceStatus.OPEN),
        ("connecting", InstanceStatus.CONNECTING),
        ("refused", InstanceStatus.REFUSED),
        ("qrcode-pending", InstanceStatus.UNKNOWN),
        (None, InstanceStatus.UNKNOWN),
        (3, InstanceStatus.UNKNOWN),
    ],
)
async def test_instance_status_is_kept_even_when_unknown(status: Any, kind: InstanceStatus) -> None:
    item = {"instance": {"instanceName": "x", "status": status}}
    async with client_for(Server(json_reply(200, [item]))) as client:
        (instance,) = await client.instances.fetch()
    assert instance.status_kind is kind
    if isinstance(status, str):
        assert instance.status == status


async def test_an_absent_instance_status_reads_unknown() -> None:
    async with client_for(Server(json_reply(200, [{"instance": {"instanceName": "x"}}]))) as c:
        (instance,) = await c.instances.fetch()
    assert instance.status_kind is InstanceStatus.UNKNOWN


@pytest.mark.parametrize(
    ("status", "list_type", "kind"),
    [
        ("SERVER_ACK", "SINGLE_SELECT", MessageStatus.SERVER_ACK),
        ("QUEUED_SOMEWHERE", "MULTI_LEVEL", MessageStatus.UNKNOWN),
        (1, 2, MessageStatus.UNKNOWN),
    ],
)
async def test_unknown_message_status_and_list_type_are_kept(
    status: Any, list_type: Any, kind: MessageStatus
) -> None:
    answer = {
        "message": {"listMessage": {"listType": list_type, "title": "Menu"}},
        "status": status,
        "messageTimestamp": 1717171717,
    }
    async with client_for(Server(json_reply(201, answer))) as client:
        sent = await client.messages.send_list(INSTANCE, list_request())
    assert sent.status == str(status) and sent.status_kind is kind
    assert sent.message.list_message.list_type == str(list_type)
    assert sent.message_timestamp == "1717171717"
    assert sent.key is None


async def test_a_sent_message_without_key_or_status_is_accepted() -> None:
    async with client_for(Server(json_reply(201, {"message": {}}))) as client:
        sent = await client.messages.send_list(INSTANCE, list_request())
    assert sent.key is None and sent.status is None and sent.message.list_message is None


@pytest.mark.parametrize(
    ("admin", "role"),
    [
        ("superadmin", ParticipantRole.SUPERADMIN),
        ("admin", ParticipantRole.ADMIN),
        (None, ParticipantRole.MEMBER),
        ("", ParticipantRole.MEMBER),
        ("owner", ParticipantRole.UNKNOWN),
    ],
)
async def test_participant_roles_keep_unknown_values(admin: Any, role: ParticipantRole) -> None:
    answer = {"participants": [{"id": JID, "admin": admin, "lid": "123@lid"}]}
    async with client_for(Server(json_reply(200, answer))) as client:
        (participant,) = await client.groups.participants(INSTANCE, GROUP)
    assert participant.role is role and participant.admin == admin
    assert participant.lid == "123@lid" and not participant.is_lid


async def test_group_sizes_that_are_not_numbers_read_as_unknown() -> None:
    answer = [
        {"id": "1@g.us", "size": 1e400},
        {"id": "2@g.us", "size": "many"},
        {"id": "3@g.us", "size": True},
    ]
    content = json.dumps(answer).encode()  # 1e400 is written as Infinity
    async with client_for(Server(raw_reply(200, content))) as client:
        groups = await client.groups.fetch_all(INSTANCE)
    assert [g.size for g in groups] == [None, None, None]


async def test_instance_secrets_are_not_held_at_all() -> None:
    async with client_for(Server(json_reply(200, [INSTANCE_ITEM]))) as client:
        (instance,) = await client.instances.fetch()
    assert instance.instance_name == INSTANCE_ITEM["instance"]["instanceName"]
    for text in (repr(instance), str(instance.model_dump()), instance.model_dump_json()):
        assert "instance-token-123" not in text


# --- error statuses and bodies --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("status", "cls"),
    [
        (400, BadRequest),
        (401, Unauthorized),
        (403, Forbidden),
        (404, NotFound),
        (500, ServerError),
        (502, ServerError),
        (503, ServerError),
        (504, ServerError),
        (302, GatewayError),
        (405, GatewayError),
        (409, GatewayError),
        (429, GatewayError),
    ],
)
@pytest.mark.parametrize("call", CALLS, ids=NAMES)
async def test_each_status_gives_its_error_class(call: Call, status: int, cls: type) -> None:
    server = Server(json_reply(status, error_body(status, ["it went wrong"])))
    error, events = await fail(call, server)
    assert type(error) is cls
    assert (error.status, error.method, error.path) == (status, call.method, call.path)
    assert error.messages == ["it went wrong"]
    assert not error.outcome_unknown
    assert len(server.requests) == 1  # an error status is never retried
    assert [(e.status, e.error) for e in events] == [(status, error.title)]


@pytest.mark.parametrize(
    ("message", "lines"),
    [
        (
            ['The "x" instance does not exist', "second line"],
            ['The "x" instance does not exist', "second line"],
        ),
        ("Unauthorized", ["Unauthorized"]),
        (
            [['instance requires property "number"', "listMessage.title is required"]],
            ['instance requires property "number"', "listMessage.title is required"],
        ),
        (
            [{"property": "numbers[0]", "message": "must be at least 10 digits"}],
            ["numbers[0]: must be at least 10 digits"],
        ),
        (
            [{"archived": False, "message": ["Archive failed", "Connection Closed"]}],
            ["Archive failed", "Connection Closed"],
        ),
        (
            [{"exists": False, "jid": "4915100000000@s.whatsapp.net", "number": "4915100000000"}],
            ["4915100000000 is not on WhatsApp"],
        ),
    ],
    ids=["list", "string", "nested", "property", "archive", "exists"],
)
async def test_every_message_shape_becomes_readable_lines(message: Any, lines: list[str]) -> None:
    call = by_name("archive_chat")
    error, events = await fail(call, Server(json_reply(400, error_body(400, message))))
    assert error.messages == lines
    assert list(events[0].error_lines) == lines
    assert error.details()[2 : 2 + len(lines)] == lines


async def test_property_errors_are_tied_to_their_field() -> None:
    message = [{"property": "numbers[1]", "message": "must be at least 10 digits"}]
    call = by_name("send_group_invite")
    error, _ = await fail(call, Server(json_reply(400, error_body(400, message))))
    assert [(p.field, p.message) for p in error.problems] == [
        ("numbers[1]", "must be at least 10 digits")
    ]


async def test_numbers_not_on_whatsapp_are_listed() -> None:
    message = [{"exists": False, "jid": "4915100000000@s.whatsapp.net", "number": "4915100000000"}]
    error, _ = await fail(by_name("send_list"), Server(json_reply(400, error_body(400, message))))
    assert type(error) is BadRequest and error.not_on_whatsapp == ["4915100000000"]


@pytest.mark.parametrize(
    ("status", "text", "cls"),
    [
        (
            502,
            "<html>\n<head><title>502 Bad Gateway</title></head>\n<body>\n"
            "<center><h1>502 Bad Gateway</h1></center>\n<hr><center>nginx</center>\n"
            "</body>\n</html>",
            ServerError,
        ),
        (503, "<!DOCTYPE html>\n<html><body><p>Service Unavailable</p></body></html>", ServerError),
        (404, "Not Found", NotFound),
        (400, '{"status": 400, "error": "Bad Req', BadRequest),
    ],
    ids=["nginx-502", "html-503", "plain-404", "truncated-400"],
)
@pytest.mark.parametrize("call_name", ["fetch_instances", "send_list"])
async def test_an_error_page_that_is_not_json_gives_its_first_line(
    call_name: str, status: int, text: str, cls: type
) -> None:
    reply = raw_reply(status, text.encode(), "text/html")
    error, _ = await fail(by_name(call_name), Server(reply))
    assert type(error) is cls and error.status == status
    assert len(error.messages) == 1
    assert "<" not in error.messages[0]
    first = {502: "502 Bad Gateway", 503: "Service Unavailable", 404: "Not Found"}
    if status in first:
        assert error.messages[0] == first[status]


@pytest.mark.parametrize("content", [b"", b"null", b"{}", b'{"status": 500}'])
async def test_an_error_without_message_still_has_its_class_and_title(content: bytes) -> None:
    error, _ = await fail(by_name("find_settings"), Server(raw_reply(500, content)))
    assert type(error) is ServerError and error.messages == []
    assert str(error) == ServerError.default_title


async def test_reason_is_kept() -> None:
    body = error_body(404, ["Cannot GET /group/fetchAllGroups/shop"], reason="Not Found")
    error, _ = await fail(by_name("fetch_all_groups"), Server(json_reply(404, body)))
    assert isinstance(error, NotFound) and error.reason == "Not Found"
    assert error.route_missing


@pytest.mark.parametrize(
    ("message", "not_connected"),
    [
        ("TypeError: Cannot read properties of undefined (reading 'groupMetadata')", True),
        (["Connection Closed"], True),
        ([{"archived": False, "message": ["Cannot read property 'id' of undefined"]}], True),
        (['The "shop" instance needs to be disconnected'], False),
        (["No participants"], False),
    ],
)
async def test_a_not_connected_instance_gets_a_plain_hint(
    message: Any, not_connected: bool
) -> None:
    call = by_name("group_participants")
    error, _ = await fail(call, Server(json_reply(500, error_body(500, message))))
    assert error.instance_not_connected is not_connected
    assert (error.hint is not None) is not_connected
    assert (error.hint in error.details()) is not_connected


# --- transport failures and retries ---------------------------------------------------------------


def broken(kind: type[httpx.TransportError], text: str = "connection reset by peer") -> Any:
    def raise_it(request: httpx.Request) -> httpx.Response:
        raise kind(text, request=request)

    return raise_it


RESETS = [httpx.ReadError, httpx.RemoteProtocolError, httpx.WriteError]


@pytest.mark.parametrize("kind", RESETS + [httpx.ConnectError])
@pytest.mark.parametrize("call", READS, ids=[c.name for c in READS])
@pytest.mark.parametrize("failures", [1, 2])
async def test_a_get_is_retried_after_a_transport_error_then_succeeds(
    call: Call, kind: type, failures: int
) -> None:
    server = Server(*[broken(kind)] * failures, json_reply(call.status, call.answer))
    result, events = await run(call, server)
    assert call.check(result)
    assert len(server.requests) == failures + 1
    assert [e.attempt for e in events] == list(range(1, failures + 2))
    assert [e.ok for e in events] == [False] * failures + [True]
    assert all(e.unreachable for e in events[:-1])
    # One call, one request id, whatever the number of attempts.
    assert len({r.headers["x-request-id"] for r in server.requests}) == 1


@pytest.mark.parametrize("kind", RESETS + [httpx.ConnectError])
@pytest.mark.parametrize("call", READS, ids=[c.name for c in READS])
async def test_a_get_gives_up_after_two_retries(call: Call, kind: type) -> None:
    server = Server(broken(kind))
    error, events = await fail(call, server)
    assert type(error) is GatewayUnreachable
    assert not error.outcome_unknown and error.status is None
    assert error.messages == ["connection reset by peer"]
    assert len(server.requests) == 3 and len(events) == 3
    assert not error.instance_not_connected


async def test_retries_wait_the_given_delays(monkeypatch: pytest.MonkeyPatch) -> None:
    waited: list[float] = []

    async def fake_sleep(seconds: float) -> None:
        waited.append(seconds)

    monkeypatch.setattr("gateway_tui.core.api.client.asyncio.sleep", fake_sleep)
    await fail(by_name("find_settings"), Server(broken(httpx.ReadError)), retry_delays=(0.2, 0.6))
    assert waited == [0.2, 0.6]


@pytest.mark.parametrize("kind", RESETS)
@pytest.mark.parametrize("call", WRITES, ids=[c.name for c in WRITES])
async def test_a_write_whose_connection_broke_is_not_retried_and_outcome_unknown(
    call: Call, kind: type
) -> None:
    server = Server(broken(kind), json_reply(call.status, call.answer))
    error, events = await fail(call, server)
    assert type(error) is GatewayUnreachable
    assert error.outcome_unknown
    assert "outcome unknown" in error.title
    assert len(server.requests) == 1 and len(events) == 1


@pytest.mark.parametrize("kind", RESETS)
@pytest.mark.parametrize("call", POST_READS, ids=[c.name for c in POST_READS])
async def test_a_read_sent_as_post_whose_connection_broke_is_a_failed_read(
    call: Call, kind: type
) -> None:
    server = Server(broken(kind), json_reply(call.status, call.answer))
    error, events = await fail(call, server)
    assert type(error) is GatewayUnreachable
    assert not error.outcome_unknown
    assert "outcome unknown" not in error.title and "read failed" in error.title
    assert len(server.requests) == 1 and len(events) == 1  # a POST is sent once all the same


@pytest.mark.parametrize("call", CALLS, ids=NAMES)
async def test_connect_error_is_unreachable_and_not_an_unknown_outcome(call: Call) -> None:
    server = Server(broken(httpx.ConnectError, "[Errno 111] Connection refused"))
    error, events = await fail(call, server)
    assert type(error) is GatewayUnreachable
    assert not error.outcome_unknown  # nothing reached the server
    assert error.messages == ["[Errno 111] Connection refused"]
    assert len(server.requests) == (3 if call.method == "GET" else 1)
    assert all(e.status is None and e.unreachable for e in events)


@pytest.mark.parametrize("kind", [httpx.ReadTimeout, httpx.WriteTimeout, httpx.PoolTimeout])
@pytest.mark.parametrize("call", CALLS, ids=NAMES)
async def test_a_timeout_is_gateway_timeout_never_retried(call: Call, kind: type) -> None:
    server = Server(broken(kind, "timed out"), json_reply(call.status, call.answer))
    error, events = await fail(call, server)
    assert type(error) is GatewayTimeout
    assert error.outcome_unknown is (call in WRITES)
    assert ("outcome unknown" in error.title) is (call in WRITES)
    assert len(server.requests) == 1 and len(events) == 1
    assert events[0].error == error.title and events[0].unreachable


async def test_connect_timeout_is_unreachable() -> None:
    error, _ = await fail(by_name("send_list"), Server(broken(httpx.ConnectTimeout, "slow")))
    assert type(error) is GatewayUnreachable and not error.outcome_unknown


# --- validation before sending --------------------------------------------------------------------


def _sections(*sections: ListSection) -> SendListRequest:
    message = LIST_MESSAGE.model_copy(update={"sections": list(sections)})
    return SendListRequest(number=NUMBER, list_message=message)


_ROW = ListRow(title="Tea", row_id="tea")
_BAD_DELAY = [
    SendListRequest.model_construct(
        number=NUMBER,
        list_message=LIST_MESSAGE,
        options=SendListOptions.model_construct(delay=delay, presence=None),
    )
    for delay in (1.5, "300", -1, True)
]


@pytest.mark.parametrize(
    ("invoke", "fields"),
    [
        (lambda c: c.messages.send_list(INSTANCE, _sections()), ["sections"]),
        (
            lambda c: c.messages.send_list(INSTANCE, _sections(ListSection(title="S", rows=[]))),
            ["sections[0].rows"],
        ),
        (
            lambda c: c.messages.send_list(
                INSTANCE, _sections(ListSection(title="S", rows=[ListRow(title=" ", row_id="a")]))
            ),
            ["sections[0].rows[0].title"],
        ),
        (
            lambda c: c.messages.send_list(
                INSTANCE, _sections(ListSection(title="S", rows=[_ROW, _ROW]))
            ),
            ["sections[0].rows[1]"],
        ),
        (
            lambda c: c.messages.send_list(
                INSTANCE,
                _sections(ListSection(title="S", rows=[_ROW]), ListSection(title="S", rows=[_ROW])),
            ),
            ["sections[1]"],
        ),
        (
            lambda c: c.messages.send_list(
                INSTANCE,
                SendListRequest(
                    number="12ab",
                    list_message=LIST_MESSAGE.model_copy(update={"title": ""}),
                ),
            ),
            ["number", "title"],
        ),
        *[
            (lambda c, r=request: c.messages.send_list(INSTANCE, r), ["delay"])
            for request in _BAD_DELAY
        ],
        (
            lambda c: c.messages.send_list(
                INSTANCE,
                SendListRequest.model_construct(
                    number=NUMBER,
                    list_message=LIST_MESSAGE,
                    options=SendListOptions.model_construct(delay=100, presence="typing"),
                ),
            ),
            ["presence"],
        ),
        (lambda c: c.messages.send_list("", list_request()), ["instance"]),
        (lambda c: c.groups.send_invite(INSTANCE, GROUP, [], "Hi"), ["numbers"]),
        (lambda c: c.groups.send_invite(INSTANCE, GROUP, ["123456789"], "Hi"), ["numbers[0]"]),
        (
            lambda c: c.groups.send_invite(
                INSTANCE, GROUP, ["4915123456701", "+49 151 23456701"], "Hi"
            ),
            ["numbers[1]"],
        ),
        (lambda c: c.groups.send_invite(INSTANCE, "team", ["4915123456701"], "Hi"), ["groupJid"]),
        (lambda c: c.groups.update_subject(INSTANCE, GROUP, "  "), ["subject"]),
        (lambda c: c.groups.update_subject(INSTANCE, "x@g.us", ""), ["groupJid", "subject"]),
        (lambda c: c.groups.participants(INSTANCE, "4915123456701@s.whatsapp.net"), ["groupJid"]),
        (lambda c: c.groups.invite_code(INSTANCE, ""), ["groupJid"]),
        (lambda c: c.groups.revoke_invite(INSTANCE, "12-ab@g.us"), ["groupJid"]),
        (lambda c: c.messages.update(INSTANCE, MSG_KEY, "   "), ["text"]),
        (
            lambda c: c.messages.update(INSTANCE, MessageKey(remote_jid="", id=""), "t"),
            ["key.remoteJid", "key.id", "number"],
        ),
        (lambda c: c.chats.archive(INSTANCE, MessageKey(remote_jid=JID, id=""), True), ["key.id"]),
        (lambda c: c.contacts.fetch_profile(INSTANCE, "call me"), ["number"]),
        (lambda c: c.contacts.fetch_profile(INSTANCE, "١٢٣٤٥٦٧٨٩٠"), ["number"]),
        (lambda c: c.settings.find(" "), ["instance"]),
        (lambda c: c.instances.delete(""), ["instance"]),
        (lambda c: c.groups.fetch_all(""), ["instance"]),
    ],
)
async def test_an_invalid_request_is_refused_before_sending(invoke: Any, fields: list[str]) -> None:
    server = Server(json_reply(200, {}))
    events: list[CallEvent] = []
    async with client_for(server) as client:
        client.subscribe(events.append)
        with pytest.raises(InvalidRequest) as info:
            await invoke(client)
    assert server.requests == []
    assert events == []  # nothing was sent, so nothing for the request log
    error = info.value
    assert [p.field for p in error.problems] == fields
    assert error.messages == [str(p) for p in error.problems]
    assert error.status is None and error.method and error.path


async def test_list_display_warnings_do_not_stop_the_send() -> None:
    rows = [
        ListRow(title=f"Row {i} with a title longer than shown", row_id=f"r{i}") for i in range(12)
    ]
    request = _sections(ListSection(title="S", rows=rows))
    server = Server(json_reply(201, SENT_MESSAGE))
    async with client_for(server) as client:
        await client.messages.send_list(INSTANCE, request)
    assert len(server.requests) == 1


# --- call events and the key ----------------------------------------------------------------------


async def test_a_success_event_describes_the_call() -> None:
    call = by_name("update_group_subject")
    _, (event,) = await run(call, Server(json_reply(201, call.answer)))
    assert (event.method, event.path, event.status, event.error) == (
        "PUT",
        "/group/updateGroupSubject/shop",
        201,
        None,
    )
    assert event.url == f"{BASE}/group/updateGroupSubject/shop?groupJid=120363012345678901%40g.us"
    assert event.elapsed_ms >= 0 and event.attempt == 1 and event.request_id
    assert event.request_body == {"subject": "New name"}
    assert event.ok and not event.unreachable


async def test_event_request_id_is_the_header_sent() -> None:
    server = Server(json_reply(200, SETTINGS))
    _, (event,) = await run(by_name("find_settings"), server)
    assert event.request_id == server.requests[0].headers["x-request-id"]


async def test_as_curl_reads_the_key_from_the_environment() -> None:
    call = by_name("update_group_subject")
    _, (event,) = await run(call, Server(json_reply(201, call.answer)))
    curl = event.as_curl()
    assert curl.startswith("curl -sS -X PUT 'http://gateway.test/group/updateGroupSubject/shop?")
    assert '"apikey: $GATEWAY_API_KEY"' in curl
    assert """--data '{"subject": "New name"}'""" in curl
    assert KEY not in curl


async def test_a_get_curl_has_no_body() -> None:
    _, (event,) = await run(by_name("find_settings"), Server(json_reply(200, SETTINGS)))
    assert "--data" not in event.as_curl() and "Content-Type" not in event.as_curl()


async def test_a_broken_listener_does_not_break_the_call() -> None:
    seen: list[CallEvent] = []

    def broken_listener(event: CallEvent) -> None:
        raise RuntimeError("listener bug")

    async with client_for(Server(json_reply(200, SETTINGS))) as client:
        client.subscribe(broken_listener)
        client.subscribe(seen.append)
        settings = await client.settings.find(INSTANCE)
    assert settings.reject_call and len(seen) == 1


async def test_unsubscribe_stops_the_events() -> None:
    seen: list[CallEvent] = []
    async with client_for(Server(json_reply(200, SETTINGS))) as client:
        unsubscribe = client.subscribe(seen.append)
        await client.settings.find(INSTANCE)
        unsubscribe()
        unsubscribe()  # twice is harmless
        await client.settings.find(INSTANCE)
    assert len(seen) == 1


FAILURES = {
    "status-401": json_reply(401, error_body(401, "Unauthorized", "Unauthorized")),
    "status-500": json_reply(500, error_body(500, "TypeError: Cannot read properties")),
    "html-502": raw_reply(502, b"<h1>Bad Gateway</h1>", "text/html"),
    "invalid-json": raw_reply(200, b'{"x": '),
    "reset": broken(httpx.ReadError),
    "refused": broken(httpx.ConnectError),
    "timeout": broken(httpx.ReadTimeout),
    # A transport error text that quotes the key (h11 does this for an illegal header value).
    "quoting-key": broken(httpx.LocalProtocolError, f"Illegal header value b'{KEY}'"),
}


@pytest.mark.parametrize("reply", FAILURES.values(), ids=FAILURES.keys())
@pytest.mark.parametrize("call", CALLS, ids=NAMES)
async def test_every_failure_emits_an_event_and_nothing_shows_the_key(
    call: Call, reply: Any
) -> None:
    events: list[CallEvent] = []
    client = client_for(Server(reply))
    async with client:
        client.subscribe(events.append)
        with pytest.raises(GatewayError) as info:
            await call.invoke(client)
    error = info.value
    assert events and all(not e.ok for e in events)
    assert events[-1].error == error.title
    assert list(events[-1].error_lines) == error.messages
    no_key_anywhere(client, error, *error_texts(error), *events, *[e.as_curl() for e in events])


async def test_async_with_closes_the_shared_http_client() -> None:
    server = Server(json_reply(200, SETTINGS))
    client = client_for(server)
    async with client as entered:
        assert entered is client
        await client.settings.find(INSTANCE)
        await client.settings.find(INSTANCE)
    with pytest.raises(RuntimeError):  # httpx refuses to send on a closed client
        await client._http.get("/settings/find/shop")
    assert repr(client) == "GatewayClient('http://gateway.test')"
