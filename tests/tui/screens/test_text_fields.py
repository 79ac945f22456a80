"""Text fields: entering one with Tab keeps its text (the cursor at the end), and every text
field has undo (issue 29, item 2).

One `!` typed after Tab once replaced a 51-character row description, and the composer saved
that at once: Textual's Input selects all of its text on focus. Every one-line field of the app
is a TextInput (widgets/text_input.py), which does not, and has ctrl+z; TextAreas have Textual's
own undo.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from textual.app import App, ComposeResult
from textual.widgets import Input, TextArea

from gateway_tui.core.draft import DraftRow, DraftSection
from gateway_tui.tui.widgets.text_input import TextInput
from tests.data import good_draft, store_for
from tests.navigation import open_composer_with
from tests.support import wait_for

pytestmark = pytest.mark.in_process

TUI = Path(__file__).resolve().parents[3] / "gateway_tui" / "tui"
DESCRIPTION = "Tomato, mozzarella, basil and olive oil of Liguria."  # 51 characters


async def test_tab_into_a_row_description_keeps_it_and_ctrl_z_takes_an_edit_back(
    app_for, demo_server
) -> None:
    assert len(DESCRIPTION) == 51
    draft = good_draft(sections=[DraftSection("Pizzas", [DraftRow("Margherita", DESCRIPTION)])])
    store = store_for(demo_server)
    app = app_for()
    async with app.run_test(size=(140, 50)) as pilot:
        screen = await open_composer_with(app, pilot, demo_server, draft)
        row = screen.draft.sections[0].rows[0]
        title = screen.query_one(f"#row-{row.uid}-title", Input)
        field = screen.query_one(f"#row-{row.uid}-desc", Input)
        title.focus()
        await wait_for(pilot, lambda: title.has_focus)
        await pilot.press("tab")
        await wait_for(pilot, lambda: field.has_focus)
        assert field.selection.is_empty and field.cursor_position == len(DESCRIPTION)
        await pilot.press("!")
        await wait_for(pilot, lambda: field.value != DESCRIPTION)
        assert field.value == DESCRIPTION + "!"

        def saved(text: str) -> bool:
            found = store.load_draft()
            return found is not None and found.sections[0].rows[0].description == text

        await wait_for(pilot, lambda: saved(DESCRIPTION + "!"))
        await pilot.press("ctrl+z")
        await wait_for(pilot, lambda: field.value == DESCRIPTION)
        await wait_for(pilot, lambda: saved(DESCRIPTION))


class _Form(App[None]):
    def compose(self) -> ComposeResult:
        yield TextInput("", id="one")
        yield TextInput("kept", id="two")
        yield TextArea(id="area")


async def test_undo_and_redo_of_a_one_line_field() -> None:
    app = _Form()
    async with app.run_test() as pilot:
        one = app.query_one("#one", TextInput)
        await wait_for(pilot, lambda: one.has_focus)
        await pilot.press(*"abc def")
        await wait_for(pilot, lambda: one.value == "abc def")
        await pilot.press("ctrl+z")
        await wait_for(pilot, lambda: one.value == "abc ")  # a word typed in one go is one edit
        await pilot.press("ctrl+z", "ctrl+z")
        await wait_for(pilot, lambda: one.value == "")
        await pilot.press("ctrl+shift+z")
        await wait_for(pilot, lambda: one.value == "abc")
        # Tab into a filled field: the next key adds to its text, ctrl+z takes it back.
        two = app.query_one("#two", TextInput)
        await pilot.press("tab")
        await wait_for(pilot, lambda: two.has_focus)
        await pilot.press("backspace", "x")
        await wait_for(pilot, lambda: two.value == "kepx")
        await pilot.press("ctrl+z", "ctrl+z")
        await wait_for(pilot, lambda: two.value == "kept")
        # A value the program sets is no edit: undo does not go back past it.
        two.value = "loaded"
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert two.value == "loaded"


async def test_a_text_area_has_undo_too() -> None:
    app = _Form()
    async with app.run_test() as pilot:
        area = app.query_one("#area", TextArea)
        area.focus()
        await wait_for(pilot, lambda: area.has_focus)
        await pilot.press(*"hello")
        await wait_for(pilot, lambda: area.text == "hello")
        await pilot.press("ctrl+z")
        await wait_for(pilot, lambda: area.text != "hello")
        assert "hello".startswith(area.text)


def test_every_one_line_field_of_the_app_is_a_text_input() -> None:
    """Textual's Input selects all on focus and has no undo: the app builds none itself."""
    plain = []
    for path in sorted(TUI.rglob("*.py")):
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Input":
                plain.append(f"{path.relative_to(TUI)}:{node.lineno}")
            if isinstance(node, ast.ClassDef) and any(
                getattr(base, "id", None) == "Input" for base in node.bases
            ):
                if path.name != "text_input.py":
                    plain.append(f"{path.relative_to(TUI)}:{node.lineno} subclasses Input")
    assert plain == []
