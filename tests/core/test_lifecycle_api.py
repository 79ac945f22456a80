"""The lifecycle calls (create, connect, restart, logout, webhook, websocket) against the demo
gateway over loopback HTTP, and the rules checked before sending. Shapes and codes are those a
real 1.7.1 answered (tests/recorded/ checks the recorded answers)."""

from __future__ import annotations

import pytest

from gateway_tui.core.api import (
    EVENT_NAMES,
    BadRequest,
    CreateInstanceRequest,
    GatewayClient,
    InvalidRequest,
    NameTaken,
    ServerError,
    WebhookSettings,
    WebsocketSettings,
)
from gateway_tui.core.api.lifecycle import (
    check_new_instance_name,
    new_instance_token,
    webhook_differences,
    websocket_differences,
)
from gateway_tui.demo import lifecycle as demo_lifecycle


@pytest.fixture
async def client(demo_server):
    demo_server.state.auto_scan_seconds = None  # only the tests' own "scan" pairs
    async with GatewayClient(demo_server.url, demo_server.api_key) as client:
        yield client


def _request(name: str, **fields) -> CreateInstanceRequest:
    return CreateInstanceRequest(
        instanceName=name, token=fields.pop("token", None) or new_instance_token(), **fields
    )


@pytest.mark.parametrize(
    "name",
    ["", " lead", "trail ", "a/b", "a\\b", ".", "..", ".hidden", "tab\there", "x" * 201, "é" * 101],
)
def test_names_a_real_server_cannot_store_are_refused(name):
    assert check_new_instance_name(name)


@pytest.mark.parametrize("name", ["sales-eu-2", "with space", "ünïcødé", "x" * 200, "a.b"])
def test_folder_safe_names_pass(name):
    assert check_new_instance_name(name) == []


async def test_refused_name_is_never_sent(client, demo_server):
    with pytest.raises(InvalidRequest) as caught:
        await client.instances.create(_request("../etc"))
    assert caught.value.problems[0].field == "instanceName"
    assert not any(w.path == "/instance/create" for w in demo_server.state.writes)


async def test_business_needs_a_number_before_sending(client, demo_server):
    with pytest.raises(InvalidRequest, match="number"):
        await client.instances.create(_request("biz", integration="WHATSAPP-BUSINESS"))
    assert "biz" not in demo_server.state.instances


async def test_create_answers_201_with_the_key_and_the_instance_is_closed(client, demo_server):
    created = await client.instances.create(_request("fresh-1", token="FRESH-1-KEY"))
    assert created.name == "fresh-1"
    assert created.token == "FRESH-1-KEY"
    assert created.instance["status"] == "created"
    assert created.integration is None  # only when sent, as on a real server
    state = await client.instances.connection_state("fresh-1")
    assert state.state == "close"
    listed = await client.instances.fetch("fresh-1")
    assert listed[0].instance_name == "fresh-1"


async def test_duplicate_name_and_duplicate_token_are_the_servers_errors(client):
    await client.instances.create(_request("dup", token="DUP-KEY"))
    with pytest.raises(NameTaken, match='This name "dup" is already in use'):
        await client.instances.create(_request("dup"))
    with pytest.raises(BadRequest, match="Token already exists"):
        await client.instances.create(_request("dup-2", token="DUP-KEY"))


async def test_connect_gives_a_qr_code_and_a_scan_opens_the_instance(client, demo_server):
    await client.instances.create(_request("pair-me"))
    result = await client.instances.connect("pair-me")
    assert result.code and result.code.startswith("2@") and result.code.count(",") == 3
    assert result.base64 and result.base64.startswith("data:image/png;base64,")
    assert result.count == 1 and result.pairing_code is None
    assert (await client.instances.connection_state("pair-me")).state == "connecting"
    # The code stays the same until it lapses.
    assert (await client.instances.connect("pair-me")).code == result.code
    assert demo_lifecycle.scan(demo_server.state, "pair-me")
    assert (await client.instances.connection_state("pair-me")).state == "open"
    listed = (await client.instances.fetch("pair-me"))[0]
    assert listed.status == "open" and listed.profile_name and listed.owner_number
    # An open instance answers its state, not a code.
    again = await client.instances.connect("pair-me")
    assert again.state == "open" and not again.has_code


async def test_connect_with_a_number_gives_a_pairing_code_for_it(client, demo_server):
    await client.instances.create(_request("by-code"))
    result = await client.instances.connect("by-code", "+55 11 98888-7777")
    assert result.pairing_code and len(result.pairing_code) == 8
    assert result.code
    demo_lifecycle.scan(demo_server.state, "by-code")
    listed = (await client.instances.fetch("by-code"))[0]
    assert listed.owner_number == "5511988887777"


async def test_connect_refuses_a_number_that_is_not_one(client):
    with pytest.raises(InvalidRequest, match="number"):
        await client.instances.connect("onboarding", "call me")


async def test_connect_offline_answers_count_0_and_says_why(client, demo_server):
    demo_lifecycle.of(demo_server.state).whatsapp = "offline"
    result = await client.instances.connect("onboarding")
    assert result.count == 0 and not result.has_code and not result.empty
    assert "could not get one from WhatsApp" in result.explanation


async def test_connect_empty_body_is_a_result_not_an_error(client, demo_server):
    demo_lifecycle.of(demo_server.state).whatsapp = "failing"
    result = await client.instances.connect("onboarding")
    assert result.empty and not result.has_code
    assert "empty body" in result.explanation


async def test_restart_answers_the_state_and_logout_of_a_closed_one_is_refused(client):
    answer = await client.instances.restart("onboarding")
    assert answer.state == "close"
    with pytest.raises(BadRequest, match='The "onboarding" instance is not connected'):
        await client.instances.logout("onboarding")


async def test_logout_ends_an_open_session(client):
    result = await client.instances.logout("sales-eu")
    assert result.response == {"message": "Instance logged out"}
    assert (await client.instances.connection_state("sales-eu")).state == "close"


async def test_webhook_never_set_reads_as_not_configured(client):
    found = await client.hooks.find_webhook("sales-eu")
    assert not found.configured


async def test_webhook_set_then_find(client):
    sent = WebhookSettings(
        url="https://hooks.example/in",
        enabled=True,
        events=["CONNECTION_UPDATE", "QRCODE_UPDATED"],
        webhook_by_events=True,
        webhook_base64=False,
    )
    result = await client.hooks.set_webhook("sales-eu", sent)
    assert result.applied is not None and result.applied.url == sent.url
    found = await client.hooks.find_webhook("sales-eu")
    assert found.configured and found.events == ["CONNECTION_UPDATE", "QRCODE_UPDATED"]
    assert found.webhook_by_events is True and found.webhook_base64 is False
    assert webhook_differences(sent, found) == []


async def test_webhook_quirks_are_explained(client):
    all_events = WebhookSettings(url="https://hooks.example/in", enabled=True, events=[])
    await client.hooks.set_webhook("sales-eu", all_events)
    found = await client.hooks.find_webhook("sales-eu")
    assert sorted(found.events) == sorted(EVENT_NAMES)
    assert webhook_differences(all_events, found) == []  # none ticked means all 26
    off = WebhookSettings(url="https://hooks.example/in", enabled=False, events=["CALL"])
    await client.hooks.set_webhook("sales-eu", off)
    found = await client.hooks.find_webhook("sales-eu")
    assert found.url == "" and found.events == []
    lines = webhook_differences(off, found)
    assert any("a disabled webhook keeps no URL" in line for line in lines)


@pytest.mark.parametrize("url", ["", "not a url", "ftp://x.example/h", "example.com/hook"])
async def test_webhook_url_must_be_http(client, demo_server, url):
    with pytest.raises(InvalidRequest, match="url"):
        await client.hooks.set_webhook("sales-eu", WebhookSettings(url=url, enabled=False))
    assert not any(w.path.startswith("/webhook/set") for w in demo_server.state.writes)


async def test_unknown_event_is_refused_before_sending(client):
    with pytest.raises(InvalidRequest, match="GROUPS_UPDATE"):
        await client.hooks.set_webhook(
            "sales-eu",
            WebhookSettings(url="https://h.example", enabled=True, events=["GROUPS_UPDATE"]),
        )


async def test_demo_answers_a_missing_events_list_as_a_real_server(demo_server):
    """The client always sends events; a bare curl without them gets the real server's 500."""
    import httpx

    async with httpx.AsyncClient(base_url=demo_server.url) as http:
        response = await http.post(
            "/webhook/set/sales-eu",
            json={"url": "https://h.example", "enabled": True},
            headers={"apikey": demo_server.api_key},
        )
    assert response.status_code == 500
    assert "reading 'length'" in response.text


async def test_websocket_set_then_find_and_its_quirks(client):
    sent = WebsocketSettings(enabled=True, events=["CONNECTION_UPDATE"])
    result = await client.hooks.set_websocket("support", sent)
    assert result.applied == WebsocketSettings(enabled=True, events=["CONNECTION_UPDATE"])
    found = await client.hooks.find_websocket("support")
    assert found.enabled and found.events == ["CONNECTION_UPDATE"]
    assert websocket_differences(sent, found) == []
    off = WebsocketSettings(enabled=False, events=[])
    await client.hooks.set_websocket("support", off)
    found = await client.hooks.find_websocket("support")
    assert not found.enabled and len(found.events) == 26
    assert websocket_differences(off, found) == []  # none ticked means all 26


async def test_delete_of_a_created_instance(client):
    await client.instances.create(_request("short-lived"))
    await client.instances.delete("short-lived")
    assert not await _listed(client, "short-lived")


async def _listed(client, name):
    return any(i.instance_name == name for i in await client.instances.fetch())


async def test_a_500_on_set_is_a_server_error(client, demo_server):
    demo_server.faults.add("status", path_prefix="/websocket/set", status=500, times=1)
    with pytest.raises(ServerError):
        await client.hooks.set_websocket("support", WebsocketSettings(enabled=False))


async def test_the_new_instance_key_stays_out_of_the_request_log(client):
    events = []
    client.subscribe(events.append)
    await client.instances.create(_request("secretive", token="SECRET-INSTANCE-KEY-1"))
    (event,) = events
    assert event.request_body["token"] == "***"
    assert "SECRET-INSTANCE-KEY-1" not in event.as_curl()
    assert event.request_body["instanceName"] == "secretive"
