"""The conformance suite is safe to point at a production gateway.

It is run here against the demo gateway standing in for someone's server (a subprocess, as
`make conformance` runs it): it must pass, write to no instance but the ones it created, and
leave none behind — also when a test fails half-way.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from gateway_tui.demo.server import DemoServer
from tests.real_gateway.live import PREFIX

ROOT = Path(__file__).resolve().parents[2]


def _run(server: DemoServer, *args: str) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "GTUI_CONFORMANCE": "1",
        "GATEWAY_URL": server.url,
        "GATEWAY_API_KEY": server.api_key,
    }
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:xdist", "-p", "no:cacheprovider", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        stdin=subprocess.DEVNULL,
    )


def _written_instances(server: DemoServer) -> set[str]:
    """The instance named by every write (POST/PUT/DELETE) the server received."""
    names = set()
    for write in server.state.writes:
        if write.path == "/instance/create":
            continue
        names.add(write.path.rstrip("/").rsplit("/", 1)[-1])
    return names


@pytest.mark.parametrize("line", ["1.7.1", "2.3.6"])
def test_it_passes_touches_only_its_own_instances_and_leaves_none(line: str) -> None:
    with DemoServer(api_version=line) as server:
        before = set(server.state.instances)
        done = _run(server, "tests/real_gateway", "--ignore-glob=*/test_zz_probe_*")
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
        assert " passed" in done.stdout
        assert set(server.state.instances) == before
        written = _written_instances(server)
        assert written and all(name.startswith(PREFIX) for name in written), written
        assert server.api_key not in done.stdout + done.stderr


def test_a_failing_test_still_leaves_no_instance_behind(tmp_path: Path) -> None:
    probe = ROOT / "tests" / "real_gateway" / f"test_zz_probe_{os.getpid()}.py"
    probe.write_text(
        "async def test_fails_after_creating(scratch_instance):\n"
        "    assert False, 'a deliberate failure'\n"
    )
    try:
        with DemoServer() as server:
            before = set(server.state.instances)
            done = _run(server, str(probe.relative_to(ROOT)))
            assert done.returncode == 1, done.stdout[-3000:]
            assert "a deliberate failure" in done.stdout
            assert set(server.state.instances) == before
    finally:
        probe.unlink()


def test_without_a_gateway_it_says_what_it_needs() -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("GATEWAY_URL", "GATEWAY_API_KEY")}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:xdist", "tests/real_gateway"],
        cwd=ROOT,
        env=env | {"GTUI_CONFORMANCE": "1"},
        capture_output=True,
        text=True,
        timeout=600,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode != 0
    assert (
        "it needs GATEWAY_URL and GATEWAY_API_KEY of a running gateway" in done.stdout + done.stderr
    )
