"""The one-line text field of every form: entering it keeps its text, and it has undo.

Textual's Input selects all of its text when it gets focus, so the next key replaced it: one
`!` typed after Tab turned a row description into `!` (and the composer saved that at once).
A TextInput keeps its text and puts the cursor at the end. Textual's Input has no undo
(TextArea has): here ctrl+z takes back the last edit (typing in one go is one edit) and
ctrl+shift+z puts it back. A value set by the program (a draft loaded) is no edit: it starts
a new history.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.binding import Binding
from textual.events import Focus
from textual.widgets import Input
from textual.widgets.input import Selection

HISTORY = 100  # edits kept per field


@dataclass(frozen=True)
class _Snapshot:
    value: str
    selection: Selection


class TextInput(Input):
    BINDINGS = [
        Binding("ctrl+z,super+z", "undo", "Undo the last edit", id="text_input.undo", show=False),
        Binding(
            "ctrl+shift+z,super+shift+z",
            "redo",
            "Redo what undo took back",
            id="text_input.redo",
            show=False,
        ),
    ]

    def __init__(self, *args, select_on_focus: bool = False, **kwargs) -> None:
        # Before Input's __init__: it sets the first value (the watcher below runs).
        self._undo: list[_Snapshot] = []
        self._redo: list[_Snapshot] = []
        self._editing = False  # a change made by replace() (an edit), not by the program
        self._typing_at: int | None = None  # where the next typed character joins the last edit
        super().__init__(*args, select_on_focus=select_on_focus, **kwargs)

    # --- entering the field ----------------------------------------------------------------

    def _on_focus(self, event: Focus) -> None:
        # Textual runs Input's own _on_focus after this one (a handler of every class).
        if not self.select_on_focus and not event.from_app_focus:
            self.cursor_position = len(self.value)

    # --- history -----------------------------------------------------------------------------

    def replace(self, text: str, start: int, end: int) -> None:
        before = _Snapshot(self.value, self.selection)
        typed = len(text) == 1 and start == end and not text.isspace()
        joins = typed and self._typing_at == start and bool(self._undo)
        self._editing = True
        try:
            super().replace(text, start, end)
        finally:
            self._editing = False
        if self.value == before.value:
            return  # refused (max_length, restrict) or no change
        if not joins:
            self._undo.append(before)
            del self._undo[:-HISTORY]
        self._redo.clear()
        self._typing_at = start + 1 if typed else None

    def _watch_value(self, value: str) -> None:
        super()._watch_value(value)
        if not self._editing:  # set by the program: what came before is no edit of this text
            self._undo.clear()
            self._redo.clear()
            self._typing_at = None

    def _restore(self, snapshot: _Snapshot) -> None:
        self._editing = True
        try:
            self.value = snapshot.value
        finally:
            self._editing = False
        self.selection = snapshot.selection
        self._typing_at = None

    def action_undo(self) -> None:
        if self._undo:
            self._redo.append(_Snapshot(self.value, self.selection))
            self._restore(self._undo.pop())

    def action_redo(self) -> None:
        if self._redo:
            self._undo.append(_Snapshot(self.value, self.selection))
            self._restore(self._redo.pop())
