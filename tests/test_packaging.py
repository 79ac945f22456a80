"""The built wheel is the app: it holds what the app needs (and no tests or screenshots), and
from a fresh virtual environment, outside the checkout and without the dev extras, it runs
``--version``, ``--help``, the demo gateway, a headless command against it, and the app itself.
A module or file missing from the package fails here. (``make test`` runs it; it is slow: pip
installs the dependencies into the new environment.)"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

from gateway_tui import __version__
from tests.terminal import Terminal

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
WAIT = 600  # pip may download every dependency on a slow line


def _run(args: list[str], **kw) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(args, capture_output=True, text=True, timeout=WAIT, **kw)
    assert done.returncode == 0, f"{args}: {done.stdout}\n{done.stderr}"
    return done


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> tuple[Path, Path]:
    """(the wheel, the bin dir of a fresh venv it is installed in)."""
    where = tmp_path_factory.mktemp("wheel")
    _run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(where), "."],
        cwd=ROOT,
    )
    (wheel,) = where.glob("gateway_tui-*.whl")
    venv = where / "venv"
    base = getattr(sys, "_base_executable", sys.executable)
    _run([base, "-m", "venv", str(venv)])
    _run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", str(wheel)], cwd=where)
    return wheel, venv / "bin"


def _clean_env(home: Path) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("GATEWAY_", "PYTHON", "VIRTUAL_ENV", "TEXTUAL"))
    }
    return env | {"GATEWAY_TUI_HOME": str(home), "PYTHONNOUSERSITE": "1"}


def test_the_wheel_holds_the_app_and_nothing_else(installed):
    wheel, _ = installed
    names = zipfile.ZipFile(wheel).namelist()
    assert "gateway_tui/tui/app.tcss" in names
    assert "gateway_tui/core/files/app_facts.py" in names
    assert not [n for n in names if n.startswith(("tests/", "bench/", "screenshots/"))]
    assert not [n for n in names if n.startswith("gateway_tui/screenshots/")]
    assert not [n for n in names if n.endswith((".svg", ".png", ".pyc"))]
    # The compiled catalogues ship; their sources stay in the repository.
    for language in ("pt_BR", "es"):
        assert f"gateway_tui/locale/{language}/LC_MESSAGES/gateway_tui.mo" in names
    assert not [n for n in names if n.endswith(".po")]


def test_version_and_help_from_a_fresh_venv(installed, tmp_path):
    _, bin_dir = installed
    env = _clean_env(tmp_path)
    done = _run([str(bin_dir / "gateway-tui"), "--version"], env=env, cwd=tmp_path)
    assert done.stdout.strip() == f"gateway-tui {__version__}"
    done = _run([str(bin_dir / "gateway-tui"), "--help"], env=env, cwd=tmp_path)
    assert "send-list" in done.stdout and "completion" in done.stdout
    # The installed copy, not the checkout, and no dev extras in that environment.
    where = _run(
        [str(bin_dir / "python"), "-c", "import gateway_tui; print(gateway_tui.__file__)"],
        env=env,
        cwd=tmp_path,
    ).stdout
    assert str(bin_dir.parent) in where and str(ROOT) not in where
    assert _run([str(bin_dir / "python"), "-m", "pip", "list"], env=env).stdout.count("pytest") == 0


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_the_demo_gateway_a_headless_command_and_the_app_run_installed(installed, tmp_path):
    _, bin_dir = installed
    env = _clean_env(tmp_path)
    port = _free_port()
    server = subprocess.Popen(
        [str(bin_dir / "gateway-tui"), "demo-server", "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
        cwd=tmp_path,
    )
    try:
        key = None
        assert server.stdout is not None
        for line in server.stdout:  # the server prints its URL and key, then serves
            if match := re.match(r"Global API key: (\S+)", line):
                key = match.group(1)
                break
        assert key, "the demo gateway printed no key"
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 120
        while True:  # listening yet? (the line is printed before uvicorn binds)
            try:
                socket.create_connection(("127.0.0.1", port), timeout=5).close()
                break
            except OSError:
                assert time.monotonic() < deadline and server.poll() is None
                time.sleep(0.1)
        done = _run(
            [str(bin_dir / "gateway-tui"), "instances", "--json"],
            env=env | {"GATEWAY_URL": url, "GATEWAY_API_KEY": key},
            cwd=tmp_path,
        )
        names = [row["name"] for row in json.loads(done.stdout)]
        assert "sales-eu" in names
        # The app itself, on a terminal: its stylesheet and screens came with the wheel.
        app = Terminal(
            [str(bin_dir / "gateway-tui"), "--url", url],
            env | {"GATEWAY_API_KEY": key, "TERM": "xterm-256color"},
        )
        try:
            app.wait_for_text("sales-eu")
        finally:
            app.close()
    finally:
        server.terminate()
        server.wait(timeout=30)
