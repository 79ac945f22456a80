"""Type-ahead: keys typed at full speed land where they were aimed.

The keys are posted all at once, the way a terminal delivers a fast typist's burst (Pilot's
``press`` waits for the app between keys, which hides the problem), and the test then waits for
the last field to fill before it looks at every field.
"""

from __future__ import annotations

from textual.widgets import TextArea

from gateway_tui.core.files.config import load_config
from gateway_tui.tui.app import GatewayApp
from gateway_tui.tui.screens.composer import ComposerScreen
from gateway_tui.tui.screens.connect import ConnectScreen
from gateway_tui.tui.screens.group_modals import InviteScreen
from gateway_tui.tui.screens.instance import InstanceScreen
from gateway_tui.tui.screens.participants import ParticipantsScreen
from tests.support import burst, wait_for

INSTANCE = "support"
GROUPS_INSTANCE = "sales-eu"
SIZE = (140, 40)
LIMIT = 60  # generous: a busy machine may be slow, never wrong


def typed(*parts: str) -> list[str]:
    """``typed("4915", "tab", "Title")`` → the keys: text split into characters, keys as named."""
    keys: list[str] = []
    for part in parts:
        keys.extend([part] if part in ("tab", "enter", "ctrl+n", "m", "n") else list(part))
    return keys


def value(screen, selector: str) -> str | None:
    """The text in a field, or None while the screen has not built it yet."""
    found = screen.query(selector)
    if not found:
        return None
    widget = found.first()
    return widget.text if isinstance(widget, TextArea) else widget.value


async def test_a_burst_into_the_composer_fills_each_field(app_for):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value), within=LIMIT)
        app.open_instance(INSTANCE)
        await wait_for(pilot, lambda: isinstance(app.screen, InstanceScreen), within=LIMIT)
        # m opens the composer; the rest is typed before it has drawn a thing.
        burst(app, "m", *typed("4915123456789", "tab", "Title", "tab", "Desc"))
        await wait_for(
            pilot,
            lambda: (
                isinstance(app.screen, ComposerScreen)
                and value(app.screen, "#f-description") == "Desc"
            ),
            within=LIMIT,
        )
        screen = app.screen
        assert value(screen, "#f-recipient") == "4915123456789"
        assert value(screen, "#f-title") == "Title"
        # ctrl+n adds a row and focuses its title: the letters typed right after go there.
        rows_before = screen.draft.row_count
        burst(app, "ctrl+n", *"Salad", "tab", *"green")
        await wait_for(pilot, lambda: screen.draft.row_count == rows_before + 1, within=LIMIT)
        new_row = screen.draft.sections[-1].rows[-1]
        await wait_for(pilot, lambda: new_row.description == "green", within=LIMIT)
        assert new_row.title == "Salad"
        assert value(screen, "#f-description") == "Desc"


async def test_enter_then_m_on_the_instances_table_opens_the_composer(app_for):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value), within=LIMIT)
        await pilot.pause()
        burst(app, "enter", "m", *"4915")
        await wait_for(
            pilot,
            lambda: (
                isinstance(app.screen, ComposerScreen)
                and value(app.screen, "#f-recipient") == "4915"
            ),
            within=LIMIT,
        )


async def test_a_burst_into_the_invite_dialog_fills_numbers_and_description(app_for, demo_server):
    group = next(iter(demo_server.state.instances[GROUPS_INSTANCE].groups))
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value), within=LIMIT)
        app.push_screen(ParticipantsScreen(GROUPS_INSTANCE, group))
        await wait_for(
            pilot,
            lambda: bool(app.state.participants_of(GROUPS_INSTANCE, group).value),
            within=LIMIT,
        )
        burst(app, "n", *"4915123456789", "tab", *"Join us")
        await wait_for(
            pilot,
            lambda: (
                isinstance(app.screen, InviteScreen)
                and value(app.screen, "#invite-description") == "Join us"
            ),
            within=LIMIT,
        )
        assert value(app.screen, "#invite-numbers") == "4915123456789"


async def test_a_burst_into_the_connect_form_fills_url_and_key():
    app = GatewayApp(load_config())
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ConnectScreen), within=LIMIT)
        burst(
            app,
            *"http://127.0.0.1:1",
            "tab",
            *"secret-key",
            "tab",
            *"MY_KEY",
            "tab",
            "ctrl+u",
            *"work",
        )
        await wait_for(pilot, lambda: value(app.screen, "#profile-name") == "work", within=LIMIT)
        assert value(app.screen, "#url") == "http://127.0.0.1:1"
        assert value(app.screen, "#api-key") == "secret-key"
        assert value(app.screen, "#api-key-env") == "MY_KEY"
