"""The composer's dialogs: the template picker."""

from __future__ import annotations

import pytest

from gateway_tui.core.draft import Draft
from gateway_tui.core.files.drafts import ComposeStore
from gateway_tui.tui.screens.compose_modals import LibraryScreen
from gateway_tui.tui.screens.composer import ComposerScreen
from gateway_tui.tui.screens.confirm import ConfirmScreen
from tests.support import wait_for

pytestmark = pytest.mark.in_process

INSTANCE = "sales-eu"
SIZE = (140, 40)


async def test_d_in_templates_asks_before_deleting(app_for, demo_server):
    store = ComposeStore(demo_server.url, INSTANCE)
    store.save_template("menu", Draft(title="Lunch"))
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        app.open_composer(INSTANCE)
        await wait_for(pilot, lambda: isinstance(app.screen, ComposerScreen))
        await pilot.press("f7")
        await wait_for(pilot, lambda: isinstance(app.screen, LibraryScreen))
        await pilot.press("d")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, LibraryScreen))
        assert "menu" in store.templates()
        await pilot.press("d")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_for(pilot, lambda: "menu" not in store.templates())
