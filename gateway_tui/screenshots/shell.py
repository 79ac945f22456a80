"""Scenarios of the shell: instances, instance view, help, confirm, request log, connect."""

from __future__ import annotations

from textual.pilot import Pilot

from gateway_tui.screenshots.base import Scenario, shown, steady_request_log, wait_until
from gateway_tui.tui.widgets.record_table import RecordTable


def _app(pilot: Pilot):
    return pilot.app


async def instances_loaded(pilot: Pilot) -> None:
    app = _app(pilot)
    await wait_until(pilot, lambda: bool(app.state.instances.value))


async def _instances(pilot: Pilot) -> None:
    await instances_loaded(pilot)


async def _instance_view(pilot: Pilot) -> None:
    app = _app(pilot)
    await instances_loaded(pilot)
    app.open_instance("sales-eu")
    await wait_until(pilot, lambda: app.state.settings_of("sales-eu").value is not None)


async def _instances_2x(pilot: Pilot) -> None:
    app = _app(pilot)
    await instances_loaded(pilot)
    await wait_until(pilot, lambda: app.client.server_version == "2.3.6")
    await pilot.pause()


async def _instance_view_2x(pilot: Pilot) -> None:
    app = _app(pilot)
    await _instances_2x(pilot)
    app.open_instance("onboarding")  # closed: the gateway says why and when
    await wait_until(pilot, lambda: app.state.settings_of("onboarding").value is not None)


async def _help(pilot: Pilot) -> None:
    from gateway_tui.tui.screens.help import HelpScreen

    await instances_loaded(pilot)
    await pilot.press("question_mark")
    await wait_until(pilot, shown(pilot, HelpScreen))


async def _confirm_delete(pilot: Pilot) -> None:
    app = _app(pilot)
    await instances_loaded(pilot)
    from gateway_tui.tui.screens.confirm import ConfirmScreen

    table = app.screen.query_one("#instances-table", RecordTable)
    table.move_cursor_to_key("onboarding")
    await wait_until(pilot, lambda: table.cursor_key == "onboarding")
    await pilot.press("ctrl+d")
    await wait_until(pilot, shown(pilot, ConfirmScreen))


async def _request_log(pilot: Pilot) -> None:
    from gateway_tui.tui.screens.request_log import RequestLogScreen

    app = _app(pilot)
    await _instance_view(pilot)
    # Every call the picture lists, answered (GET / is asked beside the first call).
    await wait_until(pilot, lambda: app.client.server_version is not None)
    await pilot.press("f12")
    await wait_until(pilot, shown(pilot, RequestLogScreen))
    steady_request_log(app)
    table = app.screen.query_one("#log-table", RecordTable)
    await wait_until(pilot, lambda: len(table.visible_rows) == len(app.state.calls))


async def _request_log_detail(pilot: Pilot) -> None:
    """enter on a call: its headers (the key redacted) and its bodies."""
    app = _app(pilot)
    await _request_log(pilot)
    table = app.screen.query_one("#log-table", RecordTable)
    settings = next(e for e in table.visible_rows if "/settings/find/" in e.path)
    table.move_cursor_to_key(f"{settings.request_id}:{settings.attempt}")
    await wait_until(pilot, lambda: table.cursor_row is settings)
    await pilot.press("enter")
    await wait_until(pilot, lambda: app.screen.detail_open)


async def _connect(pilot: Pilot) -> None:
    from gateway_tui.tui.screens.connect import ConnectScreen

    app = pilot.app
    # Shown, mounted, and the URL field focused (its cursor is in the picture): one pause
    # was not enough on a busy machine.
    await wait_until(
        pilot,
        lambda: (
            isinstance(app.screen, ConnectScreen)
            and app.screen.is_mounted
            and app.focused is not None
            and app.focused.id == "url"
            # The keychain looked for (off the loop): the box offered, or a note saying none.
            and app.screen.keychain_known
        ),
    )


SCENARIOS = [
    Scenario("instances", _instances),
    Scenario("instance-settings", _instance_view),
    # The same on a 2.x gateway (the demo imitating a recorded 2.3.6).
    Scenario("instances-2x", _instances_2x, server_options={"api_version": "2.3.6"}),
    Scenario("instance-view-2x", _instance_view_2x, server_options={"api_version": "2.3.6"}),
    Scenario("help", _help),
    Scenario("confirm-delete", _confirm_delete),
    Scenario("request-log", _request_log, size=(140, 34)),
    Scenario("request-log-detail", _request_log_detail, size=(140, 40)),
    Scenario("connect", _connect, connected=False),
]
