"""Themes: every theme Textual registers, plus the user's own, and the choice kept in the config.

- The palette's "Change theme" lists every registered theme (Textual's own and the user's);
  ``ctrl+t`` flips between dark and light.
- User themes: one TOML file per theme in ``<config dir>/themes/`` (``gateway-tui config path``
  names the config dir), with Textual's Theme fields::

      name = "harbour"
      primary = "#4ea1d3"
      background = "#0b1d2a"
      dark = true

  A file that cannot be read or names a colour that is not one is reported once, by file name;
  the other themes still load.
- The theme chosen is written to ``theme`` in config.toml (comments and layout kept) and used at
  the next start; a ``theme`` that names no known theme is reported and the default stays.
"""

from __future__ import annotations

import dataclasses
import tomllib
from functools import partial
from pathlib import Path
from typing import Any

from textual.theme import Theme

from gateway_tui.core.files import storage
from gateway_tui.core.text.i18n import _, ngettext

THEMES_DIR_NAME = "themes"
MAX_THEME_BYTES = 64 * 1024
_FIELDS = {field.name: field for field in dataclasses.fields(Theme)}


def user_themes_dir() -> Path:
    return storage.config_dir() / THEMES_DIR_NAME


def load_user_themes(directory: Path | None = None) -> tuple[list[Theme], list[str]]:
    """The themes of ``directory``'s ``*.toml`` files, and a problem per file that is not one."""
    directory = user_themes_dir() if directory is None else directory
    themes: list[Theme] = []
    problems: list[str] = []
    try:
        paths = sorted(directory.glob("*.toml"))
    except OSError:
        return [], []
    for path in paths:
        try:
            themes.append(_read_theme(path))
        except ValueError as exc:
            problems.append(
                _("{path}: {problem}; theme not loaded.").format(path=path, problem=exc)
            )
    return themes, problems


def _read_theme(path: Path) -> Theme:
    try:
        with path.open("rb") as file:
            raw = file.read(MAX_THEME_BYTES + 1)
    except OSError as exc:
        raise ValueError(_("cannot be read ({error})").format(error=exc.strerror or exc)) from None
    if len(raw) > MAX_THEME_BYTES:
        raise ValueError(_("larger than {size} KB").format(size=MAX_THEME_BYTES // 1024))
    try:
        data: dict[str, Any] = tomllib.loads(raw.decode("utf-8-sig"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError) as exc:
        raise ValueError(_("not valid TOML ({error})").format(error=exc)) from None
    data.setdefault("name", path.stem)
    unknown = sorted(set(data) - set(_FIELDS))
    if unknown:
        raise ValueError(
            ngettext(
                "unknown setting {names} (known: {known})",
                "unknown settings {names} (known: {known})",
                len(unknown),
            ).format(names=", ".join(unknown), known=", ".join(_FIELDS))
        )
    if not isinstance(data.get("primary"), str):
        raise ValueError(
            _('a theme needs primary = a colour, e.g. "{example}"').format(example="#4ea1d3")
        )
    try:
        theme = Theme(**data)
        theme.to_color_system()  # every colour parsed now, not at the first paint
    except Exception as exc:  # noqa: BLE001 - Textual's colour parser raises several kinds
        raise ValueError(_("not a theme: {error}").format(error=exc)) from None
    return theme


def install_themes(app: Any) -> None:
    """Register the user's themes on ``app`` (a GatewayApp, its config loaded), switch to the
    config's ``theme``, and keep in the config each theme the user picks from now on."""
    themes, problems = load_user_themes()
    for theme in themes:
        app.register_theme(theme)
    chosen = app.config.theme
    if chosen:
        if chosen in app.available_themes:
            app.theme = chosen
        else:
            known = ", ".join(sorted(app.available_themes))
            problems.append(
                _("theme {name} is not a known theme (themes: {known}).").format(
                    name=repr(chosen), known=known
                )
            )
    for problem in problems:
        app.notify(problem, title=_("Themes"), severity="warning", markup=False)

    def picked(theme: Theme) -> None:
        if theme.name != app.config.theme:
            app.config.theme = theme.name
            app.run_worker(
                partial(_keep, app, theme.name, app.config.path),
                thread=True,  # an fsync'd write: off the event loop
                group="theme",
                exclusive=True,  # the picker previews each theme it passes: the last one wins
                exit_on_error=False,
            )

    app.theme_changed_signal.subscribe(app, picked)


def _keep(app: Any, name: str, path: Path) -> None:
    from gateway_tui.core.files.config import ConfigFileError
    from gateway_tui.core.files.config_writer import save_setting

    try:
        save_setting("theme", name, path=path)
    except ConfigFileError as exc:
        app.call_from_thread(
            app.notify,
            _("The theme is not kept: {error}").format(error=exc),
            title=_("Themes"),
            severity="warning",
        )
