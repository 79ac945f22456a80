"""Saved media (issue 29): a media folder linked elsewhere keeps its target's mode, saved files
are the user's alone (0600), and no saved name starts with a dash."""

from __future__ import annotations

import os
import stat

import pytest

from gateway_tui.core.files.media_files import media_dir, safe_name, save_new_file


def _mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_a_saved_file_is_0600_whatever_the_umask(tmp_path) -> None:
    old = os.umask(0o022)
    try:
        path = save_new_file(tmp_path / "media", "receipt.jpg", b"\xff\xd8data")
    finally:
        os.umask(old)
    assert path.read_bytes() == b"\xff\xd8data"
    assert _mode(path) == 0o600


def test_a_linked_media_folder_keeps_its_targets_mode(tmp_path) -> None:
    pictures = tmp_path / "Pictures"
    pictures.mkdir()
    os.chmod(pictures, 0o755)
    media_dir().parent.mkdir(parents=True, exist_ok=True)
    media_dir().symlink_to(pictures, target_is_directory=True)
    path = save_new_file(media_dir(), "photo.jpg", b"x")
    assert path.resolve().parent == pictures.resolve()
    assert _mode(pictures) == 0o755  # the user's folder: not narrowed to 0700
    assert _mode(path) == 0o600


def test_a_folder_of_our_own_is_made_private(tmp_path) -> None:
    folder = tmp_path / "media"
    save_new_file(folder, "a.txt", b"x")
    assert _mode(folder) == 0o700


@pytest.mark.parametrize(
    ("given", "saved"),
    [
        ("-rf.jpg", "rf.jpg"),
        ("--help", "help"),
        ("- .hidden", "hidden"),
        ("a-b.pdf", "a-b.pdf"),
        ("../-x/-y.png", "y.png"),
        ("---", "fallback"),
    ],
)
def test_no_saved_name_starts_with_a_dash_or_dot(given: str, saved: str) -> None:
    assert safe_name(given, "fallback") == saved


def test_a_file_never_goes_through_a_link_in_the_folder(tmp_path) -> None:
    folder = tmp_path / "media"
    folder.mkdir()
    outside = tmp_path / "outside.txt"
    (folder / "a.txt").symlink_to(outside)
    path = save_new_file(folder, "a.txt", b"x")
    assert path.name == "a (2).txt" and not outside.exists()
