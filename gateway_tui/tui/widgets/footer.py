"""The footer: the screen's keys, and the app's own keys docked at the right edge.

Textual's footer lists the screen's keys first and the app's after them, so a narrow terminal
cut q, f1 and f12 off. Here the app's keys (and the palette key) sit in a group docked at the
right, always shown; the screen's keys get the rest of the line (all of them are in help and
the palette). A screen key that does not fit whole is not shown at all, nor are those after it:
"g Gro" cut at the edge reads as another word. GatewayScreen puts this footer where a screen
yields Textual's.
"""

from __future__ import annotations

from rich.cells import cell_len
from textual import events
from textual.app import ComposeResult
from textual.containers import HorizontalGroup
from textual.widget import Widget
from textual.widgets import Footer

from gateway_tui.core.text.i18n import _
from gateway_tui.tui.textual_private import FooterKey, footer_bindings_ready


class GatewayFooter(Footer):
    _composed_width = 0

    DEFAULT_CSS = """
    GatewayFooter .footer-global {
        dock: right;
        width: auto;
        height: 1;
        background: $footer-background;
        border-left: vkey $foreground 20%;
    }
    GatewayFooter .footer-global FooterKey.-command-palette {
        dock: none;
    }
    """

    def compose(self) -> ComposeResult:
        if not footer_bindings_ready(self):
            return
        active = self.screen.active_bindings.values()
        app_actions = {
            binding.action
            for node, binding, _enabled, _tooltip in active
            if node is self.app and binding.show
        }
        own, global_keys = [], []
        for widget in super().compose():
            if isinstance(widget, FooterKey):  # binding descriptions are English msgids
                widget.description = _(widget.description)
            is_global = isinstance(widget, FooterKey) and (
                widget.action in app_actions or widget.has_class("-command-palette")
            )
            (global_keys if is_global else own).append(widget)
        q_said = any(binding.key == "q" and binding.show for _n, binding, _e, _t in active)
        if not q_said:
            # The focused field types q: the key that quits from anywhere is said instead.
            quit_anywhere = next(
                (
                    binding
                    for node, binding, enabled, _tooltip in active
                    if node is self.app and binding.action == "quit" and enabled
                ),
                None,
            )
            if quit_anywhere is not None:
                global_keys.insert(
                    0,
                    FooterKey(
                        quit_anywhere.key,
                        self.app.get_key_display(quit_anywhere),
                        _(quit_anywhere.description),
                        quit_anywhere.action,
                    ).data_bind(compact=Footer.compact),
                )
        yield from self._fitting(own, global_keys)
        # The palette key last, at the right edge, as Textual puts it.
        global_keys.sort(key=lambda key: key.has_class("-command-palette"))
        if global_keys:
            # A class, not an id: two recomposes close together (screens pushed in a row)
            # mount the new group before the old one is gone, and an id would clash.
            yield HorizontalGroup(*global_keys, classes="footer-global")

    def _fitting(self, own: list[Widget], global_keys: list[FooterKey]) -> list[Widget]:
        """The screen's keys that fit whole left of the app's keys, in order: the first that
        does not fit and those after it are left out."""
        width = self.app.size.width
        self._composed_width = width
        room = width - sum(_key_cells(key, self.compact) for key in global_keys)
        room -= 1  # the group's left border
        fitting: list[Widget] = []
        for widget in own:
            if isinstance(widget, FooterKey):
                room -= _key_cells(widget, self.compact)
                if room < 0:
                    break
            fitting.append(widget)
        return fitting

    def on_resize(self, _event: events.Resize) -> None:
        if self.app.size.width != self._composed_width:
            self.refresh(recompose=True)  # the keys that fit, again


def _key_cells(key: FooterKey, compact: bool) -> int:
    """The cells a key takes in the footer, its margin included (Textual's footer styles:
    compact "k Label" and a 1-cell margin; otherwise " k Label " and none)."""
    label = cell_len(key.key_display) + (1 + cell_len(key.description) if key.description else 0)
    return label + 1 if compact else label + 2
