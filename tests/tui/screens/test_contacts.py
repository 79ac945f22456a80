"""The contacts screen: search by name, number or LID; the number beside an @lid where the
line gives it; enter opens the chat."""

from __future__ import annotations

import pytest

from gateway_tui.demo.server import DemoServer
from gateway_tui.tui.screens.contacts import ContactsScreen
from gateway_tui.tui.screens.messages import MessagesScreen
from tests.navigation import open_instance
from tests.support import make_app, make_config, notices, screen_text, wait_for

LID = "205641847891234@lid"  # Marina Costa on support; her number is known on 2.x
HIDDEN = "118822334455667@lid"  # Theo Baker: never shared a number


async def _contacts(app, pilot) -> ContactsScreen:
    await open_instance(app, pilot, "support")
    await pilot.press("k")
    await wait_for(pilot, lambda: isinstance(app.screen, ContactsScreen))
    screen = app.screen
    await wait_for(pilot, lambda: screen.table.visible_count > 0)
    return screen


@pytest.mark.parametrize("version", ["1.7.1", "2.3.7"])
async def test_search_by_name_number_or_lid_and_open_the_chat(version):
    with DemoServer(api_version=version) as server:
        app = make_app(make_config(server))
        async with app.run_test(size=(120, 36)) as pilot:
            screen = await _contacts(app, pilot)
            assert "number hidden" in screen_text(app)  # Theo: LID only
            await pilot.press("slash", *"marina")
            await wait_for(pilot, lambda: screen.table.visible_count == 1)
            assert screen.table.visible_rows[0].jid == LID
            if version.startswith("2"):
                assert "+55 11 98700-1234" in screen_text(app)
                await pilot.press("ctrl+u", *"98700")
                await wait_for(pilot, lambda: screen.table.visible_count == 1)
                assert screen.table.visible_rows[0].jid == LID
            await pilot.press("ctrl+u", *"118822334")
            await wait_for(pilot, lambda: screen.table.visible_count == 1)
            assert screen.table.visible_rows[0].jid == HIDDEN
            await pilot.press("enter")  # out of the search field…
            await pilot.pause()
            await pilot.press("enter")  # …and into the chat
            await wait_for(pilot, lambda: isinstance(app.screen, MessagesScreen))
            assert app.screen.jid == HIDDEN


async def test_numbers_from_stored_messages_that_fail_are_said():
    """The contacts stand when the stored messages (which tell the number behind a LID) cannot
    be read; that is said in the summary and in a notice, not swallowed."""
    with DemoServer(api_version="2.3.7") as server:
        server.faults.add("status", status=500, path_prefix="/chat/findMessages/support")
        app = make_app(make_config(server))
        async with app.run_test(size=(120, 36)) as pilot:
            await _contacts(app, pilot)
            await wait_for(
                pilot, lambda: "⚠ numbers from stored messages unavailable" in screen_text(app)
            )
            assert any("Reading numbers from stored messages failed" in n for n in notices(app))
