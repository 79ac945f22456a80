"""The real app on a pseudo-terminal (a subprocess): for tests that kill it or read its screen."""

from __future__ import annotations

import fcntl
import os
import re
import signal
import struct
import subprocess
import sys
import termios
import threading
import time
from collections.abc import Callable
from pathlib import Path

ROWS, COLUMNS = 45, 140
# Escape sequences (CSI, OSC, and two-character ones): what is left is the text on screen.
_ESCAPES = re.compile(rb"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]")
WAIT = 60.0  # generous: a loaded machine starts Python slowly; this is no speed test


class Terminal:
    """The app on a pseudo-terminal: write keys, read what it draws."""

    def __init__(self, args: list[str], env: dict[str, str]) -> None:
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
        self.process = subprocess.Popen(
            args,
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=env,
            start_new_session=True,
            close_fds=True,
        )
        os.close(slave)
        self.fd = master
        self._output = bytearray()
        self._lock = threading.Lock()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        while True:
            try:
                chunk = os.read(self.fd, 65536)
            except OSError:
                return
            if not chunk:
                return
            with self._lock:
                self._output += chunk

    def text(self) -> str:
        with self._lock:
            raw = bytes(self._output)
        return _ESCAPES.sub(b"", raw).decode("utf-8", "replace")

    def seen(self) -> int:
        with self._lock:
            return len(self._output)

    def type(self, keys: str) -> None:
        os.write(self.fd, keys.encode())

    def wait_for(self, what: str, condition: Callable[[], bool]) -> None:
        deadline = time.monotonic() + WAIT
        while not condition():
            if self.process.poll() is not None:
                raise AssertionError(f"the app exited ({self.process.returncode}) before {what}")
            if time.monotonic() > deadline:
                tail = self.text()[-2000:]
                raise AssertionError(f"never saw {what}; the screen ended with:\n{tail}")
            time.sleep(0.05)

    def wait_for_text(self, text: str, *, after: int = 0) -> None:
        def shown() -> bool:
            with self._lock:
                raw = bytes(self._output[after:])
            return text in _ESCAPES.sub(b"", raw).decode("utf-8", "replace")

        self.wait_for(repr(text), shown)

    def kill(self) -> None:
        """SIGKILL: no chance to save anything on the way out."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def close(self) -> None:
        self.kill()
        try:
            os.close(self.fd)
        except OSError:
            pass
        self._reader.join(timeout=5)


def start_app(server, home: Path) -> Terminal:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("GATEWAY_", "TEXTUAL"))
    }
    # COLUMNS and LINES win over the pseudo-terminal's size in Textual's size check (shutil): a CI
    # that sets them to 80×24 would otherwise hide the instance view's hint below the fold.
    env |= {
        "GATEWAY_TUI_HOME": str(home),
        "TERM": "xterm-256color",
        "COLORTERM": "truecolor",
        "COLUMNS": str(COLUMNS),
        "LINES": str(ROWS),
    }
    args = [sys.executable, "-m", "gateway_tui", "--url", server.url, "--api-key", server.api_key]
    return Terminal(args, env)
