"""The first frame: the header and an empty instances table saying "loading…".

Drawn from Textual alone (no httpx, no pydantic, no config): the app shows it the moment it
starts, then imports the rest and replaces it with the home screen (see app.py).
"""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Footer, Static

LOADING = "loading…"
# The instances table's header, as the home screen will draw it (no rows yet).
COLUMNS = (("Name", 13), ("Status", 15), ("Owner", 18), ("Profile name", 15), ("Integration", 0))


def empty_table() -> Text:
    header = "".join(label.ljust(width) for label, width in COLUMNS)
    text = Text(header, style="bold")
    text.append(f"\n{LOADING}", style="dim italic")
    return text


class StartingScreen(Screen):
    """Shown until the app has loaded its config and its HTTP stack. ``on_shown`` is called
    once the frame has been handed to the terminal (the app tells it: ``frame_drawn``)."""

    DEFAULT_CSS = """
    #starting-bar { height: 1; background: $panel; }
    #starting-table { height: 1fr; padding: 0 1; }
    """

    def __init__(self, url: str | None, *, on_shown: Callable[[], None]) -> None:
        super().__init__()
        self._url = url
        self._on_shown: Callable[[], None] | None = on_shown

    def compose(self) -> ComposeResult:
        bar = Text.assemble((" gateway-tui ", "bold reverse"))
        if self._url:
            bar.append(f"  {self._url}")
        yield Static(bar, id="starting-bar")
        yield Static(Text("Instances", style="bold"), classes="title")
        yield Static(empty_table(), id="starting-table")
        yield Footer()

    def frame_drawn(self) -> None:
        if self._on_shown is not None and self.is_mounted:
            on_shown, self._on_shown = self._on_shown, None
            self.app.call_later(on_shown)
