"""The footer: the screen's keys and the app's, fitting at 80 and 120 columns on every screen."""

from __future__ import annotations

import pytest

from gateway_tui.core.text.i18n import _
from gateway_tui.tui.screens.help import HelpScreen
from gateway_tui.tui.screens.participants import ParticipantsScreen
from tests.support import screen_text, wait_for

INSTANCE = "sales-eu"


SCREENS = [
    "instances",
    "instance",
    "chats",
    "conversation",
    "composer",
    "campaign-setup",
    "groups",
    "participants",
    "pairing",
    "webhook",
    "websocket",
    "request-log",
]


def _openers(app) -> dict:
    from gateway_tui.core.draft import Draft
    from gateway_tui.tui.screens.campaign_setup import CampaignSetupScreen
    from gateway_tui.tui.screens.messages import MessagesScreen
    from gateway_tui.tui.screens.participants import ParticipantsScreen

    return {
        "instances": lambda: None,
        "instance": lambda: app.open_instance("sales-eu"),
        "chats": lambda: app.open_chats("sales-eu"),
        "conversation": lambda: app.push_screen(
            MessagesScreen("sales-eu", "4915112340001@s.whatsapp.net", title="Jonas")
        ),
        "composer": lambda: app.open_composer("sales-eu"),
        "campaign-setup": lambda: app.push_screen(
            CampaignSetupScreen("sales-eu", Draft(title="Lunch"))
        ),
        "groups": lambda: app.open_groups("sales-eu"),
        "participants": lambda: app.push_screen(
            ParticipantsScreen("sales-eu", "120363012345678901@g.us")
        ),
        "pairing": lambda: app.open_pairing("onboarding"),
        "webhook": lambda: app.open_hooks("sales-eu", "webhook"),
        "websocket": lambda: app.open_hooks("sales-eu", "websocket"),
        "request-log": app.action_request_log,
    }


def footer_line(app) -> str:
    return screen_text(app).rstrip("\n").splitlines()[-1]


@pytest.mark.in_process
async def test_footers_fit_at_120_columns(app_for, demo_server):
    group = next(iter(demo_server.state.instances[INSTANCE].groups))
    app = app_for()
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        for number, opener in enumerate(
            (
                lambda: None,
                lambda: app.open_instance(INSTANCE),
                lambda: app.open_groups(INSTANCE),
                lambda: app.push_screen(ParticipantsScreen(INSTANCE, group)),
                lambda: app.open_composer(INSTANCE),
                app.action_request_log,
            )
        ):
            shown = app.screen
            opener()
            # The new screen's footer once drawn (a loaded machine took more than two pauses).
            await wait_for(pilot, lambda n=number, s=shown: n == 0 or app.screen is not s)
            await wait_for(pilot, lambda: footer_line(app).strip() != "")
            footer = screen_text(app).splitlines()[-1]
            assert "f12 Log" in footer, (app.screen, footer)  # the last key, uncut


@pytest.mark.in_process
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


@pytest.mark.in_process
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


@pytest.mark.parametrize("lang", ["en", "pt_BR", "es"])
@pytest.mark.parametrize("screen", SCREENS)
async def test_the_global_keys_stay_in_the_footer_at_80x24_on_every_screen(
    app_for, screen, lang, language
):
    """Every screen at 80×24 says how to quit, the keys, the request log and the palette; where
    the focused field types q, it says ^q (which quits from anywhere) instead. In Portuguese and
    Spanish too: a translated label too long to leave room for them all fails here."""
    language(lang)
    keys, log, palette = (f"f1 {_('Keys')}", f"f12 {_('Log')}", f"^p {_('palette')}")
    app = app_for()
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        shown = app.screen
        _openers(app)[screen]()
        await wait_for(pilot, lambda: screen == "instances" or app.screen is not shown)
        await wait_for(pilot, lambda: app.screen.is_mounted and keys in footer_line(app))
        line = footer_line(app)
        for said in (keys, log, palette):
            assert said in line, line
        quit_now, quit_here = f"^q {_('Quit')}", f"q {_('Quit')}"
        quit_key = quit_now if quit_now in line else quit_here
        assert quit_key in line, line
        if quit_key == quit_now:
            assert app.focused is not None and app.focused.check_consume_key("q", "q"), line
