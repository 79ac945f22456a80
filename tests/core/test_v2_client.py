"""GatewayClient against the recorded answers of a real Evolution API 2.3.6.

Each case replays recording files (``/work/shared/recordings/v2.3.6*/``, or
``$GATEWAY_RECORDINGS``): the request the client builds must match the recorded method, path,
query and body, and the recorded answer must parse to the right model or typed error.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from gateway_tui.core.api import (
    BadRequest,
    GatewayClient,
    InvalidRequest,
    ListMessage,
    ListRow,
    ListSection,
    MessageKey,
    NotFound,
    SendListOptions,
    SendListRequest,
    ServerError,
    Unauthorized,
    dialects,
    lists,
)
from gateway_tui.core.api.errors import LicenseRequired, NameTaken
from gateway_tui.core.api.lifecycle import CreateInstanceRequest, WebhookSettings, WebsocketSettings
from gateway_tui.core.api.models import InstanceSettings, Participant
from gateway_tui.core.api.resources import chats as chats_resource
from tests.support import RECORDINGS

pytestmark = pytest.mark.skipif(
    not (RECORDINGS / "v2.3.6").is_dir(), reason=f"no recordings at {RECORDINGS}"
)
BASE = "http://gateway.test"
GLOBAL_KEY = "EVO-LOCAL-GLOBAL-KEY-0001"
GROUP = "120363025246125486@g.us"


def recording(name: str) -> dict[str, Any]:
    """``name`` is "v2.3.6/011" or "v2.3.6-more/098": the file whose name starts so."""
    folder, seq = name.split("/")
    (path,) = sorted((RECORDINGS / folder).glob(f"{seq}-*.json"))
    return json.loads(path.read_text())


class Replay:
    """A transport answering from recordings: each request must match the next unused
    recording with its method and path, with the recorded query and body."""

    def __init__(self, *names: str, ignore_body_keys: frozenset[str] = frozenset()) -> None:
        self.pending = [recording(name) for name in names]
        self.requests: list[httpx.Request] = []
        self.mismatches: list[str] = []
        self.ignore = ignore_body_keys

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        for rec in self.pending:
            if rec["method"] == request.method and rec["path"] == request.url.path:
                self.pending.remove(rec)
                self._compare(rec, request)
                return self._answer(rec)
        self.mismatches.append(f"unrecorded request {request.method} {request.url}")
        return httpx.Response(599, json={"unrecorded": True})

    def _compare(self, rec: dict[str, Any], request: httpx.Request) -> None:
        query = dict(request.url.params)
        if query != (rec.get("query") or {}):
            self.mismatches.append(f"{rec['name']}: query {query} != {rec.get('query')}")
        sent = json.loads(request.content) if request.content else None
        if isinstance(sent, dict):
            sent = {k: v for k, v in sent.items() if k not in self.ignore}
        if sent != rec.get("request_body"):
            self.mismatches.append(f"{rec['name']}: body {sent} != {rec.get('request_body')}")

    @staticmethod
    def _answer(rec: dict[str, Any]) -> httpx.Response:
        body = rec["response_body"]
        is_json = rec.get("response_body_is_json", True)
        content = json.dumps(body) if is_json else str(body).encode()
        return httpx.Response(
            rec["status"], content=content, headers={"content-type": "application/json"}
        )

    def check(self) -> None:
        assert self.mismatches == []
        assert self.pending == [], [rec["name"] for rec in self.pending]


def v2_client(
    replay: Replay, api_version: str | None = "2", key: str = GLOBAL_KEY
) -> GatewayClient:
    return GatewayClient(
        BASE,
        key,
        transport=httpx.MockTransport(replay),
        retry_delays=(),
        api_version=api_version,
    )


async def run(replay: Replay, call: Callable[[GatewayClient], Any], **kwargs: Any) -> Any:
    async with v2_client(replay, **kwargs) as client:
        result = await call(client)
    replay.check()
    return result


async def fails(replay: Replay, call: Callable[[GatewayClient], Any], **kwargs: Any) -> Any:
    async with v2_client(replay, **kwargs) as client:
        with pytest.raises(Exception) as info:
            await call(client)
    replay.check()
    return info.value


# --- which line ---------------------------------------------------------------------------------


async def test_fetch_instances_tells_the_line_and_reads_the_version_beside() -> None:
    replay = Replay("v2.3.6/011", "v2.3.6/001")
    async with v2_client(replay, api_version="auto") as client:
        events: list[Any] = []
        client.subscribe(events.append)
        rows = await client.instances.fetch()
        assert client.dialect is dialects.V2
        assert client._root_task is not None
        await client._root_task
        assert client.server_version == "2.3.6"
        assert client.server_info and client.server_info.client_name == "evolution_exchange"
    replay.check()
    assert sorted(row.instance_name for row in rows) == ["evo-a", "evo-b", "evo-c"]
    # GET / is the client's own question: only fetchInstances is in the log.
    assert [event.path for event in events] == ["/instance/fetchInstances"]


async def test_an_empty_list_leaves_the_line_to_get_slash() -> None:
    replay = Replay("v2.3.6/068", "v2.3.6/001")
    async with v2_client(replay, api_version="auto") as client:
        assert await client.instances.fetch() == []
        assert not client.line_known or client.dialect is dialects.V2
        assert client._root_task is not None
        await client._root_task
        assert client.dialect is dialects.V2
    replay.check()


async def test_a_call_before_any_list_asks_get_slash_first() -> None:
    # The command line sends without listing: the body must still be the 2.x one.
    replay = Replay("v2.3.6/001", "v2.3.6/026")
    error = await fails(
        replay, lambda c: c.messages.send_list("evo-a", LIST_REQUEST), api_version="auto"
    )
    assert isinstance(error, ServerError)
    assert [r.url.path for r in replay.requests] == ["/", "/message/sendList/evo-a"]


async def test_a_pinned_line_asks_nothing_more() -> None:
    replay = Replay("v2.3.6/011")
    rows = await run(replay, lambda c: c.instances.fetch(), api_version="2")
    assert len(rows) == 3 and [r.url.path for r in replay.requests] == ["/instance/fetchInstances"]


def test_line_names() -> None:
    assert dialects.dialect_named("2") is dialects.V2
    assert dialects.dialect_named("2.3.6") is dialects.V2
    assert dialects.dialect_named("1") is dialects.V1
    assert dialects.dialect_named("auto") is None
    with pytest.raises(ValueError):
        dialects.dialect_named("three")


# --- instances ----------------------------------------------------------------------------------


async def test_fetch_instances_reads_flat_rows() -> None:
    (row, *_) = await run(Replay("v2.3.6/011"), lambda c: c.instances.fetch())
    assert row.instance_name == "evo-a"
    assert row.instance_id == "c15e1ac6-1d59-4042-ab0f-d98571e0be36"
    assert row.status == "close" and row.integration_name == "WHATSAPP-BAILEYS"
    assert (row.message_count, row.contact_count, row.chat_count) == (0, 0, 0)
    assert row.disconnection_reason_code is None and row.number is None
    # The row's token and settings are not kept.
    assert "1A961DFD" not in repr(row) and "1A961DFD" not in row.model_dump_json()


async def test_fetch_instances_reads_disconnection_fields() -> None:
    rec = recording("v2.3.6/011")
    rec["response_body"][0].update(
        disconnectionReasonCode=401,
        disconnectionAt="2026-11-24T16:10:00.000Z",
        ownerJid="5511999999999@s.whatsapp.net",
        number="5511999999999",
        _count={"Message": 12, "Contact": 3, "Chat": 2},
    )
    replay = Replay()
    replay.pending = [rec]
    (row, *_) = await run(replay, lambda c: c.instances.fetch())
    assert row.disconnection_reason_code == "401"
    assert row.disconnection_at == "2026-11-24T16:10:00.000Z"
    assert row.owner_number == "5511999999999" and row.number == "5511999999999"
    assert (row.message_count, row.contact_count, row.chat_count) == (12, 3, 2)


def test_flat_rows_keep_the_row_when_a_count_or_the_integration_is_odd() -> None:
    rec = recording("v2.3.6/011")
    rows = rec["response_body"][:3]
    rows[0].update(_count={"Message": "12", "Contact": True, "Chat": 2}, number=5511999999999)
    rows[1].update(_count=None, integration=None)
    rows[2].update(integration={"integration": "EVOLUTION"})
    read = dialects.V2.instances.read(json.dumps(rows).encode())
    assert [row.instance_name for row in read] == [row["name"] for row in rows]
    assert not read.unreadable
    assert (read[0].message_count, read[0].contact_count, read[0].chat_count) == (None, None, 2)
    assert read[0].number == "5511999999999"
    assert read[1].message_count is None and read[1].integration_name is None
    assert read[2].integration_name == "EVOLUTION"


async def test_ten_thousand_flat_rows_are_read_in_one_piece_as_on_1_7_1(monkeypatch) -> None:
    """2.x rows carry twice 1.7.1's bytes (settings, token, times, all skipped): the answer of
    10,000 is read by the fast path as 1.7.1's is, not in batches in a thread (bench §2b)."""
    row = recording("v2.3.6/011")["response_body"][0]
    body = json.dumps([{**row, "name": f"i-{n}"} for n in range(10_000)]).encode()
    assert len(body) > lists.OFF_LOOP_BYTES  # past 1.7.1's limit
    reader = dialects.V2.instances

    def in_batches(content: bytes) -> Any:
        raise AssertionError("read in batches")

    monkeypatch.setattr(reader, "_read_items", in_batches)
    read = await reader.read_async(body)
    assert len(read) == 10_000 and read[-1].instance_name == "i-9999"


async def test_fetch_instances_by_name_is_a_list_of_one() -> None:
    rows = await run(Replay("v2.3.6/012"), lambda c: c.instances.fetch("evo-a"))
    assert [r.instance_name for r in rows] == ["evo-a"]


async def test_fetch_instances_unknown_name_is_not_found() -> None:
    error = await fails(Replay("v2.3.6/013"), lambda c: c.instances.fetch("nope"))
    assert isinstance(error, NotFound) and error.messages == ['Instance "nope" not found']


async def test_fetch_instances_with_an_instance_token_lists_that_instance() -> None:
    replay = Replay("v2.3.6/017")
    rows = await run(replay, lambda c: c.instances.fetch(), api_version="auto")
    assert [r.instance_name for r in rows] == ["evo-b"]


@pytest.mark.parametrize("seq", ["015", "016"])
async def test_fetch_instances_refused_key(seq: str) -> None:
    error = await fails(Replay(f"v2.3.6/{seq}"), lambda c: c.instances.fetch())
    assert isinstance(error, Unauthorized)


async def test_connection_state() -> None:
    state = await run(Replay("v2.3.6/010"), lambda c: c.instances.connection_state("evo-a"))
    assert state.state == "close"


async def test_create_sends_the_integration() -> None:
    request = CreateInstanceRequest(instanceName="evo-b", token="EVO-B-INSTANCE-KEY-0001")
    created = await run(Replay("v2.3.6/004"), lambda c: c.instances.create(request))
    assert created.name == "evo-b" and created.integration == "WHATSAPP-BAILEYS"
    assert created.token == "EVO-B-INSTANCE-KEY-0001"  # hash is the token string on 2.x


async def test_create_duplicate_is_forbidden() -> None:
    rec = recording("v2.3.6/006")
    rec["request_body"]["token"] = "T-1"
    replay = Replay()
    replay.pending = [rec]
    request = CreateInstanceRequest(instanceName="evo-a", token="T-1")
    error = await fails(replay, lambda c: c.instances.create(request))
    # Its own error since issue 29 (item 9): not blamed on the API key.
    assert isinstance(error, NameTaken) and "already in use" in error.messages[0]


async def test_connect_without_internet_counts_zero() -> None:
    result = await run(Replay("v2.3.6-more/008"), lambda c: c.instances.connect("lc-1"))
    assert result.count == 0 and not result.has_code


async def test_connect_unknown_instance() -> None:
    error = await fails(Replay("v2.3.6-more/013"), lambda c: c.instances.connect("nope"))
    assert isinstance(error, NotFound)


async def test_restart_is_a_post() -> None:
    # Recorded: 200 {"error": true, "message": "[object Object]"} for an instance not open.
    error = await fails(Replay("v2.3.6-more/014"), lambda c: c.instances.restart("lc-1"))
    assert error.method == "POST" and error.path == "/instance/restart/lc-1"


async def test_logout_of_a_closed_instance() -> None:
    error = await fails(Replay("v2.3.6/060"), lambda c: c.instances.logout("evo-a"))
    assert isinstance(error, BadRequest) and error.instance_not_connected


async def test_delete() -> None:
    result = await run(Replay("v2.3.6/063"), lambda c: c.instances.delete("evo-c"))
    assert result.status == "SUCCESS" and result.message == "Instance deleted"


async def test_delete_unknown() -> None:
    error = await fails(Replay("v2.3.6/061"), lambda c: c.instances.delete("nope"))
    assert isinstance(error, NotFound)


# --- settings -----------------------------------------------------------------------------------


async def test_settings_find_reads_camel_case() -> None:
    found = await run(Replay("v2.3.6/023"), lambda c: c.settings.find("evo-a"))
    assert found.reject_call and found.groups_ignore and found.msg_call == "busy"
    assert not found.always_online


async def test_settings_find_keeps_the_wavoip_token_secret() -> None:
    rec = recording("v2.3.6/018")
    rec["response_body"]["wavoipToken"] = "WAVOIP-SECRET-42"
    replay = Replay()
    replay.pending = [rec]
    found = await run(replay, lambda c: c.settings.find("evo-a"))
    assert found.wavoip_token == "WAVOIP-SECRET-42"
    assert "WAVOIP-SECRET-42" not in repr(found) and "WAVOIP-SECRET-42" not in str(
        found.model_dump()
    )


async def test_settings_set_sends_camel_case_with_msg_call() -> None:
    wanted = InstanceSettings(reject_call=True, groups_ignore=True, msg_call="busy")
    result = await run(Replay("v2.3.6/022"), lambda c: c.settings.set("evo-a", wanted))
    assert result.applied == wanted


@pytest.mark.parametrize(
    ("seq", "field"),
    [
        ("051", "reject_call"),
        ("055", "groups_ignore"),
        ("057", "always_online"),
        ("059", "read_messages"),
        ("061", "read_status"),
        ("063", "sync_full_history"),
    ],
)
async def test_each_setting_is_written_alone(seq: str, field: str) -> None:
    wanted = InstanceSettings(**{field: True}, msg_call="")
    result = await run(Replay(f"v2.3.6-more/{seq}"), lambda c: c.settings.set("evo-a", wanted))
    assert result.applied == wanted


async def test_settings_unknown_instance() -> None:
    error = await fails(Replay("v2.3.6/019"), lambda c: c.settings.find("nope"))
    assert isinstance(error, NotFound)


async def test_settings_with_another_instances_key() -> None:
    error = await fails(Replay("v2.3.6/021"), lambda c: c.settings.find("evo-a"))
    assert isinstance(error, Unauthorized)


# --- sendList -----------------------------------------------------------------------------------

LIST = ListMessage(
    title="Menu",
    description="Pick one",
    buttonText="Open",
    footerText="footer",
    sections=[ListSection(title="S1", rows=[ListRow(title="R1", description="d1", rowId="r1")])],
)
LIST_REQUEST = SendListRequest(
    number="5511999999999", listMessage=LIST, options=SendListOptions(delay=1200)
)


async def test_send_list_is_flat() -> None:
    request = SendListRequest(number="5511999999999", listMessage=LIST)
    error = await fails(Replay("v2.3.6/025"), lambda c: c.messages.send_list("evo-a", request))
    assert isinstance(error, ServerError) and error.instance_not_connected


async def test_send_list_delay_is_top_level_and_presence_not_sent() -> None:
    request = SendListRequest(
        number="5511999999999",
        listMessage=LIST,
        options=SendListOptions(delay=1200, presence="composing"),
    )
    error = await fails(Replay("v2.3.6/026"), lambda c: c.messages.send_list("evo-a", request))
    assert isinstance(error, ServerError)


async def test_send_list_without_description_is_sent() -> None:
    message = LIST.model_copy(
        update={
            "description": "",
            "footer_text": "f",
            "sections": [ListSection(title="S1", rows=[ListRow(title="R1", rowId="r1")])],
        }
    )
    rec = recording("v2.3.6-more/154")
    del rec["request_body"]["description"]
    replay = Replay()
    replay.pending = [rec]
    request = SendListRequest(number="5511999999999", listMessage=message)
    error = await fails(replay, lambda c: c.messages.send_list("evo-c", request))
    assert isinstance(error, ServerError) and error.instance_not_connected  # Connection Closed


async def test_send_list_without_footer_is_refused_before_sending() -> None:
    replay = Replay()
    message = LIST.model_copy(update={"footer_text": None})
    request = SendListRequest(number="5511999999999", listMessage=message)
    error = await fails(replay, lambda c: c.messages.send_list("evo-a", request))
    assert isinstance(error, InvalidRequest)
    assert [p.field for p in error.problems] == ["footerText"]
    assert replay.requests == []


async def test_send_list_unknown_instance() -> None:
    request = SendListRequest(number="5511999999999", listMessage=LIST)
    error = await fails(Replay("v2.3.6/030"), lambda c: c.messages.send_list("nope", request))
    assert isinstance(error, NotFound)


async def test_send_list_with_own_key() -> None:
    request = SendListRequest(number="5511999999999", listMessage=LIST)
    error = await fails(
        Replay("v2.3.6/031"),
        lambda c: c.messages.send_list("evo-b", request),
        key="EVO-B-INSTANCE-KEY-0001",
    )
    assert isinstance(error, ServerError)


def test_send_list_curl_shows_the_flat_body() -> None:
    client = v2_client(Replay())
    command = client.messages.send_list_curl("evo-a", LIST_REQUEST)
    assert '"footerText"' in command and "listMessage" not in command and '"delay"' in command


# --- groups -------------------------------------------------------------------------------------


async def test_participants_disconnected() -> None:
    error = await fails(Replay("v2.3.6/036"), lambda c: c.groups.participants("evo-a", GROUP))
    assert isinstance(error, NotFound) and error.instance_not_connected


async def test_invite_code_disconnected() -> None:
    error = await fails(Replay("v2.3.6/039"), lambda c: c.groups.invite_code("evo-a", GROUP))
    assert isinstance(error, NotFound) and error.instance_not_connected


async def test_revoke_is_a_post() -> None:
    replay = Replay("v2.3.6/040")
    error = await fails(replay, lambda c: c.groups.revoke_invite("evo-a", GROUP))
    assert isinstance(error, NotFound) and error.instance_not_connected
    assert replay.requests[0].method == "POST"


async def test_update_subject_is_a_post() -> None:
    replay = Replay("v2.3.6/042")
    error = await fails(replay, lambda c: c.groups.update_subject("evo-a", GROUP, "New subject"))
    assert isinstance(error, ServerError) and error.instance_not_connected


async def test_send_invite() -> None:
    error = await fails(
        Replay("v2.3.6/044"),
        lambda c: c.groups.send_invite("evo-a", GROUP, ["5511999999999"], "join"),
    )
    assert isinstance(error, NotFound) and error.messages == ["No send invite"]


def test_lid_participants() -> None:
    with_number = Participant.model_validate(
        {"id": "123456789@lid", "phoneNumber": "5511999999999@s.whatsapp.net", "admin": None}
    )
    without = Participant.model_validate({"id": "987654321@lid", "admin": "admin"})
    assert with_number.is_lid and with_number.number == "5511999999999"
    assert without.is_lid and without.number == "" and without.is_admin


# --- chats --------------------------------------------------------------------------------------

KEY_X = MessageKey(remoteJid="5511999999999@s.whatsapp.net", fromMe=False, id="X")


async def test_archive_is_a_post_with_the_last_message() -> None:
    replay = Replay("v2.3.6/047")
    error = await fails(replay, lambda c: c.chats.archive("evo-a", KEY_X, True))
    assert isinstance(error, ServerError) and error.instance_not_connected


async def test_update_message_is_a_post() -> None:
    key = MessageKey(remoteJid="5511999999999@s.whatsapp.net", fromMe=True, id="3EB0ABCDEF")
    error = await fails(Replay("v2.3.6/048"), lambda c: c.messages.update("evo-a", key, "edited"))
    assert isinstance(error, BadRequest) and error.messages == ["Message not compatible"]


async def test_update_message_of_a_stored_message() -> None:
    key = MessageKey(remoteJid="5511999999999@s.whatsapp.net", fromMe=True, id="3EB0PLANTED0002")
    error = await fails(Replay("v2.3.6/058"), lambda c: c.messages.update("evo-a", key, "edited"))
    assert isinstance(error, ServerError) and error.instance_not_connected


async def test_fetch_profile_disconnected() -> None:
    error = await fails(
        Replay("v2.3.6/050"), lambda c: c.contacts.fetch_profile("evo-a", "5511999999999")
    )
    assert isinstance(error, ServerError) and error.instance_not_connected


async def test_find_chats_is_a_post_and_reads_remote_jid() -> None:
    (chat,) = await run(Replay("v2.3.6/053"), lambda c: c.chats.find("evo-a"))
    assert chat.id == "5511999999999@s.whatsapp.net" and chat.last_timestamp == 1764000060


async def test_find_chats_empty() -> None:
    assert await run(Replay("v2.3.6/052"), lambda c: c.chats.find("evo-a")) == []


async def test_find_chats_with_another_key() -> None:
    error = await fails(
        Replay("v2.3.6-more/133"), lambda c: c.chats.find("evo-a"), key="EVO-B-INSTANCE-KEY-0001"
    )
    assert isinstance(error, Unauthorized)


PAGING = frozenset({"page", "offset"})


async def test_find_messages_reads_the_page() -> None:
    replay = Replay("v2.3.6/054", ignore_body_keys=PAGING)
    found = await run(
        replay, lambda c: c.chats.find_messages("evo-a", remote_jid="5511999999999@s.whatsapp.net")
    )
    assert [m.id for m in found] == ["3EB0PLANTED0001", "3EB0PLANTED0002"]  # oldest first
    assert json.loads(replay.requests[0].content)["page"] == 1


async def test_find_messages_by_id() -> None:
    replay = Replay("v2.3.6/056", ignore_body_keys=PAGING)
    found = await run(
        replay, lambda c: c.chats.find_messages("evo-a", message_id="3EB0PLANTED0002")
    )
    assert [m.text for m in found] == ["hi Alice"]


async def test_find_messages_fetches_every_page(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(chats_resource, "MESSAGES_PAGE", 2)
    replay = Replay("v2.3.6-more/098", "v2.3.6-more/099")
    messages = await run(
        replay, lambda c: c.chats.chat_messages("evo-a", "5511999999999@s.whatsapp.net")
    )
    assert len(messages) == 3
    assert [json.loads(r.content)["page"] for r in replay.requests] == [1, 2]


async def test_a_chat_is_read_a_page_at_a_time_newest_first(monkeypatch: pytest.MonkeyPatch):
    """The conversation's reads on 2.x: page 1 (the newest) at open, page 2 when scrolled to."""
    monkeypatch.setattr(chats_resource, "MESSAGES_PAGE", 2)
    jid = "5511999999999@s.whatsapp.net"
    replay = Replay("v2.3.6-more/098", "v2.3.6-more/099")

    async def both(client: GatewayClient) -> tuple[Any, Any]:
        newest = await client.chats.chat_page("evo-a", jid)
        return newest, await client.chats.chat_page("evo-a", jid, newest.older_page)

    newest, older = await run(replay, both)
    assert [m.id for m in newest] == ["3EB0PLANTED0002", "3EB0A1B2C3D4E5F6A7B8C9"]
    assert (newest.older_page, newest.total, newest.older_left) == (2, 3, 1)
    assert [m.id for m in older] == ["3EB0PLANTED0001"] and older.older_page is None
    joined = newest.joined(older)
    assert [m.id for m in joined] == [
        "3EB0PLANTED0001",
        "3EB0PLANTED0002",
        "3EB0A1B2C3D4E5F6A7B8C9",
    ]
    assert joined.older_page is None and joined.older_left == 0
    assert [json.loads(r.content)["page"] for r in replay.requests] == [1, 2]


async def test_find_last_messages() -> None:
    replay = Replay("v2.3.6-more/096", ignore_body_keys=PAGING)
    found = await run(replay, lambda c: c.chats.last_messages("evo-a"))
    assert [m.remote_jid for m in found] == ["5511999999999@s.whatsapp.net"]


async def test_find_message_json() -> None:
    replay = Replay("v2.3.6/056", ignore_body_keys=PAGING)
    found = await run(replay, lambda c: c.chats.message_json("evo-a", "3EB0PLANTED0002"))
    assert found is not None and found["message"] == {"conversation": "hi Alice"}


async def test_find_contacts_reads_remote_jid() -> None:
    (contact,) = await run(Replay("v2.3.6/057"), lambda c: c.contacts.find("evo-a"))
    assert contact.id == "5511999999999@s.whatsapp.net" and contact.name == "Alice"


async def test_find_contacts_where_remote_jid() -> None:
    found = await run(
        Replay("v2.3.6-more/104"),
        lambda c: c.contacts.find("evo-a", "5511999999999@s.whatsapp.net"),
    )
    assert [c.id for c in found] == ["5511999999999@s.whatsapp.net"]


async def test_find_status_messages() -> None:
    assert await run(Replay("v2.3.6-more/106"), lambda c: c.chats.statuses("evo-a")) == []


# --- webhook and websocket ----------------------------------------------------------------------


async def test_webhook_find_before_set_is_not_configured() -> None:
    found = await run(Replay("v2.3.6-more/032"), lambda c: c.hooks.find_webhook("evo-a"))
    assert not found.configured


async def test_webhook_set_is_nested() -> None:
    settings = WebhookSettings(
        url="http://127.0.0.1:9/hook",
        enabled=True,
        events=["MESSAGES_UPSERT", "CONNECTION_UPDATE", "QRCODE_UPDATED"],
        webhook_by_events=False,
        webhook_base64=False,
    )
    result = await run(Replay("v2.3.6-more/033"), lambda c: c.hooks.set_webhook("evo-a", settings))
    assert result.applied == settings


async def test_webhook_find_after_set() -> None:
    found = await run(Replay("v2.3.6-more/034"), lambda c: c.hooks.find_webhook("evo-a"))
    assert found.configured and found.url == "http://127.0.0.1:9/hook" and found.enabled
    assert found.webhook_by_events is False


async def test_webhook_unknown_event_is_refused_before_sending() -> None:
    replay = Replay()
    settings = WebhookSettings(url="http://127.0.0.1:9/hook", enabled=True, events=["NOPE"])
    error = await fails(replay, lambda c: c.hooks.set_webhook("evo-a", settings))
    assert isinstance(error, InvalidRequest) and replay.requests == []


async def test_webhook_takes_the_2x_events() -> None:
    assert not dialects.V2.check_events(["MESSAGES_EDITED", "STATUS_INSTANCE"])
    assert dialects.V1.check_events(["MESSAGES_EDITED"])


async def test_websocket_find_before_set() -> None:
    found = await run(Replay("v2.3.6-more/140"), lambda c: c.hooks.find_websocket("ws-h"))
    assert not found.configured


async def test_websocket_set_is_nested() -> None:
    settings = WebsocketSettings(enabled=True, events=["CONNECTION_UPDATE", "MESSAGES_UPSERT"])
    result = await run(Replay("v2.3.6-more/141"), lambda c: c.hooks.set_websocket("ws-h", settings))
    assert result.applied == settings


async def test_websocket_disable() -> None:
    settings = WebsocketSettings(enabled=False)
    result = await run(Replay("v2.3.6-more/148"), lambda c: c.hooks.set_websocket("ws-h", settings))
    assert result.applied is not None and not result.applied.enabled


async def test_websocket_find_after_set() -> None:
    found = await run(Replay("v2.3.6-more/142"), lambda c: c.hooks.find_websocket("ws-h"))
    assert found.enabled and found.events == ["CONNECTION_UPDATE", "MESSAGES_UPSERT"]


async def test_websocket_off_on_the_server_answers_nothing() -> None:
    found = await run(Replay("v2.3.6-more/043"), lambda c: c.hooks.find_websocket("evo-a"))
    assert not found.configured


async def test_websocket_set_on_a_server_with_websockets_off_stores_nothing() -> None:
    settings = WebsocketSettings(enabled=True, events=["MESSAGES_UPSERT", "CONNECTION_UPDATE"])
    result = await run(
        Replay("v2.3.6-more/044"), lambda c: c.hooks.set_websocket("evo-a", settings)
    )
    assert result.applied is None


# --- 2.4 -----------------------------------------------------------------------------------------


async def test_license_required_is_its_own_error() -> None:
    def answer(request: httpx.Request) -> httpx.Response:
        body = {"status": 503, "error": "LICENSE_REQUIRED", "message": "activate this server"}
        return httpx.Response(503, json=body)

    async with GatewayClient(
        BASE, GLOBAL_KEY, transport=httpx.MockTransport(answer), api_version="2"
    ) as client:
        with pytest.raises(LicenseRequired) as info:
            await client.settings.find("evo-a")
    assert "activation" in info.value.title and info.value.status == 503


def test_the_2x_events_are_the_ones_the_gateway_lists() -> None:
    (line,) = recording("v2.3.6-more/145")["response_body"]["response"]["message"][0:1]
    listed = line[0].split("enum values: ", 1)[1].split(",")
    assert list(dialects.V2.event_names) == listed
