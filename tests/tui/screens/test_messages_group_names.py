"""A live message in a group names its sender as a contact (issue 29): a live message may
carry no pushName; the member's name known on the instance (the chats list's contacts, the
group's members, their other messages; core/identity.py) is shown, the number beside it."""

from __future__ import annotations

import time

import pytest

from gateway_tui.core.live import LiveEvent
from tests.data import INSTANCE, JONAS_JID, WAR_ROOM
from tests.navigation import open_chats, open_conversation
from tests.support import screen_text, wait_for


@pytest.mark.in_process
async def test_a_live_group_message_without_a_push_name_shows_the_contacts_name(app_for):
    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        await open_chats(app, pilot)  # the chats list has read the contacts' names
        screen = await open_conversation(app, pilot, WAR_ROOM)
        assert app.screen is screen
        data = {
            "key": {"remoteJid": WAR_ROOM, "fromMe": False, "id": "LIVE-GROUP-1"},
            "message": {"conversation": "live hello from the war room"},
            "messageTimestamp": int(time.time()),
        }
        data["key"]["participant"] = JONAS_JID  # and no pushName, as a live event may come
        app.actions.chats.apply_live([LiveEvent("messages.upsert", INSTANCE, data)])
        await wait_for(pilot, lambda: "live hello from the war room" in screen_text(app))
        await pilot.pause()
        lines = screen_text(app).split("\n")
        at = next(i for i, line in enumerate(lines) if "live hello from the war room" in line)
        above = " ".join(lines[max(0, at - 3) : at])
        assert "Jonas Weber" in above, above  # the contact, not only his number
        assert "+49 1511 2340001" in above  # the number beside the name
