"""`?` / `f1`: the keys of the screen it was opened from — its own actions first, with their ids.

The ids are what `[keys]` in the config remaps (README), so help is where a user finds them.
Typing filters the list (by key, what it does or its id), as lazygit's keybindings menu does;
esc clears the filter, then closes.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.cells import cell_len
from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Input, Static

from gateway_tui.core.text.i18n import N_, _
from gateway_tui.tui.screens.base import key_for
from gateway_tui.tui.widgets.text_input import TextInput

# Where a binding comes from, in the order help lists them.
SCREEN, APP, FIELD = "screen", "app", "field"
KEYS_WIDTH = 18  # the widest the keys column gets; longer key lists wrap
GROUP_TITLES = {
    SCREEN: N_("This screen"),
    APP: N_("Everywhere"),
    FIELD: N_("Moving around and editing"),
}


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
        keys, _first = found.setdefault((group, ident), ([], binding))
        keys.append(screen.app.get_key_display(binding))
    rows = [
        KeyRow(
            " / ".join(dict.fromkeys(keys)),
            # The footer shows the short description; help and the palette the whole one.
            _(binding.tooltip or binding.description) or binding.action,
            binding.id or "",
            group,
            binding.action,
        )
        for (group, _ident), (keys, binding) in found.items()
    ]
    order = {SCREEN: 0, APP: 1, FIELD: 2}
    return sorted(rows, key=lambda row: order[row.group])  # stable: binding order within a group


def matching(rows: list[KeyRow], needle: str) -> list[KeyRow]:
    """The rows whose keys, description or id hold ``needle`` (any case); all when empty."""
    needle = needle.strip().casefold()
    if not needle:
        return list(rows)
    return [
        row
        for row in rows
        if needle in f"{row.keys}\n{row.description}\n{row.binding_id}".casefold()
    ]


class HelpScreen(ModalScreen[None]):
    # The filter field has the focus: ? and q are typed into it there, f1 still closes.
    BINDINGS = [
        Binding("escape", "back", "Clear the filter, then close", id="help.back"),
        Binding("f1,question_mark,q", "close", "Close", id="help.close"),
    ]

    def __init__(self, for_screen: Screen) -> None:
        super().__init__()
        # HELP_TITLE is N_-marked where each screen names it.
        self._title = _(getattr(for_screen, "HELP_TITLE", None) or type(for_screen).__name__)
        self._rows = key_rows(for_screen)

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-dialog", classes="dialog"):
            title = _("Keys — {screen}").format(screen=_(self._title))
            yield Static(Text(title, style="bold"), classes="dialog-title")
            yield TextInput(
                placeholder=_("type to filter: a key, what it does, its id"), id="help-filter"
            )
            yield Static(id="help-keys")
            palette = self.app.get_key_display(Binding(self.app.COMMAND_PALETTE_BINDING, ""))
            yield Static(
                Text(
                    _(
                        "{back} clears the filter, then closes · {close} closes · {palette} "
                        "finds every action · remap a key by its id in the {table} table of the "
                        "config file"
                    ).format(
                        back=key_for(self, "help.back"),
                        close=key_for(self, "help.close"),
                        palette=palette,
                        table="[keys]",
                    ),
                    style="dim",
                )
            )

    def on_mount(self) -> None:
        self._show("")
        self.query_one("#help-filter", Input).focus()

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        self._show(event.value)

    def _show(self, needle: str) -> None:
        """One table a group, its title above it: the columns fit the keys and ids, and what a
        key does gets the rest of the width (at 80 columns too)."""
        rows = matching(self._rows, needle)
        if not rows:
            # Typed by the user: plain text in a Text, never markup.
            said = Text(_("No key matches “{typed}”.").format(typed=needle.strip()), style="yellow")
            self.query_one("#help-keys", Static).update(said)
            return
        groups: dict[str, list[KeyRow]] = {}
        for row in rows:
            groups.setdefault(row.group, []).append(row)
        parts: list[Text | Table] = []
        for group, shown in groups.items():
            parts += [Text(_(GROUP_TITLES[group]), style="bold underline"), _key_table(shown)]
        self.query_one("#help-keys", Static).update(Group(*parts))

    @property
    def filter_text(self) -> str:
        return self.query_one("#help-filter", Input).value

    def action_back(self) -> None:
        if self.filter_text:
            self.query_one("#help-filter", Input).value = ""
            return
        self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)


def _key_table(rows: list[KeyRow]) -> Table:
    """One group's keys: the keys and ids columns as wide as their content (the keys at most
    KEYS_WIDTH, wrapping at " / "), what a key does the rest."""
    # A Text: Rich would read "[keys]" as markup.
    id_header = Text(_("Id (for {table})").format(table="[keys]"))
    keys_header = _("Keys")
    keys_width = min(KEYS_WIDTH, max(cell_len(keys_header), *(cell_len(row.keys) for row in rows)))
    id_width = max(id_header.cell_len, *(cell_len(row.binding_id) for row in rows))
    table = Table(show_header=True, header_style="bold", box=None, expand=True)
    table.add_column(keys_header, width=keys_width)
    table.add_column(_("Does"), ratio=1, min_width=18)
    table.add_column(id_header, style="dim", no_wrap=True, width=id_width)
    for row in rows:
        table.add_row(Text(row.keys, style="bold"), Text(row.description), row.binding_id)
    return table
