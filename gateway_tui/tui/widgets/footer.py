"""The footer: the screen's keys, and the app's own keys docked at the right edge.

Textual's footer lists the screen's keys first and the app's after them, so a narrow terminal
cut q, f1 and f12 off. Here the app's keys (and the palette key) sit in a group docked at the
right, always shown; the screen's keys get the rest of the line (all of them are in help and
the palette). GatewayScreen puts this footer where a screen yields Textual's.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import HorizontalGroup
from textual.widgets import Footer

from gateway_tui.tui.textual_private import FooterKey, footer_bindings_ready


class GatewayFooter(Footer):
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
            is_global = isinstance(widget, FooterKey) and (
                widget.action in app_actions or widget.has_class("-command-palette")
            )
            (global_keys if is_global else own).append(widget)
        yield from own
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
                        quit_anywhere.description,
                        quit_anywhere.action,
                    ).data_bind(compact=Footer.compact),
                )
        # The palette key last, at the right edge, as Textual puts it.
        global_keys.sort(key=lambda key: key.has_class("-command-palette"))
        if global_keys:
            # A class, not an id: two recomposes close together (screens pushed in a row)
            # mount the new group before the old one is gone, and an id would clash.
            yield HorizontalGroup(*global_keys, classes="footer-global")
