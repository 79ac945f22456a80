"""The demo gateway over real loopback HTTP, checked against the 1.7.1 behaviour spec.

Plain httpx on purpose: these tests pin down what the server does, independently of the
project's client.
"""

from __future__ import annotations

import re
import time
from typing import Any
from urllib.parse import quote

import httpx
import pytest

from gateway_tui.demo.data import SETTING_FLAGS
from gateway_tui.demo.server import DemoServer
from tests import demo_fixtures
from tests.demo_fixtures import (
    BIG_GROUP,
    CLOSED,
    CONNECTING,
    JONAS,
    JONAS_INCOMING,
    JONAS_OWN_MESSAGE,
    MEMBER_ONLY_GROUP,
    OLD_STYLE_GROUP,
    OPEN,
    OTHER_OPEN,
    UNKNOWN_GROUP,
    list_message_body,
    message_of,
)

demo_server = demo_fixtures.demo_server
demo_connections = demo_fixtures.demo_connections
server = demo_fixtures.server
client = demo_fixtures.client
anonymous = demo_fixtures.anonymous

INVITE_CODE = re.compile(r"^[0-9A-Za-z]{22}$")
SETTINGS_BODY = {
    "reject_call": True,
    "msg_call": "No calls, please",
    "groups_ignore": False,
    "always_online": True,
    "read_messages": False,
    "read_status": True,
    "sync_full_history": False,
}

# Every instance route, with a request that succeeds on the open instance, and its status.
INSTANCE_ROUTES: list[tuple[str, str, dict[str, Any] | None, int]] = [
    ("POST", "/message/sendList/{}", list_message_body(), 201),
    (
        "PUT",
        "/chat/archiveChat/{}",
        {"archive": True, "lastMessage": {"key": JONAS_OWN_MESSAGE}},
        201,
    ),
    (
        "PUT",
        "/chat/updateMessage/{}",
        {"number": "4915112340001", "text": "edited", "key": JONAS_OWN_MESSAGE},
        200,
    ),
    (
        "POST",
        "/group/sendInvite/{}",
        {"groupJid": BIG_GROUP, "numbers": ["4915112340002"], "description": "Join"},
        200,
    ),
    ("POST", "/chat/fetchProfile/{}", {"number": "5511912345678"}, 200),
    ("PUT", f"/group/updateGroupSubject/{{}}?groupJid={BIG_GROUP}", {"subject": "New"}, 201),
    ("GET", "/settings/find/{}", None, 200),
    ("DELETE", "/instance/delete/{}", None, 400),  # authorized, but an open instance stays
    ("GET", f"/group/participants/{{}}?groupJid={BIG_GROUP}", None, 200),
    ("GET", f"/group/inviteCode/{{}}?groupJid={BIG_GROUP}", None, 200),
    ("PUT", f"/group/revokeInviteCode/{{}}?groupJid={BIG_GROUP}", None, 201),
    ("POST", "/settings/set/{}", SETTINGS_BODY, 201),
    ("GET", "/group/fetchAllGroups/{}?getParticipants=false", None, 200),
    ("GET", "/instance/connectionState/{}", None, 200),
    ("DELETE", "/instance/logout/{}", None, 200),
]
ROUTE_IDS = [f"{method} {path.split('?')[0]}" for method, path, _, _ in INSTANCE_ROUTES]


def call(
    http: httpx.Client,
    route: tuple[str, str, dict[str, Any] | None, int],
    instance: str,
    **kwargs: Any,
) -> httpx.Response:
    method, path, body, _ = route
    return http.request(method, path.format(instance), json=body, **kwargs)


def instance_key(server: DemoServer, name: str) -> dict[str, str]:
    return {"apikey": server.state.instances[name].apikey}


# ---------------------------------------------------------------- guards and auth


@pytest.mark.parametrize("route", INSTANCE_ROUTES, ids=ROUTE_IDS)
@pytest.mark.parametrize("key", ["global", "own instance"])
def test_global_key_and_own_instance_key_pass_every_instance_route(
    server: DemoServer, anonymous: httpx.Client, route, key
) -> None:
    headers = {"apikey": server.api_key} if key == "global" else instance_key(server, OPEN)
    response = call(anonymous, route, OPEN, headers=headers)
    assert response.status_code == route[3], response.text


@pytest.mark.parametrize("route", INSTANCE_ROUTES, ids=ROUTE_IDS)
@pytest.mark.parametrize("key", [None, "wrong", "global", "instance"])
def test_unknown_instance_is_404_before_the_key_is_checked(
    server: DemoServer, anonymous: httpx.Client, route, key
) -> None:
    headers = {
        None: {},
        "wrong": {"apikey": "nope"},
        "global": {"apikey": server.api_key},
        "instance": instance_key(server, OPEN),
    }[key]
    response = call(anonymous, route, "ghost", headers=headers)
    assert response.status_code == 404
    assert message_of(response) == ['The "ghost" instance does not exist']


@pytest.mark.parametrize("route", INSTANCE_ROUTES, ids=ROUTE_IDS)
@pytest.mark.parametrize("key", [None, "", "wrong", "another instance's"])
def test_missing_wrong_or_foreign_key_is_401_on_instance_routes(
    server: DemoServer, anonymous: httpx.Client, route, key
) -> None:
    headers = {
        None: {},
        "": {"apikey": ""},
        "wrong": {"apikey": "gtui-wrong-key"},
        "another instance's": instance_key(server, OTHER_OPEN),
    }[key]
    response = call(anonymous, route, OPEN, headers=headers)
    assert response.status_code == 401
    assert response.json()["error"] == "Unauthorized"
    assert message_of(response) == "Unauthorized"


@pytest.mark.parametrize("name", ["eu/west", "eu sales", "loja são paulo", "50%"])
def test_instance_names_are_percent_decoded_after_routing(
    server: DemoServer, client: httpx.Client, name: str
) -> None:
    server.state.create_instance(name, None)
    response = client.get(f"/settings/find/{quote(name, safe='')}")
    assert response.status_code == 200
    assert response.json() == server.state.instances[name].settings


@pytest.mark.parametrize("header_name", ["apikey", "APIKEY", "ApiKey"])
def test_key_header_name_is_case_insensitive(
    server: DemoServer, anonymous: httpx.Client, header_name: str
) -> None:
    response = anonymous.get(f"/settings/find/{OPEN}", headers={header_name: server.api_key})
    assert response.status_code == 200


def test_fetch_instances_without_key_is_403(anonymous: httpx.Client) -> None:
    response = anonymous.get("/instance/fetchInstances")
    assert response.status_code == 403
    assert response.json()["error"] == "Forbidden"
    assert message_of(response) == ["Missing global api key", "The global api key must be set"]


@pytest.mark.parametrize("key", ["wrong", "instance"])
def test_fetch_instances_with_wrong_or_instance_key_is_401(
    server: DemoServer, anonymous: httpx.Client, key: str
) -> None:
    headers = {"apikey": "wrong"} if key == "wrong" else instance_key(server, OPEN)
    response = anonymous.get(f"/instance/fetchInstances?instanceName={OPEN}", headers=headers)
    assert response.status_code == 401
    assert message_of(response) == "Unauthorized"


@pytest.mark.parametrize(
    ("method", "target"),
    [
        ("GET", "/the/path"),
        ("GET", "/instance/fetchInstances/extra"),
        ("POST", "/instance/fetchInstances"),  # known path, wrong method
        ("GET", f"/message/sendList/{OPEN}"),
        ("DELETE", f"/settings/find/{OPEN}?x=1"),
    ],
)
@pytest.mark.parametrize("with_key", [True, False])
def test_unknown_route_is_404_cannot_method_path(
    server: DemoServer, anonymous: httpx.Client, method: str, target: str, with_key: bool
) -> None:
    headers = {"apikey": server.api_key} if with_key else {}
    response = anonymous.request(method, target, headers=headers)
    assert response.status_code == 404
    assert response.json()["error"] == "Not Found"
    assert message_of(response) == [f"Cannot {method} {target}"]


@pytest.mark.parametrize(
    "route",
    [r for r in INSTANCE_ROUTES if r[2] is not None],
    ids=[i for i, r in zip(ROUTE_IDS, INSTANCE_ROUTES, strict=True) if r[2] is not None],
)
@pytest.mark.parametrize("raw", [b'{"number": ', b'{"number": }', b"not json"])
def test_malformed_json_body_is_400_with_a_string_message(
    client: httpx.Client, route, raw: bytes
) -> None:
    method, path, _, _ = route
    response = client.request(
        method, path.format(OPEN), content=raw, headers={"content-type": "application/json"}
    )
    assert response.status_code == 400
    assert response.json()["error"] == "Internal Server Error"
    assert isinstance(message_of(response), str)


# ---------------------------------------------------------------- the six error shapes


ERROR_SHAPES = [
    # (name, method, path, body, status, reason phrase, check of the message)
    (
        "list of strings",
        "DELETE",
        f"/instance/delete/{OPEN}",
        None,
        400,
        "Bad Request",
        lambda m: m == [f'The "{OPEN}" instance needs to be disconnected'],
    ),
    (
        "plain string (500)",
        "POST",
        f"/message/sendList/{CLOSED}",
        list_message_body(),
        500,
        "Internal Server Error",
        lambda m: m == "Cannot read properties of undefined (reading 'onWhatsApp')",
    ),
    (
        "array in array",
        "PUT",
        f"/chat/updateMessage/{OPEN}",
        {"number": 4915112340001, "text": "x", "key": JONAS_OWN_MESSAGE},
        400,
        "Bad Request",
        lambda m: m == [["number is not of a type(s) string"]],
    ),
    (
        "property objects",
        "POST",
        f"/group/sendInvite/{OPEN}",
        {"groupJid": BIG_GROUP, "numbers": ["12345"], "description": "Join us"},
        400,
        "Bad Request",
        lambda m: (
            len(m) == 1
            and m[0]["property"] == "numbers[0]"
            and set(m[0]) == {"property", "message"}
        ),
    ),
    (
        "archived objects",
        "PUT",
        f"/chat/archiveChat/{OPEN}",
        {"archive": True, "chat": "4915199999999"},
        500,
        "Internal Server Error",
        lambda m: (
            len(m) == 1
            and m[0]["archived"] is False
            and all(isinstance(line, str) for line in m[0]["message"])
        ),
    ),
    (
        "exists objects",
        "POST",
        f"/chat/fetchProfile/{OPEN}",
        {"number": "+999 123 456 7890"},
        400,
        "Bad Request",
        lambda m: (
            m
            == [{"exists": False, "jid": "9991234567890@s.whatsapp.net", "number": "9991234567890"}]
        ),
    ),
]


@pytest.mark.parametrize(
    ("method", "path", "body", "status", "reason", "check"),
    [shape[1:] for shape in ERROR_SHAPES],
    ids=[shape[0] for shape in ERROR_SHAPES],
)
def test_each_error_message_shape(
    client: httpx.Client, method, path, body, status, reason, check
) -> None:
    response = client.request(method, path, json=body)
    assert response.status_code == status
    assert response.json()["error"] == reason
    assert check(message_of(response)), response.json()


# ---------------------------------------------------------------- 1. sendList


def test_send_list_returns_201_with_the_sent_message_and_stores_it(
    server: DemoServer, client: httpx.Client
) -> None:
    body = list_message_body()
    response = client.post(f"/message/sendList/{OPEN}", json=body)
    assert response.status_code == 201
    sent = response.json()
    assert sent["key"]["remoteJid"] == JONAS
    assert sent["key"]["fromMe"] is True
    assert re.fullmatch(r"3EB0[0-9A-F]{16}", sent["key"]["id"])
    assert sent["status"] == "PENDING"
    assert sent["messageTimestamp"].isdigit()
    list_message = sent["message"]["listMessage"]
    assert list_message["listType"] == "PRODUCT_LIST"
    assert list_message["title"] == body["listMessage"]["title"]
    assert list_message["sections"] == body["listMessage"]["sections"]
    stored = server.state.instances[OPEN].chats[JONAS].messages[-1]
    assert stored.key == sent["key"]
    assert stored.list_message == list_message


def test_send_list_opens_a_new_chat_for_a_new_number(
    server: DemoServer, client: httpx.Client
) -> None:
    response = client.post(f"/message/sendList/{OPEN}", json=list_message_body(number="4477009001"))
    assert response.status_code == 201
    assert [
        m.key for m in server.state.instances[OPEN].chats["4477009001@s.whatsapp.net"].messages
    ] == [response.json()["key"]]


@pytest.mark.parametrize(
    ("number", "jid"),
    [
        ("+49 (151) 1234-0001", JONAS),
        ("4915112340001", JONAS),
        (JONAS, JONAS),
        ("120363023456789012@g.us", "120363023456789012@g.us"),
        (OLD_STYLE_GROUP.removesuffix("@g.us"), OLD_STYLE_GROUP),
    ],
)
def test_send_list_normalizes_numbers_and_passes_jids(
    client: httpx.Client, number: str, jid: str
) -> None:
    response = client.post(f"/message/sendList/{OPEN}", json=list_message_body(number=number))
    assert response.status_code == 201
    assert response.json()["key"]["remoteJid"] == jid


def test_send_list_with_delay_answers_after_the_delay(client: httpx.Client) -> None:
    body = list_message_body(options={"delay": 300, "presence": "composing"})
    started = time.perf_counter()
    response = client.post(f"/message/sendList/{OPEN}", json=body)
    assert response.status_code == 201
    assert time.perf_counter() - started >= 0.3


@pytest.mark.parametrize(
    "presence", ["unavailable", "available", "composing", "recording", "paused"]
)
def test_send_list_accepts_every_presence(client: httpx.Client, presence: str) -> None:
    body = list_message_body(options={"delay": 0, "presence": presence})
    assert client.post(f"/message/sendList/{OPEN}", json=body).status_code == 201


def _without(mapping: dict[str, Any], key: str) -> dict[str, Any]:
    return {k: v for k, v in mapping.items() if k != key}


def _list_with(**fields: Any) -> dict[str, Any]:
    return list_message_body(listMessage={**list_message_body()["listMessage"], **fields})


_SECTION = list_message_body()["listMessage"]["sections"][0]
_ROW = _SECTION["rows"][0]


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (_without(list_message_body(), "number"), 'instance requires property "number"'),
        (_without(list_message_body(), "listMessage"), 'instance requires property "listMessage"'),
        (list_message_body(number=4915112340001), "Invalid format"),
        (list_message_body(options={"delay": 1.5}), "Enter a value in milliseconds"),
        (list_message_body(options={"delay": "300"}), "Enter a value in milliseconds"),
        (
            list_message_body(options={"presence": "typing"}),
            "options.presence is not one of enum values: "
            "unavailable,available,composing,recording,paused",
        ),
        (
            list_message_body(
                listMessage=_without(list_message_body()["listMessage"], "buttonText")
            ),
            'listMessage requires property "buttonText"',
        ),
        # (an empty list title passes a real 1.7.1: the rule is off in an object with "sections")
        (_list_with(sections=[]), "listMessage.sections does not meet minimum length of 1"),
        (_list_with(sections=[_SECTION, _SECTION]), "listMessage.sections contains duplicate item"),
        (
            _list_with(sections=[_without(_SECTION, "rows")]),
            'listMessage.sections[0] requires property "rows"',
        ),
        (
            _list_with(sections=[{**_SECTION, "rows": []}]),
            "listMessage.sections[0].rows does not meet minimum length of 1",
        ),
        (
            _list_with(sections=[{**_SECTION, "rows": [_ROW, _ROW]}]),
            "listMessage.sections[0].rows contains duplicate item",
        ),
        (
            _list_with(sections=[{**_SECTION, "rows": [{**_ROW, "title": ""}]}]),
            'The "title" cannot be empty',
        ),
        (
            _list_with(sections=[{**_SECTION, "rows": [_without(_ROW, "rowId")]}]),
            'listMessage.sections[0].rows[0] requires property "rowId"',
        ),
    ],
)
def test_send_list_validation_is_400_array_in_array(
    server: DemoServer, client: httpx.Client, body: dict[str, Any], expected: str
) -> None:
    writes_before = len(server.state.instances[OPEN].chats[JONAS].messages)
    response = client.post(f"/message/sendList/{OPEN}", json=body)
    assert response.status_code == 400
    message = message_of(response)
    assert isinstance(message, list) and len(message) == 1 and expected in message[0]
    assert len(server.state.instances[OPEN].chats[JONAS].messages) == writes_before


def test_send_list_footer_and_row_description_are_optional(client: httpx.Client) -> None:
    list_message = _without(list_message_body()["listMessage"], "footerText")
    list_message["sections"] = [{"title": "Only", "rows": [{"title": "One", "rowId": "1"}]}]
    response = client.post(
        f"/message/sendList/{OPEN}", json=list_message_body(listMessage=list_message)
    )
    assert response.status_code == 201
    assert "footerText" not in response.json()["message"]["listMessage"]


@pytest.mark.parametrize("number", ["9991234567890", "4915100000000", "5511900000000", "12345"])
def test_send_list_to_a_number_not_on_whatsapp_is_400_exists_false(
    client: httpx.Client, number: str
) -> None:
    response = client.post(f"/message/sendList/{OPEN}", json=list_message_body(number=number))
    assert response.status_code == 400
    assert message_of(response) == [
        {"exists": False, "jid": f"{number}@s.whatsapp.net", "number": number}
    ]


# ---------------------------------------------------------------- 2. archiveChat


@pytest.mark.parametrize("archive", [True, False])
@pytest.mark.parametrize("target", ["lastMessage", "chat"])
def test_archive_chat_sets_the_flag_and_always_says_archived_true(
    server: DemoServer, client: httpx.Client, archive: bool, target: str
) -> None:
    chat = server.state.instances[OPEN].chats[JONAS]
    chat.archived = not archive
    body = (
        {"archive": archive, "lastMessage": {"key": JONAS_INCOMING}}
        if target == "lastMessage"
        else {"archive": archive, "chat": JONAS}
    )
    response = client.put(f"/chat/archiveChat/{OPEN}", json=body)
    assert response.status_code == 201
    assert response.json() == {"chatId": JONAS, "archived": True}
    assert chat.archived is archive


@pytest.mark.parametrize(
    "body",
    [
        {
            "archive": True,
            "lastMessage": {"key": {**JONAS_OWN_MESSAGE, "id": "3EB0000000000000DEAD"}},
        },
        {
            "archive": True,
            "lastMessage": {
                "key": {**JONAS_OWN_MESSAGE, "remoteJid": "4915199999999@s.whatsapp.net"}
            },
        },
        {"archive": True, "chat": "4915199999999@s.whatsapp.net"},
        {"archive": True},
    ],
    ids=["unknown message", "unknown chat", "unknown chat by jid", "no chat at all"],
)
def test_archive_chat_failure_is_500_archived_false(client: httpx.Client, body) -> None:
    response = client.put(f"/chat/archiveChat/{OPEN}", json=body)
    assert response.status_code == 500
    [failure] = message_of(response)
    assert failure["archived"] is False
    assert failure["message"][0] == "An error occurred while archiving the chat. Open a calling."


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({"chat": JONAS}, 'instance requires property "archive"'),
        ({"chat": JONAS, "archive": "yes"}, "archive is not of a type(s) boolean"),
        (
            {"archive": True, "lastMessage": {"key": _without(JONAS_OWN_MESSAGE, "fromMe")}},
            'lastMessage.key requires property "fromMe"',
        ),
        ({"archive": True, "lastMessage": {}}, 'lastMessage requires property "key"'),
    ],
)
def test_archive_chat_validation_is_400_array_in_array(
    client: httpx.Client, body: dict[str, Any], expected: str
) -> None:
    response = client.put(f"/chat/archiveChat/{OPEN}", json=body)
    assert response.status_code == 400
    assert expected in message_of(response)[0]


# ---------------------------------------------------------------- 3. updateMessage


def test_update_message_changes_the_stored_text(server: DemoServer, client: httpx.Client) -> None:
    body = {"number": "4915112340001", "text": "Sie kommt morgen an.", "key": JONAS_OWN_MESSAGE}
    response = client.put(f"/chat/updateMessage/{OPEN}", json=body)
    assert response.status_code == 200
    edit = response.json()["message"]["protocolMessage"]
    assert edit["key"] == JONAS_OWN_MESSAGE
    assert edit["editedMessage"] == {"conversation": "Sie kommt morgen an."}
    stored = server.state.instances[OPEN].chats[JONAS].find(JONAS_OWN_MESSAGE["id"])
    assert stored is not None and stored.text == "Sie kommt morgen an."


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (
            {"number": 4915112340001, "text": "x", "key": JONAS_OWN_MESSAGE},
            "number is not of a type(s) string",
        ),
        (
            {"number": "4915112340001", "text": "", "key": JONAS_OWN_MESSAGE},
            'The "text" cannot be empty',
        ),
        ({"number": "", "text": "x", "key": JONAS_OWN_MESSAGE}, 'The "number" cannot be empty'),
        ({"number": "4915112340001", "text": "x"}, 'instance requires property "key"'),
        (
            {"number": "4915112340001", "text": "x", "key": _without(JONAS_OWN_MESSAGE, "id")},
            'key requires property "id"',
        ),
    ],
)
def test_update_message_validation_is_400_array_in_array(
    client: httpx.Client, body: dict[str, Any], expected: str
) -> None:
    response = client.put(f"/chat/updateMessage/{OPEN}", json=body)
    assert response.status_code == 400
    assert expected in message_of(response)[0]


@pytest.mark.parametrize(
    "key",
    [{**JONAS_OWN_MESSAGE, "id": "3EB0000000000000DEAD"}, JONAS_INCOMING],
    ids=["unknown message", "message not sent by the instance"],
)
def test_update_message_failure_is_400_list_of_strings(client: httpx.Client, key) -> None:
    body = {"number": "4915112340001", "text": "x", "key": key}
    response = client.put(f"/chat/updateMessage/{OPEN}", json=body)
    assert response.status_code == 400
    message = message_of(response)
    assert isinstance(message, list) and all(isinstance(line, str) for line in message)


# ---------------------------------------------------------------- 4. sendInvite


def test_send_invite_sends_the_invite_url_to_each_number(
    server: DemoServer, client: httpx.Client
) -> None:
    body = {
        "groupJid": BIG_GROUP,
        "numbers": ["+49 151 1234 0002", "447700900321"],
        "description": "Join!",
    }
    response = client.post(f"/group/sendInvite/{OPEN}", json=body)
    assert response.status_code == 200
    code = server.state.instances[OPEN].groups[BIG_GROUP].invite_code
    assert response.json() == {"send": True, "inviteUrl": f"https://chat.whatsapp.com/{code}"}
    chats = server.state.instances[OPEN].chats
    for jid in ("4915112340002@s.whatsapp.net", "447700900321@s.whatsapp.net"):
        assert chats[jid].messages[-1].text == f"Join!\n\nhttps://chat.whatsapp.com/{code}"


@pytest.mark.parametrize(
    ("body", "expected_property"),
    [
        ({"groupJid": BIG_GROUP, "numbers": [], "description": "Hi"}, "numbers"),
        (
            {"groupJid": BIG_GROUP, "numbers": ["4915112340002"] * 2, "description": "Hi"},
            "numbers",
        ),
        (
            {"groupJid": BIG_GROUP, "numbers": ["4915112340002", "123456789"], "description": "x"},
            "numbers[1]",
        ),
        ({"groupJid": BIG_GROUP, "numbers": ["abcdefghijkl"], "description": "Hi"}, "numbers[0]"),
        ({"groupJid": BIG_GROUP, "description": "Hi"}, "instance"),
        ({"numbers": ["4915112340002"], "description": "Hi"}, "instance"),
        ({"groupJid": BIG_GROUP, "numbers": ["4915112340002"]}, "instance"),
        ({"groupJid": BIG_GROUP, "numbers": ["4915112340002"], "description": ""}, "description"),
    ],
)
def test_send_invite_validation_is_400_property_objects(
    client: httpx.Client, body: dict[str, Any], expected_property: str
) -> None:
    response = client.post(f"/group/sendInvite/{OPEN}", json=body)
    assert response.status_code == 400
    message = message_of(response)
    assert all(set(item) == {"property", "message"} for item in message)
    assert expected_property in [item["property"] for item in message]


@pytest.mark.parametrize(
    "body",
    [
        {"groupJid": UNKNOWN_GROUP, "numbers": ["4915112340002"], "description": "Hi"},
        {"groupJid": MEMBER_ONLY_GROUP, "numbers": ["4915112340002"], "description": "Hi"},
        {"groupJid": BIG_GROUP, "numbers": ["9991234567890"], "description": "Hi"},
        {"groupJid": "abc@g.us", "numbers": ["4915112340002"], "description": "Hi"},
    ],
    ids=["unknown group", "not an admin", "number not on WhatsApp", "not a group JID"],
)
def test_send_invite_failure_is_404_no_send_invite(client: httpx.Client, body) -> None:
    response = client.post(f"/group/sendInvite/{OPEN}", json=body)
    assert response.status_code == 404
    assert message_of(response) == ["No send invite"]


# ---------------------------------------------------------------- 5. fetchProfile


def test_fetch_profile_of_a_business(client: httpx.Client) -> None:
    response = client.post(f"/chat/fetchProfile/{OPEN}", json={"number": "+55 11 91234-5678"})
    assert response.status_code == 200
    profile = response.json()
    assert profile["wuid"] == "5511912345678@s.whatsapp.net"
    assert profile["numberExists"] is True
    assert profile["isBusiness"] is True
    assert profile["email"] == "contato@paoquente.com.br"
    assert profile["website"] == "https://paoquente.com.br"
    assert list(profile) == [
        "wuid",
        "name",
        "numberExists",
        "picture",
        "status",
        "isBusiness",
        "email",
        "description",
        "website",
    ]


def test_fetch_profile_leaves_out_what_a_business_does_not_have(client: httpx.Client) -> None:
    profile = client.post(f"/chat/fetchProfile/{OPEN}", json={"number": "4915790001122"}).json()
    assert profile["isBusiness"] is True
    assert "website" not in profile
    assert "name" not in profile


def test_fetch_profile_of_a_person(client: httpx.Client) -> None:
    profile = client.post(f"/chat/fetchProfile/{OPEN}", json={"number": "4915112340001"}).json()
    assert profile == {
        "wuid": JONAS,
        "name": "Jonas Weber",
        "numberExists": True,
        "picture": None,
        "status": "Hey there! I am using WhatsApp.",
        "isBusiness": False,
    }


def test_fetch_profile_without_number_describes_the_instance(client: httpx.Client) -> None:
    profile = client.post(f"/chat/fetchProfile/{OPEN}", json={}).json()
    assert profile["wuid"] == "4915123456701@s.whatsapp.net"
    assert profile["name"] == "Acme Sales EU"


# ---------------------------------------------------------------- 6. updateGroupSubject


@pytest.mark.parametrize("group", [BIG_GROUP, OLD_STYLE_GROUP])
def test_update_group_subject_changes_the_subject(
    server: DemoServer, client: httpx.Client, group: str
) -> None:
    response = client.put(
        f"/group/updateGroupSubject/{OPEN}", params={"groupJid": group}, json={"subject": "Renamed"}
    )
    assert response.status_code == 201
    assert response.json() == {"update": "success"}
    assert server.state.instances[OPEN].groups[group].subject == "Renamed"


def test_update_group_subject_accepts_the_group_in_the_body(
    server: DemoServer, client: httpx.Client
) -> None:
    body = {"groupJid": BIG_GROUP, "subject": "From the body"}
    response = client.put(f"/group/updateGroupSubject/{OPEN}", json=body)
    assert response.status_code == 201
    assert server.state.instances[OPEN].groups[BIG_GROUP].subject == "From the body"


@pytest.mark.parametrize(
    ("body", "expected_property"),
    [({"subject": ""}, "subject"), ({}, "instance"), ({"subject": {"text": "x"}}, "subject")],
)
def test_update_group_subject_validation_is_400_property_objects(
    client: httpx.Client, body: dict[str, Any], expected_property: str
) -> None:
    response = client.put(
        f"/group/updateGroupSubject/{OPEN}", params={"groupJid": BIG_GROUP}, json=body
    )
    assert response.status_code == 400
    assert [item["property"] for item in message_of(response)] == [expected_property]


@pytest.mark.parametrize("group", [UNKNOWN_GROUP, MEMBER_ONLY_GROUP])
def test_update_group_subject_failure_is_500(client: httpx.Client, group: str) -> None:
    response = client.put(
        f"/group/updateGroupSubject/{OPEN}", params={"groupJid": group}, json={"subject": "x"}
    )
    assert response.status_code == 500
    assert message_of(response)[0] == "Error updating group subject"


# ---------------------------------------------------------------- 7. fetchInstances


def test_fetch_instances_lists_every_instance(server: DemoServer, client: httpx.Client) -> None:
    response = client.get("/instance/fetchInstances")
    assert response.status_code == 200
    items = response.json()
    assert isinstance(items, list)
    assert [item["instance"]["instanceName"] for item in items] == list(server.state.instances)
    statuses = {item["instance"]["instanceName"]: item["instance"]["status"] for item in items}
    assert set(statuses.values()) == {"open", "connecting", "close", "refused"}


@pytest.mark.parametrize("name", ["sales-eu", "support", "marketing-br", "ops-alerts"])
def test_open_instances_show_owner_and_profile(client: httpx.Client, name: str) -> None:
    record = client.get("/instance/fetchInstances", params={"instanceName": name}).json()[
        "instance"
    ]
    assert record["status"] == "open"
    assert re.fullmatch(r"\d+@s\.whatsapp\.net", record["owner"])
    assert {"profileName", "profilePictureUrl", "profileStatus"} <= set(record)


@pytest.mark.parametrize("name", ["billing-apac", "onboarding", "logistics-mx", "hr-internal"])
def test_instances_not_open_have_no_owner_or_profile(client: httpx.Client, name: str) -> None:
    record = client.get("/instance/fetchInstances", params={"instanceName": name}).json()[
        "instance"
    ]
    assert record["status"] != "open"
    assert not {"owner", "profileName", "profilePictureUrl", "profileStatus"} & set(record)


def test_fetch_instances_record_fields(server: DemoServer, client: httpx.Client) -> None:
    record = client.get("/instance/fetchInstances", params={"instanceName": OPEN}).json()[
        "instance"
    ]
    instance = server.state.instances[OPEN]
    assert record["instanceId"] == instance.instance_id
    assert re.fullmatch(
        r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}", record["instanceId"]
    )
    assert record["serverUrl"] == server.url
    assert record["apikey"] == instance.apikey
    assert record["integration"] == {
        "integration": "WHATSAPP-BAILEYS",
        "token": instance.apikey,
        "webhook_wa_business": f"{server.url}/webhook/whatsapp/{instance.name}",
    }


def test_fetch_instances_quirks_of_the_seeded_data(client: httpx.Client) -> None:
    by_name = {
        item["instance"]["instanceName"]: item["instance"]
        for item in client.get("/instance/fetchInstances").json()
    }
    assert "integration" not in by_name["hr-internal"]
    assert by_name["marketing-br"]["profileName"] == "not loaded"
    assert by_name["marketing-br"]["profilePictureUrl"] is None


def test_fetch_instances_by_name_returns_one_object(client: httpx.Client) -> None:
    response = client.get("/instance/fetchInstances", params={"instanceName": CLOSED})
    assert response.status_code == 200
    body = response.json()
    assert isinstance(body, dict)
    assert body["instance"]["instanceName"] == CLOSED


def test_fetch_instances_unknown_name_is_404(client: httpx.Client) -> None:
    response = client.get("/instance/fetchInstances", params={"instanceName": "ghost"})
    assert response.status_code == 404
    assert message_of(response) == ['Instance "ghost" not found']


def test_fetch_instances_with_empty_name_lists_all(
    server: DemoServer, client: httpx.Client
) -> None:
    response = client.get("/instance/fetchInstances?instanceName=")
    assert response.status_code == 200
    assert len(response.json()) == len(server.state.instances)


# ---------------------------------------------------------------- 8. settings


@pytest.mark.parametrize("name", [OPEN, CLOSED])
def test_find_settings_returns_six_booleans_and_msg_call(
    server: DemoServer, client: httpx.Client, name: str
) -> None:
    response = client.get(f"/settings/find/{name}")
    assert response.status_code == 200
    settings = response.json()
    assert set(settings) == {*SETTING_FLAGS, "msg_call"}
    assert all(isinstance(settings[flag], bool) for flag in SETTING_FLAGS)
    assert isinstance(settings["msg_call"], str)
    assert settings == server.state.instances[name].settings


def test_set_settings_is_201_and_find_reads_it_back(client: httpx.Client) -> None:
    response = client.post(f"/settings/set/{OPEN}", json=SETTINGS_BODY)
    assert response.status_code == 201
    assert response.json() == {"settings": {"instanceName": OPEN, "settings": SETTINGS_BODY}}
    assert client.get(f"/settings/find/{OPEN}").json() == SETTINGS_BODY


@pytest.mark.parametrize("flag", SETTING_FLAGS)
def test_set_settings_requires_all_six_booleans(client: httpx.Client, flag: str) -> None:
    response = client.post(f"/settings/set/{OPEN}", json=_without(SETTINGS_BODY, flag))
    assert response.status_code == 400
    assert message_of(response) == [[f'instance requires property "{flag}"']]


def test_set_settings_msg_call_is_optional(client: httpx.Client) -> None:
    response = client.post(f"/settings/set/{OPEN}", json=_without(SETTINGS_BODY, "msg_call"))
    assert response.status_code == 201


# ---------------------------------------------------------------- 9. delete


@pytest.mark.parametrize("name", [CLOSED, CONNECTING, "logistics-mx"])
def test_delete_instance_not_open_then_it_is_gone(
    server: DemoServer, client: httpx.Client, name: str
) -> None:
    response = client.delete(f"/instance/delete/{name}")
    assert response.status_code == 200
    assert response.json() == {
        "status": "SUCCESS",
        "error": False,
        "response": {"message": "Instance deleted"},
    }
    assert name not in server.state.instances
    again = client.delete(f"/instance/delete/{name}")
    assert again.status_code == 404
    assert message_of(again) == [f'The "{name}" instance does not exist']
    assert client.get("/instance/fetchInstances", params={"instanceName": name}).status_code == 404


def test_delete_open_instance_is_400_and_keeps_it(server: DemoServer, client: httpx.Client) -> None:
    response = client.delete(f"/instance/delete/{OPEN}")
    assert response.status_code == 400
    assert message_of(response) == [f'The "{OPEN}" instance needs to be disconnected']
    assert OPEN in server.state.instances


# ---------------------------------------------------------------- 10-12. group reads and revoke


def test_participants_of_the_1024_member_group(client: httpx.Client) -> None:
    response = client.get(f"/group/participants/{OPEN}", params={"groupJid": BIG_GROUP})
    assert response.status_code == 200
    participants = response.json()["participants"]
    assert len(participants) == 1024
    assert len({p["id"] for p in participants}) == 1024
    assert all(re.fullmatch(r"\d+@s\.whatsapp\.net", p["id"]) for p in participants)
    roles = [p["admin"] for p in participants]
    assert set(roles) == {"superadmin", "admin", None}
    assert any("name" in p for p in participants)


def test_invite_code(server: DemoServer, client: httpx.Client) -> None:
    response = client.get(f"/group/inviteCode/{OPEN}", params={"groupJid": BIG_GROUP})
    assert response.status_code == 200
    code = response.json()["inviteCode"]
    assert INVITE_CODE.fullmatch(code)
    assert response.json() == {"inviteUrl": f"https://chat.whatsapp.com/{code}", "inviteCode": code}
    assert code == server.state.instances[OPEN].groups[BIG_GROUP].invite_code


def test_revoke_invite_code_gives_a_new_code(client: httpx.Client) -> None:
    params = {"groupJid": BIG_GROUP}
    old = client.get(f"/group/inviteCode/{OPEN}", params=params).json()["inviteCode"]
    response = client.put(f"/group/revokeInviteCode/{OPEN}", params=params)
    assert response.status_code == 201
    body = response.json()
    assert body["revoked"] is True
    assert INVITE_CODE.fullmatch(body["inviteCode"])
    assert body["inviteCode"] != old
    assert (
        client.get(f"/group/inviteCode/{OPEN}", params=params).json()["inviteCode"]
        == body["inviteCode"]
    )


GROUP_QUERY_ROUTES = [
    ("GET", "/group/participants/{}", None, "No participants"),
    ("GET", "/group/inviteCode/{}", None, "No invite code"),
    ("PUT", "/group/revokeInviteCode/{}", None, "Revoke error"),
    ("PUT", "/group/updateGroupSubject/{}", {"subject": "x"}, "Error updating group subject"),
]
GROUP_QUERY_IDS = [path.split("/")[2] for _, path, _, _ in GROUP_QUERY_ROUTES]


@pytest.mark.parametrize(
    ("method", "path", "body", "failure"), GROUP_QUERY_ROUTES, ids=GROUP_QUERY_IDS
)
@pytest.mark.parametrize("query", ["", "?groupJid="])
def test_group_endpoints_without_group_jid_are_400(
    client: httpx.Client, method, path, body, failure, query
) -> None:
    response = client.request(method, path.format(OPEN) + query, json=body)
    assert response.status_code == 400
    assert message_of(response) == [
        "The group id needs to be informed in the query",
        'ex: "groupJid=120362@g.us"',
    ]


@pytest.mark.parametrize(
    ("method", "path", "body", "failure"), GROUP_QUERY_ROUTES, ids=GROUP_QUERY_IDS
)
@pytest.mark.parametrize(
    # "12-34-56@g.us" passes a real 1.7.1 (its pattern is ^[\d-]+@g.us$)
    "group_jid",
    ["abc", "1203630123@s.whatsapp.net", "@g.us"],
)
def test_group_endpoints_with_a_malformed_group_jid_are_400(
    client: httpx.Client, method, path, body, failure, group_jid
) -> None:
    response = client.request(method, path.format(OPEN), params={"groupJid": group_jid}, json=body)
    assert response.status_code == 400
    assert {"property": "groupJid"}.items() <= message_of(response)[0].items()


@pytest.mark.parametrize(
    ("method", "path", "body", "failure"), GROUP_QUERY_ROUTES, ids=GROUP_QUERY_IDS
)
@pytest.mark.parametrize("group_jid", ["120363012345678901", BIG_GROUP, "5511999887766-1589000000"])
def test_group_endpoints_accept_a_bare_group_number(
    client: httpx.Client, method, path, body, failure, group_jid
) -> None:
    response = client.request(method, path.format(OPEN), params={"groupJid": group_jid}, json=body)
    assert response.status_code in (200, 201)


@pytest.mark.parametrize(
    ("method", "path", "body", "failure"), GROUP_QUERY_ROUTES, ids=GROUP_QUERY_IDS
)
def test_group_endpoints_on_an_unknown_group_fail_with_their_message(
    client: httpx.Client, method, path, body, failure
) -> None:
    response = client.request(
        method, path.format(OPEN), params={"groupJid": UNKNOWN_GROUP}, json=body
    )
    expected_status = 500 if failure == "Error updating group subject" else 404
    assert response.status_code == expected_status
    assert message_of(response)[0] == failure


@pytest.mark.parametrize(
    ("path", "failure"),
    [("/group/inviteCode/{}", "No invite code"), ("/group/revokeInviteCode/{}", "Revoke error")],
)
def test_invite_code_needs_admin_rights(client: httpx.Client, path: str, failure: str) -> None:
    method = "GET" if "inviteCode" in path and "revoke" not in path else "PUT"
    response = client.request(method, path.format(OPEN), params={"groupJid": MEMBER_ONLY_GROUP})
    assert response.status_code == 404
    assert message_of(response) == [failure, "Error: not-authorized"]


def test_participants_work_in_a_group_where_the_instance_is_a_member(client: httpx.Client) -> None:
    response = client.get(f"/group/participants/{OPEN}", params={"groupJid": MEMBER_ONLY_GROUP})
    assert response.status_code == 200


# ---------------------------------------------------------------- instances that are not open


def _session_error(method: str) -> str:
    return f"TypeError: Cannot read properties of undefined (reading '{method}')"


# How a real 1.7.1 answers each route for an instance created since it started (checked
# against one in tests/recorded/test_demo_agrees.py).
NOT_CONNECTED_ROUTES = [
    (
        "POST",
        "/message/sendList/{}",
        list_message_body(),
        500,
        "Cannot read properties of undefined (reading 'onWhatsApp')",
    ),
    ("PUT", "/chat/updateMessage/{}", INSTANCE_ROUTES[2][2], 400, [_session_error("sendMessage")]),
    (
        "POST",
        "/chat/fetchProfile/{}",
        {"number": "5511912345678"},
        500,
        "Cannot read properties of undefined (reading 'onWhatsApp')",
    ),
    ("POST", "/group/sendInvite/{}", INSTANCE_ROUTES[3][2], 404, ["No send invite"]),
    (
        "PUT",
        f"/group/updateGroupSubject/{{}}?groupJid={BIG_GROUP}",
        {"subject": "x"},
        500,
        ["Error updating group subject", _session_error("groupUpdateSubject")],
    ),
    (
        "GET",
        f"/group/participants/{{}}?groupJid={BIG_GROUP}",
        None,
        404,
        ["No participants", _session_error("groupMetadata")],
    ),
    (
        "GET",
        f"/group/inviteCode/{{}}?groupJid={BIG_GROUP}",
        None,
        404,
        ["No invite code", _session_error("groupInviteCode")],
    ),
    (
        "PUT",
        f"/group/revokeInviteCode/{{}}?groupJid={BIG_GROUP}",
        None,
        404,
        ["Revoke error", _session_error("groupRevokeInvite")],
    ),
    (
        "GET",
        "/group/fetchAllGroups/{}?getParticipants=false",
        None,
        404,
        ["Error fetching group", _session_error("groupFetchAllParticipating")],
    ),
]


@pytest.mark.parametrize(
    ("method", "path", "body", "status", "message"),
    NOT_CONNECTED_ROUTES,
    ids=[f"{m} {p.split('?')[0]}" for m, p, *_ in NOT_CONNECTED_ROUTES],
)
@pytest.mark.parametrize("name", [CLOSED, CONNECTING, "logistics-mx"])
def test_instance_not_open_acting_on_whatsapp_fails_as_a_real_server_does(
    client: httpx.Client, method, path, body, status, message, name
) -> None:
    response = client.request(method, path.format(name), json=body)
    assert response.status_code == status
    assert message_of(response) == message


def test_archive_chat_on_an_instance_not_open_is_500_archived_false(client: httpx.Client) -> None:
    body = {"archive": True, "chat": JONAS}
    response = client.put(f"/chat/archiveChat/{CLOSED}", json=body)
    assert response.status_code == 500
    [failure] = message_of(response)
    assert failure["archived"] is False
    assert failure["message"][1].startswith("TypeError: Cannot read properties of undefined")


# ---------------------------------------------------------------- the optional extras


def test_create_instance_then_fetch_and_delete_it(server: DemoServer, client: httpx.Client) -> None:
    response = client.post("/instance/create", json={"instanceName": "new-one", "token": "TOKEN-1"})
    assert response.status_code == 201
    assert response.json()["hash"] == {"apikey": "TOKEN-1"}
    record = client.get("/instance/fetchInstances", params={"instanceName": "new-one"}).json()
    assert record["instance"]["apikey"] == "TOKEN-1"
    own_key = {"apikey": "TOKEN-1"}
    assert client.get("/settings/find/new-one", headers=own_key).status_code == 200
    assert client.delete("/instance/delete/new-one").status_code == 200


def test_create_instance_errors(client: httpx.Client, anonymous: httpx.Client) -> None:
    taken = client.post("/instance/create", json={"instanceName": OPEN})
    assert taken.status_code == 403
    assert message_of(taken) == [f'This name "{OPEN}" is already in use.']
    invalid = client.post("/instance/create", json={})
    assert message_of(invalid) == [['instance requires property "instanceName"']]
    assert anonymous.post("/instance/create", json={"instanceName": "x"}).status_code == 403


def test_logout_closes_an_open_instance(server: DemoServer, client: httpx.Client) -> None:
    assert client.get(f"/instance/connectionState/{OPEN}").json() == {
        "instance": {"instanceName": OPEN, "state": "open"}
    }
    response = client.delete(f"/instance/logout/{OPEN}")
    assert response.status_code == 200
    assert response.json()["status"] == "SUCCESS"
    assert server.state.instances[OPEN].status == "close"
    assert client.get(f"/instance/connectionState/{OPEN}").json()["instance"]["state"] == "close"
    record = client.get("/instance/fetchInstances", params={"instanceName": OPEN}).json()
    assert "owner" not in record["instance"]
    assert client.delete(f"/instance/delete/{OPEN}").status_code == 200


def test_logout_of_an_instance_not_open_is_400(client: httpx.Client) -> None:
    response = client.delete(f"/instance/logout/{CLOSED}")
    assert response.status_code == 400
    assert message_of(response) == [f'The "{CLOSED}" instance is not connected']


@pytest.mark.parametrize("get_participants", ["false", "true"])
def test_fetch_all_groups(server: DemoServer, client: httpx.Client, get_participants: str) -> None:
    response = client.get(
        f"/group/fetchAllGroups/{OPEN}", params={"getParticipants": get_participants}
    )
    assert response.status_code == 200
    groups = {group["id"]: group for group in response.json()}
    assert set(groups) == set(server.state.instances[OPEN].groups)
    assert groups[BIG_GROUP]["size"] == 1024
    assert ("participants" in groups[BIG_GROUP]) is (get_participants == "true")


def test_fetch_all_groups_needs_get_participants(client: httpx.Client) -> None:
    response = client.get(f"/group/fetchAllGroups/{OPEN}")
    assert response.status_code == 400
    assert message_of(response) == ["The getParticipants needs to be informed in the query"]
