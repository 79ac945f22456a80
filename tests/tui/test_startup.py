"""Start-up: what importing the app pulls in, and the work done before the first frame.

Only what happens is checked here, never how long it takes: speed is measured in bench/.
"""

from __future__ import annotations

import gc

import httpx

from gateway_tui.core.client_factory import transport_for as _transport_for
from gateway_tui.tui.screens.instances import InstancesScreen
from tests.support import imported_by, wait_for

# Not needed for the first frame of the app, so not imported by `import gateway_tui.tui.app`.
NOT_AT_START = (
    "starlette",
    "uvicorn",
    "gateway_tui.demo",
    "gateway_tui.tui.screens.groups",
    "gateway_tui.tui.screens.participants",
    "gateway_tui.tui.screens.instance",
)


def heavy(modules: set[str]) -> list[str]:
    return sorted(
        name for name in modules if any(name == m or name.startswith(m + ".") for m in NOT_AT_START)
    )


def test_importing_the_app_leaves_out_what_the_first_frame_does_not_need(tmp_path):
    modules = imported_by("import gateway_tui.tui.app, gateway_tui.tui.screens.instances", tmp_path)
    assert "textual.app" in modules and "httpx" in modules  # the check sees real imports
    assert heavy(modules) == []


def test_the_http_client_leaves_httpx_command_line_client_out(tmp_path):
    """httpx loads its command-line client (click, pygments, rich.syntax) whenever click is
    installed (uvicorn brings it): about 18 ms of every start, for nothing the app runs."""
    modules = imported_by("import gateway_tui.core.api.client", tmp_path)
    assert "httpx" in modules  # the check sees real imports
    assert _click_installed()  # so leaving it out means something
    assert sorted(m for m in modules if m in ("httpx._main", "click", "pygments.lexers")) == []


def _click_installed() -> bool:
    import importlib.util

    return importlib.util.find_spec("click") is not None


def test_the_first_frame_needs_neither_the_http_stack_nor_pydantic(tmp_path):
    """What runs before the first frame: the command line, the app and the starting screen."""
    modules = imported_by(
        "import gateway_tui.main, gateway_tui.tui.app, gateway_tui.tui.screens.starting",
        tmp_path,
    )
    assert "textual.app" in modules
    early = ("httpx", "httpcore", "pydantic", "gateway_tui.core.files.config")
    assert sorted(m for m in modules if m.split(".")[0] in early or m in early) == []


async def test_the_first_frame_shows_loading_then_the_instances(demo_server):
    """From the command line the app is given a config loader: it draws the header and an
    empty table saying "loading…" first, then loads the config and shows the instances."""
    from gateway_tui.core.files.config import load_config
    from gateway_tui.tui.app import GatewayApp
    from gateway_tui.tui.screens.starting import LOADING
    from tests.support import screen_text

    shown_when_loading = []

    def load():
        # Called once the first frame is drawn, with the starting screen still up.
        shown_when_loading.append(screen_text(app))
        return load_config(url=demo_server.url, api_key=demo_server.api_key)

    app = GatewayApp(load, starting_url=demo_server.url)
    assert not app.started
    gc.disable()  # as the command line starts the app
    try:
        async with app.run_test(size=(140, 40)) as pilot:
            await wait_for(pilot, lambda: "sales-eu" in screen_text(app))
            assert app.started and isinstance(app.screen, InstancesScreen)
            assert gc.isenabled()  # the start is over: the collector is on again
    finally:
        gc.enable()
    [first_frame] = shown_when_loading
    assert LOADING in first_frame and "Name" in first_frame and demo_server.url in first_frame


def test_the_import_check_can_fail(tmp_path):
    """Guards the check above: it does notice an unwanted import."""
    assert heavy(imported_by("import gateway_tui.tui.app, gateway_tui.demo.server", tmp_path))


async def test_the_instances_are_asked_for_once_at_start(app_for):
    """The app asks before its first screen is built; the screen does not ask again."""
    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_for(
            pilot, lambda: isinstance(app.screen, InstancesScreen) and app.state.instances.value
        )
        await pilot.pause(0.2)
        fetches = [e for e in app.state.calls if e.path == "/instance/fetchInstances"]
        assert len(fetches) == 1


def test_only_plain_http_gateways_skip_loading_the_certificates():
    assert _transport_for("https://gw.example.com") is None  # httpx's default: verified TLS
    assert isinstance(_transport_for("http://127.0.0.1:8080"), httpx.AsyncHTTPTransport)
