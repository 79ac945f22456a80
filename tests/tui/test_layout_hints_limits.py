"""Narrow terminals, hints that name keys that work, and WhatsApp's length limits."""

from __future__ import annotations

import pytest
from textual.widgets import Input, Static

from gateway_tui.core.files.config import load_config
from gateway_tui.tui.app import GatewayApp
from gateway_tui.tui.screens.connect import ConnectScreen
from gateway_tui.tui.screens.group_modals import SubjectScreen
from gateway_tui.tui.screens.help import HelpScreen
from gateway_tui.tui.screens.participants import ParticipantsScreen
from gateway_tui.tui.widgets.length_counter import LengthCounter
from tests.navigation import open_composer
from tests.support import screen_text, wait_for

# The demo runs in the test's event loop (tests/in_process.py): these tests need no socket.
pytestmark = pytest.mark.in_process

INSTANCE = "sales-eu"


# --- 3. the composer at 80 columns ------------------------------------------------------------


async def test_at_80_columns_the_preview_steps_aside_and_f4_shows_it_below(app_for):
    app = app_for()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_composer(app, pilot)
        pane = screen.query_one("#composer-preview-pane")
        assert not pane.display or pane.region.width == 0
        await pilot.press("ctrl+n")
        await pilot.pause()
        row_title = screen.query(".row-title").filter("Input").first()
        assert row_title.region.width >= 15  # a row title is readable (it was 4 cells)
        await pilot.press("f4")
        await pilot.pause()
        form = screen.query_one("#composer-form")
        assert pane.region.width > 60 and pane.region.y > form.region.y  # under the form
        await pilot.press("f4")
        await pilot.pause()
        assert pane.region.width == 0


async def test_on_a_wide_terminal_the_preview_is_beside_the_form(app_for):
    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        screen = await open_composer(app, pilot)
        pane, form = screen.query_one("#composer-preview-pane"), screen.query_one("#composer-form")
        assert pane.region.x > form.region.x and pane.region.y == form.region.y
        await pilot.press("f4")  # hides it: the form takes the width
        await pilot.pause()
        assert pane.region.width == 0 and form.region.width > 130


# --- 8. hints name the keys that work ---------------------------------------------------------


async def test_the_connect_screen_says_ctrl_r_tries_again():
    app = GatewayApp(load_config())
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ConnectScreen))
        screen = app.screen
        screen.query_one("#url", Input).value = "http://127.0.0.1:9"  # nothing listens there
        screen.query_one("#api-key", Input).value = "some-key"
        await pilot.press("ctrl+r")
        said = screen.query_one("#connect-result", Static)
        await wait_for(pilot, lambda: "✕" in str(said.render()))
        text = str(said.render())
        assert "press ^r to try again" in text
        assert "press r " not in text.lower()


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


async def test_footers_fit_at_120_columns(app_for, demo_server):
    group = next(iter(demo_server.state.instances[INSTANCE].groups))
    app = app_for()
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        for opener in (
            lambda: None,
            lambda: app.open_instance(INSTANCE),
            lambda: app.open_groups(INSTANCE),
            lambda: app.push_screen(ParticipantsScreen(INSTANCE, group)),
            lambda: app.open_composer(INSTANCE),
            app.action_request_log,
        ):
            opener()
            await pilot.pause()
            await pilot.pause()
            footer = screen_text(app).splitlines()[-1]
            assert "f12 Log" in footer, (app.screen, footer)  # the last key, uncut


async def test_at_80_columns_the_footer_ends_with_the_palette_key_and_nothing_after(app_for):
    """The palette key is docked at the right edge; a compact footer's margin once left one
    column there, where the key scrolled under it showed through ("^p paletteQ")."""
    app = app_for()
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        for opener in (lambda: None, lambda: app.open_instance(INSTANCE)):
            opener()
            await pilot.pause()
            await pilot.pause()
            footer = screen_text(app).splitlines()[-1]
            assert footer.rstrip().endswith("^p palette"), (app.screen, footer)


async def test_at_80_columns_the_chat_footers_name_their_main_keys_and_help_says_it_all(
    app_for, demo_server
):
    """The footers say a word per key, so five or more of a chat screen's keys fit at 80
    columns (long descriptions once showed three); help and the palette say the whole thing."""
    from gateway_tui.tui.screens.chats import ChatsScreen
    from gateway_tui.tui.screens.messages import MessagesScreen

    jid = next(iter(demo_server.state.instances[INSTANCE].chats))
    app = app_for()
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        for screen, keys, whole in (
            (
                ChatsScreen(INSTANCE),
                ("⏎ Open", "a Archive", "e Edit", "p Profile", "m Compose"),
                "Edit your last text message",
            ),
            (
                MessagesScreen(INSTANCE, jid),
                ("e Edit", "a Archive", "p Profile", "m Answer"),
                "Answer with a list message",
            ),
        ):
            app.push_screen(screen)
            await wait_for(pilot, lambda screen=screen: app.screen is screen)
            await pilot.pause()
            footer = screen_text(app).splitlines()[-1]
            assert all(key in footer for key in keys), footer
            await pilot.press("f1")
            await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
            assert whole in screen_text(app)
            await pilot.press("escape")
            await wait_for(pilot, lambda screen=screen: app.screen is screen)
            app.pop_screen()
            await pilot.pause()


# --- 9. limits, next to the field, as you type ------------------------------------------------


async def test_a_long_list_title_is_warned_next_to_the_field_as_you_type(app_for):
    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        screen = await open_composer(app, pilot)
        screen.query_one("#f-title", Input).focus()
        await pilot.press(*("x" * 61))
        await pilot.pause()
        counter = screen.query_one("#count-title", LengthCounter)
        assert "61/60" in str(counter.render()) and counter.has_class("-over")
        assert "WhatsApp shows at most 60" in str(screen.query_one("#err-title").render())
        await pilot.press("backspace")
        await pilot.pause()
        assert not counter.has_class("-over")
        assert "at most" not in str(screen.query_one("#err-title").render())


async def test_a_subject_over_100_characters_is_refused_live_and_never_sent(app_for, demo_server):
    group = next(iter(demo_server.state.instances[INSTANCE].groups))
    app = app_for()
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        app.push_screen(ParticipantsScreen(INSTANCE, group))
        await wait_for(pilot, lambda: isinstance(app.screen, ParticipantsScreen))
        await pilot.pause()
        await pilot.press("s")
        await wait_for(pilot, lambda: isinstance(app.screen, SubjectScreen))
        dialog = app.screen
        error = dialog.query_one("#subject-error", Static)
        await pilot.press("ctrl+u", "enter")  # empty: said when saving…
        await pilot.pause()
        assert "cannot be empty" in str(error.render())
        await pilot.press("A")  # …and gone at the next keystroke
        await pilot.pause()
        assert str(error.render()) == ""
        await pilot.press(*("b" * 100))
        await pilot.pause()
        assert "at most 100" in str(error.render())
        assert "101/100" in str(dialog.query_one("#subject-count").render())
        writes = len(demo_server.state.writes)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, SubjectScreen)
        assert len(demo_server.state.writes) == writes


async def test_a_long_subject_keeps_the_participants_header_on_one_line(app_for, demo_server):
    group_jid, group = next(iter(demo_server.state.instances[INSTANCE].groups.items()))
    group.subject = "S" * 200
    app = app_for()
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        app.push_screen(ParticipantsScreen(INSTANCE, group_jid))
        await wait_for(pilot, lambda: bool(app.state.participants_of(INSTANCE, group_jid).value))
        await pilot.pause()
        title = app.screen.query_one("#participants-title")
        assert title.region.height == 1


# --- tables: low-value columns go first when narrow, columns widen when there is room ---------


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
