"""The command palette (ctrl+p): every action of the screen on top and of the app, once each,
then the app's own commands; and "Open instance <name>" for every instance the state knows.

A mixin of ``GatewayApp`` (``tui/app.py``), which lists ``InstanceCommands`` in its COMMANDS.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial
from typing import TYPE_CHECKING

from textual.app import SystemCommand
from textual.command import Hit, Hits, Provider
from textual.screen import Screen

from gateway_tui.core.text.i18n import _

if TYPE_CHECKING:
    from gateway_tui.core.files.config import ResolvedConfig
    from gateway_tui.tui.app import GatewayApp


class InstanceCommands(Provider):
    """Palette: "open instance <name>" for every instance the state knows."""

    async def search(self, query: str) -> Hits:
        app: GatewayApp = self.app  # type: ignore[assignment]
        matcher = self.matcher(query)
        for instance in app.state.instances.value or ():
            name = instance.instance_name
            label = _("Open instance {name}").format(name=name)
            score = matcher.match(label)
            if score > 0:
                yield Hit(score, matcher.highlight(label), partial(app.open_instance, name))

    async def discover(self) -> Hits:
        app: GatewayApp = self.app  # type: ignore[assignment]
        for instance in (app.state.instances.value or [])[:20]:
            name = instance.instance_name
            label = _("Open instance {name}").format(name=name)
            yield Hit(1, label, partial(app.open_instance, name))


class PaletteCommands:
    """The palette's system commands (``GatewayApp`` mixes it in)."""

    config: ResolvedConfig

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        """The palette: every action of ``screen`` (its bindings), then the app's, once each."""
        from gateway_tui.tui.screens.help import APP, SCREEN, key_rows

        rows = key_rows(screen)
        titles: set[str] = set()

        def once(command: SystemCommand) -> Iterable[SystemCommand]:
            if command.title not in titles:
                titles.add(command.title)
                yield command

        for group, namespace in ((SCREEN, screen), (APP, self)):
            # One command per action: "Quit" is q and ctrl+q, "Keys" is ? and f1.
            by_title: dict[str, list] = {}
            for row in rows:
                if row.group == group and row.action != "command_palette":
                    by_title.setdefault(row.description, []).append(row)
            for title, same in by_title.items():
                run = partial(self._run_from_palette, namespace, same[0].action)
                yield from once(SystemCommand(title, _palette_help(same), run))
        yield from once(
            SystemCommand(
                _("Refresh instances"),
                _("Fetch the instance list again"),
                self.action_refresh_instances,
            )
        )
        yield from once(
            SystemCommand(_("Change theme"), _("Pick any theme"), self.action_change_theme)
        )
        yield from once(
            SystemCommand(_("Screenshot"), _("Save an SVG of the screen"), self.deliver_screenshot)
        )
        for name in sorted(self.config.profiles):
            if name != self.config.profile:
                yield from once(
                    SystemCommand(
                        _("Switch profile: {name}").format(name=name),
                        _("Use the gateway of profile {name}").format(name=name),
                        partial(self.switch_profile, name),
                    )
                )
        yield from once(
            SystemCommand(
                _("Connect to another gateway"), _("Enter a URL and key"), self._open_connect
            )
        )

    def action_command_palette(self) -> None:
        """Textual's palette, its search field's placeholder in the reader's language."""
        from textual.command import CommandPalette

        if self.use_command_palette and not CommandPalette.is_open(self):
            self.push_screen(
                CommandPalette(id="--command-palette", placeholder=_("Search for commands…"))
            )

    def search_themes(self) -> None:
        """The palette's "Change theme": Textual's theme list, its placeholder translated."""
        from textual.command import CommandPalette
        from textual.theme import ThemeProvider

        self.push_screen(
            CommandPalette(providers=[ThemeProvider], placeholder=_("Search for themes…"))
        )

    def _run_from_palette(self, namespace, action: str) -> None:
        # After the palette has closed, so the action sees its own screen on top.
        self.call_later(self.run_action, action, namespace)

    def _open_connect(self) -> None:
        from gateway_tui.tui.screens.connect import ConnectScreen

        self.push_screen(ConnectScreen())


def _palette_help(rows: list) -> str:
    """The palette's second line for an action: its keys and binding ids (for `[keys]`)."""
    keys = " / ".join(row.keys for row in rows)
    return f"{keys} · {', '.join(row.binding_id for row in rows)}"
