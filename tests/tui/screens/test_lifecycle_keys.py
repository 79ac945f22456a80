"""Restart and log out from the instance screen: confirmed, explained, or nothing sent."""

from __future__ import annotations

from tests.navigation import open_instance
from tests.support import notices, screen_text, wait_for

SIZE = (120, 36)


# --- restart, logout, webhook ------------------------------------------------------------------


async def test_restart_is_confirmed_and_explained(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=(120, 36)) as pilot:
        await open_instance(pilot.app, pilot, "onboarding")
        await pilot.press("R")
        await pilot.pause()
        assert "Restart the connection of onboarding?" in " ".join(screen_text(app).split())
        await pilot.press("y")
        await wait_for(pilot, lambda: any("only reconnects an open" in n for n in notices(app)))
        assert [w.path for w in demo_server.state.writes] == ["/instance/restart/onboarding"]


async def test_logout_of_a_closed_instance_says_not_connected(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=(120, 36)) as pilot:
        await open_instance(pilot.app, pilot, "onboarding")
        await pilot.press("L")
        await pilot.pause()
        await pilot.press("y")
        await wait_for(pilot, lambda: any("is not connected" in n for n in notices(app)))


async def test_logout_cancelled_sends_nothing(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=(120, 36)) as pilot:
        await open_instance(pilot.app, pilot, "sales-eu")
        await pilot.press("L")
        await pilot.pause()
        await pilot.press("n")
        await pilot.pause()
        assert demo_server.state.writes == []


# --- 3. a logout that does not stop a flapping instance --------------------------------------


async def test_a_logout_that_leaves_the_instance_reconnecting_says_so(app_for, demo_server):
    from gateway_tui.core.api.lifecycle import ConnectResult
    from gateway_tui.tui.screens.instance import InstanceScreen
    from tests.support import notices

    # What the connect screen tells of an instance the gateway cannot connect.
    offline = ConnectResult.model_validate({"count": 0}).explanation
    assert "until the instance is logged out" not in offline
    instance = demo_server.state.instances["sales-eu"]
    instance.status = "connecting"  # a 1.7.1 gateway that cannot reach WhatsApp: it flaps
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        app.open_instance("sales-eu")
        await wait_for(pilot, lambda: isinstance(app.screen, InstanceScreen))
        await pilot.press("L")
        await pilot.pause()
        await pilot.press("y")
        await wait_for(
            pilot, lambda: any("/instance/logout/" in w.path for w in demo_server.state.writes)
        )
        instance.status = "connecting"  # the real gateway logs out in the background, and flaps on
        await wait_for(pilot, lambda: any("still reconnecting" in n for n in notices(app)))
        assert not any("the session ended" in n for n in notices(app))


async def test_a_logout_whose_status_cannot_be_read_again_says_so(app_for, demo_server):
    """The logout went through, and the instance's new status could not be read: the
    instance view says so (it was swallowed there; the list said it)."""
    from gateway_tui.tui.screens.instance import InstanceScreen

    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        app.open_instance("sales-eu")
        await wait_for(pilot, lambda: isinstance(app.screen, InstanceScreen))
        rule = demo_server.faults.add("status", status=500, path_prefix="/instance/fetchInstances")
        await pilot.press("L")
        await wait_for(pilot, lambda: "Log out" in screen_text(app))
        await pilot.press("y")
        await wait_for(pilot, lambda: any("after the logout failed" in n for n in notices(app)))
        assert rule.hits >= 1
        assert [w.path for w in demo_server.state.writes] == ["/instance/logout/sales-eu"]
