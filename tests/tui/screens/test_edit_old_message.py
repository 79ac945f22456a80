"""Editing a message older than WhatsApp's 15 minutes: asked before anything is sent, and a
sent edit the customer will never see is never shown as "edited" (issue 29, item 10)."""

from __future__ import annotations

from gateway_tui.tui.screens.chat_modals import EditMessageScreen
from gateway_tui.tui.screens.confirm import ConfirmScreen
from tests.data import JONAS_JID, JONAS_LAST_ID, demo_instance
from tests.navigation import open_conversation, select_message
from tests.support import screen_text, wait_for

INSTANCE = "sales-eu"
SIZE = (140, 40)


async def test_an_old_message_is_asked_about_first_and_never_shown_edited(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_conversation(app, pilot, JONAS_JID)
        await select_message(pilot, screen, JONAS_LAST_ID)
        await pilot.press("e")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert "will not show this edit" in " ".join(screen_text(app).split())
        await pilot.press("n")  # not sent: nothing written
        await wait_for(pilot, lambda: app.screen is screen)
        assert not [w for w in demo_server.state.writes if "updateMessage" in w.path]
        await pilot.press("e")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_for(pilot, lambda: isinstance(app.screen, EditMessageScreen))
        await pilot.press("ctrl+u", *"Changed late", "enter")
        await wait_for(pilot, lambda: app.screen is screen)
        assert demo_instance(demo_server).chats[JONAS_JID].find(JONAS_LAST_ID).text == (
            "Changed late"
        )
        record = app.state.chats_of(INSTANCE).get(JONAS_JID)
        assert record is None or JONAS_LAST_ID not in record.edited
