"""The columns of a RecordTable (widgets/record_table.py): how a cell's text, style, sort
order and width come from a row, and the text fitted to a cell's width."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Generic, TypeVar

from rich.cells import cell_len, set_cell_size
from rich.errors import StyleSyntaxError
from rich.style import Style

from gateway_tui.core.text.i18n import _
from gateway_tui.core.text.sanitize import mask_secrets, printable

R = TypeVar("R")

# A line's cells (fitted text and style) and the style of the gaps between and after them.
Line = tuple[list[tuple[str, Style]], Style]

# Column widths are measured from the label and this many rows, never from every cell.
WIDTH_SAMPLE_ROWS = 200
SEPARATOR = " "
ELLIPSIS = "…"
SORT_ARROWS = {False: "▲", True: "▼"}
# What a cell shows for "no value": such rows sort after the others, in both directions.
MISSING_TEXTS = frozenset({"", "—"})
# On a wide terminal a column may grow to this many times its max_width to show values in full.
WIDEN_FACTOR = 2
# Room kept after a label for " ▲", so sorting never changes a column's width.
SORT_ARROW_CELLS = 2


def _character_budget(width: int) -> int:
    """How many characters of a value are worth looking at to fill `width` cells.

    Printable characters take one or two cells, so this bounds the work on a 10,000-character
    value; the margin leaves room for zero-width marks (combining accents, emoji joiners).
    """
    return width * 4 + 16


def _printable(text: str) -> str:
    # Cells come from outside (gateway, WhatsApp users): see gateway_tui.core.text.sanitize.
    return printable(text)


def measure(text: str, max_width: int) -> int:
    """The cells `text` would take on screen, looking at no more than fits in `max_width`."""
    return cell_len(_printable(text[: _character_budget(max_width)]))


def fit(text: str, width: int) -> str:
    """`text` made printable and exactly `width` cells wide: padded, or cut with an ellipsis."""
    if width <= 0:
        return ""
    budget = _character_budget(width)
    printable = _printable(text[:budget])
    if len(text) > budget or cell_len(printable) > width:
        return set_cell_size(printable, width - 1) + ELLIPSIS
    return set_cell_size(printable, width)


@lru_cache(maxsize=256)
def parse_style(definition: str) -> Style:
    """A cell's Rich style; a malformed definition shows the cell unstyled rather than crashing."""
    try:
        return Style.parse(definition)
    except StyleSyntaxError:
        return Style.null()


@dataclass(frozen=True)
class Column(Generic[R]):
    """How one column gets its text, style, sort order and width from a row."""

    key: str
    label: str
    value: Callable[[R], str]
    """The cell's plain text (never parsed as markup)."""
    style: Callable[[R], str] | None = None
    """An optional Rich style for the cell, e.g. "bold green"."""
    sort_key: Callable[[R], Any] | None = None
    """What sorting compares; by default the cell's text, case-insensitively."""
    width: int | None = None
    """A fixed width; None measures the label and a sample of rows."""
    min_width: int = 3
    max_width: int = 40
    """Cells wider than the column are cut with "…"."""
    drop_priority: int = 0
    """0: always shown. Otherwise, when the table is too narrow, columns are hidden, the
    highest priority first, until the rest fit."""
    only_when: Callable[[R], bool] | None = None
    """Shown only when a sampled row has it (a field one line of the gateway lacks)."""
    shrink_to: int | None = None
    """When the table is too narrow, the column gives up width down to this (its cells cut
    with "…") before any column is dropped; it grows back when there is room."""

    def text(self, row: R) -> str:
        value = self.value(row)
        # A key the gateway echoes is masked before the cell is cut to its width (where the
        # line filter could no longer find it whole).
        return mask_secrets(value if isinstance(value, str) else str(value))

    def sort_value(self, row: R) -> Any:
        """What sorting compares; None for a missing value (sorted last either way)."""
        if self.sort_key is not None:
            return self.sort_key(row)
        text = self.text(row)
        return None if text in MISSING_TEXTS else text.casefold()

    def measure_width(self, sample: Sequence[R]) -> int:
        return self.measure_widths(sample)[0]

    def measure_widths(self, sample: Sequence[R]) -> tuple[int, int]:
        """The column's width from the label and ``sample``, capped at ``max_width``; and what
        it would take on a wide terminal (up to WIDEN_FACTOR times that) to show values in full.
        Each value is read once."""
        if self.only_when is not None and not any(self.only_when(row) for row in sample):
            return 0, 0
        if self.width is not None:
            return max(1, self.width), max(1, self.width)
        cap = self.max_width * WIDEN_FACTOR
        widest = max((measure(self.text(row), cap) for row in sample), default=0)
        wanted = max(widest, measure(_(self.label), cap) + SORT_ARROW_CELLS)
        base = max(1, self.min_width, min(wanted, self.max_width))
        return base, max(base, min(wanted, cap))
