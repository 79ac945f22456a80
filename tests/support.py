"""Helpers the test modules share (fixtures live in conftest.py)."""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Any

from rich.console import Console

from gateway_tui.core.files.config import ResolvedConfig, load_config
from gateway_tui.screenshots.base import wait_until as wait_for
from gateway_tui.tui.app import GatewayApp
from gateway_tui.tui.textual_private import notifications_of, rendered_screen

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
    from gateway_tui.tui.screens.composer import ComposerScreen

    await wait_for(pilot, lambda: bool(app.state.instances.value))
    app.open_composer(instance)
    await wait_for(pilot, lambda: isinstance(app.screen, ComposerScreen))
    await pilot.pause()
    return app.screen


def newest_person_chat(server: Any, instance: str) -> str:
    """The demo instance's chat with a person whose last message is the newest."""
    chats = server.state.instances[instance].chats.values()
    people = [c for c in chats if not c.jid.endswith("@g.us")]
    return max(people, key=lambda c: c.messages[-1].timestamp).jid


async def open_conversation(app: GatewayApp, pilot: Any, instance: str, jid: str) -> Any:
    """The conversation screen of ``jid`` once the instances and its messages have loaded."""
    from gateway_tui.tui.screens.messages import MessagesScreen

    await wait_for(pilot, lambda: bool(app.state.instances.value))
    screen = MessagesScreen(instance, jid)
    app.push_screen(screen)
    loadable = app.actions.messages_of(instance, jid)
    await wait_for(pilot, lambda: loadable.value is not None and not loadable.loading)
    return screen


def notices(app: GatewayApp) -> list[str]:
    """Every notification still shown, as "title: message" lines."""
    return [f"{n.title}: {n.message}" for n in notifications_of(app)]


__all__ = [
    "make_app",
    "make_config",
    "newest_person_chat",
    "notices",
    "open_composer_on",
    "open_conversation",
    "screen_text",
    "wait_for",
]


def cli_env(server: Any, home: Path | str) -> dict[str, str]:
    """The environment of a ``gateway-tui`` process pointed at ``server``, files under ``home``."""
    return {
        **os.environ,
        "GATEWAY_TUI_HOME": str(home),
        "GATEWAY_URL": server.url,
        "GATEWAY_API_KEY": server.api_key,
    }


def locked_campaign(tmp_path: Path, recipients_csv: str, gateway: str = "http://gw.example"):
    """A new campaign of a one-row list message to ``recipients_csv``, locked for recording."""
    from datetime import datetime

    from gateway_tui.core.campaign.journal import Pace, create_campaign
    from gateway_tui.core.campaign.recipients import read_recipients_file
    from gateway_tui.core.files.drafts import Draft, DraftRow, DraftSection

    to = tmp_path / "to.csv"
    to.write_text(recipients_csv)
    draft = Draft(
        title="Hi", description="d", button_text="b", sections=[DraftSection("s", [DraftRow("r")])]
    )
    campaign = create_campaign(
        gateway=gateway,
        instance="sales-eu",
        draft=draft,
        recipients=read_recipients_file(to),
        pace=Pace(0, 0),
        now=datetime.now(),
    )
    campaign.lock()
    return campaign


def run_cli_without_textual(argv: list[str], server: Any, home: Path | str):
    """Run ``gateway-tui argv`` in a process of its own; fails if it imported Textual."""
    import subprocess
    import sys

    script = (
        "import sys\nfrom gateway_tui.main import main\n"
        f"code = main({list(argv)!r})\n"
        "assert 'textual' not in sys.modules, 'textual imported'\n"
        "sys.exit(code)\n"
    )
    return subprocess.run(
        [sys.executable, "-c", script],
        env=cli_env(server, home),
        capture_output=True,
        text=True,
        timeout=120,
    )
