"""Issue 23 items 9 and 10: a narrow terminal keeps its keys, and keys do what they say."""

from __future__ import annotations

import pytest

from tests.support import screen_text, wait_for


def footer_line(app) -> str:
    return screen_text(app).rstrip("\n").splitlines()[-1]


@pytest.mark.parametrize("screen", ["instances", "instance", "chats", "composer"])
async def test_the_global_keys_stay_in_the_footer_at_80_columns(app_for, screen):
    app = app_for()
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        if screen == "instance":
            app.open_instance("sales-eu")
        elif screen == "chats":
            app.open_chats("sales-eu")
        elif screen == "composer":
            app.open_composer("sales-eu")
        await pilot.pause()
        await pilot.pause()
        line = footer_line(app)
        # q quits where no text field takes it (the composer's fields do).
        keys = ("f1 Keys", "f12 ", "^p palette") + (() if screen == "composer" else ("q Quit",))
        for said in keys:
            assert said in line, line
