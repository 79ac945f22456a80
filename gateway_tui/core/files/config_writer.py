"""Writing the config file: a profile (the connect screen) or one top-level setting (the theme).

tomlkit edits the document instead of rewriting it, so the user's comments, order and layout are
kept; the file is written atomically, 0600 in a 0700 directory. Reading and merging: config.py.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from gateway_tui.core.files import storage
from gateway_tui.core.files.config import ConfigFileError, Profile, _read_toml, config_path
from gateway_tui.core.text.i18n import _


def save_profile(
    name: str, profile: Profile, *, path: Path | None = None, make_default: bool = False
) -> None:
    """Add or replace profile ``name`` in the config file, keeping everything else in it: the
    user's comments, order and layout too (tomlkit edits the document, it does not rewrite it).

    The key is written only for a profile without ``api_key_env`` or ``keychain``: a key that
    comes from an environment variable or the OS keychain stays off the disk. The file is
    written atomically, 0600 in a 0700 directory. Raises ConfigFileError when the existing file
    cannot be read (it is left untouched rather than overwritten) and ValueError for a bad name.
    """
    import tomlkit

    if not name.strip():
        raise ValueError(_("The profile name cannot be empty"))
    path = config_path() if path is None else Path(path)
    data, document = _document(path)
    if not isinstance(data.get("profiles", {}), dict):
        raise ConfigFileError(
            _("{path}: 'profiles' is not a table; fix it by hand first").format(path=path)
        )
    entry = tomlkit.table()
    entry["url"] = profile.url
    if profile.api_key_env:
        entry["api_key_env"] = profile.api_key_env
    elif profile.keychain:
        entry["keychain"] = True  # the key itself is in the OS keychain (keychain.set_key)
    elif profile.api_key is not None:
        entry["api_key"] = profile.api_key.get_secret_value()
    try:
        if make_default:
            _set_top_level(document, "default_profile", name)
        if "profiles" not in document:
            document["profiles"] = tomlkit.table(is_super_table=True)
        profiles = document["profiles"]
        existing = profiles.get(name)
        if isinstance(existing, Mapping):  # edited in place: its comments and order kept
            for key in [key for key in existing if key not in entry]:
                del existing[key]
            for key, value in entry.items():
                existing[key] = value
        else:
            profiles[name] = entry
        text = tomlkit.dumps(document)
    except (tomlkit.exceptions.TOMLKitError, TypeError, ValueError) as exc:
        raise ConfigFileError(
            _("Cannot add the profile to {path} ({reason}); edit it by hand").format(
                path=path, reason=exc
            )
        ) from None
    storage.atomic_write_text(path, text)


def save_setting(key: str, value: str, *, path: Path | None = None) -> None:
    """Set one top-level setting of the config file (e.g. ``theme``), keeping the rest of it
    (comments and layout too). Raises ConfigFileError when the file cannot be read or written."""
    import tomlkit

    path = config_path() if path is None else Path(path)
    _data, document = _document(path)
    _set_top_level(document, key, value)
    try:
        storage.atomic_write_text(path, tomlkit.dumps(document))
    except OSError as exc:
        raise ConfigFileError(
            _("Cannot write {path}: {reason}").format(path=path, reason=exc.strerror or exc)
        ) from None


def _document(path: Path) -> tuple[dict[str, Any], Any]:
    """The file's settings and its tomlkit document (to edit in place). Raises ConfigFileError."""
    import tomlkit

    data = _read_toml(path)  # checks the file as loading does: size, depth, valid TOML
    try:
        return data, tomlkit.parse(path.read_text(encoding="utf-8-sig"))
    except FileNotFoundError:
        return data, tomlkit.document()
    except (OSError, UnicodeDecodeError, tomlkit.exceptions.TOMLKitError) as exc:
        raise ConfigFileError(
            _("Cannot rewrite {path}: {reason}").format(path=path, reason=exc)
        ) from None


def _set_top_level(document: Any, key: str, value: str) -> None:
    """Set a top-level setting; a new one goes right after the last top-level setting (tomlkit
    alone would put it after the comment that heads the first table)."""
    if key in document:
        document[key] = value
        return
    settings = [k.key for k, item in document.body if k and not isinstance(item, Mapping)]
    insert_after = getattr(document, "_insert_after", None)  # tomlkit has no public way
    if settings and insert_after is not None:
        insert_after(settings[-1], key, value)
    else:
        document[key] = value
