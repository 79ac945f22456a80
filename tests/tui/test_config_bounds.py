"""Config that would hurt: a refresh interval too short is raised (in one place) and said; an
unknown theme is said, not a traceback; the "other users can read this key file" warning is
shown (issue 29, item 11)."""

from __future__ import annotations

import pytest

from gateway_tui.core.files.config import MIN_REFRESH_INTERVAL, config_path, load_config
from tests.support import make_app, make_config, wait_for


def write_config(text: str) -> None:
    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    path.chmod(0o600)


@pytest.mark.parametrize("asked", ["0.001", "1e-300"])
def test_a_refresh_interval_too_short_is_raised_and_said(asked: str) -> None:
    write_config(f"refresh_interval = {asked}\n")
    config = load_config()
    assert config.refresh_interval == MIN_REFRESH_INTERVAL
    assert any("refresh_interval" in w and "too short" in w for w in config.warnings)


def test_zero_still_turns_the_refresh_off() -> None:
    write_config("refresh_interval = 0\n")
    config = load_config()
    assert config.refresh_interval == 0 and config.warnings == []


def _said(app) -> list[str]:
    said: list[str] = []  # every notice, kept (a toast expires)
    shown = app.notify

    def notify(message, *args, **kwargs):
        said.append(str(message))
        return shown(message, *args, **kwargs)

    app.notify = notify
    return said


async def test_an_unknown_theme_is_said_and_the_app_runs(demo_server) -> None:
    app = make_app(make_config(demo_server, theme="no-such-theme"))
    said = _said(app)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: any("no-such-theme" in s for s in said))
        assert app.theme != "no-such-theme"
        await wait_for(pilot, lambda: bool(app.state.instances.value))


async def test_the_key_file_warning_is_shown(demo_server) -> None:
    write_config(f'[profiles.p]\nurl = "{demo_server.url}"\napi_key = "{demo_server.api_key}"\n')
    config_path().chmod(0o644)
    config = load_config(profile="p")
    assert any("other users" in w for w in config.warnings)
    config.refresh_interval = 0
    app = make_app(config)
    said = _said(app)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: any("other users" in s for s in said))
