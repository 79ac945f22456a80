"""`?`: the keys of the screen it was opened from."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Static


def key_rows(screen: Screen) -> list[tuple[str, str]]:
    """(keys, description) for each enabled binding that applies on ``screen`` now."""
    by_description: dict[str, list[str]] = {}
    for active in screen.active_bindings.values():
        binding = active.binding
        description = binding.description or binding.action
        if not active.enabled or not description:
            continue
        by_description.setdefault(description, []).append(screen.app.get_key_display(binding))
    return [(" / ".join(dict.fromkeys(keys)), desc) for desc, keys in by_description.items()]


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,question_mark,q", "close", "Close", id="help.close")]

    def __init__(self, for_screen: Screen) -> None:
        super().__init__()
        self._title = getattr(for_screen, "HELP_TITLE", None) or type(for_screen).__name__
        self._rows = key_rows(for_screen)

    def compose(self) -> ComposeResult:
        table = Table(show_header=True, header_style="bold", box=None, expand=True)
        table.add_column("Keys", no_wrap=True)
        table.add_column("Does")
        for keys, description in self._rows:
            table.add_row(Text(keys, style="bold"), Text(description))
        with VerticalScroll(id="help-dialog", classes="dialog"):
            yield Static(Text(f"Keys — {self._title}", style="bold"), classes="dialog-title")
            yield Static(table)
            yield Static(Text("esc closes · ctrl+p opens every action", style="dim"))

    def action_close(self) -> None:
        self.dismiss(None)
