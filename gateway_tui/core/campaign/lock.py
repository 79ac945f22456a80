"""One runner per campaign: an OS lock on ``<campaign>/lock``.

``fcntl.flock`` on a file of the campaign's folder, taken before anything is written to the
journal and held while the process sends (for the command line: until it exits). The kernel
releases it when the process dies, however it dies, so a stale lock cannot exist. The file holds
the holder's pid and start time, so a second runner can say who sends.

flock locks belong to an open file, not to a process: two ``CampaignLock`` objects of the same
process exclude each other too (the app cannot run a campaign twice either).
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from gateway_tui.core.text.i18n import _

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no flock; one runner is then up to the user
    fcntl = None  # type: ignore[assignment]

LOCK_NAME = "lock"
# A probe (``holder``) takes the lock shared for an instant; a runner starting in that instant
# tries again a few times before it says the campaign is busy.
_ATTEMPTS = 20
_PAUSE = 0.01


@dataclass(frozen=True)
class Holder:
    pid: int | None
    since: str  # ISO time, "" when the holder had not written it yet

    def describe(self) -> str:
        if self.pid and self.since:
            return _("process {pid}, sending since {since}").format(pid=self.pid, since=self.since)
        if self.pid:
            return _("process {pid}").format(pid=self.pid)
        if self.since:
            return _("another process, sending since {since}").format(since=self.since)
        return _("another process")


def _read_holder(fd: int) -> Holder:
    try:
        data = json.loads(os.pread(fd, 4096, 0) or b"{}")
    except (OSError, ValueError):
        data = {}
    data = data if isinstance(data, dict) else {}
    pid = data.get("pid")
    return Holder(
        pid if isinstance(pid, int) and not isinstance(pid, bool) else None,
        str(data.get("since") or ""),
    )


def _open(directory: Path) -> int:
    flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0)
    return os.open(directory / LOCK_NAME, flags, 0o600)


class CampaignLock:
    """The lock of one campaign's folder, held by this object until ``release``."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self._fd: int | None = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def acquire(self) -> Holder | None:
        """Take the lock (None), or say who holds it (never waits for another runner)."""
        if self._fd is not None or fcntl is None:
            return None
        fd = _open(self.directory)
        try:
            for attempt in range(_ATTEMPTS):
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    holder = _read_holder(fd)
                    if holder.pid is not None or attempt == _ATTEMPTS - 1:
                        os.close(fd)
                        return holder
                    time.sleep(_PAUSE)  # a probe (no pid written) holds it for an instant
            record = {"pid": os.getpid(), "since": datetime.now().isoformat(timespec="seconds")}
            os.ftruncate(fd, 0)
            os.pwrite(fd, json.dumps(record).encode(), 0)
        except BaseException:
            os.close(fd)
            raise
        self._fd = fd
        return None

    def release(self) -> None:
        if self._fd is not None:
            fd, self._fd = self._fd, None
            os.ftruncate(fd, 0)
            os.close(fd)  # closing the file releases the flock


def holder(directory: Path) -> Holder | None:
    """Who sends this campaign now, or None (a look that does not wait)."""
    if fcntl is None or not (directory / LOCK_NAME).exists():
        return None
    try:
        fd = os.open(directory / LOCK_NAME, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return _read_holder(fd)
        return None
    finally:
        os.close(fd)  # releases the shared lock, if taken
