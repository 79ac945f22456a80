"""Shared fixtures: an isolated home for every test, a demo gateway, and an app pointed at it."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from tests.support import make_app, make_config

# No per-example deadline and no "too slow" check: a busy machine must not fail a property
# test by being slow (a test given its own settings keeps them).
settings.register_profile("suite", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("suite")


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


# The suite against the real 1.7.1 gateway runs whenever it can be built here (node >= 18 and
# ../shared/real-gateway); otherwise it is left out with one line that says why.
# REQUIRE_REAL_GATEWAY=1 (make conformance) turns "cannot run" into a failure instead.
_REAL_GATEWAY_DIR = Path(__file__).parent / "real_gateway"


def _real_gateway_missing() -> str | None:
    if os.environ.get("REQUIRE_REAL_GATEWAY") == "1":
        return None
    from tests.real_gateway.gateway import unavailable_reason

    return unavailable_reason()


def pytest_configure(config: pytest.Config) -> None:
    config._real_gateway_missing = _real_gateway_missing()  # type: ignore[attr-defined]


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    if getattr(config, "_real_gateway_missing", None) and collection_path.is_relative_to(
        _REAL_GATEWAY_DIR
    ):
        return True
    return None


def pytest_terminal_summary(terminalreporter, exitstatus, config: pytest.Config) -> None:
    reason = getattr(config, "_real_gateway_missing", None)
    if reason:
        terminalreporter.write_line(f"real-gateway conformance suite: not run — {reason}")
