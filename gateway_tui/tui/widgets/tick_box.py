"""Tick boxes drawn as the instance settings draw theirs: `[x]` ticked, `[ ]` not.

Textual draws a Checkbox and each line of a SelectionList as `▐X▌` whether ticked or not (only
the colour changes, which a monochrome or low-contrast terminal loses). TickBox and TickList
show the state in the character itself: ticked `[x]` bold green, unticked `[ ]` dim, as the
settings screen's lines (screens/instance.py setting_prompt).
"""

from __future__ import annotations

from typing import Generic, TypeVar

from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip
from textual.widgets import Checkbox, SelectionList
from textual.widgets.option_list import OptionDoesNotExist

TICKED, UNTICKED = "[x]", "[ ]"
TICKED_STYLE, UNTICKED_STYLE = Style(bold=True, color="green"), Style(dim=True)

T = TypeVar("T")


def tick_mark(on: bool) -> str:
    return TICKED if on else UNTICKED


class TickBox(Checkbox):
    """A Checkbox whose box reads `[x]` / `[ ]`."""

    # The whole box is the "inner" part (no side characters): its style is the component's.
    BUTTON_LEFT = ""
    BUTTON_RIGHT = ""

    DEFAULT_CSS = """
    TickBox > .toggle--button, TickBox:ansi > .toggle--button {
        background: transparent;
        color: $foreground;
        text-style: dim;
    }
    TickBox.-on > .toggle--button, TickBox:ansi.-on > .toggle--button {
        background: transparent;
        color: ansi_green;
        text-style: bold not dim;
    }
    """

    @property
    def BUTTON_INNER(self) -> str:  # noqa: N802 - Textual's name for the box's text
        return tick_mark(self.value)


class TickList(SelectionList[T], Generic[T]):
    """A SelectionList whose lines start with `[x]` / `[ ]`."""

    def render_line(self, y: int) -> Strip:
        strip = super().render_line(y)
        segments = list(strip)
        index = self.scroll_offset.y + y
        try:
            option = self.get_option_at_index(index)
        except OptionDoesNotExist:
            return strip
        if len(segments) < 4:
            return strip
        # Textual's line: left side, inner, right side, a space, then the prompt.
        on = option.value in self.selected
        underlying = segments[3].style or Style()
        style = underlying + (TICKED_STYLE if on else UNTICKED_STYLE)
        style += Style(meta={"option": index})  # a click on the box still toggles that line
        return Strip([Segment(tick_mark(on), style), *segments[3:]])
