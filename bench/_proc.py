"""Child processes for the benchmarks: a TUI in a pseudo-terminal, and the demo gateway.

A TUI under test runs as a whole separate process on the slave side of a pty of a fixed size,
exactly as in a terminal: Textual's real Linux driver reads keys from it and writes every frame
to it. A thread drains the master side (a terminal that is not read would block the app) and
notes the moment given byte strings first appear in the output.
"""

from __future__ import annotations

import fcntl
import json
import os
import pty
import select
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import termios
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
COLUMNS, LINES = 140, 40

# Keys as a terminal sends them.
KEY_DOWN = b"\x1b[B"
KEY_PAGE_DOWN = b"\x1b[6~"
KEY_PAGE_UP = b"\x1b[5~"
KEY_CTRL_Q = b"\x11"
KEY_BACKSPACE = b"\x7f"


def child_env(home: str) -> dict[str, str]:
    """The environment of every process under test: the same for the app and its floor.

    Bytecode caching is left on (a user's install has .pyc files; some sandboxes turn it off),
    Textual's devtools and the user's own gateway settings are left out.
    """
    env = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("TEXTUAL", "GATEWAY_", "PYTHONDONTWRITEBYTECODE"))
    }
    env.update(
        TERM="xterm-256color",
        COLORTERM="truecolor",
        COLUMNS=str(COLUMNS),
        LINES=str(LINES),
        GATEWAY_TUI_HOME=home,
        PYTHONPATH=str(REPO),
    )
    return env


class PtyProcess:
    """A process on a pty; `spawned_at` is time.monotonic() just before it was started."""

    def __init__(
        self,
        argv: Sequence[str],
        env: dict[str, str],
        *,
        watch: Sequence[bytes] = (),
        pass_fds: Sequence[int] = (),
    ) -> None:
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", LINES, COLUMNS, 0, 0))
        self._master = master
        self._watch = {needle: threading.Event() for needle in watch}
        self.seen_at: dict[bytes, float] = {}
        self.output = bytearray()
        self.spawned_at = time.monotonic()
        self.proc = subprocess.Popen(
            list(argv),
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=env,
            cwd=REPO,
            start_new_session=True,
            pass_fds=tuple(pass_fds),
        )
        os.close(slave)
        self._reader = threading.Thread(target=self._drain, daemon=True)
        self._reader.start()

    @property
    def pid(self) -> int:
        return self.proc.pid

    def _drain(self) -> None:
        tail = 0
        longest = max((len(needle) for needle in self._watch), default=0)
        while True:
            try:
                ready, _, _ = select.select([self._master], [], [], 0.5)
                if not ready:
                    if self.proc.poll() is not None:
                        return
                    continue
                chunk = os.read(self._master, 1 << 16)
            except OSError:  # EIO: the child closed the terminal
                return
            if not chunk:
                return
            now = time.monotonic()
            self.output += chunk
            for needle, event in self._watch.items():
                if not event.is_set() and self.output.find(needle, tail) >= 0:
                    self.seen_at[needle] = now
                    event.set()
            tail = max(0, len(self.output) - longest)

    def wait_for_output(self, needle: bytes, timeout: float = 30.0) -> float:
        """The monotonic time `needle` first appeared on the terminal."""
        if not self._watch[needle].wait(timeout):
            raise TimeoutError(f"{needle!r} did not appear in {timeout} s: {self.tail()}")
        return self.seen_at[needle]

    def send(self, keys: bytes) -> float:
        """Type `keys`; returns the monotonic time just before they were written."""
        sent_at = time.monotonic()
        os.write(self._master, keys)
        return sent_at

    def peak_rss_kib(self) -> int:
        """The process's peak resident set size (VmHWM), in KiB."""
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
        raise RuntimeError("no VmHWM in /proc status")

    def rss_kib(self) -> int:
        """The process's resident set size now (VmRSS), in KiB."""
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        raise RuntimeError("no VmRSS in /proc status")

    def cpu_ms(self) -> float:
        """CPU time the process has used so far (user + system), in ms (10 ms resolution)."""
        fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")

    def tail(self, size: int = 600) -> str:
        return bytes(self.output[-size:]).decode("utf-8", "replace")

    def close(self, *, quit_keys: bytes | None = KEY_CTRL_Q) -> None:
        """Quit the app (by its quit key, else a signal) and release the terminal."""
        if self.proc.poll() is None and quit_keys:
            try:
                os.write(self._master, quit_keys)
                self.proc.wait(5)
            except (OSError, subprocess.TimeoutExpired):
                pass
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        self._reader.join(2)
        os.close(self._master)

    def __enter__(self) -> PtyProcess:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class DemoGatewayProcess:
    """`gateway-tui demo-server` in its own process, on a free loopback port."""

    def __init__(self, instances: int, *extra: str) -> None:
        """``extra``: more demo-server options (the chat store's --chats, --big-chat)."""
        self.instances = instances
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.api_key = ""
        self._home = tempfile.TemporaryDirectory(prefix="bench-demo-")
        self.proc = subprocess.Popen(
            [
                str(BIN / "gateway-tui"),
                "demo-server",
                "--port",
                str(self.port),
                "--instances",
                str(instances),
                *extra,
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            env=child_env(self._home.name),
            text=True,
            start_new_session=True,
        )
        assert self.proc.stdout is not None
        deadline = time.monotonic() + 120
        for line in self.proc.stdout:
            if line.startswith("Global API key:"):
                self.api_key = line.split(":", 1)[1].strip()
            if line.startswith("Try:"):
                break
            if time.monotonic() > deadline:
                break
        if not self.api_key or self.proc.poll() is not None:
            self.close()
            raise RuntimeError(f"the demo gateway did not start on port {self.port}")

    def close(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGINT)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        if self.proc.stdout:
            self.proc.stdout.close()
        self._home.cleanup()

    def __enter__(self) -> DemoGatewayProcess:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


class ProbeProcess:
    """`python -m bench.probe` (or another probe ``module``) on a pty, with its reports read from
    a pipe (see bench/probe.py)."""

    def __init__(
        self, mode: str, args: Sequence[str], env: dict[str, str], module: str = "bench.probe"
    ) -> None:
        read_fd, write_fd = os.pipe()
        argv = [sys.executable, "-m", module, mode, "--report-fd", str(write_fd), *args]
        try:
            self.pty = PtyProcess(argv, env, pass_fds=[write_fd])
        finally:
            os.close(write_fd)
        self.records: list[dict] = []
        self._changed = threading.Condition()
        self._reader = threading.Thread(target=self._read, args=(read_fd,), daemon=True)
        self._reader.start()

    def _read(self, fd: int) -> None:
        with os.fdopen(fd, "rb") as stream:
            for line in stream:
                record = json.loads(line)
                with self._changed:
                    self.records.append(record)
                    self._changed.notify_all()

    def wait(
        self,
        event: str,
        after: float = 0.0,
        timeout: float = 60.0,
        test: Callable[[dict], bool] | None = None,
        **where: object,
    ) -> dict:
        """The first `event` report later than `after` whose fields match `where` (and `test`)."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                for record in self.records:
                    if (
                        record["event"] == event
                        and record["t"] > after
                        and all(record.get(name) == value for name, value in where.items())
                        and (test is None or test(record))
                    ):
                        return record
                remaining = deadline - time.monotonic()
                if remaining <= 0 or self.pty.proc.poll() is not None:
                    raise TimeoutError(
                        f"no {event} {where} after {after}: {self.records[-3:]} {self.pty.tail()}"
                    )
                self._changed.wait(min(remaining, 0.5))

    def last(self, event: str) -> dict:
        with self._changed:
            return next(r for r in reversed(self.records) if r["event"] == event)

    def send(self, keys: bytes) -> float:
        return self.pty.send(keys)

    def peak_rss_kib(self) -> int:
        return self.pty.peak_rss_kib()

    def close(self) -> None:
        self.pty.close()
        self._reader.join(2)

    def __enter__(self) -> ProbeProcess:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
