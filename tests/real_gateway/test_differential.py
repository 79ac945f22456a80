"""The same requests to the demo gateway and to a real 1.7.1: the demo must answer alike.

Both hold two `close` instances of the same names (df-a; df-b with its own key), so paths, and
the texts that name an instance, are identical. For every request: the HTTP status, the shape
of the body (keys and value types, and for errors the shape of ``response.message``) and, for
errors, the texts must agree — or the difference is listed in ``DIFFERENCES`` (the one table)
with its reason. A listed difference must still be there: when the demo is fixed, its line goes.
Where the two differ without a good reason, the real server wins and the demo is changed.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from gateway_tui.demo.data import new_instance
from gateway_tui.demo.server import DemoServer
from tests.real_gateway.gateway import GLOBAL_KEY, RealGateway, http_call

WRONG = "WRONG-KEY-0000"
B_TOKEN = "DF-B-INSTANCE-KEY"
G = "120363025912345678@g.us"
NUMBER = "5511987650001"
KEY = {"id": "BAE5F1A2B3C4D5E6", "fromMe": True, "remoteJid": f"{NUMBER}@s.whatsapp.net"}


@dataclass(frozen=True)
class Case:
    id: str
    method: str
    path: str
    body: Any = None
    key: str | None = GLOBAL_KEY
    raw: bytes | None = None
    # For a success with a list: the item compared (the instance lists differ in length).
    pick: Callable[[Any], Any] | None = None


def _df_b(items: list[dict[str, Any]]) -> Any:
    return next(item for item in items if item["instance"]["instanceName"] == "df-b")


def _list(rows: list[dict[str, Any]], section_title: str = "S", **top: Any) -> dict[str, Any]:
    message = {"title": "T", "description": "D", "buttonText": "B"} | top
    message["sections"] = [{"title": section_title, "rows": rows}]
    return {"number": NUMBER, "listMessage": message}


ROW = {"title": "r", "rowId": "1"}
INVITE = {"groupJid": G, "numbers": [NUMBER], "description": "Join us"}
SETTINGS = dict.fromkeys(
    ("reject_call", "groups_ignore", "always_online", "read_messages", "read_status"), False
) | {"sync_full_history": False, "msg_call": ""}

CASES = [
    # --- auth and guard order -------------------------------------------------------------
    Case("fetchInstances", "GET", "/instance/fetchInstances", pick=_df_b),
    Case("fetchInstances by name", "GET", "/instance/fetchInstances?instanceName=df-b"),
    Case("fetchInstances empty name", "GET", "/instance/fetchInstances?instanceName=", pick=_df_b),
    Case("fetchInstances unknown name", "GET", "/instance/fetchInstances?instanceName=nope"),
    Case("fetchInstances no key", "GET", "/instance/fetchInstances", key=None),
    Case("fetchInstances wrong key", "GET", "/instance/fetchInstances", key=WRONG),
    Case("fetchInstances instance key", "GET", "/instance/fetchInstances", key=B_TOKEN),
    Case("settings", "GET", "/settings/find/df-a"),
    Case("settings no key", "GET", "/settings/find/df-a", key=None),
    Case("settings wrong key", "GET", "/settings/find/df-a", key=WRONG),
    Case("settings own key", "GET", "/settings/find/df-b", key=B_TOKEN),
    Case("settings other instance's key", "GET", "/settings/find/df-a", key=B_TOKEN),
    Case("unknown instance, wrong key", "GET", "/settings/find/nope", key=WRONG),
    Case("unknown instance, no key", "GET", "/settings/find/nope", key=None),
    Case("unknown instance, sendList", "POST", "/message/sendList/nope", _list([ROW])),
    Case("unknown instance, participants", "GET", "/group/participants/nope"),
    Case("unknown instance, delete", "DELETE", "/instance/delete/nope"),
    Case("unknown instance, delete, wrong key", "DELETE", "/instance/delete/nope", key=WRONG),
    Case("unknown route, wrong key", "GET", "/nope/route", key=WRONG),
    Case("unknown route with query", "GET", "/nope/route?x=1"),
    Case("wrong method", "POST", "/settings/find/df-a", {}),
    Case("wrong method, group route", "PUT", "/group/participants/df-a"),
    Case("malformed JSON", "POST", "/message/sendList/df-a", raw=b'{"bad'),
    Case("malformed JSON, unknown instance", "POST", "/message/sendList/nope", raw=b'{"bad'),
    # --- groups ---------------------------------------------------------------------------
    Case("fetchAllGroups", "GET", "/group/fetchAllGroups/df-a?getParticipants=false"),
    Case("fetchAllGroups, no getParticipants", "GET", "/group/fetchAllGroups/df-a"),
    Case("fetchAllGroups, empty", "GET", "/group/fetchAllGroups/df-a?getParticipants="),
    Case("fetchAllGroups, not an enum", "GET", "/group/fetchAllGroups/df-a?getParticipants=x"),
    Case("participants", "GET", f"/group/participants/df-a?groupJid={G}"),
    Case("participants, no groupJid", "GET", "/group/participants/df-a"),
    Case("participants, bad groupJid", "GET", "/group/participants/df-a?groupJid=abc"),
    Case("participants, bare id", "GET", "/group/participants/df-a?groupJid=120363025912345678"),
    Case("participants, x-y@g.us", "GET", "/group/participants/df-a?groupJid=12-34-56@g.us"),
    Case("inviteCode", "GET", f"/group/inviteCode/df-a?groupJid={G}"),
    Case("revokeInviteCode", "PUT", f"/group/revokeInviteCode/df-a?groupJid={G}"),
    Case("subject", "PUT", f"/group/updateGroupSubject/df-a?groupJid={G}", {"subject": "New"}),
    Case("subject empty", "PUT", f"/group/updateGroupSubject/df-a?groupJid={G}", {"subject": ""}),
    Case("subject missing", "PUT", f"/group/updateGroupSubject/df-a?groupJid={G}", {}),
    Case(
        "subject, groupJid in the body",
        "PUT",
        "/group/updateGroupSubject/df-a",
        {"groupJid": G, "subject": "New"},
    ),
    Case("sendInvite", "POST", "/group/sendInvite/df-a", INVITE),
    Case(
        "sendInvite, description empty",
        "POST",
        "/group/sendInvite/df-a",
        INVITE | {"description": ""},
    ),
    Case(
        "sendInvite, description blank",
        "POST",
        "/group/sendInvite/df-a",
        INVITE | {"description": " "},
    ),
    Case(
        "sendInvite, no description",
        "POST",
        "/group/sendInvite/df-a",
        {"groupJid": G, "numbers": [NUMBER]},
    ),
    Case(
        "sendInvite, short number", "POST", "/group/sendInvite/df-a", INVITE | {"numbers": ["123"]}
    ),
    Case("sendInvite, no numbers", "POST", "/group/sendInvite/df-a", INVITE | {"numbers": []}),
    Case(
        "sendInvite, a number twice",
        "POST",
        "/group/sendInvite/df-a",
        INVITE | {"numbers": [NUMBER, NUMBER]},
    ),
    Case(
        "sendInvite, no groupJid",
        "POST",
        "/group/sendInvite/df-a",
        {"numbers": [NUMBER], "description": "x"},
    ),
    # --- messages and chats ---------------------------------------------------------------
    Case("sendList, row without description", "POST", "/message/sendList/df-a", _list([ROW])),
    Case(
        "sendList, row description empty",
        "POST",
        "/message/sendList/df-a",
        _list([ROW | {"description": ""}]),
    ),
    Case(
        "sendList, row title empty", "POST", "/message/sendList/df-a", _list([ROW | {"title": ""}])
    ),
    Case("sendList, rowId empty", "POST", "/message/sendList/df-a", _list([ROW | {"rowId": ""}])),
    Case(
        "sendList, row with an extra key and an empty description",
        "POST",
        "/message/sendList/df-a",
        _list([ROW | {"description": "", "x": 1}]),
    ),
    Case(
        "sendList, list fields empty",
        "POST",
        "/message/sendList/df-a",
        _list([ROW], title="", description="", buttonText="", footerText=""),
    ),
    Case("sendList, section title empty", "POST", "/message/sendList/df-a", _list([ROW], "")),
    Case("sendList, number empty", "POST", "/message/sendList/df-a", _list([ROW]) | {"number": ""}),
    Case("sendList, no listMessage", "POST", "/message/sendList/df-a", {"number": NUMBER}),
    Case(
        "sendList, no sections", "POST", "/message/sendList/df-a", _list([]) | {"listMessage": {}}
    ),
    Case(
        "sendList, empty sections",
        "POST",
        "/message/sendList/df-a",
        {"number": NUMBER, "listMessage": _list([ROW])["listMessage"] | {"sections": []}},
    ),
    Case("sendList, the same row twice", "POST", "/message/sendList/df-a", _list([ROW, ROW])),
    Case(
        "sendList, float delay",
        "POST",
        "/message/sendList/df-a",
        _list([ROW]) | {"options": {"delay": 1.5}},
    ),
    Case(
        "sendList, unknown presence",
        "POST",
        "/message/sendList/df-a",
        _list([ROW]) | {"options": {"presence": "typing"}},
    ),
    Case(
        "archiveChat",
        "PUT",
        "/chat/archiveChat/df-a",
        {"lastMessage": {"key": KEY}, "archive": True},
    ),
    Case("archiveChat, neither key nor chat", "PUT", "/chat/archiveChat/df-a", {"archive": True}),
    Case("archiveChat, chat empty", "PUT", "/chat/archiveChat/df-a", {"archive": True, "chat": ""}),
    Case("archiveChat, no archive", "PUT", "/chat/archiveChat/df-a", {"lastMessage": {"key": KEY}}),
    Case(
        "updateMessage",
        "PUT",
        "/chat/updateMessage/df-a",
        {"number": NUMBER, "text": "x", "key": KEY},
    ),
    Case(
        "updateMessage, number and text empty",
        "PUT",
        "/chat/updateMessage/df-a",
        {"number": "", "text": "", "key": KEY},
    ),
    Case(
        "updateMessage, number an integer",
        "PUT",
        "/chat/updateMessage/df-a",
        {"number": 5511987650001, "text": "x", "key": KEY},
    ),
    Case(
        "updateMessage, key.remoteJid empty",
        "PUT",
        "/chat/updateMessage/df-a",
        {"number": NUMBER, "text": "x", "key": KEY | {"remoteJid": ""}},
    ),
    Case(
        "updateMessage, no key",
        "PUT",
        "/chat/updateMessage/df-a",
        {"number": NUMBER, "text": "x"},
    ),
    Case("fetchProfile", "POST", "/chat/fetchProfile/df-a", {"number": NUMBER}),
    # whatsappNumbers (campaigns check numbers with it): validation, then the disconnected answer
    Case("whatsappNumbers", "POST", "/chat/whatsappNumbers/df-a", {"numbers": [NUMBER]}),
    Case("whatsappNumbers, none", "POST", "/chat/whatsappNumbers/df-a", {"numbers": []}),
    Case("whatsappNumbers, twice", "POST", "/chat/whatsappNumbers/df-a", {"numbers": ["1", "1"]}),
    Case("whatsappNumbers, integers", "POST", "/chat/whatsappNumbers/df-a", {"numbers": [5511]}),
    Case("whatsappNumbers, not a list", "POST", "/chat/whatsappNumbers/df-a", {"numbers": "1"}),
    Case("whatsappNumbers, no numbers", "POST", "/chat/whatsappNumbers/df-a", {}),
    # --- instances and settings -----------------------------------------------------------
    Case("connectionState", "GET", "/instance/connectionState/df-a"),
    Case("logout", "DELETE", "/instance/logout/df-a"),
    Case("settings/set, partial", "POST", "/settings/set/df-a", {"reject_call": True}),
    Case("settings/set", "POST", "/settings/set/df-a", SETTINGS),
    Case(
        "settings/set, msg_call a number", "POST", "/settings/set/df-a", SETTINGS | {"msg_call": 1}
    ),
]

# The one table of differences: case id -> (what differs, why). "text": status and shape agree,
# the words do not; "shape": the status agrees, the body's shape does not; "status": it differs.
DIFFERENCES: dict[str, tuple[str, str]] = {
    "malformed JSON": (
        "text",
        "the text is node's JSON.parse message, which changes with the node version "
        "(18: 'Unexpected token … in JSON at position 1', 20: 'Unterminated string …')",
    ),
    "malformed JSON, unknown instance": ("text", "as above: node's JSON.parse message"),
    "updateMessage, no key": (
        "shape",
        "a real 1.7.1's updateMessage schema requires nothing, so it fails later (400 "
        '["TypeError …"] on a closed instance); the demo asks for the key at once (400 '
        '[["instance requires property "key""]]). The client always sends number, text and key',
    ),
}


# --- the two servers --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def servers(real_gateway: RealGateway) -> Iterator[tuple[str, str]]:
    """(demo URL, real URL), each holding df-a and df-b (own key), both `close`."""
    created = []
    for name, token in (("df-a", "DF-A-INSTANCE-KEY"), ("df-b", B_TOKEN)):
        real_gateway.request("DELETE", f"/instance/delete/{name}")  # a rerun on the same server
        real_gateway.create_instance(
            name, token=token, integration="WHATSAPP-BAILEYS", qrcode=False
        )
        created.append(name)
    demo = DemoServer(api_key=GLOBAL_KEY)
    rng = random.Random(10)
    for name, token in (("df-a", "DF-A-INSTANCE-KEY"), ("df-b", B_TOKEN)):
        demo.state.instances[name] = new_instance(rng, name, "close", token=token)
    try:
        with demo:
            yield demo.url, real_gateway.url
    finally:
        for name in created:
            real_gateway.request("DELETE", f"/instance/delete/{name}")


def shape(value: Any) -> Any:
    """Keys and value types, recursively (list items in order)."""
    if isinstance(value, dict):
        return {key: shape(item) for key, item in sorted(value.items())}
    if isinstance(value, list):
        return [shape(item) for item in value]
    return type(value).__name__


def compared(case: Case, status: int, body: Any) -> dict[str, Any]:
    """What must agree: the status, the body's shape, and an error's words."""
    if 200 <= status < 300:
        part = case.pick(body) if case.pick else body
        return {"status": status, "shape": shape(part), "text": None}
    return {"status": status, "shape": shape(body), "text": json.dumps(body, sort_keys=True)}


def send(base_url: str, case: Case) -> tuple[int, Any]:
    return http_call(base_url, case.method, case.path, case.body, key=case.key, raw=case.raw)


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_the_demo_answers_as_the_real_server(servers, case: Case) -> None:
    demo_url, real_url = servers
    real = compared(case, *send(real_url, case))
    demo = compared(case, *send(demo_url, case))
    listed = DIFFERENCES.get(case.id)
    if listed is None:
        assert demo == real
        return
    what, _reason = listed
    # Listed: it must still differ in just that way (else the table is out of date).
    assert demo[what] != real[what], f"{case.id}: no longer differs, remove it from DIFFERENCES"
    agree = {"text": ("status", "shape"), "shape": ("status",), "status": ()}[what]
    assert [demo[part] for part in agree] == [real[part] for part in agree]


def test_every_listed_difference_names_a_case() -> None:
    assert set(DIFFERENCES) <= {case.id for case in CASES}
    assert len({case.id for case in CASES}) == len(CASES)


def test_delete_then_delete_again_alike(servers, real_gateway: RealGateway) -> None:
    """A close instance can be deleted on both; deleting it again is the same 404."""
    demo_url, real_url = servers
    name = f"df-del-{os.getpid()}"
    real_gateway.create_instance(name, qrcode=False)
    http_call(demo_url, "POST", "/instance/create", {"instanceName": name}, key=GLOBAL_KEY)
    delete = Case("delete", "DELETE", f"/instance/delete/{name}")
    for _ in range(2):
        real = compared(delete, *send(real_url, delete))
        demo = compared(delete, *send(demo_url, delete))
        assert demo == real
