"""The instances screen (home) against the demo gateway, driven with keys."""

from __future__ import annotations

from gateway_tui.core.api.models import InstanceStatus
from gateway_tui.tui.screens.confirm import ConfirmScreen
from gateway_tui.tui.screens.instance import InstanceScreen
from gateway_tui.tui.screens.instances import InstancesScreen
from gateway_tui.tui.widgets.record_table import RecordTable
from tests.support import screen_text, wait_for


def table(app) -> RecordTable:
    return app.screen.query_one("#instances-table", RecordTable)


def loaded(app) -> bool:
    return isinstance(app.screen, InstancesScreen) and bool(app.state.instances.value)


def fetch_calls(app) -> int:
    return sum(1 for e in app.state.calls if e.path == "/instance/fetchInstances")


async def test_lists_every_instance_with_status_and_owner(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_for(pilot, lambda: loaded(app))
        names = {row.instance_name for row in table(app).visible_rows}
        assert names == set(demo_server.state.instances)
        text = screen_text(app)
        assert "sales-eu" in text and "● open" in text and "✕ refused" in text
        assert "+49 1512 3456701" in text  # sales-eu's owner, formatted for reading


async def test_filter_narrows_live_and_escape_clears(app_for):
    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_for(pilot, lambda: loaded(app))
        total = table(app).visible_count
        await pilot.press("slash", *"sup")
        await pilot.pause()
        assert [r.instance_name for r in table(app).visible_rows] == ["support"]
        assert "1 of" in screen_text(app)
        # Owner digits match too: 4477009 is support's owner.
        await pilot.press("backspace", "backspace", "backspace", *"4477009")
        await pilot.pause()
        assert [r.instance_name for r in table(app).visible_rows] == ["support"]
        await pilot.press("escape")
        await pilot.pause()
        assert table(app).visible_count == total
        assert table(app).filter_text == ""


async def test_status_filter_cycles(app_for):
    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_for(pilot, lambda: loaded(app))
        await pilot.press("f")  # open only
        await pilot.pause()
        statuses = {r.status_kind for r in table(app).visible_rows}
        assert statuses == {InstanceStatus.OPEN}
        await pilot.press("f")  # connecting only
        await pilot.pause()
        assert [r.instance_name for r in table(app).visible_rows] == ["billing-apac"]


async def test_sort_by_name_then_reverse(app_for):
    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_for(pilot, lambda: loaded(app))
        await pilot.press("s")
        await pilot.pause()
        names = [r.instance_name for r in table(app).visible_rows]
        assert names == sorted(names)
        await pilot.press("s")
        await pilot.pause()
        assert [r.instance_name for r in table(app).visible_rows] == sorted(names, reverse=True)
        await pilot.press("s")  # next column: status
        await pilot.pause()
        assert table(app).sort_column == "status"


async def test_refresh_keeps_the_cursor_on_the_same_instance(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_for(pilot, lambda: loaded(app))
        await pilot.press("down", "down", "down")
        before = table(app).cursor_key
        assert before is not None and before != table(app).visible_rows[0].instance_name
        calls = fetch_calls(app)
        # Another client creates an instance that sorts first: the cursor must not move rows.
        demo_server.state.create_instance("aaa-new", None)
        await pilot.press("r")
        await wait_for(pilot, lambda: fetch_calls(app) > calls and not app.state.instances.loading)
        assert "aaa-new" in {r.instance_name for r in table(app).visible_rows}
        assert table(app).cursor_key == before


async def test_auto_refresh_never_moves_the_cursor(app_for):
    app = app_for(refresh_interval=0.2)
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_for(pilot, lambda: loaded(app))
        await pilot.press("down", "down")
        before = table(app).cursor_key
        calls = fetch_calls(app)
        await wait_for(pilot, lambda: fetch_calls(app) >= calls + 2)
        assert table(app).cursor_key == before


async def test_delete_confirm_cancel_then_confirm(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_for(pilot, lambda: loaded(app))
        assert table(app).move_cursor_to_key("onboarding")  # status close: deletable
        await pilot.press("ctrl+d")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        assert "onboarding" in screen_text(app)
        await pilot.press("n")
        await pilot.pause()
        assert "onboarding" in demo_server.state.instances
        calls = fetch_calls(app)
        await pilot.press("ctrl+d")
        await pilot.pause()
        await pilot.press("y")
        await wait_for(pilot, lambda: "onboarding" not in demo_server.state.instances)
        await wait_for(pilot, lambda: app.state.instance("onboarding") is None)
        assert "onboarding" not in {r.instance_name for r in table(app).visible_rows}
        assert fetch_calls(app) == calls  # gone without a refetch


async def test_open_instance_delete_is_refused_and_logout_offered(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_for(pilot, lambda: loaded(app))
        assert table(app).move_cursor_to_key("sales-eu")
        await pilot.press("ctrl+d")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        text = screen_text(app)
        assert "logged out first" in text
        await pilot.press("y")
        await wait_for(pilot, lambda: demo_server.state.instances["sales-eu"].status == "close")
        await wait_for(
            pilot, lambda: app.state.instance("sales-eu").status_kind == InstanceStatus.CLOSE
        )
        assert "sales-eu" in demo_server.state.instances  # logged out, not deleted


async def test_copy_name_and_id(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_for(pilot, lambda: loaded(app))
        assert table(app).move_cursor_to_key("support")
        await pilot.press("c")
        assert app.clipboard == "support"
        await pilot.press("y")
        assert app.clipboard == demo_server.state.instances["support"].instance_id


async def test_enter_opens_the_instance_view_with_settings(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_for(pilot, lambda: loaded(app))
        assert table(app).move_cursor_to_key("sales-eu")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, InstanceScreen)
        await wait_for(pilot, lambda: app.state.settings_of("sales-eu").value is not None)
        text = screen_text(app)
        assert "Acme Sales EU" in text and "Reject incoming calls" in text
        assert app.state.selected == "sales-eu"
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, InstancesScreen)


async def test_wrong_key_shows_the_api_key_panel(app_for):
    app = app_for(api_key="not-the-key")
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_for(pilot, lambda: app.state.instances.error is not None)
        text = screen_text(app)
        assert "refused the API key" in text and "Check your API key" in text
        assert "not-the-key" not in text


async def test_unreachable_gateway_shows_a_panel_and_recovers(app_for, demo_server):
    import socket

    with socket.socket() as probe:  # a loopback port nothing listens on
        probe.bind(("127.0.0.1", 0))
        dead_port = probe.getsockname()[1]
    app = app_for(url=f"http://127.0.0.1:{dead_port}")
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_for(pilot, lambda: app.state.instances.error is not None)
        assert "Cannot reach" in screen_text(app)
        # The gateway comes back (here: the user connects to the live one) without a restart.
        app.connect(demo_server.url, demo_server.api_key)
        await wait_for(pilot, lambda: loaded(app))


async def test_failed_refresh_keeps_rows_marked_stale(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_for(pilot, lambda: loaded(app))
        count = table(app).visible_count
        demo_server.faults.add("status", status=503, path_prefix="/instance/fetchInstances")
        await pilot.press("r")
        await wait_for(pilot, lambda: app.state.instances.stale)
        assert table(app).visible_count == count
        assert "refresh failed" in screen_text(app)


async def test_a_state_check_that_changes_nothing_leaves_the_table_alone(app_for, monkeypatch):
    from gateway_tui.core.state import Topic

    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_for(pilot, lambda: loaded(app))
        given = []
        original = RecordTable.set_rows
        monkeypatch.setattr(
            RecordTable, "set_rows", lambda self, rows: given.append(rows) or original(self, rows)
        )
        same = app.state.instances.value
        app.state.notify(Topic.INSTANCES)  # what a state check with no change does
        await pilot.pause()
        # Not handed over again: 10,000 rows would be re-indexed, re-sorted and re-filtered.
        assert not any(rows is same for rows in given)
        first = app.state.instances.value[0]
        changed = [first.model_copy(update={"status": "close"}), *app.state.instances.value[1:]]
        app.state.instances.value = changed
        app.state.notify(Topic.INSTANCES)
        await pilot.pause()
        assert any(rows is changed for rows in given)
