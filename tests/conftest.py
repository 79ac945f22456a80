"""Shared fixtures: an isolated home for every test, a demo gateway, and an app pointed at it."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from gateway_tui.tui.app import GatewayApp
from tests.support import make_app, make_config, record_notices

# The suite speaks English whatever the machine's locale (CI's, a developer's pt_BR.UTF-8): the
# tests that check English text pin it here, for this process and the commands it starts. A test
# of a translation chooses its language with the `language` fixture.
for _name in ("LC_ALL", "LC_MESSAGES", "LANGUAGE"):
    os.environ.pop(_name, None)
os.environ["LANG"] = "C.UTF-8"

# No per-example deadline and no "too slow" check: a busy machine must not fail a property
# test by being slow (a test given its own settings keeps them).
settings.register_profile("suite", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("suite")


@pytest.fixture(autouse=True)
def no_secret_known_from_another_test() -> Iterator[None]:
    """The secrets a test's clients made known (sanitize.add_secret) stay with that test."""
    from gateway_tui.core.text.sanitize import forget_secrets

    forget_secrets()
    yield
    forget_secrets()


@pytest.fixture(autouse=True)
def english_unless_asked() -> Iterator[None]:
    """Every test starts in English and leaves it so (core/text/i18n.py keeps one language)."""
    from gateway_tui.core.text.i18n import ENGLISH, set_language

    set_language(ENGLISH)
    yield
    set_language(ENGLISH)


@pytest.fixture
def language() -> Callable[[str], str]:
    """``language("pt_BR")`` speaks Portuguese for the rest of the test (English after)."""
    from gateway_tui.core.text.i18n import set_language

    return set_language


@pytest.fixture(autouse=True)
def lasting_notices(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every notice an app posts is recorded (support.notices): tests wait on the record,
    never on a toast that expires."""
    record_notices(monkeypatch)


@pytest.fixture(autouse=True)
def isolated_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """No test reads or writes the real config or data dirs, or sees a developer's gateway."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("GATEWAY_TUI_HOME", str(home))
    # Never the user's keychain: keyring's "none" backend unless a test sets one of its own.
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.fail.Keyring")
    for name in ("GATEWAY_URL", "GATEWAY_API_KEY", "GATEWAY_PROFILE"):
        monkeypatch.delenv(name, raising=False)
    return home


@pytest.fixture
def demo_server(request: pytest.FixtureRequest) -> Iterator:
    """A fresh demo gateway for one test (tests may change its data): on 127.0.0.1, or in the
    test's own event loop for a test marked ``in_process`` (tests/in_process.py)."""
    from gateway_tui.demo.server import DemoServer
    from tests.in_process import InProcessDemo

    kind = InProcessDemo if request.node.get_closest_marker("in_process") else DemoServer
    with kind() as server:
        yield server


@pytest.fixture
def app_for(demo_server) -> Callable:
    """Build a GatewayApp pointed at the demo gateway: ``app_for(api_key=..., **config)``;
    an in-process demo is reached through its ASGI transport."""
    from tests.in_process import InProcessDemo

    def build(**overrides):
        config = make_config(demo_server, **overrides)
        if isinstance(demo_server, InProcessDemo) and config.url == demo_server.url:
            return GatewayApp(config, transport=demo_server.transport())
        return make_app(config)

    return build


# The conformance suite (tests/real_gateway/) attaches to a gateway that is already running,
# given by GATEWAY_URL and GATEWAY_API_KEY. It runs under `make conformance` only
# (GTUI_CONFORMANCE=1), never by surprise in `make test`; without the two variables it stops
# with one line saying what it needs. The variables are read here, before isolated_home hides
# them from every test.
_REAL_GATEWAY_DIR = Path(__file__).parent / "real_gateway"


def pytest_configure(config: pytest.Config) -> None:
    from tests.real_gateway.live import LiveGateway, needs

    config._live_gateway = None  # type: ignore[attr-defined]
    config._live_left_out = None  # type: ignore[attr-defined]
    if os.environ.get("GTUI_CONFORMANCE") != "1":
        config._live_left_out = (  # type: ignore[attr-defined]
            "make conformance GATEWAY_URL=… GATEWAY_API_KEY=… runs it against a running gateway"
        )
        return
    reason = needs()
    if reason:
        pytest.exit(f"conformance suite: {reason}", returncode=2)
    config._live_gateway = LiveGateway.from_env()  # type: ignore[attr-defined]


# `make test-fast` leaves out what is marked slow: whole folders of long suites, and any test
# marked @pytest.mark.slow by hand.
TESTS_DIR = Path(__file__).parent
SLOW_FOLDERS = frozenset({"snapshots", "fuzz"})
SLOW_FILES = frozenset({"test_conformance_suite.py"})


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        path = Path(item.path)
        if not path.is_relative_to(TESTS_DIR):
            continue
        parts = path.relative_to(TESTS_DIR).parts
        if parts[0] in SLOW_FOLDERS or path.name in SLOW_FILES:
            item.add_marker(pytest.mark.slow)


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    if getattr(config, "_live_left_out", None) and collection_path.is_relative_to(
        _REAL_GATEWAY_DIR
    ):
        return True
    return None


def pytest_terminal_summary(terminalreporter, exitstatus, config: pytest.Config) -> None:
    reason = getattr(config, "_live_left_out", None)
    if reason:
        terminalreporter.write_line(f"conformance suite (a running gateway): not run — {reason}")
