"""`12/60` beside a field, updated as you type: dim within the limit, warned or refused past it."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static


class LengthCounter(Static):
    """How long the field's text is against WhatsApp's limit.

    ``hard``: past the limit WhatsApp refuses it (red); otherwise it only shows less (yellow).
    """

    DEFAULT_CSS = """
    LengthCounter { width: auto; min-width: 8; padding: 0 0 0 1; color: $text-muted; }
    LengthCounter.-over { color: $warning; }
    LengthCounter.-refused { color: $error; text-style: bold; }
    """

    def __init__(self, limit: int, *, hard: bool = False, id: str | None = None) -> None:
        super().__init__(id=id)
        self.limit = limit
        self.hard = hard
        self._shown: int | None = None

    def show(self, value: str) -> None:
        length = len(value)
        if length == self._shown:
            return
        self._shown = length
        over = length > self.limit
        self.set_class(over and not self.hard, "-over")
        self.set_class(over and self.hard, "-refused")
        self.update(Text(f"{'⚠ ' if over else ''}{length}/{self.limit}"))
