"""Shared fixtures: an isolated home for every test, a demo gateway, and an app pointed at it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.support import make_app, make_config


@pytest.fixture(autouse=True)
def isolated_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """No test reads or writes the real config or data dirs, or sees a developer's gateway."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("GATEWAY_TUI_HOME", str(home))
    for name in ("GATEWAY_URL", "GATEWAY_API_KEY", "GATEWAY_PROFILE"):
        monkeypatch.delenv(name, raising=False)
    return home


@pytest.fixture
def demo_server() -> Iterator:
    """A fresh demo gateway on 127.0.0.1 for one test (tests may change its data)."""
    from gateway_tui.demo.server import DemoServer

    with DemoServer() as server:
        yield server


@pytest.fixture
def app_for(demo_server) -> Callable:
    """Build a GatewayApp pointed at the demo gateway: ``app_for(api_key=..., **config)``."""

    def build(**overrides):
        return make_app(make_config(demo_server, **overrides))

    return build
