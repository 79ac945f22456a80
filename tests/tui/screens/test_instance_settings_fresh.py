"""A settings toggle writes only the user's change on top of a fresh read: what another client
changed since the screen read the settings is kept, and said (issue 29, item 1)."""

from __future__ import annotations

from gateway_tui.tui.screens.confirm import ConfirmScreen
from gateway_tui.tui.screens.instance import InstanceScreen
from tests.support import screen_text, wait_for

INSTANCE = "sales-eu"


def on_server(demo_server) -> dict:
    """The instance's settings as the demo holds them (a write replaces the dict)."""
    return demo_server.state.instances[INSTANCE].settings


async def test_a_toggle_keeps_what_another_client_changed_since_the_read(app_for, demo_server):
    on_server(demo_server)["read_messages"] = False
    on_server(demo_server)["reject_call"] = False
    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        app.open_instance(INSTANCE)
        await wait_for(pilot, lambda: app.state.settings_of(INSTANCE).value is not None)
        assert isinstance(app.screen, InstanceScreen)
        assert app.state.settings_of(INSTANCE).value.read_messages is False
        # Another client turns "read messages" on after the screen read the settings.
        on_server(demo_server)["read_messages"] = True
        await pilot.press("space")  # the first setting: reject_call
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_for(pilot, lambda: on_server(demo_server)["reject_call"] is True)
        assert on_server(demo_server)["read_messages"] is True  # not written back to off
        await wait_for(pilot, lambda: "changed elsewhere" in screen_text(app))
        assert "Mark messages as read" in screen_text(app)


async def test_the_service_writes_the_change_on_a_fresh_read(demo_server):
    from gateway_tui.core.session import GatewaySession
    from tests.support import make_config

    on_server(demo_server)["always_online"] = False
    session = GatewaySession.open(make_config(demo_server), live=False)
    try:
        read = await session.actions.instances.load_settings(INSTANCE)
        on_server(demo_server)["always_online"] = True
        on_server(demo_server)["msg_call"] = "changed elsewhere"
        written = await session.actions.instances.save_settings(
            INSTANCE, {"groups_ignore": not read.groups_ignore}, read
        )
    finally:
        await session.aclose()
    settings = on_server(demo_server)
    assert settings["always_online"] is True and settings["msg_call"] == "changed elsewhere"
    assert settings["groups_ignore"] is (not read.groups_ignore)
    assert sorted(written.changed_elsewhere) == ["always_online", "msg_call"]
    assert written.settings.always_online is True
