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
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import IO, Any

import platformdirs

from gateway_tui.core.text.i18n import _, number

APP_NAME = "gateway-tui"
HOME_ENV = "GATEWAY_TUI_HOME"
PRIVATE_DIR_MODE = 0o700
PRIVATE_FILE_MODE = 0o600

log = logging.getLogger(__name__)


CONFIG_FILE_NAME = "config.toml"


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
        raise NotADirectoryError(_("{path} exists and is not a directory").format(path=path))
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
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:
        # A lone surrogate (from a server or a hand-edited file) has no UTF-8 form: as a JSON
        # "\udxxx" escape it is kept exactly, and reads back as it was.
        data = (json.dumps(obj, indent=2, ensure_ascii=True) + "\n").encode("ascii")
    _atomic_write_bytes(Path(path), data)


def _atomic_write_bytes(path: Path, data: bytes) -> None:
    with atomic_file(path, binary=True) as out:
        out.write(data)


@contextmanager
def atomic_file(path: str | os.PathLike[str], *, binary: bool = False) -> Iterator[IO[Any]]:
    """A file written beside ``path`` and renamed over it once complete and fsync'd.

    The one atomic write of the package: a 0600 temp file in the (private) directory, written
    as the ``with`` block goes (text: UTF-8, newlines as written), flushed and fsync'd, renamed
    over ``path``, and the rename fsync'd too. If the block raises, ``path`` is left as it was
    and the temp file is removed.
    """
    path = Path(path)
    directory = ensure_private_dir(path.parent)
    temp_path = directory / f".{path.name}.{secrets.token_hex(8)}.tmp"
    # O_EXCL: never write through a file or symlink someone else planted at the temp name.
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(temp_path, flags, PRIVATE_FILE_MODE)
    try:
        if hasattr(os, "fchmod"):
            os.fchmod(fd, PRIVATE_FILE_MODE)  # the umask filtered os.open's mode
        if binary:
            temp_file: IO[Any] = os.fdopen(fd, "wb")
        else:
            temp_file = os.fdopen(fd, "w", encoding="utf-8", newline="")
    except BaseException:
        os.close(fd)
        temp_path.unlink(missing_ok=True)
        raise
    try:
        with temp_file:
            yield temp_file
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


# JSON nested deeper than this is not ours: the app's files are a few levels deep.
MAX_JSON_DEPTH = 64
# Nor bigger than this (the history keeps 500 messages, far below).
MAX_JSON_BYTES = 32 * 1024 * 1024

ProblemReporter = Callable[[str], None]
_reporters: list[ProblemReporter] = []


def on_problem(reporter: ProblemReporter) -> Callable[[], None]:
    """Call ``reporter`` with a plain-words message whenever a stored file cannot be read.

    Returns a function that removes it. The app shows these messages as notifications.
    """
    _reporters.append(reporter)
    return lambda: _reporters.remove(reporter) if reporter in _reporters else None


def _report(message: str) -> None:
    log.warning("%s", message)
    for reporter in list(_reporters):
        try:
            reporter(message)
        except Exception:  # noqa: BLE001 - a broken reporter must not break a read
            log.exception("a storage problem reporter failed")


def read_json(path: str | os.PathLike[str], default: Any) -> Any:
    """The parsed JSON in ``path``; ``default`` if it is missing or cannot be read.

    A file that cannot be read (not UTF-8, not JSON, truncated, nested too deep, too big, or a
    directory in its place) is renamed aside with a timestamp, so it is kept for the user and a
    fresh one can be written in its place; what happened is reported (``on_problem``) by path
    and reason, never by content. A file without read permission is left where it is.
    """
    path = Path(path)
    try:
        with open(path, "rb") as file:
            raw = file.read(MAX_JSON_BYTES + 1)
    except FileNotFoundError:
        return default
    except IsADirectoryError:
        return _unreadable(path, _("it is a directory, not a file"), default)
    except PermissionError:
        _report(
            _(
                "{path} could not be read: permission denied. It is left as it is; "
                "nothing is saved there until that is fixed."
            ).format(path=path)
        )
        return default
    except OSError as error:
        _report(
            _("{path} could not be read: {reason}.").format(
                path=path, reason=error.strerror or error
            )
        )
        return default
    if len(raw) > MAX_JSON_BYTES:
        return _unreadable(
            path,
            _("it is larger than {size} MB").format(size=number(MAX_JSON_BYTES // 2**20)),
            default,
        )
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return _unreadable(path, _("it is not UTF-8 text"), default)
    if nesting_depth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH:
        return _unreadable(
            path,
            _("it is nested more than {depth} levels deep").format(depth=MAX_JSON_DEPTH),
            default,
        )
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        where = _("invalid JSON at line {line}, column {column}").format(
            line=exc.lineno, column=exc.colno
        )
        if exc.pos >= len(text.rstrip()) or exc.msg.startswith("Unterminated string"):
            where = _("it ends in the middle (truncated)")
        return _unreadable(path, where, default)
    except (ValueError, RecursionError) as exc:
        return _unreadable(
            path, _("it cannot be parsed ({error})").format(error=type(exc).__name__), default
        )


def nesting_depth(text: str, limit: int, quotes: str = '"') -> int:
    """How deep brackets nest in ``text`` outside strings; stops counting once past ``limit``.

    Parsers recurse once per level: a hand-edited or planted file 100,000 levels deep would
    otherwise end in a RecursionError (or worse) instead of a plain "cannot be read".
    """
    depth = deepest = 0
    quote: str | None = None
    escaped = False
    for character in text:
        if quote is not None:
            if escaped:
                escaped = False
            elif character == "\\" and quote == '"':
                escaped = True
            elif character == quote:
                quote = None
        elif character in quotes:
            quote = character
        elif character in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    break
        elif character in "]}":
            depth -= 1
    return deepest


def _unreadable(path: Path, why: str, default: Any) -> Any:
    """Keep the unreadable ``path`` under a timestamped name beside it and report it."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    kept = path.with_name(f"{path.name}.unreadable-{stamp}")
    counter = 1
    while kept.exists():
        counter += 1
        kept = path.with_name(f"{path.name}.unreadable-{stamp}-{counter}")
    try:
        os.rename(path, kept)
    except OSError as error:
        _report(
            _(
                "{path} could not be read: {why}. It could not be moved aside either "
                "({reason}), so nothing is saved there."
            ).format(path=path, why=why, reason=error.strerror or error)
        )
        return default
    _report(
        _("{path} could not be read: {why}. It was kept as {kept}; a fresh one is used.").format(
            path=path, why=why, kept=kept.name
        )
    )
    return default
