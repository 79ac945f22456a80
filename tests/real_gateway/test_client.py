"""The client against a real 1.7.1: every endpoint of the 12 and every extra the app calls.

For each: the status, the model or the typed error, the server's own lines, and whether the
error reads as "instance not connected". The session server's instances were created by the
running process (never paired), so their session errors are the "TypeError …" flavour;
test_restart.py covers the "Connection Closed" flavour of a reloaded instance.
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any

import pytest

from gateway_tui.api import (
    BadRequest,
    Forbidden,
    GatewayClient,
    GatewayError,
    InstanceSettings,
    InstanceStatus,
    ListMessage,
    ListRow,
    ListSection,
    MessageKey,
    NotFound,
    SendListRequest,
    ServerError,
    Unauthorized,
)
from tests.real_gateway.gateway import EVO_B_TOKEN, PLANTED, SEEDED, RealGateway

GROUP = "120363025912345678@g.us"  # the planted group chat of evo-a
NUMBER = "5511987650001"
KEY = MessageKey(remote_jid=f"{NUMBER}@s.whatsapp.net", from_me=True, id="BAE5F1A2B3C4D5E6")


def session_error(method: str) -> str:
    return f"TypeError: Cannot read properties of undefined (reading '{method}')"


def list_request() -> SendListRequest:
    rows = [
        ListRow(title="City bike", row_id="city"),  # no description: left out, not ""
        ListRow(title="Road bike", description="Fast", row_id="road"),
    ]
    message = ListMessage(
        title="Offers",
        description="Pick one",
        button_text="Open",
        sections=[ListSection(title="Bikes", rows=rows)],
    )
    return SendListRequest(number=NUMBER, list_message=message)


async def failure(call: Awaitable[Any]) -> GatewayError:
    with pytest.raises(GatewayError) as info:
        await call
    return info.value


@pytest.fixture
async def client(real_gateway: RealGateway):
    async with GatewayClient(real_gateway.url, real_gateway.api_key) as gateway:
        yield gateway


# --- instances and settings -------------------------------------------------------------------


async def test_fetch_instances_lists_the_seeded_instances_closed(client, real_gateway) -> None:
    listed = {i.instance_name: i for i in await client.fetch_instances()}
    assert set(SEEDED) <= set(listed)
    evo_b = listed["evo-b"]
    assert evo_b.status_kind is InstanceStatus.CLOSE and evo_b.instance_id
    # Only an open instance has an owner and a profile.
    assert evo_b.owner is None and evo_b.profile_name is None
    assert evo_b.server_url == real_gateway.url
    assert evo_b.wa_business_callback_url == f"{real_gateway.url}/webhook/whatsapp/evo-b"


async def test_fetch_instances_by_name_and_an_unknown_name(client) -> None:
    (one,) = await client.fetch_instances("evo-c")
    assert one.instance_name == "evo-c" and one.status == "close"
    error = await failure(client.fetch_instances("no-such-instance"))
    assert isinstance(error, NotFound) and error.status == 404
    assert error.messages == ['Instance "no-such-instance" not found']
    assert not error.route_missing and not error.instance_not_connected


async def test_find_settings(client) -> None:
    settings = await client.find_settings("evo-c")
    assert settings == InstanceSettings(groups_ignore=True, msg_call="")


async def test_set_settings_then_find_them(client, scratch_instance) -> None:
    wanted = InstanceSettings(reject_call=True, msg_call="Busy", groups_ignore=False)
    result = await client.set_settings(scratch_instance, wanted)
    assert result.applied == wanted
    assert await client.find_settings(scratch_instance) == wanted


async def test_connection_state_of_a_closed_instance(client) -> None:
    state = await client.connection_state("evo-c")
    assert state.state == "close"


async def test_logout_of_a_closed_instance_is_400_not_connected(client) -> None:
    error = await failure(client.logout_instance("evo-c"))
    assert isinstance(error, BadRequest)
    assert error.messages == ['The "evo-c" instance is not connected']
    assert error.instance_not_connected


async def test_delete_then_delete_again(client, real_gateway) -> None:
    name = "zz-delete-twice"
    real_gateway.create_instance(name, qrcode=False)
    result = await client.delete_instance(name)
    assert result.error is False and result.message == "Instance deleted"
    error = await failure(client.delete_instance(name))
    assert isinstance(error, NotFound)
    assert error.messages == [f'The "{name}" instance does not exist']
    assert not error.route_missing


# --- keys and guards --------------------------------------------------------------------------


async def test_keys(real_gateway) -> None:
    url = real_gateway.url
    async with GatewayClient(url, "WRONG-KEY-0000") as wrong:
        error = await failure(wrong.fetch_instances())
        assert isinstance(error, Unauthorized) and error.messages == ["Unauthorized"]
        # The instance is looked up before the key: an unknown one is 404 even so.
        error = await failure(wrong.find_settings("no-such-instance"))
        assert isinstance(error, NotFound)
    async with GatewayClient(url, "") as missing:
        error = await failure(missing.fetch_instances())
        assert isinstance(error, Forbidden)
        assert error.messages == ["Missing global api key", "The global api key must be set"]
    async with GatewayClient(url, EVO_B_TOKEN) as own:
        assert isinstance(await own.find_settings("evo-b"), InstanceSettings)
        assert isinstance(await failure(own.find_settings("evo-c")), Unauthorized)
        assert isinstance(await failure(own.fetch_instances()), Unauthorized)


# --- groups: every call needs a session ----------------------------------------------------


GROUP_CALLS = [
    (
        "fetchAllGroups",
        lambda c: c.fetch_all_groups(PLANTED),
        NotFound,
        ["Error fetching group", session_error("groupFetchAllParticipating")],
    ),
    (
        "participants",
        lambda c: c.group_participants(PLANTED, GROUP),
        NotFound,
        ["No participants", session_error("groupMetadata")],
    ),
    (
        "inviteCode",
        lambda c: c.group_invite_code(PLANTED, GROUP),
        NotFound,
        ["No invite code", session_error("groupInviteCode")],
    ),
    (
        "revokeInviteCode",
        lambda c: c.revoke_group_invite_code(PLANTED, GROUP),
        NotFound,
        ["Revoke error", session_error("groupRevokeInvite")],
    ),
    (
        "updateGroupSubject",
        lambda c: c.update_group_subject(PLANTED, GROUP, "New subject"),
        ServerError,
        ["Error updating group subject", session_error("groupUpdateSubject")],
    ),
]


@pytest.mark.parametrize(
    ("call", "cls", "lines"), [c[1:] for c in GROUP_CALLS], ids=[c[0] for c in GROUP_CALLS]
)
async def test_group_calls_on_a_closed_instance(client, call, cls, lines) -> None:
    error = await failure(call(client))
    assert type(error) is cls and error.messages == lines
    assert error.instance_not_connected
    if isinstance(error, NotFound):
        assert not error.route_missing  # a 404 of a route that exists


async def test_send_invite_on_a_closed_instance_gives_no_reason(client) -> None:
    error = await failure(client.send_group_invite(PLANTED, GROUP, [NUMBER], "Join us"))
    assert isinstance(error, NotFound) and error.messages == ["No send invite"]
    # Nothing in the text says why: the app tells from the instance's status.
    assert not error.instance_not_connected


# --- messages and chats ----------------------------------------------------------------------


async def test_send_list_passes_validation_and_fails_on_the_session(client) -> None:
    # A 400 here would mean the body was refused ("" in a row); a 500 is the session.
    error = await failure(client.send_list(PLANTED, list_request()))
    assert isinstance(error, ServerError)
    assert error.messages == ["Cannot read properties of undefined (reading 'onWhatsApp')"]
    assert error.instance_not_connected


async def test_archive_chat_on_a_closed_instance(client) -> None:
    error = await failure(client.archive_chat(PLANTED, KEY, True))
    assert isinstance(error, ServerError)
    assert error.messages == [
        "An error occurred while archiving the chat. Open a calling.",
        session_error("chatModify"),
    ]
    assert error.instance_not_connected


async def test_update_message_on_a_closed_instance_is_400(client) -> None:
    error = await failure(client.update_message(PLANTED, KEY, "Edited"))
    assert isinstance(error, BadRequest) and error.messages == [session_error("sendMessage")]
    assert error.instance_not_connected


async def test_fetch_profile_on_a_closed_instance(client) -> None:
    error = await failure(client.fetch_profile(PLANTED, NUMBER))
    assert isinstance(error, ServerError)
    assert error.messages == ["Cannot read properties of undefined (reading 'onWhatsApp')"]
    assert error.instance_not_connected


async def test_an_unknown_instance_is_404_on_every_instance_route(client) -> None:
    for call in (
        client.find_settings("no-such-instance"),
        client.send_list("no-such-instance", list_request()),
        client.group_participants("no-such-instance", GROUP),
    ):
        error = await failure(call)
        assert isinstance(error, NotFound)
        assert error.messages == ['The "no-such-instance" instance does not exist']
        assert not error.instance_not_connected and not error.route_missing
