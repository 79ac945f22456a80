import gc
import os
import subprocess
import sys
import types

import pytest

from gateway_tui.core.files.config import ResolvedConfig, config_path
from gateway_tui.main import main
from tests.support import PROCESS_LIMIT

HEAVY_MODULES = ("textual", "httpx", "starlette", "uvicorn")


class FakeApp:
    """Stands in for gateway_tui.tui.app: records the config run_app was given."""

    def __init__(self, exit_code: int = 0) -> None:
        self.configs: list[ResolvedConfig] = []
        self.exit_code = exit_code
        self.collector_on: list[bool] = []
        self.launches: list[tuple[str | None, str | None] | None] = []

    def run_app(self, config, *, starting_url: str | None = None, launch=None) -> int:
        self.collector_on.append(gc.isenabled())
        self.launches.append(launch)  # what decides which kept instance rows are drawn first
        # The app is given a loader (it loads the config after its first frame): load it here.
        self.configs.append(config() if callable(config) else config)
        return self.exit_code


class FakeDemoServer:
    url = "http://127.0.0.1:40404"
    api_key = "demo-key"
    instances: list["FakeDemoServer"] = []

    def __init__(self, **options) -> None:
        self.options = options
        self.running = False
        FakeDemoServer.instances.append(self)

    def __enter__(self) -> "FakeDemoServer":
        self.running = True
        return self

    def __exit__(self, *exc_info) -> None:
        self.running = False


@pytest.fixture
def fake_app(monkeypatch):
    app = FakeApp()
    module = types.ModuleType("gateway_tui.tui.app")
    module.run_app = app.run_app
    monkeypatch.setitem(sys.modules, "gateway_tui.tui.app", module)
    return app


@pytest.fixture
def demo_module(monkeypatch):
    FakeDemoServer.instances = []
    module = types.ModuleType("gateway_tui.demo.server")
    module.DemoServer = FakeDemoServer
    module.serve_calls = []

    def serve(port, **options):
        module.serve_calls.append((port, options))
        return 0

    module.serve = serve
    monkeypatch.setitem(sys.modules, "gateway_tui.demo.server", module)
    return module


def run_python(code: str, tmp_path) -> subprocess.CompletedProcess:
    env = {**os.environ, "GATEWAY_TUI_HOME": str(tmp_path / "home")}
    return subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=PROCESS_LIMIT
    )


def no_heavy_imports_script(argv: list[str], prelude: str = "") -> str:
    """Python code that runs main(argv) and fails if Textual or the HTTP stack got imported."""
    return f"""{prelude}
import sys
from gateway_tui.main import main
try:
    main({argv!r})
except SystemExit:  # --help exits
    pass
imported = [name for name, module in sys.modules.items() if module is not None]
heavy = sorted(m for m in imported if m.split(".")[0] in {HEAVY_MODULES!r})
assert not heavy, heavy
print("ok")
"""


@pytest.mark.parametrize("argv", [["config", "path"], ["--help"], ["demo-server", "--help"]])
def test_light_commands_import_no_textual_or_http_stack(tmp_path, argv):
    result = run_python(no_heavy_imports_script(argv), tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().endswith("ok")


def test_the_no_import_check_can_fail(tmp_path):
    """Guards the check above: it does notice a heavy import."""
    script = no_heavy_imports_script(["config", "path"], prelude="import textual")
    assert run_python(script, tmp_path).returncode != 0


def test_config_path_prints_the_path(capsys, isolated_home):
    assert main(["config", "path"]) == 0
    assert capsys.readouterr().out == f"{isolated_home / 'config' / 'config.toml'}\n"
    assert config_path() == isolated_home / "config" / "config.toml"


def test_help_exits_cleanly(capsys):
    with pytest.raises(SystemExit) as exited:
        main(["--help"])
    assert exited.value.code == 0
    assert "--demo-instances" in capsys.readouterr().out


def test_flags_reach_the_app(fake_app, capsys):
    key = "sk-cli-0123456789"
    assert main(["--url", "https://gw.example.com/", "--api-key", key]) == 0
    [config] = fake_app.configs
    assert config.url == "https://gw.example.com"
    assert config.api_key.get_secret_value() == key
    assert not config.demo
    captured = capsys.readouterr()
    assert key not in captured.out + captured.err


def test_env_and_profile_reach_the_app(fake_app, monkeypatch):
    monkeypatch.setenv("GATEWAY_URL", "https://env.example.com")
    monkeypatch.setenv("GATEWAY_API_KEY", "env-key")
    main(["--profile", "missing"])
    [config] = fake_app.configs
    assert config.url == "https://env.example.com"
    assert any("'missing'" in problem for problem in config.problems)
    assert fake_app.launches == [(None, "missing")]  # the kept rows of this launch come first


def test_the_app_starts_with_the_collector_off_and_it_is_on_after(fake_app):
    """The start builds only long-lived objects: no collection among them (the app turns the
    collector on once its home screen is up; the command line, when the app ends)."""
    assert gc.isenabled()
    main(["--url", "https://gw.example.com", "--api-key", "k"])
    assert fake_app.collector_on == [False]
    assert gc.isenabled()


def test_the_app_exit_code_is_returned(fake_app):
    fake_app.exit_code = 3
    assert main([]) == 3


def test_demo_runs_the_app_against_the_demo_server(fake_app, demo_module):
    assert main(["--demo", "--demo-instances", "7", "--url", "https://ignored.example.com"]) == 0
    [server] = FakeDemoServer.instances
    assert server.options == {"instances": 7}
    assert not server.running  # stopped once the app returned
    [config] = fake_app.configs
    assert config.demo
    assert config.url == FakeDemoServer.url
    assert config.api_key.get_secret_value() == FakeDemoServer.api_key
    assert config.is_complete


def test_demo_without_a_count_keeps_the_demo_default(fake_app, demo_module):
    main(["--demo"])
    assert FakeDemoServer.instances[0].options == {}


def test_demo_server_that_cannot_start_gives_a_plain_error(fake_app, demo_module, capsys):
    def refuse(**options):
        raise OSError(98, "Address already in use")

    demo_module.DemoServer = refuse
    assert main(["--demo"]) == 1
    err = capsys.readouterr().err
    assert "cannot start the demo gateway: Address already in use" in err
    assert "Traceback" not in err
    assert fake_app.configs == []


def test_demo_server_command_calls_serve(demo_module):
    assert main(["demo-server", "--port", "9001", "--instances", "4", "--latency-ms", "250"]) == 0
    assert demo_module.serve_calls == [(9001, {"instances": 4, "latency_ms": 250})]


def test_demo_server_command_defaults(demo_module):
    main(["demo-server"])
    assert demo_module.serve_calls == [(8080, {})]


def test_a_taken_port_gives_a_plain_error(demo_module, capsys):
    def serve(port, **options):
        raise OSError(98, "Address already in use")

    demo_module.serve = serve
    assert main(["demo-server", "--port", "9001"]) == 1
    assert "port 9001: Address already in use" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--url", "gw.example.com"], "must start with http:// or https://"),
        (["--demo-instances", "3"], "--demo-instances needs --demo"),
        (["--demo", "--demo-instances", "-1"], "from 0 or more"),
        (["demo-server", "--port", "70000"], "from 1 to 65535"),
        (["config"], "required"),
    ],
)
def test_usage_errors_are_plain_messages(capsys, argv, message):
    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_a_bad_url_with_credentials_is_not_echoed(capsys):
    with pytest.raises(SystemExit):
        main(["--url", "https://me:sk-secret@gw.example.com"])
    assert "sk-secret" not in capsys.readouterr().err


def test_ctrl_c_exits_quietly(monkeypatch):
    def interrupted(config, **_options):
        raise KeyboardInterrupt

    module = types.ModuleType("gateway_tui.tui.app")
    module.run_app = interrupted
    monkeypatch.setitem(sys.modules, "gateway_tui.tui.app", module)
    assert main([]) == 130
