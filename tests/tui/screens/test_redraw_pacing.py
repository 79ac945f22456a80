"""A screen whose redraw is costly (the chats list of 100,000 during a history sync, issue 29
item 4) redraws for a run of state changes once, later, rather than once per change: the keys
are answered between redraws, not behind a queue of them. A cheap redraw is made at once."""

from __future__ import annotations

import time

from gateway_tui.core.state import Topic
from gateway_tui.tui.screens import base
from gateway_tui.tui.screens.base import GatewayScreen
from tests.support import wait_for


class Costly(GatewayScreen):
    TOPICS = frozenset({Topic.CHATS})

    def __init__(self) -> None:
        super().__init__()
        self.burn = 0.0  # CPU seconds each redraw spends
        self.drawn = 0

    def refresh_from_state(self) -> None:
        self.drawn += 1
        end = time.thread_time() + self.burn
        while time.thread_time() < end:
            pass


async def _shown(app, pilot) -> Costly:
    screen = Costly()
    await wait_for(pilot, lambda: bool(app.state.instances.value) or app.state.instances.error)
    app.push_screen(screen)
    await wait_for(pilot, lambda: app.screen is screen and screen.drawn >= 1)
    return screen


async def test_cheap_redraws_are_made_for_every_change(app_for):
    app = app_for()
    async with app.run_test() as pilot:
        screen = await _shown(app, pilot)
        before = screen.drawn
        for _change in range(3):
            app.state.notify(Topic.CHATS)
        await wait_for(pilot, lambda: screen.drawn == before + 3)
        await pilot.pause()
        assert screen.drawn == before + 3
        assert screen._redraw_due is None  # none was put off


async def test_a_costly_redraw_makes_the_changes_after_it_wait_and_draws_them_once(app_for):
    app = app_for()
    async with app.run_test() as pilot:
        screen = await _shown(app, pilot)
        screen.burn = base.REDRAW_BUDGET * 2
        before = screen.drawn
        app.state.notify(Topic.CHATS)  # the first costly one is made as it comes ...
        await wait_for(pilot, lambda: screen.drawn == before + 1)
        for _change in range(5):  # ... the five that follow it wait for one redraw, later
            app.state.notify(Topic.CHATS)
        # (Each change reaches the screen as a message; the paced redraw's timer posts its
        # own after them, so when it has drawn, all five were seen.)
        await wait_for(pilot, lambda: screen.drawn > before + 1 and screen._redraw_due is None)
        await pilot.pause()
        assert screen.drawn == before + 2
        # Once its spacing has passed, a change is drawn as it comes again.
        screen.burn = 0.0
        spacing = screen._redraw_cost * base.REDRAW_SPACING
        await wait_for(pilot, lambda: time.monotonic() - screen._redrawn_at > spacing)
        app.state.notify(Topic.CHATS)
        await wait_for(pilot, lambda: screen.drawn == before + 3)
        assert screen._redraw_due is None
