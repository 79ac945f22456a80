"""The language a run starts in, chosen before anything is said (core/text/i18n.py).

``--lang`` is looked for in the arguments before argparse reads them, because argparse's own
``--help`` is already in the chosen language; the config file's ``language`` is read with the
standard library alone (the config's full check, with pydantic, comes after the first frame and
says what is wrong with a language it does not know).
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping, Sequence

from gateway_tui.core.files import storage
from gateway_tui.core.text.i18n import choose_language, set_language


def option_language(argv: Sequence[str]) -> str | None:
    """The value of ``--lang`` in ``argv`` (before a ``--``), the last one given winning."""
    found = None
    arguments = list(argv)
    for index, argument in enumerate(arguments):
        if argument == "--":
            break
        if argument == "--lang" and index + 1 < len(arguments):
            found = arguments[index + 1]
        elif argument.startswith("--lang="):
            found = argument.partition("=")[2]
    return found


def configured_language() -> str | None:
    """``language`` at the top of config.toml, or None (no file, no such key, or a file the
    config check will report on its own)."""
    try:
        text = (storage.config_dir() / storage.CONFIG_FILE_NAME).read_text(encoding="utf-8")
        value = tomllib.loads(text).get("language")
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
    return value if isinstance(value, str) else None


def start_language(argv: Sequence[str], environ: Mapping[str, str] | None = None) -> str:
    """Choose and set the run's language: ``--lang``, the config, the environment, English."""
    return set_language(
        choose_language(option_language(argv), configured_language(), environ or os.environ)
    )
