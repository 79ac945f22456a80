"""The error hierarchy and the normalisation of every `response.message` shape."""

from __future__ import annotations

from typing import Any

import pytest

from gateway_tui.core.api import (
    BadRequest,
    Forbidden,
    GatewayError,
    GatewayTimeout,
    GatewayUnreachable,
    InvalidRequest,
    InvalidResponse,
    NotFound,
    Problem,
    ServerError,
    Unauthorized,
)
from gateway_tui.core.api.errors import (
    NOT_CONNECTED_HINT,
    error_for_response,
    field_problems,
    normalise_messages,
    numbers_not_on_whatsapp,
)

WHERE = {"method": "GET", "path": "/group/participants/shop"}


def body(status: int, message: Any, reason: str = "Bad Request") -> dict[str, Any]:
    return {"status": status, "error": reason, "response": {"message": message}}


@pytest.mark.parametrize(
    ("message", "lines"),
    [
        # the six shapes of the behaviour spec
        (['Instance "x" not found', "second"], ['Instance "x" not found', "second"]),
        ("Unauthorized", ["Unauthorized"]),
        (
            [['requires property "number"', "title is empty"]],
            ['requires property "number"', "title is empty"],
        ),
        (
            [
                {"property": "numbers[0]", "message": "too short"},
                {"property": "groupJid", "message": "bad"},
            ],
            ["numbers[0]: too short", "groupJid: bad"],
        ),
        (
            [{"archived": False, "message": ["Archive failed", "Connection Closed"]}],
            ["Archive failed", "Connection Closed"],
        ),
        (
            [
                {"exists": False, "jid": "4915100000000@s.whatsapp.net", "number": "4915100000000"},
                {"exists": False, "jid": "447700900000@s.whatsapp.net"},
                {"exists": False},
            ],
            [
                "4915100000000 is not on WhatsApp",
                "447700900000@s.whatsapp.net is not on WhatsApp",
                "the number is not on WhatsApp",
            ],
        ),
        # edges
        (None, []),
        ("", []),
        ("   ", []),
        ([], []),
        ([None, "", "a"], ["a"]),
        ([{"property": "numbers", "message": None}], ["numbers: is invalid"]),
        ([{"property": "numbers", "message": ["a", "b"]}], ["numbers: a", "numbers: b"]),
        ([{"property": 3, "message": "x"}], ["3: x"]),
        ({"message": "inside a bare object"}, ["inside a bare object"]),
        (
            [{"exists": True, "jid": "1@s.whatsapp.net"}],
            ['{"exists": true,"jid": "1@s.whatsapp.net"}'],
        ),
        ([{"code": 7}], ['{"code": 7}']),
        (42, ["42"]),
        (True, ["true"]),
        ([1.5, False], ["1.5", "false"]),
    ],
    ids=[
        "list",
        "string",
        "nested-list",
        "property",
        "archive",
        "exists",
        "none",
        "empty",
        "blank",
        "empty-list",
        "skips-empty",
        "property-no-message",
        "property-many",
        "property-not-text",
        "bare-message-object",
        "exists-true",
        "unknown-object",
        "number",
        "bool",
        "scalars",
    ],
)
def test_normalise_messages(message: Any, lines: list[str]) -> None:
    assert normalise_messages(message) == lines


def test_deeply_nested_messages_do_not_crash() -> None:
    message: Any = "bottom"
    for _ in range(5000):
        message = [message]
    lines = normalise_messages(message)
    assert len(lines) == 1 and "bottom" not in lines[0]  # shown as one compact line, cut short


def test_long_unknown_objects_are_cut() -> None:
    (line,) = normalise_messages([{"blob": "x" * 2000}])
    assert len(line) <= 500 and line.endswith("…")


def test_field_problems_come_from_property_items_only() -> None:
    message = [
        {"property": "numbers[0]", "message": ["too short", "not digits"]},
        {"property": "groupJid"},
        "plain text",
        {"exists": False},
    ]
    assert field_problems(message) == [
        Problem("numbers[0]", "too short; not digits"),
        Problem("groupJid", "is invalid"),
    ]
    assert field_problems("text") == [] and field_problems(None) == []


def test_numbers_not_on_whatsapp() -> None:
    message = [
        {"exists": False, "number": "4915100000000"},
        {"exists": False, "jid": "1@s.whatsapp.net"},
        {"exists": True, "number": "4915123456701"},
        "text",
    ]
    assert numbers_not_on_whatsapp(message) == ["4915100000000", "1@s.whatsapp.net"]
    assert numbers_not_on_whatsapp({"exists": False, "number": "1"}) == []


@pytest.mark.parametrize(
    ("status", "cls"),
    [
        (400, BadRequest),
        (401, Unauthorized),
        (403, Forbidden),
        (404, NotFound),
        (500, ServerError),
        (501, ServerError),
        (502, ServerError),
        (599, ServerError),
        (301, GatewayError),
        (405, GatewayError),
        (418, GatewayError),
        (422, GatewayError),
    ],
)
def test_error_class_by_status(status: int, cls: type[GatewayError]) -> None:
    error = error_for_response(status, body(status, ["why"], "Some Reason"), **WHERE)
    assert type(error) is cls
    assert (error.status, error.method, error.path, error.reason) == (
        status,
        "GET",
        "/group/participants/shop",
        "Some Reason",
    )
    assert error.messages == ["why"]
    if cls is GatewayError:  # no class of its own: the title says the status
        assert error.title == f"The gateway answered {status} Some Reason"
    else:
        assert error.title == cls.default_title


@pytest.mark.parametrize(
    ("decoded", "raw", "lines"),
    [
        ({"message": ["top level message"]}, "", ["top level message"]),
        ({"error": "Bad Gateway"}, "", []),
        ({"response": "not an object", "message": "x"}, "", ["x"]),
        (["a", "b"], "", ["a", "b"]),
        ("just text", "", ["just text"]),
        (None, "<html><head><title>502 Bad Gateway</title></head></html>", ["502 Bad Gateway"]),
        (None, "<!DOCTYPE html>\n<html>\n\n<body>\n  <h1>Oops</h1>  </body>", ["Oops"]),
        (None, "upstream   connect error\nsecond line", ["upstream connect error"]),
        (
            None,
            "<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway"
            "</h1></center><hr><center>nginx</center></body></html>",
            ["502 Bad Gateway"],
        ),
        (
            None,
            "<body><h1 class='e'>Oops &amp; <b>sorry</b></h1><p>more</p></body>",
            ["Oops & sorry"],
        ),
        (
            None,
            "<html><head><style>\nbody { color: red }\n</style><script>\nvar x = 1;\n</script>"
            "</head><body>\n<p>Service Unavailable</p></body></html>",
            ["Service Unavailable"],
        ),
        (None, "<title> </title>\n<p>Maintenance</p>", ["Maintenance"]),
        (None, "<br/>\n<p></p>", []),
        (None, "y" * 500, ["y" * 200]),
        (None, "", []),
    ],
)
def test_body_shapes_and_pages_that_are_not_json(decoded: Any, raw: str, lines: list[str]) -> None:
    error = error_for_response(502, decoded, raw_text=raw, **WHERE)
    assert type(error) is ServerError and error.messages == lines


def test_a_non_text_reason_is_dropped() -> None:
    error = error_for_response(400, {"error": {"code": 1}, "response": {"message": "m"}}, **WHERE)
    assert error.reason is None and error.messages == ["m"]


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("TypeError: Cannot read properties of undefined (reading 'groupMetadata')", True),
        ("Cannot read property 'id' of undefined", True),
        (["Error: Connection Closed"], True),
        (["Instance not connected"], True),
        (["The instance is disconnected"], True),
        (['The "sales-eu" instance needs to be disconnected'], False),
        (["The instance must be disconnected first"], False),
        (["No participants", "Group not found"], False),
        ("Unauthorized", False),
    ],
)
def test_instance_not_connected_from_the_server_text(message: Any, expected: bool) -> None:
    error = error_for_response(500, body(500, message), **WHERE)
    assert error.instance_not_connected is expected
    assert error.hint == (NOT_CONNECTED_HINT if expected else None)
    assert (NOT_CONNECTED_HINT in error.details()) is expected


@pytest.mark.parametrize(
    "error",
    [
        GatewayUnreachable("The connection to the gateway broke", messages=["Server disconnected"]),
        GatewayTimeout(messages=["Connection closed while reading"]),
        InvalidRequest([Problem("text", "not connected to anything")]),
    ],
    ids=["unreachable", "timeout", "invalid-request"],
)
def test_no_not_connected_hint_without_a_server_answer(error: GatewayError) -> None:
    # Transport texts speak of the gateway connection, not of the instance.
    assert not error.instance_not_connected and error.hint is None


def test_summary_details_and_str() -> None:
    error = error_for_response(404, body(404, ["No participants", "Group missing"]), **WHERE)
    assert error.summary == "Not found: No participants"
    assert str(error) == error.summary
    assert error.where == "GET /group/participants/shop"
    assert error.details() == [
        "Not found",
        "GET /group/participants/shop → 404",
        "No participants",
        "Group missing",
    ]


def test_details_without_status_or_path() -> None:
    error = GatewayUnreachable(messages=["refused"])
    assert error.details() == ["The gateway cannot be reached", "refused"]
    assert error.status is None and error.where == ""


@pytest.mark.parametrize(
    ("lines", "missing"),
    [
        (["Cannot GET /group/fetchAllGroups/shop"], True),
        (["Cannot POST /settings/set/shop"], True),
        (['Instance "shop" not found'], False),
        ([], False),
    ],
)
def test_route_missing(lines: list[str], missing: bool) -> None:
    error = error_for_response(404, body(404, lines, "Not Found"), **WHERE)
    assert isinstance(error, NotFound) and error.route_missing is missing


@pytest.mark.parametrize(("write", "unknown"), [(True, True), (False, False)])
def test_timeout_of_a_write_has_an_unknown_outcome(write: bool, unknown: bool) -> None:
    error = GatewayTimeout(write=write, method="POST", path="/message/sendList/shop")
    assert error.outcome_unknown is unknown
    assert ("outcome unknown" in error.title) is unknown


def test_an_explicit_title_wins_for_a_write_timeout() -> None:
    error = GatewayTimeout("Custom", write=True)
    assert error.title == "Custom" and error.outcome_unknown


def test_invalid_request_lines_are_its_problems() -> None:
    problems = [Problem("subject", "cannot be empty"), Problem("", "general")]
    error = InvalidRequest(problems, method="PUT", path="/group/updateGroupSubject/shop")
    assert error.messages == ["subject: cannot be empty", "general"]
    assert error.problems == problems
    assert str(error) == "Not sent: the request is not valid: subject: cannot be empty"
    assert error.status is None and not error.outcome_unknown


@pytest.mark.parametrize(
    "cls",
    [
        BadRequest,
        Unauthorized,
        Forbidden,
        NotFound,
        ServerError,
        GatewayUnreachable,
        GatewayTimeout,
        InvalidResponse,
    ],
)
def test_every_error_is_a_gateway_error_with_its_own_title(cls: type[GatewayError]) -> None:
    error = cls()
    assert isinstance(error, GatewayError) and isinstance(error, Exception)
    assert error.title == cls.default_title != GatewayError.default_title
    assert error.messages == [] and error.problems == [] and error.not_on_whatsapp == []
