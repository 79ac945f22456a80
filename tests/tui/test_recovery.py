"""The network fails under the app: it says so, keeps what it showed, and recovers by itself."""

from __future__ import annotations

import socket

from gateway_tui.core.state import Health
from gateway_tui.demo.server import DemoServer
from gateway_tui.tui.screens.instances import InstancesScreen
from gateway_tui.tui.screens.request_log import RequestLogScreen
from tests.support import make_app, make_config, notices, screen_text, wait_for


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def rows(app) -> list[str]:
    return [i.instance_name for i in app.state.instances.value or ()]


async def test_server_down_at_start_then_back_without_restart():
    port = free_port()
    server = DemoServer(port=port)
    app = make_app(make_config(server, url=f"http://127.0.0.1:{port}", api_key=server.api_key))
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_for(pilot, lambda: app.state.instances.error is not None)
        assert app.state.health == Health.UNREACHABLE
        assert "Cannot reach" in screen_text(app)
        with server:  # the gateway comes up on the same port
            await pilot.press("r")
            await wait_for(pilot, lambda: bool(app.state.instances.value))
            assert app.state.health == Health.OK
            assert "Cannot reach" not in screen_text(app)


async def test_server_gone_mid_session_keeps_rows_stale_then_recovers():
    first = DemoServer().start()
    port = first.port
    app = make_app(make_config(first))
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        shown = rows(app)
        first.stop()
        await pilot.press("r")
        await wait_for(pilot, lambda: app.state.instances.stale)
        assert rows(app) == shown  # the last good data stays on screen
        assert app.state.health == Health.UNREACHABLE
        assert "refresh failed" in screen_text(app)
        assert any("Refreshing instances failed" in line for line in notices(app))
        with DemoServer(port=port):
            await pilot.press("r")
            await wait_for(pilot, lambda: not app.state.instances.stale)
            assert app.state.health == Health.OK
            assert "refresh failed" not in screen_text(app)


async def test_keys_are_answered_while_a_request_stalls(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        demo_server.faults.add("stall", seconds=30, path_prefix="/instance/fetchInstances")
        await pilot.press("r")
        await wait_for(pilot, lambda: app.state.instances.loading)
        # The refresh is stuck on the server; the UI must still answer each key.
        await pilot.press("f12")
        await pilot.pause()
        assert isinstance(app.screen, RequestLogScreen)
        assert app.state.instances.loading  # still waiting: the key did not wait for it
        await pilot.press("escape", "f")
        await pilot.pause()
        assert isinstance(app.screen, InstancesScreen)
        assert "status: open" in screen_text(app)
        assert app.state.instances.loading


async def test_a_timed_out_write_is_reported_as_unknown_and_never_repeated(demo_server):
    app = make_app(make_config(demo_server, request_timeout=2.0))
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        demo_server.faults.add("stall", seconds=8, method="DELETE", times=1)
        table = app.screen.query_one("#instances-table")
        assert table.move_cursor_to_key("onboarding")
        await pilot.press("ctrl+d")
        await pilot.pause()
        await pilot.press("y")
        await wait_for(pilot, lambda: any("outcome unknown" in n for n in notices(app)))
        deletes = [w for w in demo_server.state.writes if w[0] == "DELETE"]
        assert len(deletes) == 1
        assert all(count == 1 for count in demo_server.state.write_counts.values())
        # Not removed from the list: whether it happened is unknown until the user looks.
        assert "onboarding" in rows(app)


async def test_a_timed_refresh_that_fails_is_said_and_a_refused_key_told_once(app_for, demo_server):
    """The instance list's timed refresh: a failure is said in the stale banner (a failed
    read: nothing changed, safe to try again), no notice at every tick; a refused key (the
    key revoked mid-session) is told at once too, and once, not at every tick."""
    from gateway_tui.tui.screens.instances import InstancesScreen

    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        screen = app.screen
        assert isinstance(screen, InstancesScreen)
        loadable, what = app.state.instances, "Refreshing the instances failed"

        async def tick(rule) -> None:
            hits = rule.hits
            screen._refresh_on_interval()
            await wait_for(pilot, lambda: rule.hits > hits and not loadable.loading)
            await pilot.pause()

        broken = demo_server.faults.add("drop_after_read", path_prefix="/instance/fetchInstances")
        await tick(broken)
        await wait_for(pilot, lambda: "refresh failed" in screen_text(app))
        assert "safe to try again" in " ".join(screen_text(app).split())
        assert not [n for n in notices(app) if what in n]  # the banner says it, no toast
        demo_server.faults.clear()
        refused = demo_server.faults.add("unauthorized", path_prefix="/instance/fetchInstances")
        await tick(refused)
        await wait_for(pilot, lambda: any(what in n for n in notices(app)))
        await tick(refused)
        assert len([n for n in notices(app) if what in n]) == 1  # told once, not every tick


async def test_a_recovery_probe_that_meets_a_refused_key_tells_it(app_for, demo_server):
    """The recovery probe (the top screen's read while the gateway seemed gone) met a revoked
    key: told in a notice, once (the bar's dot alone said only "failing")."""
    from gateway_tui.tui.screens.request_log import RequestLogScreen as Screen

    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        app.push_screen(Screen())
        await wait_for(pilot, lambda: isinstance(app.screen, Screen))
        rule = demo_server.faults.add("unauthorized", path_prefix="/instance/fetchInstances")
        what = "Reading the instances again failed"
        for _ in range(2):
            hits = rule.hits
            app.screen.recover()
            await wait_for(pilot, lambda h=hits: rule.hits > h and not app.state.instances.loading)
            await pilot.pause()
        told = [n for n in notices(app) if what in n]
        assert len(told) == 1 and "API key" in told[0]
