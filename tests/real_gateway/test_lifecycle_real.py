"""The instance lifecycle against the REAL Evolution API 1.7.1 (never paired, no internet):
create, delete, connect's offline answer, restart, logout's "is not connected", webhook and
websocket set/find with the server's quirks — through the client, and through the screens.

Everything that changes state uses an instance of the test's own (``scratch_instance`` or one
created here and deleted after): a connected-then-flapping instance must not leak into evo-*.
"""

from __future__ import annotations

import os
import uuid

import pytest

from gateway_tui.api import (
    EVENT_NAMES,
    BadRequest,
    CreateInstanceRequest,
    Forbidden,
    GatewayClient,
    InvalidRequest,
    WebhookSettings,
    WebsocketSettings,
)
from gateway_tui.api.lifecycle import webhook_differences, websocket_differences
from gateway_tui.app import GatewayApp
from gateway_tui.config import load_config
from gateway_tui.screens.instances import InstancesScreen
from gateway_tui.screens.pairing import PairingScreen
from tests.support import notices, screen_text, wait_for


def _name(tag: str) -> str:
    return f"lc-{tag}-{os.getpid()}-{uuid.uuid4().hex[:6]}"


@pytest.fixture
async def client(real_gateway):
    async with GatewayClient(real_gateway.url, real_gateway.api_key, timeout=60) as client:
        yield client


@pytest.fixture
def made(real_gateway):
    """Names created by the test, deleted afterwards (logged out first if open)."""
    names: list[str] = []
    yield names
    for name in names:
        real_gateway.request("DELETE", f"/instance/logout/{name}")
        real_gateway.request("DELETE", f"/instance/delete/{name}")


async def test_create_answers_201_with_our_key_then_delete(client, real_gateway, made):
    name = _name("create")
    made.append(name)
    token = f"KEY-{uuid.uuid4().hex}".upper()
    created = await client.create_instance(CreateInstanceRequest(instanceName=name, token=token))
    assert created.name == name and created.token == token
    assert created.instance["status"] == "created"
    assert created.integration is None  # only echoed when sent
    assert (await client.connection_state(name)).state == "close"
    with pytest.raises(Forbidden, match=f'This name "{name}" is already in use'):
        await client.create_instance(CreateInstanceRequest(instanceName=name, token=token + "2"))
    with pytest.raises(BadRequest, match="Token already exists"):
        await client.create_instance(CreateInstanceRequest(instanceName=name + "b", token=token))
    await client.delete_instance(name)
    assert name not in {i.instance_name for i in await client.fetch_instances()}


async def test_names_the_server_would_half_create_are_never_sent(client, real_gateway):
    for bad in ("a/b", "x" * 300, ".hidden"):
        with pytest.raises(InvalidRequest):
            await client.create_instance(CreateInstanceRequest(instanceName=bad, token="T-1"))
    listed = {i.instance_name for i in await client.fetch_instances()}
    assert not {"a/b", "x" * 300, ".hidden"} & listed


async def test_business_instance_is_open_at_once_and_restart_answers_empty(client, made):
    name = _name("biz")
    made.append(name)
    created = await client.create_instance(
        CreateInstanceRequest(
            instanceName=name,
            token=f"BIZ-{uuid.uuid4().hex}",
            number="5511999990002",
            integration="WHATSAPP-BUSINESS",
        )
    )
    assert created.integration == "WHATSAPP-BUSINESS"
    assert (await client.connection_state(name)).state == "open"
    answer = await client.restart_instance(name)  # a real server answers 200 with no body here
    assert answer.state is None


async def test_connect_offline_answers_count_0(client, scratch_instance):
    result = await client.connect(scratch_instance)
    assert result.count == 0 and not result.has_code and not result.empty
    assert "could not get one from WhatsApp" in result.explanation
    # Asked again while it retries: the same answer at once.
    again = await client.connect(scratch_instance, "5511999990003")
    assert again.count == 0 and again.pairing_code is None


async def test_restart_of_a_closed_instance_answers_its_state(client, scratch_instance):
    answer = await client.restart_instance(scratch_instance)
    assert answer.state == "close"


async def test_logout_of_a_closed_instance_is_not_connected(client, scratch_instance):
    with pytest.raises(BadRequest, match=f'The "{scratch_instance}" instance is not connected'):
        await client.logout_instance(scratch_instance)


async def test_webhook_set_find_and_quirks(client, scratch_instance):
    assert not (await client.find_webhook(scratch_instance)).configured
    sent = WebhookSettings(
        url="http://127.0.0.1:9/hook",
        enabled=True,
        events=["CONNECTION_UPDATE", "QRCODE_UPDATED"],
        webhook_by_events=True,
        webhook_base64=False,
    )
    result = await client.set_webhook(scratch_instance, sent)
    assert result.applied is not None and result.applied.events == sent.events
    found = await client.find_webhook(scratch_instance)
    assert webhook_differences(sent, found) == []
    every = WebhookSettings(url="http://127.0.0.1:9/hook", enabled=True, events=[])
    await client.set_webhook(scratch_instance, every)
    found = await client.find_webhook(scratch_instance)
    assert found.events == list(EVENT_NAMES)  # the server's own order: our list matches it
    off = WebhookSettings(url="http://127.0.0.1:9/hook", enabled=False, events=["CALL"])
    await client.set_webhook(scratch_instance, off)
    found = await client.find_webhook(scratch_instance)
    assert (found.url, found.enabled, found.events) == ("", False, [])
    assert any("keeps no URL" in line for line in webhook_differences(off, found))


def test_server_refuses_what_the_client_refuses_first(real_gateway, scratch_instance):
    """The rules the client checks are the server's: the same bodies sent raw are refused."""
    path = f"/webhook/set/{scratch_instance}"
    status, body = real_gateway.request("POST", path, {"url": "not a url", "enabled": True})
    assert status == 400 and body["response"]["message"] == ['Invalid "url" property']
    status, body = real_gateway.request(
        "POST", path, {"url": "http://h.example", "enabled": True, "events": ["GROUPS_UPDATE"]}
    )
    assert status == 400 and "is not one of enum values" in str(body)
    status, body = real_gateway.request("POST", path, {"url": "http://h.example", "enabled": True})
    assert status == 500 and "reading 'length'" in str(body)


async def test_websocket_set_find_and_quirks(client, scratch_instance):
    assert not (await client.find_websocket(scratch_instance)).configured
    sent = WebsocketSettings(enabled=True, events=["CONNECTION_UPDATE"])
    await client.set_websocket(scratch_instance, sent)
    found = await client.find_websocket(scratch_instance)
    assert websocket_differences(sent, found) == []
    off = WebsocketSettings(enabled=False, events=[])
    await client.set_websocket(scratch_instance, off)
    found = await client.find_websocket(scratch_instance)
    assert not found.enabled and found.events == list(EVENT_NAMES)


# --- the same day through the screens, on the real server ---------------------------------------


async def test_the_screens_explain_each_real_answer(real_gateway, made):
    name = _name("tui")
    made.append(name)
    config = load_config(url=real_gateway.url, api_key=real_gateway.api_key)
    config.refresh_interval = 0
    config.request_timeout = 60
    app = GatewayApp(config)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(
            pilot,
            lambda: bool(app.state.instances.value) and isinstance(app.screen, InstancesScreen),
            within=60,
        )
        await pilot.press("n")
        await pilot.pause()
        await pilot.press(*name)
        await pilot.press("enter")
        await wait_for(pilot, lambda: "Created" in screen_text(app), within=60)
        assert app.state.instance(name) is not None  # in the list at once
        await pilot.press("ctrl+o")
        await wait_for(pilot, lambda: isinstance(app.screen, PairingScreen))
        await pilot.pause()
        # ~5 s later the real server says {"count":0}: no code, and the screen says why.
        await wait_for(
            pilot, lambda: "could not get one from WhatsApp" in screen_text(app), within=60
        )
        assert "count 0" in " ".join(screen_text(app).split())
        await pilot.press("escape")
        await pilot.pause()
        app.open_instance(name)
        await pilot.pause()
        await pilot.press("w")
        await wait_for(pilot, lambda: "Never set" in screen_text(app), within=60)
        await pilot.press(*"http://127.0.0.1:9/hook")
        await pilot.press("tab", "space")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: "keeps it differently" in screen_text(app), within=60)
        assert "subscribed to all 26" in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("R", "y")
        # Not open: "a gateway only reconnects an open instance, so nothing was restarted".
        await wait_for(
            pilot, lambda: any("only reconnects an open" in n for n in notices(app)), within=60
        )
        await pilot.press("L", "y")
        # Logging out needs a session; after connect the instance flaps connecting/close, so a
        # real server either ends the half-open attempt or says it is not connected.
        await wait_for(
            pilot,
            lambda: any("Logged out" in n or "is not connected" in n for n in notices(app)),
            within=60,
        )


# --- the demo answers as the real server does ------------------------------------------------


def _shape(value):
    """Status-relevant shape: keys of objects (recursively), lists by their first item."""
    if isinstance(value, dict):
        return {key: _shape(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_shape(value[0])] if value else []
    return type(value).__name__


def test_demo_lifecycle_answers_match_the_real_server(real_gateway, made):
    from gateway_tui.demo import lifecycle as demo_lifecycle
    from gateway_tui.demo.server import DemoServer
    from tests.real_gateway.gateway import http_call

    name = _name("diff")
    made.append(name)
    hook = "http://127.0.0.1:9/hook"
    steps = [
        ("POST", "/instance/create", {"instanceName": name, "token": f"D-{uuid.uuid4().hex}"}),
        ("POST", "/instance/create", {"instanceName": name, "token": "OTHER"}),
        ("GET", f"/instance/connectionState/{name}", None),
        ("PUT", f"/instance/restart/{name}", None),
        ("DELETE", f"/instance/logout/{name}", None),
        ("GET", f"/webhook/find/{name}", None),
        ("POST", f"/webhook/set/{name}", {"url": hook, "enabled": True, "events": ["CALL"]}),
        ("GET", f"/webhook/find/{name}", None),
        ("POST", f"/webhook/set/{name}", {"url": hook, "enabled": True, "events": []}),
        ("POST", f"/webhook/set/{name}", {"url": hook, "enabled": False, "events": ["CALL"]}),
        ("GET", f"/webhook/find/{name}", None),
        ("POST", f"/webhook/set/{name}", {"url": "", "enabled": False}),
        ("POST", f"/webhook/set/{name}", {"url": "not a url", "enabled": True, "events": []}),
        ("POST", f"/webhook/set/{name}", {"url": hook, "enabled": True}),
        ("POST", f"/webhook/set/{name}", {"url": hook, "enabled": True, "events": ["NOPE"]}),
        ("GET", f"/websocket/find/{name}", None),
        ("POST", f"/websocket/set/{name}", {"enabled": True, "events": ["CONNECTION_UPDATE"]}),
        ("GET", f"/websocket/find/{name}", None),
        ("POST", f"/websocket/set/{name}", {"enabled": False}),
        ("GET", f"/websocket/find/{name}", None),
        ("POST", f"/websocket/set/{name}", {"enabled": True}),
        ("POST", f"/websocket/set/{name}", {"events": []}),
        ("GET", f"/instance/connect/{name}", None),  # offline on both: {"count":0}
    ]
    with DemoServer() as demo:
        demo_lifecycle.of(demo.state).whatsapp = "offline"
        for method, path, body in steps:
            real = real_gateway.request(method, path, body)
            mock = http_call(demo.url, method, path, body, key=demo.api_key)
            where = f"{method} {path} {body}"
            assert mock[0] == real[0], f"{where}: demo {mock}, real {real}"
            if real[0] >= 400:
                assert mock[1]["response"] == real[1]["response"], where
            elif "/find/" in path or "/set/" in path or "State" in path or "connect/" in path:
                assert mock[1] == real[1], where
            else:
                assert _shape(mock[1]) == _shape(real[1]), where
