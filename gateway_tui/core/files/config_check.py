"""``gateway-tui config show | validate | schema``: the merged settings and where each came from,
every problem of the file, and a JSON Schema of it for editors.

The same definitions serve all three and the app: the pydantic models of config.py (settings,
types, bounds), the binding table of app_facts.py (binding ids, key names, themes) and the
checks of keys_check.py. config.schema.json in the repository is this module's ``schema()``
(a test holds them equal).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gateway_tui.core.files import config as cfg
from gateway_tui.core.files.app_facts import BINDINGS, THEMES
from gateway_tui.core.text.i18n import N_, _

# Where a setting came from (the table says them in the reader's language).
DEFAULT = N_("default")
CONFIG_FILE = N_("config file")
NONE = "(none)"  # a value, not a source: scripts read it


@dataclass(frozen=True)
class Setting:
    name: str
    value: str
    source: str  # flag, environment (NAME), profile NAME, config file, default: for scripts
    said: str = ""  # the source in the reader's language (the table a person reads)

    @staticmethod
    def of(name: str, value: str, source: str, **params: str) -> Setting:
        """A row whose source is the sentence ``source`` (N_-marked) with ``params``: in
        English for --json and --csv, in the reader's language for the table."""
        return Setting(name, value, source.format(**params), _(source).format(**params))


def _raw(path: Path) -> dict[str, Any]:
    try:
        return cfg._read_toml(path)
    except cfg.ConfigFileError:
        return {}


def show(
    *,
    url: str | None = None,
    api_key: str | None = None,
    profile: str | None = None,
    path: Path | None = None,
    environ: Mapping[str, str] | None = None,
) -> tuple[list[Setting], list[str]]:
    """The settings in use (the key masked) with where each came from, and the problems."""
    path = cfg.config_path() if path is None else Path(path)
    environ = os.environ if environ is None else environ
    config = cfg.load_config(url=url, api_key=api_key, profile=profile, path=path, environ=environ)
    raw = _raw(path)
    env = cfg.EnvSettings.from_environ(environ)
    found = DEFAULT if not path.exists() else N_("found")
    rows = [Setting.of("config file", str(path), found)]

    if profile:
        profile_source = N_("flag --profile")
    elif env.profile:
        profile_source = N_("environment (GATEWAY_PROFILE)")
    elif raw.get("default_profile"):
        profile_source = N_("config file (default_profile)")
    else:
        profile_source = DEFAULT
    rows.append(Setting.of("profile", config.profile or NONE, profile_source))

    in_profile = N_("profile {profile}") if config.profile else DEFAULT
    named = {"profile": config.profile or ""}
    if url:
        url_source = N_("flag --url")
    elif env.url:
        url_source = N_("environment (GATEWAY_URL)")
    else:
        url_source = in_profile if config.url else DEFAULT
    rows.append(Setting.of("url", config.url or NONE, url_source, **named))
    key_source, key_params = _key_source(config, api_key, env, environ)
    rows.append(Setting.of("api_key", cfg.mask_key(config.api_key), key_source, **key_params))
    rows.append(Setting.of("api_version", config.api_version, in_profile, **named))

    for name in (
        "refresh_interval",
        "request_timeout",
        "max_response_mb",
        "theme",
        "mark_read_on_open",
        "unreachable_alert_after",
    ):
        value = getattr(config, name)
        rows.append(
            Setting.of(
                name,
                NONE if value is None else str(value),
                CONFIG_FILE if name in raw else DEFAULT,
            )
        )
    for binding_id, keys in config.keys.items():
        rows.append(Setting.of(f"keys.{binding_id}", keys, CONFIG_FILE))
    rows.append(
        Setting.of(
            "profiles",
            ", ".join(sorted(config.profiles)) or NONE,
            CONFIG_FILE if config.profiles else DEFAULT,
        )
    )
    return rows, [*config.problems, *config.warnings]


def _key_source(
    config: cfg.ResolvedConfig, flag: str | None, env: cfg.EnvSettings, environ: Mapping[str, str]
) -> tuple[str, dict[str, str]]:
    """Where the key came from: a sentence (N_-marked) and its placeholders' values."""
    if config.api_key is None:
        return DEFAULT, {}
    if flag:
        return N_("flag --api-key"), {}
    if env.api_key:
        return N_("environment (GATEWAY_API_KEY)"), {}
    chosen = config.profiles.get(config.profile or "")
    if chosen is None:
        return DEFAULT, {}
    named = {"profile": config.profile or ""}
    if chosen.api_key_env and environ.get(chosen.api_key_env):
        return N_("profile {profile}: environment ({variable})"), named | {
            "variable": chosen.api_key_env
        }
    if getattr(chosen, "keychain", False) and chosen.api_key is None:
        return N_("profile {profile}: the OS keychain"), named
    return N_("profile {profile}: config file"), named


def validate(path: Path | None = None) -> list[str]:
    """Every problem of the config file: unknown settings, wrong types, bad profiles, ``[keys]``
    (unknown ids, keys no terminal sends, two actions of one screen on one key), an unknown
    theme. Empty when the file is good (or absent)."""
    path = cfg.config_path() if path is None else Path(path)
    config_file, problems = cfg.read_config_file(path)
    _keys, key_problems = cfg._split_keymap(config_file.keys, path)
    problems += key_problems
    if config_file.theme and config_file.theme not in known_themes():
        problems.append(
            _("{path}: theme: {theme} is not a known theme (themes: {known}).").format(
                path=path, theme=repr(config_file.theme), known=", ".join(known_themes())
            )
        )
    default = config_file.default_profile
    if default and default not in config_file.profiles:
        known = ", ".join(sorted(config_file.profiles)) or _("none")
        problems.append(
            _("{path}: default_profile: no profile {profile} (profiles: {known}).").format(
                path=path, profile=repr(default), known=known
            )
        )
    return problems


def known_themes() -> list[str]:
    """Textual's themes and the user's (files in the config dir's themes/, by their name)."""
    import tomllib

    names = set(THEMES)
    folder = cfg.storage.config_dir() / "themes"
    for file in sorted(folder.glob("*.toml")) if folder.is_dir() else ():
        try:
            name = tomllib.loads(file.read_text(encoding="utf-8-sig")).get("name", file.stem)
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
            continue
        names.add(str(name))
    return sorted(names)


def schema() -> dict[str, Any]:
    """A JSON Schema (draft 2020-12) of config.toml, from the models and the binding table."""
    document = cfg.ConfigFile.model_json_schema()
    properties = document["properties"]
    properties["keys"] = {
        "title": "Keys",
        "description": "Binding id -> key(s), comma-separated (`?` in the app lists the ids).",
        "type": "object",
        "propertyNames": {"enum": sorted(b for b in BINDINGS if not b.startswith("textual."))},
        "additionalProperties": {"type": "string", "minLength": 1},
    }
    properties["theme"] = {
        "title": "Theme",
        "description": "A Textual theme, or one of yours in the config dir's themes/ folder.",
        "anyOf": [{"enum": list(THEMES)}, {"type": "string"}, {"type": "null"}],
        "default": None,
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        **document,
    }
