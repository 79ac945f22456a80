"""A draft that could not be saved (a full disk) is never dropped silently (issue 22, item 6):
leaving with esc asks first, and once the disk has room again the draft is written."""

from __future__ import annotations

import errno

import pytest

from gateway_tui.core.files.drafts import ComposeStore
from gateway_tui.tui.screens.composer import ComposerScreen
from gateway_tui.tui.screens.confirm import ConfirmScreen
from tests.data import store_for
from tests.navigation import open_composer
from tests.support import screen_text, wait_for

# The demo runs in the test's event loop (tests/in_process.py): these tests need no socket.
pytestmark = pytest.mark.in_process

SIZE = (140, 50)


def _fill_the_disk(monkeypatch) -> dict[str, bool]:
    disk = {"full": True}
    real = ComposeStore.save_draft

    def save_draft(self, draft):
        if disk["full"]:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(self, draft)

    monkeypatch.setattr(ComposeStore, "save_draft", save_draft)
    return disk


async def test_6_leaving_after_a_failed_autosave_asks_and_keeps_the_draft(
    app_for, demo_server, monkeypatch
):
    disk = _fill_the_disk(monkeypatch)
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        composer = await open_composer(app, pilot)
        await pilot.press(*"4915")
        await wait_for(pilot, lambda: composer._save_failing)  # the autosave failed
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert "No space left on device" in screen_text(app)
        await pilot.press("n")  # stay
        await wait_for(pilot, lambda: app.screen is composer)
        assert composer.draft.recipient == "4915"
        disk["full"] = False  # room again: leaving saves, without asking
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, ComposerScreen))
        assert not isinstance(app.screen, ConfirmScreen)
    assert store_for(demo_server).load_draft().recipient == "4915"


async def test_6_leaving_without_the_draft_is_the_users_choice(app_for, demo_server, monkeypatch):
    _fill_the_disk(monkeypatch)
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await open_composer(app, pilot)
        await pilot.press(*"4915")
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")  # leave without it
        await wait_for(pilot, lambda: not isinstance(app.screen, (ComposerScreen, ConfirmScreen)))
