"""The composer's sections editor: rows and sections added, moved and removed by key."""

from __future__ import annotations

from textual.widgets import Input

from gateway_tui.tui.screens.confirm import ConfirmScreen
from gateway_tui.tui.widgets.list_preview import ListPreview
from tests.data import good_draft
from tests.navigation import open_composer_with

SIZE = (140, 50)


def preview(screen) -> str:
    return screen.query_one("#composer-preview", ListPreview).plain_text(width=200)


# --- the sections editor --------------------------------------------------------------------------


async def test_rows_move_within_and_across_sections_and_are_removed(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_composer_with(app, pilot, demo_server, good_draft())
        titles = lambda: [[r.title for r in s.rows] for s in screen.draft.sections]  # noqa: E731
        funghi = screen.draft.sections[0].rows[1]
        screen.query_one(f"#row-{funghi.uid}-title", Input).focus()
        await pilot.press("ctrl+up")
        await pilot.pause()
        assert titles() == [["Funghi", "Margherita"], ["Cola"]]
        assert screen.focused.id == f"row-{funghi.uid}-title"  # the cursor moves with the row
        await pilot.press("ctrl+down", "ctrl+down")
        await pilot.pause()
        assert titles() == [["Margherita"], ["Funghi", "Cola"]]  # into the next section
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert titles() == [["Margherita"], ["Cola"]]
        assert screen.focused.id == f"row-{screen.draft.sections[1].rows[0].uid}-title"
        await pilot.press("ctrl+n", *"Tea")
        await pilot.pause()
        assert titles() == [["Margherita"], ["Cola", "Tea"]]
        assert "Tea" in preview(screen)


async def test_sections_are_added_moved_and_removed_after_confirming(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_composer_with(app, pilot, demo_server, good_draft())
        first = screen.draft.sections[0]
        screen.query_one(f"#sec-{first.uid}-title", Input).focus()
        await pilot.press("ctrl+down")
        await pilot.pause()
        assert [s.title for s in screen.draft.sections] == ["Drinks", "Pizzas"]
        await pilot.press("ctrl+o", *"Desserts")
        await pilot.pause()
        assert [s.title for s in screen.draft.sections] == ["Drinks", "Pizzas", "Desserts"]
        assert [len(s.rows) for s in screen.draft.sections] == [1, 2, 1]
        screen.query_one(f"#sec-{first.uid}-title", Input).focus()
        await pilot.press("ctrl+r")  # Pizzas has rows: asked first
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        await pilot.pause()
        assert len(screen.draft.sections) == 3
        await pilot.press("ctrl+r")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert [s.title for s in screen.draft.sections] == ["Drinks", "Desserts"]
