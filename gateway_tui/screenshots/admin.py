"""Scenarios of group administration and labels: the group view with participants marked and
the promote confirmation, the group's settings, and labels in the chats list."""

from __future__ import annotations

from textual.pilot import Pilot

from gateway_tui.screenshots.base import Scenario, shown, wait_until
from gateway_tui.screenshots.chats import SIZE, open_chats
from gateway_tui.screenshots.groups import BIG_GROUP, INSTANCE, WAR_ROOM, _private_home
from gateway_tui.screenshots.shell import instances_loaded


async def _group(pilot: Pilot, jid: str) -> None:
    from gateway_tui.tui.widgets.record_table import RecordTable

    app = pilot.app
    _private_home()
    await instances_loaded(pilot)
    app.open_groups(INSTANCE)
    await wait_until(pilot, lambda: app.state.groups_of(INSTANCE).value is not None)
    assert app.screen.query_one("#groups-table", RecordTable).move_cursor_to_key(jid)
    await pilot.press("enter")
    await wait_until(pilot, lambda: bool(app.state.participants_of(INSTANCE, jid).value))


async def _marked(pilot: Pilot) -> None:
    """Two members marked (space), then p: the confirmation names them."""
    from gateway_tui.tui.screens.confirm import ConfirmScreen

    await _group(pilot, BIG_GROUP)
    screen = pilot.app.screen
    plain = [p for p in screen.table.visible_rows if not p.is_admin][:2]
    for participant in plain:
        screen.table.move_cursor_to_key(participant.id)
        await pilot.press("space")
    await pilot.press("p")
    await wait_until(pilot, shown(pilot, ConfirmScreen))


async def _settings(pilot: Pilot) -> None:
    from gateway_tui.tui.screens.group_admin_modals import GroupSettingsScreen

    await _group(pilot, WAR_ROOM)
    await pilot.press("S")
    await wait_until(pilot, shown(pilot, GroupSettingsScreen))


async def _labels(pilot: Pilot) -> None:
    screen = await open_chats(pilot)
    app = pilot.app
    await wait_until(pilot, lambda: bool(app.actions.people.labels_of(INSTANCE).value))
    await wait_until(pilot, lambda: any(row.labels for row in screen.rows))
    await pilot.pause()


SCENARIOS = [
    Scenario("group-admin-marked", _marked),
    Scenario("group-settings", _settings),
    Scenario("chats-labels", _labels, size=SIZE),
]
