"""Group administration and labels through the client, on both lines.

Every recorded answer (v1.7.1-more 115-119 and 150-152, v2.3.6-more 123-127 and 158-161,
v2.3.7 913-927, 953-956 and 963) is a refusal or an empty list: the request must reach the
recorded route with the recorded verb, query and body, and the answer must become the typed
error with the server's own text and the right "not connected" flag. The success bodies (no
recorder's instance ever paired) are the 2.3.6 source's, answered by a mock transport.
"""

from __future__ import annotations

import json

import httpx
import pytest

from gateway_tui.core.api import GatewayClient
from gateway_tui.core.api.errors import InvalidRequest
from gateway_tui.core.api.group_models import (
    GroupSetting,
    MemberAddMode,
    ParticipantAction,
)
from gateway_tui.core.api.label_models import LabelAction
from tests.recorded.gateway import RecordedGateway, load_folder

GROUP = "120363025912345678@g.us"


def _rec(folder: str, seq: int):
    return next(r for r in load_folder(folder) if r.seq == seq)


def _client(gateway: RecordedGateway, line: str) -> GatewayClient:
    return GatewayClient(
        "http://gateway.test",
        "EVO-LOCAL-GLOBAL-KEY-0001",
        transport=gateway.transport(),
        retry_delays=(),
        api_version=line,
    )


async def _replay(folder: str, seq: int, line: str, call):
    rec = _rec(folder, seq)
    gateway = RecordedGateway((rec,))
    async with _client(gateway, line) as client:
        with pytest.raises(Exception) as caught:
            await call(client, rec.path.rsplit("/", 1)[1])
    assert len(gateway.log) == 1
    sent = gateway.log[0]
    assert sent.recording is rec, (sent.method, sent.path, rec.method, rec.path)
    assert sent.query == rec.query
    assert (sent.body or None) == (rec.request_body or None)
    return rec, caught.value


NOT_CONNECTED = [
    # (folder, seq, line, the call)
    ("v2.3.7", 913, "2", lambda c, i: c.groups.update_participants(i, GROUP, ParticipantAction.ADD, ["5511988887777"])),  # noqa: E501
    ("v2.3.7", 953, "2", lambda c, i: c.groups.update_participants(i, GROUP, ParticipantAction.ADD, ["5511988887777"])),  # noqa: E501
    ("v2.3.7", 916, "2", lambda c, i: c.groups.update_setting(i, GROUP, GroupSetting.LOCKED)),
    ("v2.3.7", 954, "2", lambda c, i: c.groups.update_setting(i, GROUP, GroupSetting.LOCKED)),
    ("v2.3.7", 918, "2", lambda c, i: c.groups.set_disappearing(i, GROUP, 604800)),
    ("v2.3.7", 955, "2", lambda c, i: c.groups.set_disappearing(i, GROUP, 604800)),
    ("v1.7.1-more", 115, "1", lambda c, i: c.groups.update_setting(i, GROUP, GroupSetting.ANNOUNCEMENT)),  # noqa: E501
    ("v1.7.1-more", 117, "1", lambda c, i: c.groups.set_disappearing(i, GROUP, 86400)),
    ("v1.7.1-more", 119, "1", lambda c, i: c.groups.leave(i, GROUP)),
    ("v1.7.1-more", 152, "1", lambda c, i: c.groups.leave(i, GROUP)),
    ("v1.7.1-more", 109, "1", lambda c, i: c.groups.info(i, GROUP)),
    ("v1.7.1-more", 111, "1", lambda c, i: c.groups.create(i, "Equipe", ["5511987650001", "5511987650002"], description="grupo de teste")),  # noqa: E501
    ("v2.3.6-more", 123, "2", lambda c, i: c.groups.update_setting(i, GROUP, GroupSetting.ANNOUNCEMENT)),  # noqa: E501
    ("v2.3.6-more", 125, "2", lambda c, i: c.groups.set_disappearing(i, GROUP, 86400)),
    ("v2.3.6-more", 127, "2", lambda c, i: c.groups.leave(i, GROUP)),
    ("v2.3.6-more", 119, "2", lambda c, i: c.groups.create(i, "Equipe", ["5511999999999", "5511987650002"], description="grupo de teste")),  # noqa: E501
    ("v2.3.7", 926, "2", lambda c, i: c.labels.handle(i, "5511999999999", "1", LabelAction.ADD)),
    ("v2.3.7", 956, "2", lambda c, i: c.labels.handle(i, "5511999999999", "1", LabelAction.ADD)),
]  # fmt: skip


@pytest.mark.parametrize(
    ("folder", "seq", "line", "call"),
    NOT_CONNECTED,
    ids=[f"{f}/{s}" for f, s, _, _ in NOT_CONNECTED],
)
async def test_not_connected_is_said_as_such_in_the_servers_words(folder, seq, line, call):
    rec, error = await _replay(folder, seq, line, call)
    assert error.status == rec.status
    assert error.instance_not_connected, error.messages
    for text in _texts(rec.messages):
        assert text in " | ".join(error.messages)


def _texts(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [t for item in value for t in _texts(item)]
    if isinstance(value, dict):
        return [t for k, v in value.items() if k != "property" for t in _texts(v)]
    return []


async def test_a_bad_expiration_is_refused_before_sending_as_the_server_does() -> None:
    rec = _rec("v2.3.6-more", 126)  # expiration 5: 400, not one of 0,86400,604800,7776000
    gateway = RecordedGateway((rec,))
    async with _client(gateway, "2") as client:
        with pytest.raises(InvalidRequest, match="7776000"):
            await client.groups.set_disappearing("evo-a", GROUP, 5)
    assert not gateway.log and rec.status == 400


async def test_member_add_mode_is_refused_before_2_4_without_a_call() -> None:
    root = _rec("v2.3.7", 1)  # GET / answers 2.3.7
    gateway = RecordedGateway((root,))
    async with _client(gateway, "2") as client:
        with pytest.raises(InvalidRequest, match="2.4"):
            await client.groups.set_member_add_mode("x-1", GROUP, MemberAddMode.ALL_MEMBER_ADD)
    assert [entry.path for entry in gateway.log] == ["/"]


@pytest.mark.parametrize("seq", [924, 925, 963])
async def test_recorded_labels_read(seq: int) -> None:
    rec = _rec("v2.3.7", seq)
    gateway = RecordedGateway((rec,))
    async with _client(gateway, "2") as client:
        labels = await client.labels.find(rec.path.rsplit("/", 1)[1])
    assert [(x.id, x.name) for x in labels] == [(r["id"], r["name"]) for r in rec.response_body]


# --- the success bodies (2.3.6 source), and the verbs of each line --------------------------


def _mock(answers: dict[str, tuple[int, object]], seen: list[httpx.Request]) -> httpx.MockTransport:
    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        status, body = answers[request.url.path.split("/")[2]]
        return httpx.Response(status, json=body)

    return httpx.MockTransport(answer)


SUCCESS = {
    "updateParticipant": (
        201,
        {
            "updateParticipants": [
                {"status": "200", "jid": "4915112349999@s.whatsapp.net", "content": {}},
                {"status": "409", "jid": "5511988887777@s.whatsapp.net", "content": {}},
            ]
        },
    ),
    "updateSetting": (201, {}),
    "toggleEphemeral": (201, {"success": True}),
    "updateGroupDescription": (201, {"update": "success"}),
    "leaveGroup": (200, {"groupJid": GROUP, "leave": True}),
    "handleLabel": (200, {"numberJid": "5511999999999@s.whatsapp.net", "labelId": "1", "add": True}),  # noqa: E501
    "create": (201, {"id": "120363000000000001@g.us", "subject": "Launch", "participants": [
        {"id": "5511999999999@s.whatsapp.net", "admin": "superadmin"},
        {"id": "4915112349999@s.whatsapp.net", "admin": None}]}),
}  # fmt: skip


@pytest.mark.parametrize(("line", "verb"), [("1", "PUT"), ("2", "POST")])
async def test_each_change_is_sent_once_with_its_lines_verb(line: str, verb: str) -> None:
    seen: list[httpx.Request] = []
    transport = _mock(SUCCESS, seen)
    async with GatewayClient("http://gw.test", "k", transport=transport, api_version=line) as c:
        said = await c.groups.update_participants(
            "i", GROUP, ParticipantAction.ADD, ["+49 151 12349999", "5511988887777"]
        )
        assert [(o.jid, o.ok) for o in said.update_participants] == [
            ("4915112349999@s.whatsapp.net", True),
            ("5511988887777@s.whatsapp.net", False),
        ]
        await c.groups.update_setting("i", GROUP, GroupSetting.ANNOUNCEMENT)
        assert (await c.groups.set_disappearing("i", GROUP, 0)).success
        assert (await c.groups.update_description("i", GROUP, "Hi")).update == "success"
        assert (await c.groups.leave("i", GROUP)).leave
        assert (await c.labels.handle("i", "5511999999999", "1", LabelAction.ADD)).done
        made = await c.groups.create("i", "Launch", ["4915112349999"])
        assert [p.number for p in made.participants] == ["5511999999999", "4915112349999"]
    verbs = {r.url.path.split("/")[2]: r.method for r in seen}
    assert verbs == {
        "updateParticipant": verb,
        "updateSetting": verb,
        "toggleEphemeral": verb,
        "updateGroupDescription": verb,
        "leaveGroup": "DELETE",
        "handleLabel": verb,
        "create": "POST",
    }
    assert len(seen) == 7  # nothing repeated
    first = json.loads(seen[0].content)
    assert first == {"action": "add", "participants": ["4915112349999", "5511988887777"]}
    assert seen[0].url.params["groupJid"] == GROUP


async def test_a_write_that_fails_is_not_sent_again() -> None:
    seen: list[httpx.Request] = []

    def fail(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        raise httpx.ConnectError("dropped")

    transport = httpx.MockTransport(fail)
    async with GatewayClient("http://gw.test", "k", transport=transport, api_version="2") as c:
        with pytest.raises(Exception):  # noqa: B017 - the transport error, typed by the client
            await c.groups.update_participants(
                "i", GROUP, ParticipantAction.REMOVE, ["5511988887777"]
            )  # noqa: E501
    assert len(seen) == 1


@pytest.mark.parametrize(
    "members", [[], ["12"], ["5511988887777", "+55 11 98888-7777"]], ids=["none", "short", "twice"]
)
async def test_bad_members_are_refused_before_sending(members) -> None:
    seen: list[httpx.Request] = []
    transport = _mock(SUCCESS, seen)
    async with GatewayClient("http://gw.test", "k", transport=transport, api_version="2") as c:
        with pytest.raises(InvalidRequest):
            await c.groups.update_participants("i", GROUP, ParticipantAction.ADD, members)
    assert not seen


async def test_a_lid_member_is_sent_as_it_is() -> None:
    seen: list[httpx.Request] = []
    transport = _mock(SUCCESS, seen)
    async with GatewayClient("http://gw.test", "k", transport=transport, api_version="2") as c:
        await c.groups.update_participants("i", GROUP, ParticipantAction.REMOVE, ["1188223@lid"])
    assert json.loads(seen[0].content)["participants"] == ["1188223@lid"]


async def test_2x_gives_one_chats_labels_through_find_chat_by_remote_jid() -> None:
    """2.x's findChats selects no label; the Chat row (findChatByRemoteJid) holds them. No row:
    the server answers an empty body, read as no label."""
    from gateway_tui.demo.server import DemoServer

    with DemoServer(api_version="2.3.7") as server:
        chats = server.state.instances["sales-eu"].chats
        labelled = next(jid for jid, chat in chats.items() if chat.labels)
        async with GatewayClient(server.url, server.api_key, retry_delays=()) as client:
            found = await client.labels.of_chat("sales-eu", labelled)
            assert found == tuple(chats[labelled].labels)
            assert await client.labels.of_chat("sales-eu", "4915199999999@s.whatsapp.net") == ()
