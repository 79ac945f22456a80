"""The instances screen (home) against the demo gateway, driven with keys."""

from __future__ import annotations

import pytest

from gateway_tui.core.api.models import InstanceStatus
from gateway_tui.tui.screens import instances as instances_screen
from gateway_tui.tui.screens.confirm import ConfirmScreen
from gateway_tui.tui.screens.help import HelpScreen
from gateway_tui.tui.screens.instance import InstanceScreen
from gateway_tui.tui.screens.instances import InstancesScreen
from gateway_tui.tui.widgets.record_table import RecordTable
from tests.support import notices, screen_text, wait_for


def table(app) -> RecordTable:
    return app.screen.query_one("#instances-table", RecordTable)


def loaded(app) -> bool:
    return isinstance(app.screen, InstancesScreen) and bool(app.state.instances.value)


def fetch_calls(app) -> int:
    return sum(1 for e in app.state.calls if e.path == "/instance/fetchInstances")


INSTANCE = "sales-eu"


async def _instances(pilot):
    await wait_for(
        pilot,
        lambda: (
            bool(pilot.app.state.instances.value) and isinstance(pilot.app.screen, InstancesScreen)
        ),
    )


CLOSED = "onboarding"
SIZE = (140, 40)


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


@pytest.mark.in_process
async def test_the_instances_footer_and_help_say_enter_opens(app_for):
    app = app_for()
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        await pilot.pause()
        assert "⏎ Open" in screen_text(app).splitlines()[-1]
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        text = screen_text(app)
        assert "instances.open" in text and "Select" not in text


# --- tables: low-value columns go first when narrow, columns widen when there is room ---------


@pytest.mark.in_process
async def test_the_instances_table_drops_columns_at_80_and_widens_at_200(app_for, demo_server):
    long_name = "Acme Sales Europe — Central and Eastern Region Desk"
    demo_server.state.instances[INSTANCE].profile_name = long_name
    for size, shown in (
        ((80, 24), ["name", "status", "owner", "profile"]),  # the integration went first
        ((120, 36), ["name", "status", "owner", "profile", "integration"]),
        ((200, 50), ["name", "status", "owner", "profile", "integration"]),
    ):
        app = app_for()
        async with app.run_test(size=size) as pilot:
            await wait_for(pilot, lambda a=app: bool(a.state.instances.value))
            await pilot.pause()
            table = app.screen.table
            assert table.shown_columns == shown, size
            text = screen_text(app)
            assert "Integration" in text if "integration" in shown else "Integration" not in text
            if size[0] >= 120:
                assert long_name in text  # room to spare: the column widens to show it all
            else:
                assert long_name not in text  # cut at the column's usual width


# --- live state -------------------------------------------------------------------------------


async def test_a_drop_shows_in_the_list_within_an_interval(app_for, demo_server, monkeypatch):
    monkeypatch.setattr(instances_screen, "LIVE_STATE_SECONDS", 0.3)
    app = app_for(refresh_interval=3600)  # the full list is not refetched in this test
    async with app.run_test(size=(120, 36)) as pilot:
        await _instances(pilot)
        assert app.state.instance("support").status == "open"
        demo_server.state.instances["support"].status = "close"
        await wait_for(pilot, lambda: app.state.instance("support").status == "close")
        assert any(c.path == "/instance/connectionState/support" for c in app.state.calls)
        assert not any(c.path == "/instance/fetchInstances" for c in list(app.state.calls)[1:])
        await pilot.pause()
        assert "states checked" in screen_text(app)


async def test_failed_state_checks_are_counted_on_the_list(app_for, demo_server, monkeypatch):
    monkeypatch.setattr(instances_screen, "LIVE_STATE_SECONDS", 0.3)
    demo_server.faults.add("status", path_prefix="/instance/connectionState/", status=500)
    app = app_for(refresh_interval=3600)
    async with app.run_test(size=(120, 36)) as pilot:
        await _instances(pilot)
        await wait_for(pilot, lambda: "state checks failed" in screen_text(app))


# --- instances: an already-deleted instance, a wrong key at start ---------------------------


async def test_deleting_an_instance_that_is_already_gone_removes_its_row(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, InstancesScreen)
        del demo_server.state.instances[CLOSED]  # deleted elsewhere (the manager, curl)
        assert screen.table.move_cursor_to_key(CLOSED)
        await pilot.press("ctrl+d")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await wait_for(pilot, lambda: app.state.instance(CLOSED) is None)
        await pilot.pause()
        assert CLOSED not in [i.instance_name for i in screen.table.visible_rows]
        assert any("no longer exists" in n for n in notices(app))


async def test_a_wrong_key_at_start_asks_once_and_says_it_once(app_for) -> None:
    app = app_for(api_key="WRONG-KEY-0000")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, InstancesScreen))
        await wait_for(pilot, lambda: app.state.instances.error is not None)
        await wait_for(pilot, lambda: "API key" in screen_text(app))
        for _ in range(5):
            await pilot.pause()
        asked = [c for c in app.state.calls if c.path == "/instance/fetchInstances"]
        assert len(asked) == 1
        assert len([n for n in notices(app) if "Refreshing instances failed" in n]) == 1


@pytest.mark.in_process
async def test_the_status_filter_only_offers_statuses_that_are_there(app_for):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        screen = app.screen
        assert isinstance(screen, InstancesScreen)
        seen = []
        for _ in range(8):
            await pilot.press("f")
            await pilot.pause()
            seen.append(screen.table.visible_count)
        assert 0 not in seen, seen


@pytest.mark.in_process
async def test_sorting_by_owner_puts_instances_without_one_last_both_ways(app_for):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        table = app.screen.table
        assert any(not i.owner_number for i in app.state.instances.value)
        for reverse in (False, True):
            table.sort_by("owner", reverse=reverse)
            await pilot.pause()
            owners = [bool(i.owner_number) for i in table.visible_rows]
            assert owners == sorted(owners, reverse=True), (reverse, owners)


async def test_the_instance_list_checks_no_states_while_another_screen_covers_it(app_for):
    """Textual's is_current holds for the screen right under the top one: the list kept
    asking connectionState (and fetchInstances) every interval under the chats."""
    from gateway_tui.tui.screens.chats import ChatsScreen
    from gateway_tui.tui.screens.instances import InstancesScreen

    app = app_for(refresh_interval=1)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        listing = app.screen
        assert isinstance(listing, InstancesScreen) and listing.in_view
        app.open_chats("sales-eu")
        await wait_for(pilot, lambda: isinstance(app.screen, ChatsScreen) and app.screen.is_mounted)
        assert not listing.in_view
        await wait_for(pilot, lambda: not app.state.instances.loading)
        started = [w for w in app.workers if w.node is listing]
        listing._check_states_in_view()
        listing._refresh_on_interval()
        assert [w for w in app.workers if w.node is listing] == started
        app.pop_screen()
        await wait_for(pilot, lambda: app.screen is listing)
        assert listing.in_view

        def checking() -> bool:
            # In view again it checks; not while a refresh (every second here) is under way,
            # which a busy machine may still be in at any given moment: asked until it checks.
            listing._check_states_in_view()
            return any(w.group == "live-state" for w in app.workers if w.node is listing)

        await wait_for(pilot, checking)


async def test_an_empty_gateway_says_which_key_creates_an_instance(app_for, demo_server):
    demo_server.state.instances.clear()
    app = app_for(keys={"instances.new": "ctrl+n"})
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: app.state.instances.value is not None)
        await pilot.pause()
        text = screen_text(app)
        assert "No instances on this gateway" in text
        assert "Create one with ^n" in text and "manager" not in text


async def test_a_failed_state_check_is_not_counted_once_its_instance_is_gone(app_for, demo_server):
    for name in [n for n in demo_server.state.instances if n != "sales-eu"]:
        del demo_server.state.instances[name]
    demo_server.faults.add("status", status=500, path_prefix="/instance/connectionState")
    app = app_for(refresh_interval=1)  # live state checks every second
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: "⚠ 1 state check failed" in screen_text(app))
        del demo_server.state.instances["sales-eu"]  # deleted elsewhere
        await pilot.press("r")
        await wait_for(pilot, lambda: app.state.instances.value == [])
        await pilot.pause()
        text = screen_text(app)
        assert "No instances on this gateway" in text
        assert "state check" not in text


async def test_the_list_on_return_is_fresh_and_the_header_names_no_instance(demo_server):
    from datetime import datetime, timedelta

    from gateway_tui.tui.app import GatewayApp
    from gateway_tui.tui.screens.instance import InstanceScreen
    from gateway_tui.tui.screens.instances import InstancesScreen
    from tests.support import make_config

    now = [datetime(2026, 11, 24, 15, 42, 44)]
    app = GatewayApp(make_config(demo_server, refresh_interval=3600), clock=lambda: now[0])
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        await pilot.pause()
        assert "updated 15:42:44" in screen_text(app)
        app.open_instance("sales-eu")
        await wait_for(pilot, lambda: isinstance(app.screen, InstanceScreen))
        assert "instance sales-eu" in screen_text(app)
        now[0] += timedelta(hours=2)  # a long while on the instance's screens
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, InstancesScreen))
        await wait_for(pilot, lambda: "updated 17:42:44" in screen_text(app))
        assert "instance sales-eu" not in screen_text(app)
