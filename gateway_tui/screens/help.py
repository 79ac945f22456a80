"""`?` / `f1`: the keys of the screen it was opened from — its own actions first, with their ids.

The ids are what `[keys]` in the config remaps (README), so help is where a user finds them.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

# Where a binding comes from, in the order help lists them.
SCREEN, APP, FIELD = "screen", "app", "field"
GROUP_TITLES = {SCREEN: "This screen", APP: "Everywhere", FIELD: "Moving around and editing"}


@dataclass(frozen=True)
class KeyRow:
    keys: str  # as shown, e.g. "ctrl+n" or "up / k"
    description: str
    binding_id: str  # what `[keys]` remaps; "" for Textual's own unnamed bindings
    group: str  # SCREEN, APP or FIELD
    action: str = ""


def key_rows(screen: Screen) -> list[KeyRow]:
    """Every enabled binding that applies on ``screen`` now: the screen's own first, then the
    app's, then Textual's general ones and the focused widget's (text editing, table cursor) —
    each once. Ours all have ids; a binding without one is Textual's."""
    found: dict[tuple[str, str], tuple[list[str], Binding]] = {}
    for active in screen.active_bindings.values():
        binding = active.binding
        if not active.enabled or not binding.description:
            continue
        if active.node is screen and binding.id:
            group = SCREEN
        elif active.node is screen.app and binding.id:
            group = APP
        else:
            group = FIELD
        ident = binding.id or f"{binding.action}:{binding.description}"
        keys, _ = found.setdefault((group, ident), ([], binding))
        keys.append(screen.app.get_key_display(binding))
    rows = [
        KeyRow(
            " / ".join(dict.fromkeys(keys)),
            binding.description or binding.action,
            binding.id or "",
            group,
            binding.action,
        )
        for (group, _), (keys, binding) in found.items()
    ]
    order = {SCREEN: 0, APP: 1, FIELD: 2}
    return sorted(rows, key=lambda row: order[row.group])  # stable: binding order within a group


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,question_mark,q,f1", "close", "Close", id="help.close")]

    def __init__(self, for_screen: Screen) -> None:
        super().__init__()
        self._title = getattr(for_screen, "HELP_TITLE", None) or type(for_screen).__name__
        self._rows = key_rows(for_screen)

    def compose(self) -> ComposeResult:
        table = Table(show_header=True, header_style="bold", box=None, expand=True)
        # Long key lists wrap (at " / ") rather than squeeze what the key does into a sliver
        # on an 80-column terminal.
        table.add_column("Keys", max_width=18)
        table.add_column("Does", ratio=1, min_width=18)
        # A Text, not a string: Rich would read "[keys]" as markup.
        table.add_column(Text("Binding id (remap in [keys])"), style="dim", no_wrap=True)
        group = None
        for row in self._rows:
            if row.group != group:
                group = row.group
                if table.row_count:
                    table.add_row("", "", "")
                table.add_row(Text(GROUP_TITLES[group], style="bold underline"), "", "")
            table.add_row(Text(row.keys, style="bold"), Text(row.description), row.binding_id)
        with VerticalScroll(id="help-dialog", classes="dialog"):
            yield Static(Text(f"Keys — {self._title}", style="bold"), classes="dialog-title")
            yield Static(table)
            yield Static(
                Text(
                    "esc closes · ctrl+p finds every action · remap a key by its id in the "
                    "[keys] table of the config file",
                    style="dim",
                )
            )

    def action_close(self) -> None:
        self.dismiss(None)
