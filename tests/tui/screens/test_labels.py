"""Labels in the chats list: a marker with the label's name, filter by label, put a label on a
chat and take it off (the demo's WhatsApp Business labels, on both lines)."""

from __future__ import annotations

import pytest

from gateway_tui.demo.server import DemoServer
from gateway_tui.tui.screens.chat_labels import LabelPickerScreen
from gateway_tui.tui.screens.chats import ChatsScreen
from tests.data import INSTANCE
from tests.navigation import open_chats
from tests.support import make_app, make_config, notices, screen_text, wait_for


def _labels_read(app) -> bool:
    return bool(app.actions.people.labels_of(INSTANCE).value)


@pytest.mark.parametrize("version", ["1.7.1", "2.3.7"])
async def test_filter_by_label_and_put_one_on_a_chat(version):
    with DemoServer(api_version=version) as server:
        chats = server.state.instances[INSTANCE].chats
        app = make_app(make_config(server))
        async with app.run_test(size=(140, 40)) as pilot:
            screen = await open_chats(app, pilot)
            assert isinstance(screen, ChatsScreen)
            await wait_for(pilot, lambda: _labels_read(app) and bool(screen.rows))
            # 2.x lists chats without their labels: said on screen, not pretended away.
            missing = "labels applied elsewhere are not listed by this gateway version"
            await wait_for(pilot, lambda: (missing in screen_text(app)) == (version != "1.7.1"))
            if version != "1.7.1":  # … but the chat the cursor rests on is read on its own
                labelled = next(jid for jid, chat in chats.items() if chat.labels)
                await wait_for(pilot, lambda: screen.table.cursor_row is not None)
                screen.table.move_cursor_to_key(labelled)
                want = tuple(sorted(chats[labelled].labels))
                await wait_for(
                    pilot, lambda: next(r for r in screen.rows if r.jid == labelled).labels == want
                )
            if version == "1.7.1":  # 1.7.1 lists a chat's labels with the chats
                labelled = [r for r in screen.rows if r.labels]
                assert labelled
                await wait_for(
                    pilot, lambda: "● New" in screen_text(app) or "● VIP" in screen_text(app)
                )
                await pilot.press("l")  # only the first label's chats
                await pilot.pause()
                first = screen.label_filter
                assert first is not None
                assert screen.table.visible_count == sum(first in r.labels for r in screen.rows)
                assert "label: " in screen_text(app)
                while screen.label_filter is not None:  # … and back to all
                    await pilot.press("l")
                    await pilot.pause()
                assert screen.table.visible_count == len(screen.rows)
            # Put "VIP" (id 11) on the chat under the cursor.
            row = screen.table.cursor_row
            assert row is not None
            had = "11" in row.labels
            await pilot.press("b")
            await wait_for(pilot, lambda: isinstance(app.screen, LabelPickerScreen))
            options = app.screen.query_one("#label-options")
            options.highlighted = [o.id for o in options.options].index("11")
            await pilot.press("enter")
            await wait_for(pilot, lambda: isinstance(app.screen, ChatsScreen))
            await wait_for(pilot, lambda: ("11" in screen.table.cursor_row.labels) != had)
        on_server = chats[row.jid].labels
        assert ("11" in on_server) != had


async def test_a_failed_labels_read_is_said_and_a_refused_key_told():
    """A labels read that fails stays said in the summary (never swallowed); a refused key is
    also told in a notice; r reads them again and the line goes."""
    with DemoServer(api_version="2.3.7") as server:
        rule = server.faults.add("status", status=500, path_prefix=f"/label/findLabels/{INSTANCE}")
        app = make_app(make_config(server))
        async with app.run_test(size=(140, 40)) as pilot:
            screen = await open_chats(app, pilot)
            assert isinstance(screen, ChatsScreen)
            await wait_for(pilot, lambda: bool(screen.rows) and rule.hits > 0)
            await wait_for(pilot, lambda: "✕ could not read the labels" in screen_text(app))
            rule.times = 0
            await pilot.press("r")
            await wait_for(pilot, lambda: _labels_read(app))
            await wait_for(pilot, lambda: "could not read the labels" not in screen_text(app))
            # A chat's own labels (2.x), refused: said in the summary and in a notice.
            server.faults.add("unauthorized", path_prefix=f"/chat/findChatByRemoteJid/{INSTANCE}")
            rows = [r.jid for r in screen.rows]
            screen._labels_asked.clear()
            screen.table.move_cursor_to_key(
                rows[1] if screen.table.cursor_row.jid == rows[0] else rows[0]
            )
            await wait_for(pilot, lambda: "✕ could not read a chat's labels" in screen_text(app))
            await wait_for(
                pilot, lambda: any("Reading the chat's labels failed" in n for n in notices(app))
            )
