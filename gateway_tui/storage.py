"""Where gateway-tui keeps its files, and how it writes them safely.

Files may hold API keys, so everything lives in owner-only directories (0700) and is written
owner-only (0600). Writes are atomic: a reader sees the old file or the new one, never a torn
mix, even if the process is killed mid-write.
"""

from __future__ import annotations

import json
import logging
import os
import secrets
import stat
from pathlib import Path
from typing import Any

import platformdirs

APP_NAME = "gateway-tui"
HOME_ENV = "GATEWAY_TUI_HOME"
PRIVATE_DIR_MODE = 0o700
PRIVATE_FILE_MODE = 0o600

log = logging.getLogger(__name__)


def _home_override() -> Path | None:
    home = os.environ.get(HOME_ENV)
    return Path(home).expanduser() if home else None


def config_dir() -> Path:
    """The directory for config.toml (``$GATEWAY_TUI_HOME/config`` when that is set)."""
    home = _home_override()
    if home is not None:
        return home / "config"
    return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False))


def data_dir() -> Path:
    """The directory for state the app keeps between runs (``$GATEWAY_TUI_HOME/data``)."""
    home = _home_override()
    if home is not None:
        return home / "data"
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def ensure_private_dir(path: str | os.PathLike[str]) -> Path:
    """Create ``path`` (and missing parents) as 0700; narrow an existing one that is wider.

    Existing parents are left alone: they are not ours (e.g. ``~/.config``).
    """
    path = Path(path)
    missing: list[Path] = []
    probe = path
    while not probe.exists():
        missing.append(probe)
        probe = probe.parent
    for directory in reversed(missing):
        try:
            os.mkdir(directory, PRIVATE_DIR_MODE)
        except FileExistsError:
            continue  # created concurrently by someone else; the mode check below still applies
        # mkdir's mode is filtered by the umask, which could also strip owner bits.
        os.chmod(directory, PRIVATE_DIR_MODE)
    if not path.is_dir():
        raise NotADirectoryError(f"{path} exists and is not a directory")
    if stat.S_IMODE(path.stat().st_mode) & 0o077:
        os.chmod(path, PRIVATE_DIR_MODE)
    return path


def atomic_write_text(path: str | os.PathLike[str], text: str) -> None:
    """Replace ``path`` with ``text`` (UTF-8) atomically, as a 0600 file in a 0700 directory."""
    _atomic_write_bytes(Path(path), text.encode("utf-8"))


def atomic_write_json(path: str | os.PathLike[str], obj: Any) -> None:
    """Replace ``path`` with ``obj`` as indented JSON, atomically (see atomic_write_text)."""
    # Serialise first, so an unserialisable object fails before anything touches the disk.
    text = json.dumps(obj, indent=2, ensure_ascii=False) + "\n"
    atomic_write_text(path, text)


def _atomic_write_bytes(path: Path, data: bytes) -> None:
    directory = ensure_private_dir(path.parent)
    temp_path = directory / f".{path.name}.{secrets.token_hex(8)}.tmp"
    # O_EXCL: never write through a file or symlink someone else planted at the temp name.
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(temp_path, flags, PRIVATE_FILE_MODE)
    try:
        with os.fdopen(fd, "wb") as temp_file:
            if hasattr(os, "fchmod"):
                os.fchmod(
                    temp_file.fileno(), PRIVATE_FILE_MODE
                )  # the umask filtered os.open's mode
            temp_file.write(data)
            temp_file.flush()
            os.fsync(temp_file.fileno())
        os.replace(temp_path, path)
    except BaseException:
        temp_path.unlink(missing_ok=True)
        raise
    _fsync_dir(directory)


def _fsync_dir(directory: Path) -> None:
    """Persist the rename itself, so a crash right after cannot bring the old file back."""
    if os.name == "nt":
        return  # directories cannot be opened for fsync on Windows
    fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def read_json(path: str | os.PathLike[str], default: Any) -> Any:
    """The parsed JSON in ``path``; ``default`` if it is missing or corrupt.

    A corrupt file is kept as it is (the user may want to repair it) and logged by its path
    and error position only, never its content.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return default
    except UnicodeDecodeError:
        log.warning("ignoring %s: it is not UTF-8 text", path)
        return default
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        log.warning("ignoring %s: invalid JSON at line %d, column %d", path, exc.lineno, exc.colno)
        return default
