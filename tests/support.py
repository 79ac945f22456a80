"""Helpers the test modules share (fixtures live in conftest.py)."""

from __future__ import annotations

import io
import os
import weakref
from pathlib import Path
from typing import Any

from rich.console import Console
from textual.app import App
from textual.drivers.headless_driver import HeadlessDriver

from gateway_tui.core.files.config import ResolvedConfig, load_config
from gateway_tui.screenshots.base import wait_until as wait_for
from gateway_tui.tui.app import GatewayApp
from gateway_tui.tui.textual_private import rendered_screen

# A guard against a process that hangs, never a deadline: a busy machine is only slow.
PROCESS_LIMIT = 600.0


def pytest_env(**extra: str) -> dict[str, str]:
    """The environment of a pytest run a test starts: the caller's options
    (``PYTEST_ADDOPTS=-v make test``) would change the output the test reads."""
    return {k: v for k, v in os.environ.items() if k != "PYTEST_ADDOPTS"} | extra


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


# Every notice an app posted (title, message, as shown: sanitized, masked), kept until the app's
# clear_notifications(). A toast expires on screen after a few seconds, and a busy machine is
# slower than that: a test waits on this record, never on the toast (tests/conftest.py records).
NOTICES: weakref.WeakKeyDictionary[App, list[tuple[str, str]]] = weakref.WeakKeyDictionary()


def record_notices(monkeypatch: Any) -> None:
    """Record every app's notices in NOTICES (Textual's App.notify, which GatewayApp.notify
    ends in, and clear_notifications)."""
    notify, clear = App.notify, App.clear_notifications

    def recording_notify(self: App, message: Any, *, title: str = "", **kwargs: Any) -> None:
        NOTICES.setdefault(self, []).append((str(title), str(message)))
        notify(self, message, title=title, **kwargs)

    def recording_clear(self: App) -> None:
        NOTICES.pop(self, None)
        clear(self)

    monkeypatch.setattr(App, "notify", recording_notify)
    monkeypatch.setattr(App, "clear_notifications", recording_clear)


def posted_notices(app: App) -> list[tuple[str, str]]:
    """(title, message) of every notice ``app`` posted since its last clear_notifications,
    whether or not it is still shown."""
    return list(NOTICES.get(app, ()))


def notices(app: GatewayApp) -> list[str]:
    """Every notice the app posted since its last clear_notifications, as "title: message"
    lines (shown or already expired: see NOTICES)."""
    return [f"{title}: {message}" for title, message in posted_notices(app)]


__all__ = ["make_app", "make_config", "notices", "screen_text", "wait_for"]


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
    from gateway_tui.core.draft import Draft, DraftRow, DraftSection

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
        timeout=PROCESS_LIMIT,
    )


def wait_in_thread(condition, what: str, within: float = 60.0) -> None:
    """Block (outside any event loop) until ``condition()`` holds; generous on a busy machine."""
    import time

    deadline = time.monotonic() + within
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {within} s: {what}")
        time.sleep(0.002)


def json_lines(text: str) -> list[dict]:
    """The JSON objects of a command's --json output, one a line."""
    import json

    return [json.loads(line) for line in text.splitlines()]


class FakeTime:
    """A clock and a sleep for the campaign runner: sleeping moves the clock, not the test."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0
        self.mono = 1_000.0  # the pacing's clock: moves with ``now``, from another origin

    def clock(self) -> float:
        return self.now

    def monotonic(self) -> float:
        return self.mono

    async def sleep(self, seconds: float) -> None:
        import asyncio

        self.now += seconds
        self.mono += seconds
        await asyncio.sleep(0)


def numbers(count: int, prefix: str = "4917000") -> list[str]:
    return [f"{prefix}{index:06d}" for index in range(count)]


def new_campaign(server: Any, count: int = 6, pace: Any = None, names=None, **kw: Any):
    """A campaign of CAMPAIGN_DRAFT to ``count`` numbers on the demo ``server``."""
    from datetime import datetime

    from gateway_tui.core.campaign.journal import Pace, create_campaign
    from gateway_tui.core.campaign.recipients import parse_recipients
    from tests.data import CAMPAIGN_DRAFT

    rows = "".join(f"{n},{(names or {}).get(n, 'P' + n[-2:])}\n" for n in numbers(count))
    return create_campaign(
        gateway=server.url,
        instance=kw.pop("instance", "sales-eu"),
        draft=kw.pop("draft", CAMPAIGN_DRAFT),
        recipients=parse_recipients("number,name\n" + rows),
        pace=pace or Pace(0),
        now=datetime(2026, 11, 23, 10, 0),
        **kw,
    )


def run_campaign(server: Any, campaign: Any, *, api_key=None, url=None, fake=None, **kw: Any):
    """Run ``campaign`` to its end against ``server`` on fake time: (runner, final state)."""
    import asyncio

    from gateway_tui.core.api import GatewayClient
    from gateway_tui.core.campaign.runner import CampaignRunner

    fake = fake or FakeTime()

    async def go():
        async with GatewayClient(url or server.url, api_key or server.api_key) as client:
            runner = CampaignRunner(
                campaign, client, clock=fake.clock, sleep=fake.sleep, monotonic=fake.monotonic, **kw
            )
            return runner, await runner.run()

    return asyncio.run(go())


class CapturingDriver(HeadlessDriver):
    """The headless driver, but the app paints through it and every write is kept."""

    outputs: list[str] = []

    @property
    def is_headless(self) -> bool:
        return False

    def write(self, data: str) -> None:
        data.encode("utf-8")  # a lone surrogate here would crash a real terminal driver
        CapturingDriver.outputs.append(data)

    def flush(self) -> None:
        pass


def burst(app: GatewayApp, *keys: str) -> None:
    """Post every key at once, as a terminal does when someone types fast (Pilot's ``press``
    waits for the app between keys, which hides what a fast typist meets)."""
    from textual import events

    from gateway_tui.tui.textual_private import character_to_key

    for key in keys:
        char = key if len(key) == 1 else None
        name = character_to_key(key) if len(key) == 1 and not key.isalnum() else key
        app.post_message(events.Key(name, char))


def imported_by(code: str, tmp_path: Path) -> set[str]:
    """The modules ``code`` imports, run in a fresh interpreter (a module marked absent, None
    in sys.modules, was not imported)."""
    import subprocess
    import sys

    listing = "sorted(name for name, module in sys.modules.items() if module is not None)"
    script = f"{code}\nimport sys\nprint('\\n'.join({listing}))"
    env = {**os.environ, "GATEWAY_TUI_HOME": str(tmp_path / "home")}
    done = subprocess.run(
        [sys.executable, "-c", script],
        env=env,
        capture_output=True,
        text=True,
        timeout=PROCESS_LIMIT,
    )
    assert done.returncode == 0, done.stderr
    return set(done.stdout.split())


def wav_base64(seconds: float) -> str:
    """A silent 8 kHz mono WAV of ``seconds``, in base64 (a voice note's file)."""
    import base64
    import struct

    rate, samples = 8000, int(8000 * seconds)
    header = b"RIFF" + struct.pack("<I", 36 + samples * 2) + b"WAVEfmt "
    header += struct.pack("<IHHIIHH", 16, 1, 1, rate, rate * 2, 2, 16)
    header += b"data" + struct.pack("<I", samples * 2)
    return base64.b64encode(header + b"\0" * samples * 2).decode()
