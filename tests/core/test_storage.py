import json
import logging
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import platformdirs
import pytest

from gateway_tui.core.files import storage

posix_only = pytest.mark.skipif(os.name != "posix", reason="POSIX file modes")


def mode_of(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture(params=[0o000, 0o277], ids=["umask-000", "umask-277"])
def any_umask(request):
    """Modes must not depend on the umask: 000 would let a wide mode through, 277 would strip
    the owner's own write bit."""
    previous = os.umask(request.param)
    yield
    os.umask(previous)


def temp_files(directory: Path) -> list[Path]:
    return [p for p in directory.iterdir() if p.name.endswith(".tmp")]


def test_dirs_honour_the_home_override(tmp_path, monkeypatch):
    monkeypatch.setenv("GATEWAY_TUI_HOME", str(tmp_path))
    assert storage.config_dir() == tmp_path / "config"
    assert storage.data_dir() == tmp_path / "data"


def test_dirs_default_to_platformdirs(monkeypatch):
    monkeypatch.delenv("GATEWAY_TUI_HOME", raising=False)
    expected_config = platformdirs.user_config_dir("gateway-tui", appauthor=False)
    assert storage.config_dir() == Path(expected_config)
    assert storage.data_dir() == Path(platformdirs.user_data_dir("gateway-tui", appauthor=False))


@posix_only
def test_ensure_private_dir_creates_every_missing_level_0700(tmp_path, any_umask):
    target = tmp_path / "a" / "b" / "c"
    assert storage.ensure_private_dir(target) == target
    for directory in (tmp_path / "a", tmp_path / "a" / "b", target):
        assert mode_of(directory) == 0o700, directory


@posix_only
def test_ensure_private_dir_leaves_existing_parents_alone(tmp_path):
    tmp_path.chmod(0o755)
    storage.ensure_private_dir(tmp_path / "child")
    assert mode_of(tmp_path) == 0o755


@posix_only
def test_ensure_private_dir_narrows_a_wider_existing_dir(tmp_path):
    target = tmp_path / "shared"
    target.mkdir()
    target.chmod(0o755)
    storage.ensure_private_dir(target)
    assert mode_of(target) == 0o700


def test_ensure_private_dir_refuses_a_file(tmp_path):
    (tmp_path / "file").write_text("x")
    with pytest.raises(NotADirectoryError):
        storage.ensure_private_dir(tmp_path / "file")


@posix_only
def test_atomic_write_text_makes_a_private_file_in_a_private_dir(tmp_path, any_umask):
    target = tmp_path / "new" / "config.toml"
    storage.atomic_write_text(target, "héllo\n")
    assert target.read_text(encoding="utf-8") == "héllo\n"
    assert mode_of(target) == 0o600
    assert mode_of(target.parent) == 0o700
    assert temp_files(target.parent) == []


@posix_only
def test_atomic_write_narrows_a_file_that_was_world_readable(tmp_path):
    target = tmp_path / "state.json"
    target.write_text("{}")
    target.chmod(0o644)
    storage.atomic_write_json(target, {"a": 1})
    assert mode_of(target) == 0o600


def test_atomic_write_replaces_content_and_leaves_no_temp_files(tmp_path):
    target = tmp_path / "state.json"
    for n in range(3):
        storage.atomic_write_json(target, {"n": n, "text": "ünïcode"})
    assert json.loads(target.read_text(encoding="utf-8")) == {"n": 2, "text": "ünïcode"}
    assert temp_files(tmp_path) == []


def test_atomic_write_syncs_the_file_and_the_directory(tmp_path, monkeypatch):
    synced: list[str] = []
    real_fsync = os.fsync

    def spy(fd):
        synced.append("dir" if stat.S_ISDIR(os.fstat(fd).st_mode) else "file")
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", spy)
    storage.atomic_write_text(tmp_path / "f", "x")
    assert synced == ["file", "dir"]


def test_failed_write_keeps_the_old_file_and_removes_the_temp_file(tmp_path, monkeypatch):
    target = tmp_path / "state.json"
    storage.atomic_write_json(target, {"old": True})

    def broken_replace(src, dst):
        raise OSError("disk on fire")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError, match="disk on fire"):
        storage.atomic_write_json(target, {"new": True})
    assert json.loads(target.read_text()) == {"old": True}
    assert temp_files(tmp_path) == []


def test_unserialisable_json_fails_before_touching_the_disk(tmp_path):
    target = tmp_path / "state.json"
    with pytest.raises(TypeError):
        storage.atomic_write_json(target, {"bad": object()})
    assert list(tmp_path.iterdir()) == []


def test_temp_file_is_created_exclusively(tmp_path, monkeypatch):
    """An existing file (or symlink) at the temp name is never written through."""
    monkeypatch.setattr(storage.secrets, "token_hex", lambda n: "fixed")
    planted = tmp_path / ".f.fixed.tmp"
    planted.write_text("someone else's")
    with pytest.raises(FileExistsError):
        storage.atomic_write_text(tmp_path / "f", "secret")
    assert planted.read_text() == "someone else's"
    assert not (tmp_path / "f").exists()


WRITER = """
import sys
from gateway_tui.core.files.storage import atomic_write_json
path = sys.argv[1]
n = 0
while True:
    n += 1
    atomic_write_json(path, {"n": n, "pad": "x" * 200_000, "end": n})
"""


@posix_only
def test_a_reader_never_sees_a_torn_file_after_kill_9(tmp_path):
    target = tmp_path / "state.json"
    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(target)])
    try:
        deadline = time.monotonic() + 10
        while not target.exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        seen = set()
        while len(seen) < 5 and time.monotonic() < deadline:  # read while it rewrites
            data = json.loads(target.read_text())
            assert data["n"] == data["end"] and len(data["pad"]) == 200_000
            seen.add(data["n"])
    finally:
        writer.send_signal(signal.SIGKILL)
        writer.wait()
    assert len(seen) == 5, "the writer should have replaced the file while we read it"
    data = storage.read_json(target, default=None)
    assert data is not None and data["n"] == data["end"] and len(data["pad"]) == 200_000


def test_read_json_returns_default_for_a_missing_file(tmp_path):
    assert storage.read_json(tmp_path / "nope.json", default={"d": 1}) == {"d": 1}


def test_read_json_reads_what_was_written(tmp_path):
    storage.atomic_write_json(tmp_path / "s.json", [1, "two", {"three": 3.0}])
    assert storage.read_json(tmp_path / "s.json", default=None) == [1, "two", {"three": 3.0}]


@pytest.mark.parametrize("content", [b'{"token": "sk-live-SECRET", ', b"\xff\xfe not utf-8 SECRET"])
def test_corrupt_json_gives_default_keeps_file_and_logs_no_content(tmp_path, caplog, content):
    target = tmp_path / "state.json"
    target.write_bytes(content)
    with caplog.at_level(logging.WARNING, logger="gateway_tui.core.files.storage"):
        assert storage.read_json(target, default=[]) == []
    # Kept beside, under a timestamped name, so a fresh file never overwrites it.
    (kept,) = tmp_path.glob("state.json.unreadable-*")
    assert kept.read_bytes() == content
    assert not target.exists()
    assert str(target) in caplog.text
    assert "SECRET" not in caplog.text
