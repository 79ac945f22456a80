"""Issue 23 items 9 and 10: a narrow terminal keeps its keys, and keys do what they say."""

from __future__ import annotations

import pytest

from tests.support import screen_text, wait_for


def footer_line(app) -> str:
    return screen_text(app).rstrip("\n").splitlines()[-1]


def _openers(app) -> dict:
    from gateway_tui.core.files.drafts import Draft
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


@pytest.mark.parametrize("screen", SCREENS)
async def test_the_global_keys_stay_in_the_footer_at_80x24_on_every_screen(app_for, screen):
    """Every screen at 80×24 says how to quit, the keys, the request log and the palette; where
    the focused field types q, it says ^q (which quits from anywhere) instead."""
    app = app_for()
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        shown = app.screen
        _openers(app)[screen]()
        await wait_for(pilot, lambda: screen == "instances" or app.screen is not shown)
        await wait_for(pilot, lambda: app.screen.is_mounted and "f1 Keys" in footer_line(app))
        line = footer_line(app)
        for said in ("f1 Keys", "f12 Log", "^p palette"):
            assert said in line, line
        quit_key = "^q Quit" if "^q Quit" in line else "q Quit"
        assert quit_key in line, line
        if quit_key == "^q Quit":
            assert app.focused is not None and app.focused.check_consume_key("q", "q"), line


async def test_the_connect_screen_at_80x24_says_the_global_keys():
    from gateway_tui.core.files.config import load_config
    from gateway_tui.tui.app import GatewayApp
    from gateway_tui.tui.screens.connect import ConnectScreen

    app = GatewayApp(load_config())
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ConnectScreen))
        await wait_for(pilot, lambda: "f1 Keys" in footer_line(app))
        line = footer_line(app)
        for said in ("^q Quit", "f1 Keys", "f12 Log"):
            assert said in line, line


# --- 10. keys that do what they say ------------------------------------------------------------


async def test_q_on_a_composer_widget_that_is_not_text_does_not_quit(app_for):
    from textual.widgets import Select

    from gateway_tui.tui.screens.composer import ComposerScreen
    from tests.navigation import open_composer
    from tests.support import notices

    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        screen = await open_composer(app, pilot)
        screen.query_one("#f-presence", Select).focus()
        await pilot.pause()
        await pilot.press("q")
        await pilot.pause()
        assert app.is_running and isinstance(app.screen, ComposerScreen)
        assert any("^q quits" in n for n in notices(app))


async def test_a_burst_ending_in_ctrl_s_on_the_connect_form_reads_the_whole_key(demo_server):
    """URL, tab, key and ctrl+s typed in one burst: ctrl+s (a priority binding) acts once the
    letters before it are in their fields (it used to say "Enter the API key." 7 runs in 8)."""
    from gateway_tui.core.files.config import load_config, read_config_file
    from gateway_tui.tui.app import GatewayApp
    from gateway_tui.tui.screens.connect import ConnectScreen
    from tests.support import burst

    app = GatewayApp(load_config())
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ConnectScreen))
        burst(app, *demo_server.url, "tab", *demo_server.api_key, "ctrl+s")
        said = ("Saved profile", "Enter the API key.", "✕")
        await wait_for(pilot, lambda: any(s in screen_text(app) for s in said))
        assert "Enter the API key." not in screen_text(app)
        saved = read_config_file()[0].profiles["default"]
        assert saved.api_key.get_secret_value() == demo_server.api_key


async def test_the_campaign_setup_at_80_columns_gives_its_form_the_width(app_for):
    """Below 100 columns the preview steps aside (as in the composer), f3 shows it below."""
    from gateway_tui.core.files.drafts import Draft
    from gateway_tui.tui.screens.campaign_setup import CampaignSetupScreen

    app = app_for()
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        screen = CampaignSetupScreen("sales-eu", Draft(title="Lunch"))
        app.push_screen(screen)
        await wait_for(pilot, lambda: app.screen is screen and screen.is_mounted)
        form, pane = screen.query_one("#campaign-form"), screen.query_one("#campaign-preview-pane")
        await wait_for(pilot, lambda: form.size.width > 70)
        assert not pane.display or pane.size.width == 0
        await pilot.press("f3")
        await wait_for(pilot, lambda: pane.size.height > 0)
        assert form.size.width > 70 and pane.region.y > form.region.y
        assert "(button text)" in screen_text(app) or "Lunch" in screen_text(app)


async def test_the_invite_dialog_fits_80x24_its_buttons_in_view(app_for):
    """The form scrolls on a short terminal; the buttons stay in view, the description field is
    brought into view when it takes the cursor, and so is the result of a send."""
    from textual.widgets import TextArea

    from gateway_tui.tui.screens.group_modals import InviteScreen

    app = app_for()
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        dialog = InviteScreen("sales-eu", "120363012345678901@g.us", "EU Sales — all hands")
        app.push_screen(dialog)
        await wait_for(pilot, lambda: app.screen is dialog and dialog.is_mounted)
        await pilot.press(*"+49 1511 2340001", "enter", *"4915112340001, 12345")
        await wait_for(pilot, lambda: "duplicate" in screen_text(app))
        text = screen_text(app)
        send = f"Send ({dialog.key_for('invite.send')})"
        assert send in text and "Close (esc)" in text, text
        await pilot.press("tab")
        await wait_for(pilot, lambda: "Join the group" in screen_text(app))
        assert send in screen_text(app)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: "nothing was sent" in screen_text(app))
        assert send in screen_text(app)
        dialog.query_one("#invite-numbers", TextArea).load_text("+49 1511 2340001")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: "Link sent" in screen_text(app))
        assert send in screen_text(app)


async def test_the_composer_presence_note_wraps_at_a_word_at_120_columns(app_for):
    from tests.navigation import open_composer

    app = app_for()
    async with app.run_test(size=(120, 36)) as pilot:
        await open_composer(app, pilot)
        await wait_for(pilot, lambda: "only takes effect" in screen_text(app))
        lines = screen_text(app).splitlines()
        at = next(i for i, line in enumerate(lines) if "only takes effect" in line)
        assert "with a delay" in lines[at] + lines[at + 1], "\n".join(lines[at : at + 2])


async def test_after_a_send_the_field_with_the_cursor_stays_in_view_and_marked(
    app_for, demo_server
):
    """10b: the result is shown under the form; the focused field (the last row, at the form's
    bottom at 80×24) is scrolled back into view and its hint line stays."""
    from tests.data import good_draft
    from tests.navigation import open_composer_with

    app = app_for()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_composer_with(app, pilot, demo_server, good_draft())
        last = screen.draft.sections[-1].rows[-1]
        field = screen.query_one(f"#row-{last.uid}-title")
        field.focus()
        await wait_for(pilot, lambda: "1. Cola" in screen_text(app))
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: screen.last_result is not None)
        await wait_for(pilot, lambda: "✓ Sent" in screen_text(app))
        await wait_for(pilot, lambda: "1. Cola" in screen_text(app))
        assert app.focused is field
        assert "▸ Row title" in screen_text(app)
