"""The header: which gateway, the masked key, connection health and the selected instance."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.widget import Widget

from gateway_tui.core.state import Health, Topic

if TYPE_CHECKING:
    from gateway_tui.tui.host import AppHost

HEALTH_MARK = {
    Health.UNKNOWN: ("○", "dim", "not checked yet"),
    Health.OK: ("●", "green", "ok"),
    Health.FAILING: ("●", "yellow", "failing"),
    Health.UNREACHABLE: ("●", "red", "unreachable"),
}


class GatewayBar(Widget):
    """One line, docked at the top. Built from Text, never markup: URLs and names are data."""

    DEFAULT_CSS = """
    GatewayBar {
        dock: top;
        height: 1;
        background: $panel;
        color: $text;
    }
    """

    def __init__(self) -> None:
        super().__init__(id="gateway-bar")
        self._text = Text("gateway-tui")

    def on_mount(self) -> None:
        app: AppHost = self.app  # type: ignore[assignment]
        app.state_changed.subscribe(self, self._state_changed)
        self.update_from_app()

    def _state_changed(self, topic: Topic) -> None:
        if topic in (Topic.CALLS, Topic.SELECTED, Topic.INSTANCES, Topic.LIVE):
            self.update_from_app()

    def update_from_app(self) -> None:
        from gateway_tui.core.files.config import insecure_url_warning

        app: AppHost = self.app  # type: ignore[assignment]
        url = app.gateway_url
        self.show(
            url=url,
            masked_key=app.masked_key,
            version=app.gateway_version,
            health=app.state.health,
            selected=app.state.selected,
            profile=app.config.profile,
            insecure=bool(url and insecure_url_warning(url)),
            live=app.state.live,
        )

    def show(
        self,
        *,
        url: str | None,
        masked_key: str,
        health: Health,
        version: str | None = None,
        selected: str | None,
        profile: str | None,
        insecure: bool,
        live: bool | None = None,
    ) -> None:
        from gateway_tui.core.text.sanitize import mask_secrets

        # What the server said (an instance name, its version) may echo a key: never shown.
        url, selected, version = (mask_secrets(v) if v else v for v in (url, selected, version))
        mark, style, words = HEALTH_MARK[health]
        text = Text()
        text.append(" gateway-tui ", style="bold reverse")
        text.append(" ")
        text.append(url or "not connected", style="bold")
        if profile:
            text.append(f" ({profile})", style="dim")
        text.append("  key ", style="dim")
        text.append(masked_key)
        text.append("  ")
        text.append(f"{mark} {words}", style=style)
        if live is not None:  # once live events were tried: live, or polling as before
            text.append("  ")
            text.append("⚡ live" if live else "⟳ polling", style="green" if live else "yellow")
        if selected:
            text.append("  instance ", style="dim")
            text.append(selected, style="bold")
        if insecure:
            text.append("  ⚠ key sent in clear (http)", style="bold red")
        if version:  # last: the first thing a narrow terminal cuts
            text.append("  Evolution API ", style="dim")
            text.append(version)
        self._text = text
        self.refresh()

    def render(self) -> Text:
        return self._text
