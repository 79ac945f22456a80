"""Media files on this machine: where a saved message's file goes (named safely, never over
another file) and a local file read for sending (its kind, size-checked first). No Textual.
"""

from __future__ import annotations

import base64
import mimetypes
import os
import re
import unicodedata
from pathlib import Path

from gateway_tui.core.api.message_bodies import MEDIA_LIMITS, MediaType, MediaUpload
from gateway_tui.core.api.message_kinds import guess_mimetype
from gateway_tui.core.files import storage
from gateway_tui.core.text.i18n import N_, _, decimal, number

_UNSAFE = re.compile(r"[^\w.\- ()+,=@]+")
_LEADING = " ._-"  # a name never starts with these: hidden (.), or read as an option (-)
FILE_MODE = 0o600  # a saved file is the user's alone, as the folder it is made in
_MAX_NAME = 120
_EXTENSIONS = {"image": ".jpg", "video": ".mp4", "audio": ".ogg", "document": ".bin"}


class MediaFileProblem(Exception):
    """A file that cannot be sent or saved, in plain words."""


def media_dir() -> Path:
    """Where saved media goes: ``<data dir>/media``."""
    return storage.data_dir() / "media"


def safe_name(name: str | None, fallback: str) -> str:
    """A file name from outside made harmless: no directories, no control or odd characters,
    no leading dot or dash (`-rf.jpg` would read as an option to a shell command), not too
    long; ``fallback`` when nothing is left."""
    name = unicodedata.normalize("NFKC", name or "")
    name = name.replace("\\", "/").rsplit("/", 1)[-1]
    name = _UNSAFE.sub("_", name).lstrip(_LEADING).rstrip(" ._")
    if not name:
        name = _UNSAFE.sub("_", fallback).lstrip(_LEADING).rstrip(" ._") or "media"
    stem, dot, suffix = name.rpartition(".")
    if dot and len(suffix) <= 10:
        return stem[: _MAX_NAME - len(suffix) - 1] + "." + suffix
    return name[:_MAX_NAME]


def extension_for(mimetype: str | None, kind: str | None) -> str:
    guessed = (
        mimetypes.guess_extension((mimetype or "").split(";")[0].strip()) if mimetype else None
    )
    return guessed or _EXTENSIONS.get(kind or "", ".bin")


def _media_folder(directory: Path) -> None:
    """The folder exists, private when it is ours. One the user linked elsewhere (media →
    ~/Pictures) is theirs: its target's mode is left as it is."""
    if directory.is_symlink():
        if not directory.is_dir():
            raise MediaFileProblem(
                _("{folder} links to {target}: no folder").format(
                    folder=directory, target=os.readlink(directory)
                )
            )
        return
    storage.ensure_private_dir(directory)


def save_new_file(directory: Path, name: str, content: bytes) -> Path:
    """Write ``content`` to ``directory/name``, or ``name (2)``… when taken: never over a file
    (created exclusively, so not even one that appears meanwhile, nor through a link), 0600."""
    _media_folder(directory)
    stem, dot, suffix = name.rpartition(".")
    if not dot:
        stem, suffix = name, ""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    for copy in range(1, 10_000):
        candidate = name if copy == 1 else f"{stem} ({copy}){dot}{suffix}"
        path = directory / candidate
        try:
            fd = os.open(path, flags, FILE_MODE)
        except FileExistsError:
            continue
        with os.fdopen(fd, "wb") as file:
            file.write(content)
            file.flush()
            os.fsync(file.fileno())
        return path
    raise MediaFileProblem(
        _("Too many files named {name} in {folder}").format(name=name, folder=directory)
    )


# One sentence per kind: the kind's word is part of the sentence in every language.
TOO_BIG = {
    "image": N_("{name} is {size} MB: WhatsApp takes at most {limit} MB for a photo."),
    "video": N_("{name} is {size} MB: WhatsApp takes at most {limit} MB for a video."),
    "audio": N_("{name} is {size} MB: WhatsApp takes at most {limit} MB for an audio."),
    "document": N_("{name} is {size} MB: WhatsApp takes at most {limit} MB for a document."),
}


def _cannot_read(path: Path, problem: OSError) -> str:
    return _("Cannot read {path}: {reason}").format(path=path, reason=problem.strerror or problem)


def kind_of(path: Path) -> MediaType:
    """What WhatsApp sends a file as, by its type: photo, video, audio, else a document."""
    mimetype, _encoding = mimetypes.guess_type(path.name)
    major = (mimetype or "").split("/")[0]
    if major in ("image", "video", "audio"):
        return major  # type: ignore[return-value]
    return "document"


def read_for_upload(raw_path: str, caption: str = "") -> MediaUpload:
    """A local file as a sendMedia upload; its size is checked before it is read."""
    path = Path(raw_path.strip()).expanduser()
    if not raw_path.strip():
        raise MediaFileProblem(_("Give the path of a file to send."))
    try:
        size = path.stat().st_size
    except OSError as problem:
        raise MediaFileProblem(_cannot_read(path, problem)) from None
    if not path.is_file():
        raise MediaFileProblem(_("{path} is not a file.").format(path=path))
    kind = kind_of(path)
    limit = MEDIA_LIMITS[kind]
    if size == 0:
        raise MediaFileProblem(_("{name} is empty: nothing to send.").format(name=path.name))
    if size > limit:
        raise MediaFileProblem(
            _(TOO_BIG[kind]).format(
                name=path.name, size=decimal(size / 2**20, 1), limit=number(limit // 2**20)
            )
        )
    try:
        content = path.read_bytes()
    except OSError as problem:
        raise MediaFileProblem(_cannot_read(path, problem)) from None
    return MediaUpload(
        mediatype=kind,
        media=base64.b64encode(content).decode("ascii"),
        file_name=path.name,
        caption=caption.strip() or None,
        # Without one the gateway stores a document as application/octet-stream.
        mimetype=guess_mimetype(path.name) if kind == "document" else None,
    )
