"""The chat dialogs: a business profile card, a personal one, a number not on WhatsApp."""

from __future__ import annotations

import pytest
from textual.widgets import Input

from gateway_tui.tui.screens.chat_modals import ProfileScreen
from gateway_tui.tui.screens.chats import ChatsScreen
from tests.data import BAKERY, BAKERY_JID, INSTANCE, JONAS, WAR_ROOM
from tests.navigation import open_chats
from tests.support import screen_text, wait_for

pytestmark = pytest.mark.in_process

SIZE = (140, 40)


async def at_chat(pilot, screen: ChatsScreen, jid: str) -> None:
    assert screen.table.move_cursor_to_key(jid)
    await pilot.pause()


async def test_business_profile_card(app_for):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_chats(app, pilot)
        await at_chat(pilot, screen, BAKERY_JID)
        await pilot.press("p")  # prefilled with the chat's number, fetched at once
        await pilot.pause()
        assert isinstance(app.screen, ProfileScreen)
        await wait_for(pilot, lambda: "Pães artesanais" in screen_text(app))
        text = screen_text(app)
        for shown in (
            "Padaria Pão Quente",
            "business account",
            "contato@paoquente.com.br",
            "https://paoquente.com.br",
        ):
            assert shown in text
        assert app.state.profiles[(INSTANCE, BAKERY)].value.is_business is True


async def test_a_personal_profile_and_a_number_not_on_whatsapp(app_for):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_chats(app, pilot)
        await at_chat(pilot, screen, WAR_ROOM)
        await pilot.press("p")  # a group: any number can be typed
        await pilot.pause()
        assert app.screen.query_one("#profile-number", Input).value == ""
        await pilot.press(*JONAS, "enter")
        await wait_for(pilot, lambda: "Jonas Weber" in screen_text(app))
        assert "a personal account" in screen_text(app)
        await pilot.press("ctrl+u", *"4915100000000", "enter")
        await wait_for(pilot, lambda: "not on WhatsApp" in screen_text(app))
        assert "+49 1510 0000000 is not on WhatsApp." in screen_text(app)
