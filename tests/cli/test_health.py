"""``gateway-tui health``: every profile's gateway judged, one line per instance, exit 0 / 1 / 2;
against demo gateways — one stopped, one refusing the key — and with no Textual import."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from gateway_tui.demo.server import DemoServer
from gateway_tui.main import main
from tests.support import PROCESS_LIMIT, json_lines


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
            timeout=PROCESS_LIMIT,
        )
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert {row["evidence"]["version"] for row in rows} == {"2.3.6"}


def test_health_json_over_the_demo_fleet_gives_each_case_its_verdict(isolated_home) -> None:
    """The issue's done-when in ``health --json``: the zombies (by connectionState on 1.7.1, by
    /metrics on 2.3.7), the licence-gated gateway, the stopped one; and with --watch the
    flapping instance, which takes several readings to tell."""
    import select
    import time

    from gateway_tui.demo.fleet import start_fleet

    with start_fleet(instances=2, flap_seconds=0.4) as fleet:
        profiles = {}
        for gateway in fleet.gateways:
            values = {"url": gateway.url, "api_key": gateway.api_key or "no-key-1234"}
            if gateway.metrics_auth:
                values["metrics_user"], values["metrics_password"] = gateway.metrics_auth
            profiles[gateway.name.replace(".", "_")] = values
        write_profiles(isolated_home, profiles)
        env = {**os.environ, "GATEWAY_TUI_HOME": str(isolated_home)}
        once = subprocess.run(
            [sys.executable, "-m", "gateway_tui", "health", "--json"],
            env=env,
            capture_output=True,
            text=True,
            timeout=PROCESS_LIMIT,
        )
        assert once.returncode == 2, once.stderr
        rows = {(r["gateway"], r["instance"]): r for r in json_lines(once.stdout)}
        assert rows[("demo-1_7_1", "zombie-a")]["verdict"] == "zombie"
        assert rows[("demo-2_3_7", "zombie-b")]["verdict"] == "zombie"
        assert rows[("demo-2_3_7", "zombie-b")]["evidence"]["source"] == "/metrics"
        assert rows[("demo-2_3_6", "sales-eu")]["evidence"]["source"] == "/metrics"  # basic auth
        licence = rows[("demo-2_4-licence", None)]
        assert licence["verdict"] == "licence" and licence["evidence"]["register_url"]
        assert rows[("demo-stopped", None)]["verdict"] == "unreachable"
        for gateway in fleet.gateways:  # no key nor metrics password written
            for secret in (gateway.api_key, *(gateway.metrics_auth or ())):
                assert not secret or secret not in once.stdout + once.stderr
        # --watch: the flapping instance is told by its changes
        watch = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gateway_tui",
                "health",
                "--json",
                "--watch",
                "1",
                "--profile",
                "demo-2_3_7",
            ],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        try:
            deadline = time.monotonic() + 120
            flapping = None
            while flapping is None and time.monotonic() < deadline:
                ready, _, _ = select.select([watch.stdout], [], [], 5)
                if not ready:
                    continue
                row = json.loads(watch.stdout.readline())
                if row["instance"] == "flaky-b" and "flapping" in row["evidence"]:
                    flapping = row
            assert flapping is not None, "flaky-b was never said to flap"
            assert "flapping" in flapping["reason"]
        finally:
            watch.terminate()
            watch.wait(30)


# The moments of each reading (ISO times, and clock times inside reasons) differ run to run.
_TIMES = re.compile(r"\d{4}-\d\d-\d\dT[\d:.]+(?:Z|[+-]\d\d:\d\d)?|\b\d\d:\d\d(?::\d\d)?\b")


def _health(home, lang: str, *args: str) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "LANG")}
    return subprocess.run(
        [sys.executable, "-m", "gateway_tui", "--lang", lang, "health", *args],
        env={**base, "GATEWAY_TUI_HOME": str(home)},
        capture_output=True,
        text=True,
        timeout=PROCESS_LIMIT,
    )


def test_health_json_is_the_same_in_english_and_portuguese(isolated_home) -> None:
    from gateway_tui.demo.fleet import start_fleet

    # 4 gateways: 1.7.1 and 2.3.7 with a zombie each, 2.3.6 behind /metrics' basic auth, the
    # licence-gated 2.4; no flapping in the time of the test.
    with start_fleet(4, instances=1, flap_seconds=3600) as fleet:
        profiles = {}
        for gateway in fleet.gateways:
            values = {"url": gateway.url, "api_key": gateway.api_key or "no-key-1234"}
            if gateway.metrics_auth:
                values["metrics_user"], values["metrics_password"] = gateway.metrics_auth
            profiles[gateway.name.replace(".", "_")] = values
        write_profiles(isolated_home, profiles)
        english = _health(isolated_home, "en", "--json")
        portuguese = _health(isolated_home, "pt_BR", "--json")
        said = _health(isolated_home, "pt_BR")
    assert english.returncode == portuguese.returncode == 2, english.stderr
    assert '"verdict": "zombie"' in english.stdout and "listed open (" in english.stdout
    # each gateway's lines are written as soon as it answers: in any order
    assert sorted(_TIMES.sub("T", portuguese.stdout).splitlines()) == sorted(
        _TIMES.sub("T", english.stdout).splitlines()
    )
    # the lines for people are Portuguese: the reasons, the licence-gated gateway's row too
    assert "listada como open (fetchInstances disse open às " in said.stdout
    assert "o gateway não está ativado" in said.stdout
