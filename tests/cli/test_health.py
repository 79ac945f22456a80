"""``gateway-tui health``: every profile's gateway judged, one line per instance, exit 0 / 1 / 2;
against demo gateways — one stopped, one refusing the key — and with no Textual import."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from gateway_tui.demo.server import DemoServer
from gateway_tui.main import main
from tests.support import json_lines


def write_profiles(home: Path, profiles: dict[str, dict[str, str]]) -> None:
    lines = []
    for name, values in profiles.items():
        lines.append(f"[profiles.{name}]")
        lines += [f'{key} = "{value}"' for key, value in values.items()]
    path = home / "config" / "config.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n")
    path.chmod(0o600)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def health(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["health", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_all_ok_exits_0_and_writes_a_line_per_instance(isolated_home, capsys) -> None:
    with DemoServer(instances=2) as server:
        write_profiles(isolated_home, {"prod": {"url": server.url, "api_key": server.api_key}})
        code, out, err = health(capsys)
    assert code == 0, err
    assert out.splitlines() == ["prod  sales-eu  ok: open", "prod  support  ok: open"]


def test_a_stopped_gateway_and_a_refused_key_are_one_row_each_and_exit_2(
    isolated_home, capsys
) -> None:
    with DemoServer(instances=1) as stopped:
        stopped_url = stopped.url  # it stops at the end of this block
    with DemoServer(instances=2) as good:
        write_profiles(
            isolated_home,
            {
                "good": {"url": good.url, "api_key": good.api_key},
                "stopped": {"url": stopped_url, "api_key": "KEY-OF-THE-STOPPED-ONE"},
                "wrongkey": {"url": good.url, "api_key": "NOT-THE-DEMO-KEY-99"},
            },
        )
        code, out, err = health(capsys, "--json")
    assert code == 2
    rows = json_lines(out)
    by_gateway = {}
    for row in rows:
        by_gateway.setdefault(row["gateway"], []).append(row)
    assert [r["verdict"] for r in by_gateway["good"]] == ["ok", "ok"]
    (down,) = by_gateway["stopped"]
    assert down["instance"] is None and down["verdict"] == "unreachable"
    (refused,) = by_gateway["wrongkey"]
    assert refused["instance"] is None and refused["verdict"] == "unauthorized"
    assert set(rows[0]) == {"gateway", "instance", "verdict", "reason", "evidence"}
    # no key is ever written
    for secret in ("KEY-OF-THE-STOPPED-ONE", "NOT-THE-DEMO-KEY-99", good.api_key):
        assert secret not in out + err


def test_profiles_can_be_chosen(isolated_home, capsys) -> None:
    with DemoServer(instances=1) as server:
        write_profiles(
            isolated_home,
            {
                "a": {"url": server.url, "api_key": server.api_key},
                "b": {"url": f"http://127.0.0.1:{free_port()}", "api_key": "whatever-1"},
            },
        )
        code, out, _ = health(capsys, "--profile", "a")
    assert code == 0
    assert {row.split()[0] for row in out.splitlines()} == {"a"}


@pytest.mark.parametrize(
    "argv",
    [["--profile", "nope"], ["--watch", "0"], ["--watch", "soon"], ["--watch", "nan"]],
)
def test_bad_input_exits_1_with_a_plain_message(isolated_home, capsys, argv) -> None:
    write_profiles(isolated_home, {"a": {"url": "http://127.0.0.1:9", "api_key": "k-12345"}})
    code, out, err = health(capsys, *argv)
    assert code == 1
    assert out == ""
    assert err.startswith("gateway-tui: error: ") and "Traceback" not in err


def test_no_gateway_at_all_is_bad_input(isolated_home, capsys) -> None:
    code, _, err = health(capsys)
    assert code == 1 and "no gateway" in err


def test_without_profiles_the_url_given_is_read(isolated_home, capsys, monkeypatch) -> None:
    with DemoServer(instances=3) as server:
        monkeypatch.setenv("GATEWAY_URL", server.url)
        monkeypatch.setenv("GATEWAY_API_KEY", server.api_key)
        code, out, _ = health(capsys, "--json")
    assert code == 0
    assert [row["instance"] for row in json_lines(out)] == ["marketing-br", "sales-eu", "support"]


def test_health_imports_no_textual(isolated_home) -> None:
    with DemoServer(instances=2, api_version="2.3.6") as server:
        write_profiles(isolated_home, {"v2": {"url": server.url, "api_key": server.api_key}})
        script = (
            "import sys\nfrom gateway_tui.main import main\n"
            "code = main(['health', '--json'])\n"
            "assert 'textual' not in sys.modules, 'textual imported'\n"
            "sys.exit(code)\n"
        )
        done = subprocess.run(
            [sys.executable, "-c", script],
            env={**os.environ, "GATEWAY_TUI_HOME": str(isolated_home)},
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert {row["evidence"]["version"] for row in rows} == {"2.3.6"}
