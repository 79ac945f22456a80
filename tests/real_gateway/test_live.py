"""The client and the app against a running gateway of either line (``make conformance``).

Only instances this run created are changed; they are never paired, so every call that needs a
session meets the real "not connected" answer — the client must say so. What needed a planted
store or a restarted server is covered by the recorded cases (tests/recorded/).
"""

from __future__ import annotations

import pytest

from gateway_tui.core.api import (
    GatewayClient,
    GatewayError,
    InstanceSettings,
    InstanceStatus,
    ListMessage,
    ListRow,
    ListSection,
    NotFound,
    SendListRequest,
)
from gateway_tui.core.api.errors import BadRequest, Forbidden, Unauthorized
from gateway_tui.core.api.lifecycle import WebhookSettings, WebsocketSettings
from gateway_tui.tui.screens.instances import InstancesScreen
from tests.real_gateway.live import PREFIX, LiveGateway, wait_until
from tests.support import make_app, screen_text, wait_for

# No real person: a reserved-looking number, and the instance is never paired anyway.
NUMBER = "5500000000000"
GROUP = "120363000000000000@g.us"


async def failure(call) -> GatewayError:
    with pytest.raises(GatewayError) as info:
        await call
    return info.value


async def test_the_new_instance_is_listed_and_not_open(client, scratch_instance) -> None:
    listed = {i.instance_name: i for i in await client.instances.fetch()}
    assert scratch_instance in listed
    assert listed[scratch_instance].status_kind is not InstanceStatus.OPEN
    state = await client.instances.connection_state(scratch_instance)
    assert str(state.state) in ("close", "connecting")


async def test_settings_are_written_and_read_back(client, scratch_instance) -> None:
    before = await client.settings.find(scratch_instance)
    wanted = InstanceSettings.model_validate(
        before.model_dump() | {"reject_call": True, "msg_call": "Busy (gtui conformance)"}
    )
    await client.settings.set(scratch_instance, wanted)
    after = await client.settings.find(scratch_instance)
    assert after.reject_call is True and after.msg_call == "Busy (gtui conformance)"
    # Nothing else moved: the other flags read back as they were.
    for name in ("groups_ignore", "always_online", "read_messages", "read_status"):
        assert getattr(after, name) == getattr(before, name), name


async def test_a_webhook_and_the_websocket_are_written_and_read_back(
    client, scratch_instance
) -> None:
    hook = WebhookSettings(url="http://127.0.0.1:9/gtui", enabled=True, events=["MESSAGES_UPSERT"])
    await client.hooks.set_webhook(scratch_instance, hook)
    found = await client.hooks.find_webhook(scratch_instance)
    assert found.enabled and found.url == hook.url and "MESSAGES_UPSERT" in found.events
    sockets = WebsocketSettings(enabled=True, events=["CONNECTION_UPDATE"])
    await client.hooks.set_websocket(scratch_instance, sockets)
    assert (await client.hooks.find_websocket(scratch_instance)).enabled


async def test_a_list_message_gets_not_connected(client, scratch_instance) -> None:
    rows = [ListRow(title="Row", row_id="r1")]
    message = ListMessage(
        title="Title",
        description="Body",
        button_text="Open",
        footer_text="gtui conformance",
        sections=[ListSection(title="Section", rows=rows)],
    )
    error = await failure(
        client.messages.send_list(
            scratch_instance, SendListRequest(number=NUMBER, list_message=message)
        )
    )
    assert error.instance_not_connected, error.messages


async def test_group_calls_get_not_connected(client, scratch_instance) -> None:
    error = await failure(client.groups.participants(scratch_instance, GROUP))
    assert isinstance(error, NotFound) and error.instance_not_connected, error.messages


async def test_logout_of_a_never_connected_instance(client, scratch_instance) -> None:
    error = await failure(client.instances.logout(scratch_instance))
    assert isinstance(error, BadRequest) and error.instance_not_connected, error.messages


async def test_a_wrong_key_and_an_unknown_instance(live_gateway: LiveGateway) -> None:
    async with GatewayClient(
        live_gateway.url, "gtui-conformance-wrong-key", api_version="auto"
    ) as wrong:
        error = await failure(wrong.instances.fetch())
    assert isinstance(error, Unauthorized | Forbidden)
    async with GatewayClient(live_gateway.url, live_gateway.api_key, api_version="auto") as client:
        error = await failure(client.settings.find(f"{PREFIX}no-such-instance"))
    assert isinstance(error, NotFound)


async def test_delete_removes_the_instance(client, scratch_instance, live_gateway) -> None:
    await client.instances.delete(scratch_instance)
    wait_until(lambda: scratch_instance not in live_gateway.names(), "the instance gone")


async def test_the_app_lists_the_instance_with_the_key_masked(
    live_gateway: LiveGateway, scratch_instance
) -> None:
    from gateway_tui.core.files.config import load_config

    config = load_config(url=live_gateway.url, api_key=live_gateway.api_key)
    config.refresh_interval = 0
    app = make_app(config)
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        assert isinstance(app.screen, InstancesScreen)
        await pilot.press("slash", *scratch_instance)
        await wait_for(pilot, lambda: scratch_instance in screen_text(app))
        assert live_gateway.api_key not in screen_text(app)
