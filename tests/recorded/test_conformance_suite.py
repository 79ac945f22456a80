"""The conformance suite is safe to point at a production gateway.

It is run here against the demo gateway standing in for someone's server (a subprocess, as
`make conformance` runs it): it must pass, write to no instance but the ones it created, and
leave none behind — also when a test fails half-way.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from gateway_tui.core.text.sanitize import mask_secrets
from gateway_tui.demo.server import DemoServer
from tests.real_gateway.live import PREFIX
from tests.support import pytest_env

ROOT = Path(__file__).resolve().parents[2]


def _run(server: DemoServer, *args: str) -> subprocess.CompletedProcess[str]:
    env = pytest_env(GTUI_CONFORMANCE="1", GATEWAY_URL=server.url, GATEWAY_API_KEY=server.api_key)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:xdist", "-p", "no:cacheprovider", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        stdin=subprocess.DEVNULL,
    )


def _tail(done: subprocess.CompletedProcess[str], server: DemoServer) -> str:
    """The end of a run's output for a failure message, without the key."""
    return mask_secrets(done.stdout[-3000:] + done.stderr[-2000:], [server.api_key])


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
        assert done.returncode == 0, _tail(done, server)
        assert " passed" in done.stdout
        assert set(server.state.instances) == before
        written = _written_instances(server)
        assert written and all(name.startswith(PREFIX) for name in written), written
        assert server.api_key not in done.stdout + done.stderr


@contextmanager
def _probe(source: str) -> Iterator[str]:
    """A test module of the suite's own folder for one run (its conftest applies), removed
    after."""
    probe = ROOT / "tests" / "real_gateway" / f"test_zz_probe_{os.getpid()}.py"
    probe.write_text(source)
    try:
        yield str(probe.relative_to(ROOT))
    finally:
        probe.unlink()


def test_a_failing_test_still_leaves_no_instance_behind() -> None:
    source = (
        "async def test_fails_after_creating(scratch_instance):\n"
        "    assert False, 'a deliberate failure'\n"
    )
    with _probe(source) as probe, DemoServer() as server:
        before = set(server.state.instances)
        done = _run(server, probe)
        assert done.returncode == 1, _tail(done, server)
        assert "a deliberate failure" in done.stdout
        assert set(server.state.instances) == before


def test_a_name_someone_else_holds_is_never_deleted() -> None:
    # Another client made an instance under the very name this run's next create asks for
    # (made here by a plain call, as anyone could): the create is refused ("already in use"),
    # and the clean-up must leave that instance alone, whatever its name says.
    source = (
        "import pytest\n"
        "from tests.real_gateway.live import PREFIX\n"
        "@pytest.fixture\n"
        "def someone_elses(live_gateway):\n"
        "    name = f'{PREFIX}{live_gateway.run}-{live_gateway.issued + 1}'\n"
        "    status, _ = live_gateway.request('POST', '/instance/create',\n"
        "        {'instanceName': name, 'qrcode': False, 'integration': 'WHATSAPP-BAILEYS'})\n"
        "    assert status == 201, status\n"
        "    print('SOMEONE-ELSES', name)\n"
        "    return name\n"
        "async def test_create_meets_a_taken_name(someone_elses, scratch_instance):\n"
        "    pass\n"
    )
    with _probe(source) as probe, DemoServer() as server:
        done = _run(server, probe, "-rA")
        assert "already in use" in done.stdout, _tail(done, server)
        (name,) = re.findall(rf"SOMEONE-ELSES ({PREFIX}\S+)", done.stdout)
        assert name in server.state.instances, _tail(done, server)


def test_a_failure_never_prints_the_key() -> None:
    # Every way a failure shows values: the gateway object in an assertion and in the locals
    # (-l), the key compared directly, the key printed to captured output, an exception's text.
    source = (
        "def test_compares_the_gateway(live_gateway):\n"
        "    assert live_gateway.names() == {'nothing'}\n"
        "def test_compares_the_key(live_gateway):\n"
        "    key = live_gateway.api_key\n"
        "    print('the key is', key)\n"
        "    assert key not in f'a screen showing {key}'\n"
        "def test_raises_with_the_key(live_gateway):\n"
        "    raise RuntimeError(repr(live_gateway) + live_gateway.api_key)\n"
    )
    with _probe(source) as probe, DemoServer() as server:
        done = _run(server, probe, "-l", "-vv", "-rA")
        assert done.returncode == 1, _tail(done, server)
        assert "3 failed" in done.stdout, _tail(done, server)
        assert "LiveGateway(url=" in done.stdout  # the object was shown, without its key
        leaked = server.api_key in done.stdout + done.stderr
        assert not leaked, "the gateway's key is in the suite's output"


def test_without_a_gateway_it_says_what_it_needs() -> None:
    env = {k: v for k, v in pytest_env().items() if k not in ("GATEWAY_URL", "GATEWAY_API_KEY")}
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
