"""A channel's chat (``…@newsletter``) is shown as a channel, not as a phone number: the
demo's channel was listed as `+1 20363401234567890 (invalid)` (issue 32)."""

from __future__ import annotations

import pytest

from gateway_tui.core.chat_book import ChatRow, person_label
from gateway_tui.demo.contacts import CHANNEL, LID_INSTANCE
from gateway_tui.demo.server import DemoServer
from gateway_tui.tui.screens.chats import ChatsScreen
from gateway_tui.tui.widgets.record_table import RecordTable
from tests.support import make_app, make_config, screen_text, wait_for


def test_a_channel_jid_is_no_phone_number():
    row = ChatRow(CHANNEL, "", None, "", None, None, False, True, 0)
    assert row.number == CHANNEL and row.title == "channel"
    assert person_label(CHANNEL) == CHANNEL
    named = ChatRow(CHANNEL, "Acme News", None, "", None, None, False, True, 0)
    assert named.title == "Acme News"


@pytest.mark.parametrize("line", ["1.7.1", "2.3.7"])
async def test_the_chats_list_shows_the_demo_channel_as_a_channel(line):
    with DemoServer(api_version=line) as server:
        app = make_app(make_config(server))
        async with app.run_test(size=(160, 50)) as pilot:
            await wait_for(pilot, lambda: bool(app.state.instances.value))
            app.open_chats(LID_INSTANCE)
            await wait_for(pilot, lambda: isinstance(app.screen, ChatsScreen))
            book = app.actions.chats.chat_book(LID_INSTANCE)
            await wait_for(pilot, lambda: book.value is not None and not book.loading)
            table = app.screen.query_one(RecordTable)
            await wait_for(pilot, lambda: any(r.jid == CHANNEL for r in table.visible_rows))
            channel = next(r for r in table.visible_rows if r.jid == CHANNEL)
            table.move_cursor_to_key(app.screen.row_key(channel))
            await pilot.pause()
            text = screen_text(app)
            (line_shown,) = [row for row in text.splitlines() if "📢 channel" in row]
            assert CHANNEL in line_shown
            assert "(invalid)" not in line_shown
            assert "+1 2036" not in text  # nowhere, the details under the table included
