"""GatewayClient against the demo gateway over real loopback HTTP.

One DemoServer for the module; every test starts from the seeded world (``reset()`` rebuilds
the state and clears fault rules), so tests that change data do not see each other's changes.
"""

from __future__ import annotations

import socket
import time
from collections.abc import AsyncIterator, Iterator
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
    InstanceSettings,
    InstanceStatus,
    InvalidResponse,
    ListMessage,
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
from gateway_tui.demo.data import CURATED_INSTANCES
from gateway_tui.demo.server import DEMO_API_KEY, DemoServer

OPEN = "sales-eu"  # open; has the curated groups and chats below
OTHER_OPEN = "support"
CLOSED = "onboarding"
CONNECTING = "billing-apac"
BIG_GROUP = "120363012345678901@g.us"  # 1,024 participants; sales-eu is superadmin
OLD_STYLE_GROUP = "5511999887766-1589000000@g.us"  # sales-eu is admin
MEMBER_ONLY_GROUP = "120363034567890123@g.us"  # sales-eu is a plain member
UNKNOWN_GROUP = "120363999999999999@g.us"
JONAS = "4915112340001@s.whatsapp.net"
LENA = "4915112340002"
OWN_MESSAGE = MessageKey(remote_jid=JONAS, from_me=True, id="3EB0A1B2C3D4E5F60718")
INCOMING_MESSAGE = MessageKey(remote_jid=JONAS, from_me=False, id="3A5F0C2D9B7E41A6C8D0")
PADARIA = "5511912345678"  # a business profile with a website
NOT_ON_WHATSAPP = "4915100000000"

LIST_MESSAGE = ListMessage(
    title="Spring offers",
    description="Pick one",
    button_text="Show offers",
    footer_text="Acme",
    sections=[
        ListSection(
            title="Bikes",
            rows=[
                ListRow(title="City bike", description="-20%", row_id="bike-city"),
                ListRow(title="Road bike", row_id="bike-road"),
            ],
        )
    ],
)


def list_request(number: str = "4915112340001", delay: int | None = None) -> SendListRequest:
    options = SendListOptions(delay=delay, presence="composing") if delay is not None else None
    return SendListRequest(number=number, list_message=LIST_MESSAGE, options=options)


@pytest.fixture(scope="module")
def demo_module() -> Iterator[DemoServer]:
    with DemoServer(instances=8, latency_ms=0, port=0) as server:
        yield server


@pytest.fixture
def demo(demo_module: DemoServer) -> Iterator[DemoServer]:
    demo_module.reset()
    yield demo_module
    demo_module.faults.clear()


def connect(demo: DemoServer, key: str | None = None, **kwargs: Any) -> GatewayClient:
    kwargs.setdefault("retry_delays", (0, 0))
    return GatewayClient(demo.url, demo.api_key if key is None else key, **kwargs)


@pytest.fixture
async def client(demo: DemoServer) -> AsyncIterator[GatewayClient]:
    async with connect(demo) as gateway:
        yield gateway


@pytest.fixture
def events(client: GatewayClient) -> list[CallEvent]:
    seen: list[CallEvent] = []
    client.subscribe(seen.append)
    return seen


async def raw(client: GatewayClient, method: str, path: str, body: Any = None) -> Any:
    """A call with a body the public methods refuse to send, to get the server's own error.

    Goes through the client's private send-and-parse path, so the error handling under test
    is the same one the public methods use.
    """
    return await client._call(method, path, lambda response: response.json(), body=body)


# --- every endpoint succeeds ----------------------------------------------------------------------


async def test_fetch_instances_lists_all_with_their_fields(client: GatewayClient) -> None:
    instances = await client.instances.fetch()
    assert [i.instance_name for i in instances] == [c.name for c in CURATED_INSTANCES]
    by_name = {i.instance_name: i for i in instances}
    assert {i.status_kind for i in instances} == {
        InstanceStatus.OPEN,
        InstanceStatus.CONNECTING,
        InstanceStatus.CLOSE,
        InstanceStatus.REFUSED,
    }
    sales = by_name[OPEN]
    assert sales.owner_number == "4915123456701" and sales.profile_name == "Acme Sales EU"
    assert (url := sales.wa_business_callback_url) and url.startswith(client.base_url)
    closed = by_name[CLOSED]  # owner and profile are only sent for an open instance
    assert closed.owner is None and closed.profile_name is None
    assert by_name["hr-internal"].integration is None


async def test_fetch_instances_by_name_is_a_list_of_one(
    client: GatewayClient, demo: DemoServer
) -> None:
    (instance,) = await client.instances.fetch(CONNECTING)
    assert instance.instance_name == CONNECTING
    assert instance.status_kind is InstanceStatus.CONNECTING
    assert instance.instance_id == demo.state.instances[CONNECTING].instance_id
    # The instance's own key is listed by the gateway but never held by the app.
    assert demo.state.instances[CONNECTING].apikey not in repr(instance.model_dump())


@pytest.mark.parametrize("name", ["nobody", "has space", "a/b"])
async def test_fetch_instances_by_unknown_name_is_not_found(
    client: GatewayClient, name: str
) -> None:
    with pytest.raises(NotFound) as info:
        await client.instances.fetch(name)
    assert info.value.messages == [f'Instance "{name}" not found']


async def test_find_and_set_settings(client: GatewayClient, demo: DemoServer) -> None:
    before = await client.settings.find(OPEN)
    assert before.model_dump() == demo.state.instances[OPEN].settings
    wanted = InstanceSettings(
        reject_call=not before.reject_call,
        groups_ignore=True,
        always_online=True,
        read_messages=False,
        read_status=True,
        sync_full_history=False,
        msg_call="No calls, please",
    )
    result = await client.settings.set(OPEN, wanted)
    assert result.applied == wanted
    assert await client.settings.find(OPEN) == wanted


async def test_send_list(client: GatewayClient, demo: DemoServer) -> None:
    sent = await client.messages.send_list(OPEN, list_request())
    assert sent.status_kind is MessageStatus.PENDING
    assert sent.key is not None and sent.key.remote_jid == JONAS and sent.key.from_me
    assert sent.message.list_message is not None
    assert sent.message.list_message.list_type == "PRODUCT_LIST"
    assert sent.message.list_message.title == "Spring offers"
    assert sent.message_timestamp and sent.message_timestamp.isdigit()
    stored = demo.state.instances[OPEN].chats[JONAS].find(sent.key.id)
    # A row without a description goes without the field: a real 1.7.1 refuses "".
    assert stored is not None and stored.list_message["sections"][0]["rows"][1] == {
        "title": "Road bike",
        "rowId": "bike-road",
    }


async def test_send_list_waits_for_the_delay_beyond_the_client_timeout(
    demo: DemoServer,
) -> None:
    # The server holds the request for the whole delay; the client's normal timeout is smaller.
    # 4 s of delay against a 2 s timeout: the delay is added to the call's deadline, and the
    # 2 s left over are far more than a busy machine needs for a loopback answer.
    async with connect(demo, timeout=2.0) as client:
        started = time.perf_counter()
        sent = await client.messages.send_list(OPEN, list_request(delay=4000))
        took = time.perf_counter() - started
    assert sent.status_kind is MessageStatus.PENDING
    assert took >= 4.0


async def test_a_plain_call_does_time_out_with_that_small_timeout(demo: DemoServer) -> None:
    # The counterpart of the test above: the same client gives up on a slower plain call.
    demo.faults.add("stall", method="GET", path_prefix="/settings/find/", seconds=1.0)
    async with connect(demo, timeout=0.2) as client:
        with pytest.raises(GatewayTimeout):
            await client.settings.find(OPEN)


async def test_archive_and_unarchive_a_chat(client: GatewayClient, demo: DemoServer) -> None:
    chat = demo.state.instances[OPEN].chats[JONAS]
    result = await client.chats.archive(OPEN, INCOMING_MESSAGE, archive=True)
    assert result.chat_id == JONAS and chat.archived is True
    result = await client.chats.archive(OPEN, OWN_MESSAGE, archive=False)
    assert result.archived is True  # the server always says true ...
    assert chat.archived is False  # ... but did unarchive


async def test_update_message(client: GatewayClient, demo: DemoServer) -> None:
    answer = await client.messages.update(OPEN, OWN_MESSAGE, "Ja, heute verschickt (DHL).")
    assert isinstance(answer, dict) and answer["status"] == "PENDING"
    message = demo.state.instances[OPEN].chats[JONAS].find(OWN_MESSAGE.id)
    assert message is not None and message.text == "Ja, heute verschickt (DHL)." and message.edited


async def test_update_message_with_an_explicit_number(
    client: GatewayClient, demo: DemoServer
) -> None:
    await client.messages.update(OPEN, OWN_MESSAGE, "edited", number="+49 151 1234-0001")
    assert demo.state.instances[OPEN].chats[JONAS].find(OWN_MESSAGE.id).text == "edited"


async def test_send_group_invite(client: GatewayClient, demo: DemoServer) -> None:
    group = demo.state.instances[OPEN].groups[BIG_GROUP]
    result = await client.groups.send_invite(OPEN, BIG_GROUP, [f"+{LENA}"], "Join us")
    assert result.send is True
    assert result.invite_url == f"https://chat.whatsapp.com/{group.invite_code}"
    sent = demo.state.instances[OPEN].chats[f"{LENA}@s.whatsapp.net"].messages[-1]
    assert sent.text.startswith("Join us") and group.invite_code in sent.text


@pytest.mark.parametrize(
    ("number", "name", "business", "websites"),
    [
        (PADARIA, "Padaria Pão Quente", True, ["https://paoquente.com.br"]),
        ("4915790001122", None, True, []),  # not a known contact: no name; no website
        (LENA, "Lena Fischer", False, []),
    ],
)
async def test_fetch_profile(
    client: GatewayClient, number: str, name: str | None, business: bool, websites: list[str]
) -> None:
    profile = await client.contacts.fetch_profile(OPEN, number)
    assert (profile.name, profile.is_business, profile.websites) == (name, business, websites)
    assert profile.wuid == f"{number}@s.whatsapp.net" and profile.number_exists is True


async def test_update_group_subject(client: GatewayClient, demo: DemoServer) -> None:
    result = await client.groups.update_subject(OPEN, OLD_STYLE_GROUP, "Clientes VIP 2025")
    assert result.update == "success"
    assert demo.state.instances[OPEN].groups[OLD_STYLE_GROUP].subject == "Clientes VIP 2025"


@pytest.mark.parametrize("group", [BIG_GROUP, BIG_GROUP.removesuffix("@g.us")])
async def test_group_participants(client: GatewayClient, group: str) -> None:
    participants = await client.groups.participants(OPEN, group)
    assert len(participants) == 1024
    roles = {p.role for p in participants}
    assert ParticipantRole.SUPERADMIN in roles and ParticipantRole.MEMBER in roles
    assert ParticipantRole.UNKNOWN not in roles
    assert participants[0].number == "4915123456701" and participants[0].is_admin
    named = {p.number: p.name for p in participants if p.name}
    assert named[LENA] == "Lena Fischer"


async def test_invite_code_and_revoke_changes_it(client: GatewayClient, demo: DemoServer) -> None:
    group = demo.state.instances[OPEN].groups[BIG_GROUP]
    before = await client.groups.invite_code(OPEN, BIG_GROUP)
    assert before.invite_code == group.invite_code
    assert before.url == f"https://chat.whatsapp.com/{before.invite_code}"
    revoked = await client.groups.revoke_invite(OPEN, BIG_GROUP)
    assert revoked.revoked is True
    assert revoked.invite_code and revoked.invite_code != before.invite_code
    after = await client.groups.invite_code(OPEN, BIG_GROUP)
    assert after.invite_code == revoked.invite_code == group.invite_code


async def test_fetch_all_groups(client: GatewayClient) -> None:
    groups = await client.groups.fetch_all(OPEN)
    by_id = {g.id: g for g in groups}
    assert set(by_id) == {BIG_GROUP, "120363023456789012@g.us", OLD_STYLE_GROUP, MEMBER_ONLY_GROUP}
    assert by_id[BIG_GROUP].size == 1024 and by_id[BIG_GROUP].subject == "EU Sales — all hands"
    assert by_id[OLD_STYLE_GROUP].creation == 1_589_000_000


async def test_connection_state_and_logout(client: GatewayClient, demo: DemoServer) -> None:
    assert (await client.instances.connection_state(OTHER_OPEN)).state == "open"
    result = await client.instances.logout(OTHER_OPEN)
    assert result.status == "SUCCESS"
    assert (await client.instances.connection_state(OTHER_OPEN)).state == "close"
    assert demo.state.instances[OTHER_OPEN].status == "close"


async def test_delete_twice(client: GatewayClient, demo: DemoServer) -> None:
    result = await client.instances.delete(CLOSED)
    assert (result.status, result.error, result.message) == ("SUCCESS", False, "Instance deleted")
    assert CLOSED not in demo.state.instances
    with pytest.raises(NotFound) as info:
        await client.instances.delete(CLOSED)
    assert info.value.messages == [f'The "{CLOSED}" instance does not exist']
    assert info.value.method == "DELETE" and info.value.path == f"/instance/delete/{CLOSED}"
    assert CLOSED not in [i.instance_name for i in await client.instances.fetch()]


async def test_delete_then_logout_an_open_instance(client: GatewayClient) -> None:
    with pytest.raises(BadRequest) as info:
        await client.instances.delete(OPEN)
    assert info.value.messages == [f'The "{OPEN}" instance needs to be disconnected']
    assert not info.value.instance_not_connected  # it is connected: that is the problem
    await client.instances.logout(OPEN)
    assert (await client.instances.delete(OPEN)).status == "SUCCESS"


@pytest.mark.parametrize(
    "name", ["eu sales", "eu/west", "a b/c?d#e", "..", "loja são paulo", "50%"]
)
async def test_instance_names_that_need_quoting(
    client: GatewayClient, demo: DemoServer, name: str
) -> None:
    demo.state.create_instance(name, None)
    settings = await client.settings.find(name)
    assert settings.model_dump() == demo.state.instances[name].settings
    (listed,) = await client.instances.fetch(name)
    assert listed.instance_name == name
    assert (await client.instances.delete(name)).status == "SUCCESS"


async def test_calls_share_one_keep_alive_connection(client: GatewayClient) -> None:
    for _ in range(5):
        await client.settings.find(OPEN)
    pool = client._http._transport._pool  # httpx internals: how many connections were opened
    assert len(pool.connections) == 1


# --- error statuses and error bodies --------------------------------------------------------------


async def test_400_bad_request_with_a_list_message(client: GatewayClient) -> None:
    with pytest.raises(BadRequest) as info:
        await client.instances.delete(OPEN)
    error = info.value
    assert (error.status, error.reason) == (400, "Bad Request")
    assert error.messages == [f'The "{OPEN}" instance needs to be disconnected']


@pytest.mark.parametrize(
    ("invoke", "number"),
    [
        (
            lambda c: c.messages.send_list(OPEN, list_request(number=NOT_ON_WHATSAPP)),
            NOT_ON_WHATSAPP,
        ),
        (lambda c: c.contacts.fetch_profile(OPEN, "99912345678"), "99912345678"),
    ],
    ids=["sendList", "fetchProfile"],
)
async def test_400_a_number_not_on_whatsapp(
    client: GatewayClient, invoke: Any, number: str
) -> None:
    with pytest.raises(BadRequest) as info:
        await invoke(client)
    assert info.value.messages == [f"{number} is not on WhatsApp"]
    assert info.value.not_on_whatsapp == [number]


async def test_400_body_validation_lines_from_a_nested_list(client: GatewayClient) -> None:
    # What the interface text asks for (number as an integer) is refused by the server; the
    # client sends a string, so only a raw call can show this error body.
    body = {"number": 4915112340001, "text": "x", "key": OWN_MESSAGE.to_json()}
    with pytest.raises(BadRequest) as info:
        await raw(client, "PUT", f"/chat/updateMessage/{OPEN}", body)
    assert info.value.messages == ["number is not of a type(s) string"]


async def test_400_group_validation_lines_tied_to_their_property(client: GatewayClient) -> None:
    body = {"groupJid": BIG_GROUP, "numbers": ["12345", "4915112340002"], "description": "Hi"}
    with pytest.raises(BadRequest) as info:
        await raw(client, "POST", f"/group/sendInvite/{OPEN}", body)
    error = info.value
    assert error.messages == ['numbers[0]: "numbers" must be an array of numeric strings']
    assert [p.field for p in error.problems] == ["numbers[0]"]


async def test_400_group_id_missing_from_the_query(client: GatewayClient) -> None:
    with pytest.raises(BadRequest) as info:
        await raw(client, "GET", f"/group/participants/{OPEN}")
    assert info.value.messages == [
        "The group id needs to be informed in the query",
        'ex: "groupJid=120362@g.us"',
    ]


@pytest.mark.parametrize(
    ("invoke", "cls", "lines"),
    [
        (
            lambda c: c.groups.participants(OPEN, UNKNOWN_GROUP),
            NotFound,
            ["No participants", "Error: item-not-found"],
        ),
        (
            lambda c: c.groups.invite_code(OPEN, MEMBER_ONLY_GROUP),
            NotFound,
            ["No invite code", "Error: not-authorized"],
        ),
        (
            lambda c: c.groups.revoke_invite(OPEN, UNKNOWN_GROUP),
            NotFound,
            ["Revoke error", "Error: item-not-found"],
        ),
        (
            lambda c: c.groups.send_invite(OPEN, UNKNOWN_GROUP, [LENA], "Hi"),
            NotFound,
            ["No send invite"],
        ),
        (
            lambda c: c.groups.update_subject(OPEN, MEMBER_ONLY_GROUP, "Mine now"),
            ServerError,
            ["Error updating group subject", "Error: not-authorized"],
        ),
        (
            lambda c: c.messages.update(OPEN, INCOMING_MESSAGE, "not mine"),
            BadRequest,
            ["Error: only messages sent by this instance can be edited"],
        ),
        (
            lambda c: c.settings.find("ghost"),
            NotFound,
            ['The "ghost" instance does not exist'],
        ),
    ],
    ids=["participants", "inviteCode", "revoke", "sendInvite", "subject", "updateMessage", "404"],
)
async def test_failures_of_group_and_chat_endpoints(
    client: GatewayClient, invoke: Any, cls: type, lines: list[str]
) -> None:
    with pytest.raises(GatewayError) as info:
        await invoke(client)
    assert type(info.value) is cls and info.value.messages == lines
    assert not info.value.instance_not_connected


@pytest.mark.parametrize(
    ("invoke", "cls", "status"),
    [
        (lambda c: c.groups.participants(CLOSED, "120363000000000001@g.us"), NotFound, 404),
        (lambda c: c.messages.send_list(CONNECTING, list_request()), ServerError, 500),
        (lambda c: c.contacts.fetch_profile(CLOSED, PADARIA), ServerError, 500),
        (lambda c: c.chats.archive(CLOSED, OWN_MESSAGE, True), ServerError, 500),
    ],
    ids=["participants", "sendList", "fetchProfile", "archiveChat"],
)
async def test_an_instance_that_is_not_connected_gets_the_hint(
    client: GatewayClient, invoke: Any, cls: type, status: int
) -> None:
    with pytest.raises(GatewayError) as info:
        await invoke(client)
    error = info.value
    assert type(error) is cls and error.status == status
    assert any("Cannot read properties of undefined" in line for line in error.messages)
    assert error.instance_not_connected and error.hint in error.details()


async def test_500_archive_failure_shape(client: GatewayClient) -> None:
    with pytest.raises(ServerError) as info:
        await client.chats.archive(OPEN, MessageKey(remote_jid=JONAS, id="NOPE"), True)
    assert info.value.messages == [
        "An error occurred while archiving the chat. Open a calling.",
        "Error: message not found",
    ]


# --- keys -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("invoke", "cls", "lines"),
    [
        (
            lambda c: c.instances.fetch(),
            Forbidden,
            ["Missing global api key", "The global api key must be set"],
        ),
        (lambda c: c.settings.find(OPEN), Unauthorized, ["Unauthorized"]),
        (lambda c: c.groups.participants(OPEN, BIG_GROUP), Unauthorized, ["Unauthorized"]),
        # The instance is checked before the key: an unknown one is 404 even without a key.
        (lambda c: c.settings.find("ghost"), NotFound, ['The "ghost" instance does not exist']),
    ],
    ids=["fetchInstances", "settings", "participants", "unknown-instance"],
)
async def test_missing_key(demo: DemoServer, invoke: Any, cls: type, lines: list[str]) -> None:
    async with connect(demo, key="") as client:
        with pytest.raises(GatewayError) as info:
            await invoke(client)
    assert type(info.value) is cls and info.value.messages == lines


@pytest.mark.parametrize(
    "invoke",
    [
        lambda c: c.instances.fetch(),
        lambda c: c.settings.find(OPEN),
        lambda c: c.instances.delete(CLOSED),
    ],
    ids=["fetchInstances", "settings", "delete"],
)
async def test_wrong_key(demo: DemoServer, invoke: Any) -> None:
    async with connect(demo, key="not-the-key") as client:
        with pytest.raises(Unauthorized) as info:
            await invoke(client)
    assert info.value.messages == ["Unauthorized"] and info.value.reason == "Unauthorized"
    assert CLOSED in demo.state.instances


async def test_an_instance_key_opens_only_its_own_instance(demo: DemoServer) -> None:
    own_key = demo.state.instances[OPEN].apikey
    async with connect(demo, key=own_key) as client:
        assert (await client.settings.find(OPEN)).model_dump() == demo.state.instances[
            OPEN
        ].settings
        assert len(await client.groups.participants(OPEN, BIG_GROUP)) == 1024
        with pytest.raises(Unauthorized):
            await client.settings.find(OTHER_OPEN)
        with pytest.raises(Unauthorized):
            await client.instances.fetch()


# --- the network misbehaving ----------------------------------------------------------------------


async def test_a_get_is_retried_after_a_dropped_connection(
    client: GatewayClient, demo: DemoServer, events: list[CallEvent]
) -> None:
    rule = demo.faults.add("drop_connection", method="GET", path_prefix="/settings/", times=2)
    settings = await client.settings.find(OPEN)
    assert settings.model_dump() == demo.state.instances[OPEN].settings
    assert rule.hits == 2
    assert [(e.attempt, e.ok) for e in events] == [(1, False), (2, False), (3, True)]


async def test_a_get_gives_up_after_three_dropped_connections(
    client: GatewayClient, demo: DemoServer
) -> None:
    rule = demo.faults.add("drop_connection", method="GET", path_prefix="/group/")
    with pytest.raises(GatewayUnreachable) as info:
        await client.groups.invite_code(OPEN, BIG_GROUP)
    assert rule.hits == 3 and not info.value.outcome_unknown


async def test_a_write_whose_connection_dropped_is_sent_once(
    client: GatewayClient, demo: DemoServer
) -> None:
    demo.faults.add("drop_connection", method="PUT", path_prefix="/group/revokeInviteCode/")
    with pytest.raises(GatewayUnreachable) as info:
        await client.groups.revoke_invite(OPEN, BIG_GROUP)
    assert info.value.outcome_unknown
    (write,) = [w for w in demo.state.writes if w.path.startswith("/group/revoke")]
    assert write.request_id and demo.state.write_counts[write.request_id] == 1


async def test_a_stalled_write_times_out_with_an_unknown_outcome(demo: DemoServer) -> None:
    demo.faults.add("stall", method="POST", path_prefix="/message/sendList/", seconds=2.0)
    async with connect(demo, timeout=0.3) as client:
        with pytest.raises(GatewayTimeout) as info:
            await client.messages.send_list(OPEN, list_request())
    assert info.value.outcome_unknown and "outcome unknown" in info.value.title
    assert len(demo.state.writes) == 1  # not retried


async def test_a_stalled_read_times_out_once(demo: DemoServer) -> None:
    # Pinned to 1.7.1: one GET (fetchInstances) is the one stalled; auto would ask GET / too.
    rule = demo.faults.add("stall", method="GET", seconds=2.0)
    async with connect(demo, timeout=0.3, api_version="1") as client:
        with pytest.raises(GatewayTimeout) as info:
            await client.instances.fetch()
    assert not info.value.outcome_unknown and rule.hits == 1


async def test_a_stalled_read_says_it_failed_and_is_safe_to_retry(demo: DemoServer) -> None:
    # Issue 29: a failed read said "outcome unknown, check before retrying", words for a write.
    demo.faults.add("stall", method="GET", seconds=2.0)
    async with connect(demo, timeout=0.3, api_version="1") as client:
        with pytest.raises(GatewayTimeout) as info:
            await client.instances.fetch()
    title = info.value.title
    assert "outcome unknown" not in title and "read failed" in title and "safe" in title


@pytest.mark.parametrize(
    ("path", "call"),
    [
        ("/chat/findChats/", lambda c: c.chats.find(OPEN)),
        ("/chat/findMessages/", lambda c: c.chats.last_messages(OPEN)),
        ("/chat/findContacts/", lambda c: c.contacts.find(OPEN)),
        ("/chat/fetchProfile/", lambda c: c.contacts.fetch_profile(OPEN, "4915112340001")),
    ],
    ids=["findChats", "findMessages", "findContacts", "fetchProfile"],
)
async def test_a_read_sent_as_post_is_a_failed_read_not_an_unknown_outcome(
    demo: DemoServer, path: str, call: Any
) -> None:
    stall = demo.faults.add("stall", method="POST", path_prefix=path, seconds=2.0)
    async with connect(demo, timeout=0.3, api_version="2") as client:
        with pytest.raises(GatewayTimeout) as info:
            await call(client)
    assert stall.hits == 1  # sent once all the same: a POST is never resent on its own
    assert not info.value.outcome_unknown
    assert "outcome unknown" not in info.value.title and "read failed" in info.value.title
    demo.faults.clear()
    drop = demo.faults.add("drop_connection", method="POST", path_prefix=path)
    async with connect(demo, api_version="2") as client:
        with pytest.raises(GatewayUnreachable) as broke:
            await call(client)
    assert drop.hits == 1 and not broke.value.outcome_unknown
    assert "outcome unknown" not in broke.value.title and "read failed" in broke.value.title


@pytest.mark.parametrize(
    ("fault", "cls", "lines"),
    [
        ({"kind": "status", "status": 503}, ServerError, ["Injected fault: status 503"]),
        ({"kind": "html_error"}, ServerError, ["502 Bad Gateway"]),
        ({"kind": "status", "status": 504, "html": True}, ServerError, ["504 Gateway Timeout"]),
        ({"kind": "unauthorized"}, Unauthorized, ["Unauthorized"]),
        ({"kind": "malformed_json"}, InvalidResponse, None),
    ],
    ids=["503", "html-502", "html-504", "401", "truncated-json"],
)
async def test_injected_faults(
    client: GatewayClient,
    demo: DemoServer,
    events: list[CallEvent],
    fault: dict[str, Any],
    cls: type,
    lines: list[str] | None,
) -> None:
    demo.faults.add(**fault)
    with pytest.raises(GatewayError) as info:
        await client.settings.find(OPEN)
    error = info.value
    assert type(error) is cls
    if lines is not None:
        assert error.messages == lines
    assert [(e.status, e.error) for e in events] == [(error.status, error.title)]


async def test_a_gateway_that_is_not_there(demo: DemoServer) -> None:
    with socket.socket() as sock:  # a port that was free a moment ago: nothing listens there
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    seen: list[CallEvent] = []
    async with GatewayClient(f"http://127.0.0.1:{port}", DEMO_API_KEY, retry_delays=(0, 0)) as c:
        c.subscribe(seen.append)
        with pytest.raises(GatewayUnreachable) as info:
            await c.instances.fetch()
        with pytest.raises(GatewayUnreachable) as write_info:
            await c.instances.delete(CLOSED)
    assert len(seen) == 4  # three tries of the read, one of the write
    assert not info.value.outcome_unknown and not write_info.value.outcome_unknown


# --- events and the key ---------------------------------------------------------------------------


async def test_events_and_errors_never_show_the_key(
    client: GatewayClient, demo: DemoServer, events: list[CallEvent]
) -> None:
    await client.instances.fetch()
    await client.messages.send_list(OPEN, list_request())
    failures: list[GatewayError] = []
    for invoke in (
        lambda: client.instances.delete(OPEN),
        lambda: client.settings.find("ghost"),
        lambda: client.groups.participants(CLOSED, BIG_GROUP),
    ):
        with pytest.raises(GatewayError) as info:
            await invoke()
        failures.append(info.value)
    assert [e.status for e in events] == [200, 201, 400, 404, 404]
    assert all(e.url.startswith(demo.url) and e.request_id for e in events)
    texts = [repr(client), *map(repr, events), *(e.as_curl() for e in events)]
    for error in failures:
        texts += [str(error), repr(error), *error.details()]
    assert not [t for t in texts if demo.api_key in t]


async def test_as_curl_replays_the_call(client: GatewayClient, events: list[CallEvent]) -> None:
    await client.groups.update_subject(OPEN, BIG_GROUP, "From curl")
    (event,) = events
    curl = event.as_curl()
    assert "$GATEWAY_API_KEY" in curl and '"subject": "From curl"' in curl
    # The URL in the command is the one that reached the server.
    async with httpx.AsyncClient() as plain:
        response = await plain.put(
            event.url, json=event.request_body, headers={"apikey": DEMO_API_KEY}
        )
    assert response.status_code == 201


class _LookupRecorder:
    """A finder that records every module the import system is asked to find."""

    def __init__(self) -> None:
        self.names: list[str] = []

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> None:
        self.names.append(name)
        return None  # the next finder does the real work


async def test_a_call_asks_the_import_system_for_nothing(client: GatewayClient) -> None:
    """httpcore asks for sniffio on every request; were it missing, each ask would be a failed
    import (a search of every sys.path entry), four a request: 0.3 ms of a 1.3 ms call."""
    import sys

    await client.instances.fetch()  # loads whatever the first call loads
    recorder = _LookupRecorder()
    sys.meta_path.insert(0, recorder)
    try:
        await client.instances.fetch()
        await client.instances.connection_state(OPEN)
    finally:
        sys.meta_path.remove(recorder)
    assert recorder.names == []
