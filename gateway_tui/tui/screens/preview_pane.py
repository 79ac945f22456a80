"""A form with a preview beside it, which steps aside on a narrow terminal.

Below NARROW_WIDTH columns the preview would squeeze the form: the screen gets the class
``-narrow`` (the stylesheet stacks the preview below the form) and ``-no-preview`` (hidden)
until its toggle key asks for it. The composer and the campaign set-up use it.
"""

from __future__ import annotations

from textual import events
from textual.containers import VerticalScroll

NARROW_WIDTH = 100


class PreviewBeside:
    """Mixed into a Screen: call ``self._layout(self.app.size.width)`` when mounted."""

    # None: the preview shows when the terminal is wide enough; the toggle decides otherwise.
    _preview_wanted: bool | None = None

    def on_resize(self, _event: events.Resize) -> None:
        # The terminal's width, not the event's: a screen being laid out may be told 0.
        self._layout(self.app.size.width)  # type: ignore[attr-defined]

    @property
    def preview_shown(self) -> bool:
        return not self.has_class("-no-preview")  # type: ignore[attr-defined]

    def _layout(self, width: int) -> None:
        narrow = width < NARROW_WIDTH
        self.set_class(narrow, "-narrow")  # type: ignore[attr-defined]
        shown = self._preview_wanted if self._preview_wanted is not None else not narrow
        self.set_class(not shown, "-no-preview")  # type: ignore[attr-defined]

    def action_toggle_preview(self) -> None:
        self._preview_wanted = not self.preview_shown
        self._layout(self.app.size.width)  # type: ignore[attr-defined]

    def _show_preview(self) -> None:
        if not self.preview_shown:
            self._preview_wanted = True
            self._layout(self.app.size.width)  # type: ignore[attr-defined]


class FormScroll(VerticalScroll):
    """The form's scrolling column: when it shrinks (a result shown under it, a terminal made
    smaller), the field with the cursor is scrolled back into view, so the focus never hides."""

    def on_resize(self, _event: events.Resize) -> None:
        focused = self.screen.focused
        if focused is not None and self in focused.ancestors:
            self.call_after_refresh(self.scroll_to_widget, focused, animate=False)
