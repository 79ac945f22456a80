"""Help (`?`, `f1`) on every screen lists the screen's own actions first, with binding ids;
the palette holds every action of the current screen plus the app's, once each."""

from __future__ import annotations

import pytest
from textual.command import CommandPalette
from textual.widgets import Input

from gateway_tui.tui.screens.help import APP, FIELD, SCREEN, HelpScreen, key_rows
from gateway_tui.tui.screens.participants import ParticipantsScreen
from tests.navigation import open_composer
from tests.support import screen_text, wait_for

# The demo runs in the test's event loop (tests/in_process.py): these tests need no socket.
pytestmark = pytest.mark.in_process

INSTANCE = "sales-eu"
SIZE = (160, 50)


async def test_f1_opens_help_in_the_composer_with_its_own_actions_first(app_for):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_composer(app, pilot)
        # In a text field ? is a character: a question belongs in a message.
        await pilot.press("question_mark")
        assert screen.query_one("#f-recipient", Input).value == "?"
        await pilot.press("f1")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        rows = key_rows(screen)
        groups = [row.group for row in rows]
        assert groups == sorted(groups, key=[SCREEN, APP, FIELD].index)
        assert rows[0].binding_id == "composer.send" and rows[0].keys == "^s"
        text = screen_text(app)
        for shown in ("Send", "composer.send", "Add row", "composer.add_row", "app.help_f1"):
            assert shown in text
        # The composer's keys come before the app's, and the text-editing keys come last.
        assert text.index("composer.send") < text.index("app.help_f1")
        assert "Delete character left" not in text.split("app.help_f1")[0]
        await pilot.press("f1")
        await wait_for(pilot, lambda: app.screen is screen)


async def test_question_mark_and_f1_open_help_on_table_screens(app_for):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        for opener in (
            lambda: None,  # the instances list
            lambda: app.open_instance(INSTANCE),
            lambda: app.open_groups(INSTANCE),
            lambda: app.action_request_log(),
        ):
            opener()
            await pilot.pause()
            under = app.screen
            for key in ("question_mark", "f1"):
                await pilot.press(key)
                await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
                first = key_rows(under)[0]
                assert first.group == SCREEN and first.binding_id in screen_text(app)
                await pilot.press("escape")
                await wait_for(pilot, lambda u=under: app.screen is u)


async def test_the_palette_finds_revoke_on_participants_and_lists_each_action_once(
    app_for, demo_server
):
    group = next(iter(demo_server.state.instances[INSTANCE].groups))
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        app.push_screen(ParticipantsScreen(INSTANCE, group))
        await wait_for(pilot, lambda: isinstance(app.screen, ParticipantsScreen))
        screen = app.screen
        commands = list(app.get_system_commands(screen))
        titles = [command.title for command in commands]
        assert len(titles) == len(set(titles)), titles
        own = [row.description for row in key_rows(screen) if row.group == SCREEN]
        assert own and titles[: len(own)] == own  # every binding of the screen, first
        assert {"Revoke code", "Send invite", "Export CSV", "Request log", "Keys"} <= set(titles)
        assert "Keys of this screen" not in titles
        revoke = commands[titles.index("Revoke code")]
        assert "participants.revoke" in revoke.help
        # As a user finds it: ctrl+p, "revoke".
        await pilot.press("ctrl+p")
        await wait_for(pilot, lambda: isinstance(app.screen, CommandPalette))
        await pilot.press(*"revoke")
        await wait_for(pilot, lambda: "Revoke code" in screen_text(app))
        await pilot.press("escape")


async def test_typing_in_help_filters_its_keys_and_esc_clears_then_closes(app_for):
    """Help filters as lazygit's keybindings menu does: typing keeps the bindings whose key,
    description or id hold the text; esc clears the filter, then closes."""
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        under = app.screen
        await pilot.press("f1")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        # (ids, not words: the footer of the screen under help shows the words)
        assert "instances.status_filter" in screen_text(app) and "app.request_log" in screen_text(
            app
        )
        await pilot.press(*"refresh")
        await wait_for(pilot, lambda: "instances.status_filter" not in screen_text(app))
        text = screen_text(app)
        assert "instances.refresh" in text and "app.request_log" not in text
        await pilot.press("ctrl+u", *"f12")  # by key
        await wait_for(pilot, lambda: "app.request_log" in screen_text(app))
        assert "instances.refresh" not in screen_text(app)
        await pilot.press("ctrl+u", *"[b]zz")  # typed text is text, never markup
        await wait_for(pilot, lambda: "No key matches “[b]zz”" in screen_text(app))
        await pilot.press("escape")  # clears the filter: everything is back
        await wait_for(pilot, lambda: "instances.status_filter" in screen_text(app))
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")  # and closes
        await wait_for(pilot, lambda: app.screen is under)
