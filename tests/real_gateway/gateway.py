"""Build, start, seed, plant and stop the REAL Evolution API 1.7.1 for the conformance suite.

The kit lives in ``../shared/real-gateway`` beside the repository (override: ``REAL_GATEWAY_KIT``).
Its scripts do the work; this module only finds them, gives every server its own free loopback
port and data folder, and waits on conditions (never a fixed sleep) with generous limits.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

GLOBAL_KEY = "EVO-LOCAL-GLOBAL-KEY-0001"
EVO_B_TOKEN = "EVO-B-INSTANCE-KEY-0001"
SEEDED = ("evo-a", "evo-b", "evo-c", "evo-d", "evo-e", "evo-f", "evo-g")
PLANTED = "evo-a"  # plant-store.sh's default instance: 3 chats, 5 contacts, 10 messages, 4 statuses

# Generous: a fresh CI machine builds in ~1 min, a busy one may take several.
_BUILD_TIMEOUT = 1800
_START_TIMEOUT = 300
_STOP_TIMEOUT = 60


def kit_dir() -> Path:
    override = os.environ.get("REAL_GATEWAY_KIT")
    if override:
        return Path(override)
    return Path(__file__).resolve().parents[3] / "shared" / "real-gateway"


def unavailable_reason() -> str | None:
    """Why the real gateway cannot run here, or None when it can."""
    kit = kit_dir()
    if not (kit / "build.sh").is_file():
        return f"no real-gateway kit at {kit}"
    node = shutil.which("node")
    if node is None or shutil.which("npm") is None:
        return "node and npm are not installed (node >= 18 is needed)"
    try:
        major = subprocess.run(
            [node, "-p", "process.versions.node.split('.')[0]"],
            capture_output=True,
            text=True,
            timeout=60,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError) as exc:
        return f"node did not answer ({exc})"
    if not major.isdigit() or int(major) < 18:
        return f"node {major or '?'} is too old (>= 18 is needed)"
    return None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _run(script: str, env: dict[str, str], timeout: float, *args: str) -> str:
    done = subprocess.run(
        ["bash", str(kit_dir() / script), *args],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )
    if done.returncode != 0:
        raise RuntimeError(
            f"{script} {' '.join(args)} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}"
        )
    return done.stdout


def build() -> None:
    """Build once (cached outside the repo; build.sh holds a lock for parallel callers)."""
    _run("build.sh", {}, _BUILD_TIMEOUT)


@dataclass
class RealGateway:
    """One running real 1.7.1 server on 127.0.0.1 with its own port and file store."""

    data_dir: Path
    port: int = field(default_factory=free_port)
    api_key: str = GLOBAL_KEY

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def _env(self) -> dict[str, str]:
        return {
            "EVO_PORT": str(self.port),
            "EVO_HOST": "127.0.0.1",
            "EVO_DATA_DIR": str(self.data_dir),
            "EVO_API_KEY": self.api_key,
            "EVO_URL": self.url,
            "EVO_B_TOKEN": EVO_B_TOKEN,
            "EVO_START_TIMEOUT": str(_START_TIMEOUT),
            "EVO_PIDFILE": str(self.data_dir / "server.pid"),
            "EVO_LOG": str(self.data_dir / "server.log"),
        }

    def start(self) -> None:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        _run("start.sh", self._env, _START_TIMEOUT + 30)

    def seed(self) -> None:
        _run("seed.sh", self._env, _START_TIMEOUT)

    def plant(self, instance: str = PLANTED, *extra: str, **env: str) -> None:
        _run("plant-store.sh", {**self._env, **env}, _START_TIMEOUT, instance, *extra)

    def stop(self) -> None:
        _run("stop.sh", self._env, _STOP_TIMEOUT)

    def restart(self) -> None:
        """Stop and start on the same port and store (instances reload: "Connection Closed").

        Returns once every instance listed before is listed again: the server answers before
        it has reloaded them, and until then their routes fail with a 500 "Cannot read
        properties of undefined (reading 'fetchAllGroups')" (the controller finds no object).
        """
        before = self.instance_names()
        self.stop()
        self.start()
        self.wait_for_instances(before)

    def instance_names(self) -> set[str]:
        """The instances the running server has loaded (fetchInstances)."""
        try:
            status, body = self.request("GET", "/instance/fetchInstances", timeout=30)
        except OSError:
            return set()
        if status != 200 or not isinstance(body, list):
            return set()
        return {item["instance"]["instanceName"] for item in body if "instance" in item}

    def wait_for_instances(self, names: set[str]) -> None:
        self.wait_until(lambda: names <= self.instance_names(), f"instances {sorted(names)} loaded")

    def log_tail(self, lines: int = 40) -> str:
        try:
            text = (self.data_dir / "server.log").read_text(errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        key: str | None = None,
        raw: bytes | None = None,
        timeout: float = 120,
    ) -> tuple[int, Any]:
        """A plain HTTP call (no gateway_tui code), for set-up and the differential tests."""
        return http_call(
            self.url, method, path, body, key=key or self.api_key, raw=raw, timeout=timeout
        )

    def create_instance(self, name: str, **fields: Any) -> dict[str, Any]:
        status, body = self.request("POST", "/instance/create", {"instanceName": name, **fields})
        if status not in (200, 201):
            raise RuntimeError(f"create {name}: {status} {body}")
        return body

    def wait_until(self, condition, what: str, timeout: float = _START_TIMEOUT) -> None:
        deadline = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > deadline:
                raise TimeoutError(f"real gateway: {what} not reached in {timeout:.0f} s")
            time.sleep(0.2)


@contextmanager
def serving(data_dir: Path) -> Iterator[RealGateway]:
    """A built, started and seeded server in ``data_dir``, stopped on leaving."""
    reason = unavailable_reason()
    if reason:
        raise RuntimeError(f"the real gateway cannot run here: {reason}")
    build()
    server = RealGateway(data_dir=data_dir)
    server.start()
    try:
        server.seed()
        yield server
    finally:
        server.stop()


def http_call(
    base_url: str,
    method: str,
    path: str,
    body: Any = None,
    *,
    key: str | None,
    raw: bytes | None = None,
    timeout: float = 120,
) -> tuple[int, Any]:
    """Status and decoded JSON (or text) of one call, to the demo and the real server alike."""
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
    headers = {"Content-Type": "application/json"}
    if key is not None:
        headers["apikey"] = key
    req = urllib.request.Request(base_url + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            status, payload = resp.status, resp.read()
    except urllib.error.HTTPError as err:
        status, payload = err.code, err.read()
    text = payload.decode("utf-8", errors="replace")
    try:
        return status, json.loads(text) if text else None
    except ValueError:
        return status, text
