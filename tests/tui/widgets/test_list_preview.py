"""The composer's JSON view (f2): the exact body, a long line broken at a space to the pane's
width with each further piece marked ↪ (never cut mid-word at the edge, never seeming to hold a
line break); y copies the body, Y the curl that would send it (the key read from
$GATEWAY_API_KEY)."""

from __future__ import annotations

import json

import pytest
from textual.widgets import Input

from gateway_tui.core.api.events import KEY_PLACEHOLDER
from gateway_tui.tui.screens.composer import ComposerScreen
from gateway_tui.tui.widgets.list_preview import ListPreview
from tests.support import wait_for

# The demo runs in the test's event loop (tests/in_process.py): these tests need no socket.
pytestmark = pytest.mark.in_process

INSTANCE = "sales-eu"
LONG_TITLE = "Lunch menu of the day with " + "x" * 30 + " and more words END"


async def test_f2_shows_the_body_broken_at_words_and_y_and_Y_copy_it(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        app.open_composer(INSTANCE)
        await wait_for(pilot, lambda: isinstance(app.screen, ComposerScreen))
        await pilot.pause()
        screen = app.screen
        title = screen.query_one("#f-title", Input)
        title.focus()
        await pilot.pause()
        await pilot.press(*"4915112340001")  # into the title first: y must not be caught
        title.value = LONG_TITLE
        await pilot.press("f2")
        await pilot.pause()
        pane = screen.query_one("#composer-preview-pane")
        preview = screen.query_one("#composer-preview", ListPreview)
        assert pane.has_focus
        # No line past the pane's edge: the title's line goes on below, each piece marked ↪.
        assert pane.max_scroll_x == 0 and preview.size.width <= pane.size.width
        shown = preview.plain_text(width=preview.content_size.width).splitlines()
        at = next(i for i, line in enumerate(shown) if '"title": "Lunch' in line)
        rest = [line.strip() for line in shown[at + 1 :]]
        assert rest[0].startswith("↪ ") and any(line.endswith('words END",') for line in rest)
        words = " ".join(line.removeprefix("↪ ") for line in [shown[at].strip(), *rest[:3]])
        assert f'"title": "{LONG_TITLE}"' in " ".join(words.split())  # broken at spaces only
        await pilot.press("y")
        assert json.loads(app.clipboard) == screen.draft.body()
        await pilot.press("Y")
        curl = app.clipboard
        assert curl.startswith("curl ") and "/message/sendList/sales-eu" in curl
        assert KEY_PLACEHOLDER in curl and demo_server.api_key not in curl
        assert LONG_TITLE in curl
        await pilot.press("f2")  # back to the message, and to the field the cursor was in
        await pilot.pause()
        assert title.has_focus
        await pilot.press("y")
        await pilot.pause()
        assert title.value.endswith("y")  # in a field, y is a letter
