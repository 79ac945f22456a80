"""Whatever a server answers, every client method ends in its result or in a GatewayError.

Arbitrary status codes (200..599) with arbitrary JSON or arbitrary bytes, for each method.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from gateway_tui.core.api import (
    ArchiveResult,
    BadRequest,
    BusinessProfile,
    CallEvent,
    DeleteResult,
    Forbidden,
    GatewayClient,
    GatewayError,
    GroupInviteResult,
    GroupSummary,
    Instance,
    InstanceSettings,
    InvalidResponse,
    InviteCode,
    NotFound,
    Participant,
    RevokeResult,
    SentMessage,
    ServerError,
    Unauthorized,
)
from gateway_tui.core.api.errors import RefusedIn200
from gateway_tui.core.api.models import (
    ConnectionState,
    LogoutResult,
    SettingsSetResult,
    SubjectUpdateResult,
)
from tests.client_calls import BASE, CALLS, KEY, NAMES, Call

RESULT_TYPES: dict[str, Any] = {
    "send_list": SentMessage,
    "archive_chat": ArchiveResult,
    "update_message": (dict, type(None)),
    "send_group_invite": GroupInviteResult,
    "fetch_profile": BusinessProfile,
    "update_group_subject": SubjectUpdateResult,
    "fetch_instances": list[Instance],
    "fetch_instances_by_name": list[Instance],
    "find_settings": InstanceSettings,
    "set_settings": SettingsSetResult,
    "delete_instance": DeleteResult,
    "logout_instance": LogoutResult,
    "connection_state": ConnectionState,
    "group_participants": list[Participant],
    "group_invite_code": InviteCode,
    "revoke_group_invite_code": RevokeResult,
    "fetch_all_groups": list[GroupSummary],
}
STATUS_CLASSES = {400: BadRequest, 401: Unauthorized, 403: Forbidden, 404: NotFound}
# Calls whose 2xx answer can say it was not done ({"revoked": false}, {"send": false}): a
# refusal, with the answer's status, logged as a failed call.
REFUSED_IN_2XX = {
    "revoke_group_invite_code": {"revoked": False},
    "send_group_invite": {"send": False},
}

# Field names the models know, so generated objects often look almost right.
KNOWN_KEYS = [
    "instance",
    "instanceName",
    "instanceId",
    "status",
    "owner",
    "apikey",
    "integration",
    "token",
    "participants",
    "id",
    "admin",
    "message",
    "listMessage",
    "listType",
    "key",
    "remoteJid",
    "fromMe",
    "messageTimestamp",
    "response",
    "error",
    "exists",
    "property",
    "number",
    "inviteUrl",
    "inviteCode",
    "revoked",
    "send",
    "settings",
    "reject_call",
    "msg_call",
    "size",
    "subject",
    "website",
    "state",
]
scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats()  # NaN and ±Infinity included: json.dumps writes them and servers do too
    | st.text(max_size=20)
    | st.sampled_from(["open", "PENDING", "superadmin", "1717171717", "120363@g.us"])
)
json_values = st.recursive(
    scalars,
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(st.sampled_from(KNOWN_KEYS) | st.text(max_size=8), children, max_size=5)
    ),
    max_leaves=25,
)
statuses = st.integers(min_value=200, max_value=599)


async def outcome(call: Call, status: int, content: bytes) -> tuple[Any, list[CallEvent]]:
    events: list[CallEvent] = []

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(status, content=content)

    transport = httpx.MockTransport(handler)
    async with GatewayClient(BASE, KEY, transport=transport, retry_delays=(0, 0)) as client:
        client.subscribe(events.append)
        try:
            return await call.invoke(client), events
        except GatewayError as error:
            return error, events


def is_result(call: Call, result: Any) -> bool:
    expected = RESULT_TYPES[call.name]
    if getattr(expected, "__origin__", None) is list:
        (item,) = expected.__args__
        return isinstance(result, list) and all(isinstance(i, item) for i in result)
    return isinstance(result, expected)


def test_a_refusal_in_a_2xx_answer_is_said_with_its_status_and_logged_as_failed() -> None:
    by_name = {call.name: call for call in CALLS}
    for name, body in REFUSED_IN_2XX.items():
        error, events = asyncio.run(outcome(by_name[name], 201, json.dumps(body).encode()))
        assert type(error) is RefusedIn200 and error.status == 201, (name, error)
        assert not events[0].ok and events[0].error == error.title, name


def check(call: Call, status: int, content: bytes) -> None:
    result, events = asyncio.run(outcome(call, status, content))
    assert len(events) == 1 and events[0].status == status  # no retry: the server answered
    if isinstance(result, GatewayError):
        error = result
        assert error.status == status and error.path == call.path
        assert events[0].error == error.title and list(events[0].error_lines) == error.messages
        assert all(isinstance(line, str) for line in error.messages)
        assert KEY not in " ".join(error.details())
        if 200 <= status < 300:
            refusal = call.name in REFUSED_IN_2XX and type(error) is RefusedIn200
            assert refusal or type(error) is InvalidResponse
        else:
            expected = STATUS_CLASSES.get(status, ServerError if status >= 500 else GatewayError)
            assert type(error) is expected
    else:
        assert 200 <= status < 300
        assert is_result(call, result)
        assert events[0].ok


# Enough to find the odd case; 17 methods x 2 kinds of body stays well under 20 s.
FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("call", CALLS, ids=NAMES)
@FUZZ
@given(status=statuses, body=json_values)
# Cases once missed: a number too big for an int, the list where an object belongs.
@example(status=200, body=[{"id": "1@g.us", "size": float("inf")}])
@example(status=200, body={"instance": {"instanceName": "x", "status": None}})
@example(status=201, body=[{"instanceName": "x"}])
# A refusal in a 2xx answer: it was raised with no status and logged as a success (found
# once in a loaded `make test`, issue 29 item 14).
@example(status=201, body={"revoked": False})
@example(status=200, body={"send": False, "inviteUrl": "x"})
def test_any_json_answer_ends_in_a_result_or_a_gateway_error(
    call: Call, status: int, body: Any
) -> None:
    check(call, status, json.dumps(body).encode())


@pytest.mark.parametrize("call", CALLS, ids=NAMES)
@FUZZ
@given(status=statuses, body=json_values)
def test_any_error_body_shape_ends_in_the_right_error(call: Call, status: int, body: Any) -> None:
    # The server's error envelope with anything inside `response.message`.
    status = 400 + status % 200
    envelope = {"status": status, "error": "Reason", "response": {"message": body}}
    check(call, status, json.dumps(envelope).encode())


@pytest.mark.parametrize("call", CALLS, ids=NAMES)
@settings(max_examples=30, deadline=None)
@given(status=statuses, content=st.binary(max_size=64))
def test_any_bytes_end_in_a_result_or_a_gateway_error(
    call: Call, status: int, content: bytes
) -> None:
    check(call, status, content)


@pytest.mark.parametrize("call", CALLS, ids=NAMES)
def test_the_documented_answer_is_a_result(call: Call) -> None:
    # Guards the fuzz tests above: a valid answer must not be counted as an error.
    result, _ = asyncio.run(outcome(call, call.status, json.dumps(call.answer).encode()))
    assert is_result(call, result) and call.check(result)
