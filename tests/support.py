"""Helpers the test modules share (fixtures live in conftest.py)."""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Any

from rich.console import Console

from gateway_tui.app import GatewayApp
from gateway_tui.config import ResolvedConfig, load_config
from gateway_tui.screenshots.base import wait_until as wait_for
from gateway_tui.textual_private import notifications_of, rendered_screen

# Exchanges recorded from real gateways (outside the repo: ../shared/recordings).
RECORDINGS = Path(
    os.environ.get("GATEWAY_RECORDINGS", Path(__file__).resolve().parents[2] / "shared/recordings")
)


def make_config(server: Any, **overrides: Any) -> ResolvedConfig:
    """Config for the demo ``server``; auto-refresh off unless a test asks for it."""
    url = overrides.pop("url") if "url" in overrides else server.url
    api_key = overrides.pop("api_key", server.api_key)
    config = load_config(url=url, api_key=api_key)
    config.refresh_interval = overrides.pop("refresh_interval", 0)
    for name, value in overrides.items():
        setattr(config, name, value)
    return config


def make_app(config: ResolvedConfig) -> GatewayApp:
    return GatewayApp(config)


def screen_text(app: GatewayApp) -> str:
    """What the terminal shows, as plain text (for "is it on screen" and "is it NOT" checks).

    Rendered the way ``App.export_screenshot`` does, but exported as text instead of SVG.
    """
    width, height = app.size
    console = Console(
        width=width, height=height, file=io.StringIO(), force_terminal=True, record=True
    )
    console.print(rendered_screen(app))
    return console.export_text()


async def open_composer_on(app: GatewayApp, pilot: Any, instance: str) -> Any:
    """The composer of ``instance`` once the instances have loaded (its fields built)."""
    from gateway_tui.screens.composer import ComposerScreen

    await wait_for(pilot, lambda: bool(app.state.instances.value))
    app.open_composer(instance)
    await wait_for(pilot, lambda: isinstance(app.screen, ComposerScreen))
    await pilot.pause()
    return app.screen


def notices(app: GatewayApp) -> list[str]:
    """Every notification still shown, as "title: message" lines."""
    return [f"{n.title}: {n.message}" for n in notifications_of(app)]


__all__ = ["make_app", "make_config", "notices", "open_composer_on", "screen_text", "wait_for"]
