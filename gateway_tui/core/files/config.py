"""Configuration: which gateway to talk to, with which key, and the user's preferences.

Sources, highest precedence first, each value on its own:

1. command-line flags (``--url``, ``--api-key``, ``--profile``),
2. environment variables (``GATEWAY_URL``, ``GATEWAY_API_KEY``, ``GATEWAY_PROFILE``),
3. ``config.toml`` in :func:`config_path`, with one named profile per gateway.

A profile's key is only ever paired with that profile's own URL: when the URL comes from a
higher source, the key must too, so a key is never sent to a gateway it was not saved for.

Loading never raises for a bad file: what is wrong goes into ``ResolvedConfig.problems`` (naming
the file and the line or key), the rest falls back to defaults, and the app can still start.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import stat
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError, field_validator

from gateway_tui.core.files import storage
from gateway_tui.core.files.keys_check import check_keymap, default_keys
from gateway_tui.core.text.i18n import N_, _, number
from gateway_tui.core.text.sanitize import MASK
from gateway_tui.core.text.urls import (  # noqa: F401 - re-exported: callers import them from here
    insecure_url_warning,
    is_insecure_url,
    validate_gateway_url,
)

CONFIG_FILE_NAME = storage.CONFIG_FILE_NAME
DEFAULT_REFRESH_INTERVAL = 30.0
# The shortest refresh interval kept: a smaller one (0.001 asked ~137 calls a second, 1e-300
# spun the CPU) is raised to it, and said. 0 still turns the refresh off.
MIN_REFRESH_INTERVAL = 1.0


def clamped_refresh_interval(seconds: float) -> tuple[float, str | None]:
    """The refresh interval kept for ``seconds`` (the one place it is bounded), and what to
    say when it was raised."""
    if seconds == 0 or seconds >= MIN_REFRESH_INTERVAL:
        return seconds, None
    return MIN_REFRESH_INTERVAL, _(
        "refresh_interval = {value} is too short: {kept} s is used (0 turns the refresh off)"
    ).format(value=f"{seconds:g}", kept=f"{MIN_REFRESH_INTERVAL:g}")


# How long a fleet gateway stays unreachable before it is an alert (core/fleet/alerts.py): a
# shorter one alerts on every restart of a gateway, a longer one than a day is no alert at all.
DEFAULT_UNREACHABLE_ALERT_AFTER = 60.0
MIN_UNREACHABLE_ALERT_AFTER = 10.0
MAX_UNREACHABLE_ALERT_AFTER = 86_400.0


def clamped_unreachable_alert_after(seconds: float) -> tuple[float, str | None]:
    """The delay kept for ``seconds`` (the one place it is bounded), and what to say when it
    was brought into bounds."""
    kept = min(max(seconds, MIN_UNREACHABLE_ALERT_AFTER), MAX_UNREACHABLE_ALERT_AFTER)
    if kept == seconds:
        return seconds, None
    if seconds < kept:
        said = _("unreachable_alert_after = {value} is too short: {kept} s is used")
    else:
        said = _("unreachable_alert_after = {value} is too long: {kept} s is used")
    return kept, said.format(value=f"{seconds:g}", kept=f"{kept:g}")


DEFAULT_REQUEST_TIMEOUT = 15.0
DEFAULT_MAX_RESPONSE_MB = 64.0


def config_path() -> Path:
    """Where config.toml lives."""
    return storage.config_dir() / CONFIG_FILE_NAME


class ConfigFileError(ValueError):
    """The config file cannot be read or rewritten; the message says why, in plain words."""


# --------------------------------------------------------------------------------------------
# URLs and keys


def mask_key(secret: str | SecretStr | None) -> str:
    """A key for display: "••••" plus at most a quarter of its last characters (4 at most,
    none for keys shorter than 8, which that would give away); "(none)" for no key."""
    if secret is None:
        return "(none)"
    if isinstance(secret, SecretStr):
        secret = secret.get_secret_value()
    shown = min(4, len(secret) // 4) if len(secret) >= 8 else 0
    return MASK + secret[-shown:] if shown else MASK


# --------------------------------------------------------------------------------------------
# Models


class Profile(BaseModel):
    """One gateway: its URL and where its key comes from."""

    model_config = ConfigDict(extra="forbid")  # so a typo like "apikey" is reported, not lost

    url: str
    api_key: SecretStr | None = None
    api_key_env: str | None = None  # read the key from this env var: no secret on disk
    keychain: bool = False  # the key is in the OS keychain (core/files/keychain.py)
    # Which line of Evolution API the gateway speaks: "1" (1.7.1), "2" (2.x), or "auto" (told
    # by its answers).
    api_version: str = "auto"
    # The gateway's Prometheus /metrics behind basic auth (METRICS_USER / METRICS_PASSWORD):
    # the fleet reads every instance's state from it in one call. The password is a secret.
    metrics_user: str | None = None
    metrics_password: SecretStr | None = None
    metrics_password_env: str | None = None

    @field_validator("api_version", mode="before")
    @classmethod
    def _known_line(cls, value: object) -> str:
        text = str(value).strip().lower()
        if text in ("auto", ""):
            return "auto"
        line = text.split(".", 1)[0].lstrip("v")
        if line not in ("1", "2"):
            raise ValueError('api_version is "1", "2" or "auto"')
        return line

    @field_validator("url")
    @classmethod
    def _valid_url(cls, url: str) -> str:
        return validate_gateway_url(url)

    def resolve_metrics_password(
        self, environ: Mapping[str, str] | None = None
    ) -> SecretStr | None:
        """/metrics' password: from ``metrics_password_env`` when set, else the file's."""
        if self.metrics_password_env:
            value = (os.environ if environ is None else environ).get(self.metrics_password_env)
            if value:
                return SecretStr(value)
        return self.metrics_password

    def resolve_key(
        self, environ: Mapping[str, str] | None = None, *, name: str | None = None
    ) -> SecretStr | None:
        """The key to use: from ``api_key_env`` when that variable is set, else from the OS
        keychain (profile ``name``'s entry) when ``keychain`` is on, else ``api_key``.
        Raises KeychainError when the keychain is asked and cannot answer."""
        if self.api_key_env:
            value = (os.environ if environ is None else environ).get(self.api_key_env)
            if value:
                return SecretStr(value)
        if self.keychain and name and self.api_key is None:
            from gateway_tui.core.files.keychain import get_key

            value = get_key(name)
            return SecretStr(value) if value else None
        return self.api_key


class ConfigFile(BaseModel):
    """The content of config.toml."""

    model_config = ConfigDict(extra="forbid")

    default_profile: str | None = None
    refresh_interval: float = Field(
        default=DEFAULT_REFRESH_INTERVAL, ge=0, allow_inf_nan=False
    )  # 0 disables; below MIN_REFRESH_INTERVAL raised to it (clamped_refresh_interval)
    request_timeout: float = Field(default=DEFAULT_REQUEST_TIMEOUT, gt=0)  # seconds per call
    # The largest answer read, in MB after decompression (10,000 instances take about 7).
    max_response_mb: float = Field(default=DEFAULT_MAX_RESPONSE_MB, gt=0, le=4096)
    theme: str | None = None
    # The app's and the command line's language: en, pt_BR or es (--lang wins; unset: the
    # environment's LC_ALL / LC_MESSAGES / LANG). Read before the first frame (files/language.py).
    language: str | None = None
    # Send read receipts for the messages of a conversation when it is opened. The contacts
    # see them (blue ticks): off unless asked for.
    mark_read_on_open: bool = False
    # The fleet's alerts also as the terminal's desktop notifications (OSC 9 and OSC 777).
    desktop_notifications: bool = False
    # Seconds a fleet gateway stays unreachable before it is an alert; brought into
    # [MIN_UNREACHABLE_ALERT_AFTER, MAX_UNREACHABLE_ALERT_AFTER] and said.
    unreachable_alert_after: float = Field(
        default=DEFAULT_UNREACHABLE_ALERT_AFTER, ge=0, allow_inf_nan=False
    )
    keys: dict[str, str] = Field(default_factory=dict)  # binding id -> key(s)
    profiles: dict[str, Profile] = Field(default_factory=dict)


ENV_PREFIX = "GATEWAY_"


@dataclass(frozen=True)
class EnvSettings:
    """``GATEWAY_URL``, ``GATEWAY_API_KEY`` and ``GATEWAY_PROFILE``; empty counts as unset.

    Three plain strings, read directly: importing pydantic-settings for them took about 20 ms
    of every start, between the first frame and the instances (bench/RESULTS.md §1).
    """

    url: str | None = None
    api_key: SecretStr | None = None
    profile: str | None = None

    @classmethod
    def from_environ(cls, environ: Mapping[str, str] | None = None) -> EnvSettings:
        """Read from ``environ`` (None means os.environ)."""
        source = os.environ if environ is None else environ

        def value(name: str) -> str | None:
            return source.get(ENV_PREFIX + name) or None

        key = value("API_KEY")
        return cls(
            url=value("URL"), api_key=SecretStr(key) if key else None, profile=value("PROFILE")
        )


@dataclass
class ResolvedConfig:
    """Everything the app needs, from all sources merged."""

    url: str | None = None
    api_key: SecretStr | None = None
    profile: str | None = None  # the profile whose URL is in use, if any
    demo: bool = False
    # Where drafts, history and templates are filed, when not under the URL: the embedded demo
    # runs on a new port each time, and its files must survive a relaunch.
    gateway_id: str | None = None
    refresh_interval: float = DEFAULT_REFRESH_INTERVAL
    request_timeout: float = DEFAULT_REQUEST_TIMEOUT
    max_response_mb: float = DEFAULT_MAX_RESPONSE_MB
    theme: str | None = None
    api_version: str = "auto"  # the profile's pin, or "auto"
    mark_read_on_open: bool = False
    desktop_notifications: bool = False
    unreachable_alert_after: float = DEFAULT_UNREACHABLE_ALERT_AFTER
    keys: dict[str, str] = field(default_factory=dict)
    profiles: dict[str, Profile] = field(default_factory=dict)
    path: Path = field(default_factory=config_path)
    problems: list[str] = field(default_factory=list)  # e.g. a corrupt file
    warnings: list[str] = field(default_factory=list)  # e.g. an insecure URL

    @property
    def is_complete(self) -> bool:
        """Whether both the URL and the key are known, so the app can connect right away."""
        return bool(self.url and self.api_key and self.api_key.get_secret_value())

    @property
    def gateway_identity(self) -> str | None:
        """What the gateway's local files (drafts, history, templates) are filed under."""
        return self.gateway_id or self.url

    def with_gateway(
        self, url: str, api_key: str | SecretStr | None, *, identity: str | None = None
    ) -> ResolvedConfig:
        """A copy pointed at another gateway (e.g. the embedded demo), outside any profile.

        ``identity`` files its drafts and history under a stable name instead of the URL.
        """
        if isinstance(api_key, str):
            api_key = SecretStr(api_key)
        return dataclasses.replace(self._retarget(url, api_key, profile=None), gateway_id=identity)

    def switch_profile(self, name: str, environ: Mapping[str, str] | None = None) -> ResolvedConfig:
        """A copy using profile ``name``'s URL and key. Raises KeyError for an unknown name."""
        profile = self.profiles[name]
        problems: list[str] = []
        key = _profile_key(profile, name, environ, problems)
        config = self._retarget(profile.url, key, profile=name)
        config.problems.extend(problem for problem in problems if problem not in config.problems)
        return config

    def _retarget(
        self, url: str | None, api_key: SecretStr | None, profile: str | None
    ) -> ResolvedConfig:
        chosen = self.profiles.get(profile) if profile else None
        old_url_warning = insecure_url_warning(self.url)
        new_url_warning = insecure_url_warning(url)
        warnings = [warning for warning in self.warnings if warning != old_url_warning]
        if new_url_warning:
            warnings.append(new_url_warning)
        return dataclasses.replace(
            self,
            url=url,
            api_key=api_key,
            profile=profile,
            gateway_id=None,
            api_version=chosen.api_version if chosen else "auto",
            keys=dict(self.keys),
            profiles=dict(self.profiles),
            problems=list(self.problems),
            warnings=warnings,
        )


# --------------------------------------------------------------------------------------------
# Reading


# A config file is a few dozen lines; these bounds keep a planted or broken one from hanging the
# app (the TOML parser is quadratic in nested tables and recurses once per nesting level).
MAX_CONFIG_BYTES = 1024 * 1024
MAX_CONFIG_DEPTH = 16


def _read_toml(path: Path) -> dict[str, Any]:
    """The file's raw content; {} when it does not exist. Raises ConfigFileError."""
    try:
        with path.open("rb") as file:
            raw = file.read(MAX_CONFIG_BYTES + 1)
    except FileNotFoundError:
        return {}
    except IsADirectoryError:
        raise ConfigFileError(_("{path} is a directory, not a file").format(path=path)) from None
    except OSError as exc:
        raise ConfigFileError(
            _("Cannot read {path}: {reason}").format(path=path, reason=exc.strerror)
        ) from None
    if len(raw) > MAX_CONFIG_BYTES:
        raise ConfigFileError(
            _("{path} is larger than {size} KB").format(
                path=path, size=number(MAX_CONFIG_BYTES // 1024)
            )
        )
    try:
        text = raw.decode("utf-8-sig")  # a byte-order mark (Notepad's "UTF-8") is no TOML
    except UnicodeDecodeError:
        raise ConfigFileError(_("{path} is not UTF-8 text").format(path=path)) from None
    if _too_deep(text):
        raise ConfigFileError(
            _("{path} nests tables or arrays more than {depth} deep").format(
                path=path, depth=MAX_CONFIG_DEPTH
            )
        )
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:  # its message gives the line and column
        raise ConfigFileError(
            _("{path} is not valid TOML: {reason}").format(path=path, reason=exc)
        ) from None
    except RecursionError:
        raise ConfigFileError(_("{path} is nested too deep to read").format(path=path)) from None


def _too_deep(text: str) -> bool:
    """Brackets, or dotted keys on one line, deeper than MAX_CONFIG_DEPTH (strings ignored)."""
    if storage.nesting_depth(text, MAX_CONFIG_DEPTH, quotes="\"'") > MAX_CONFIG_DEPTH:
        return True
    for line in text.splitlines():
        if line.count(".") > MAX_CONFIG_DEPTH and _unquoted(line).count(".") > MAX_CONFIG_DEPTH:
            return True
    return False


def _unquoted(line: str) -> str:
    return re.sub(r'"(?:[^"\\]|\\.)*"|\'[^\']*\'', "", line.split("#", 1)[0])


def read_config_file(path: Path | None = None) -> tuple[ConfigFile, list[str]]:
    """The config file's settings and a list of problems; never raises.

    What is invalid is reported and dropped - a bad setting, or the one profile or key binding
    that holds it - and everything else is kept.
    """
    path = config_path() if path is None else Path(path)
    try:
        data = _read_toml(path)
    except ConfigFileError as exc:
        return ConfigFile(), [_("{problem}. Using default settings.").format(problem=exc)]
    problems: list[str] = []
    while True:
        try:
            return ConfigFile.model_validate(data), problems
        except ValidationError as exc:
            errors = exc.errors()
        invalid_parts = set()
        for error in errors:
            loc = tuple(str(part) for part in error["loc"])
            invalid_part = _invalid_part(loc, error["type"])
            if invalid_part == loc:
                said = _("{path}: {setting}: {problem}; ignoring it.")
            else:
                said = _("{path}: {setting}: {problem}; ignoring {part}.")
            problems.append(
                said.format(
                    path=path,
                    setting=_dotted(loc),
                    problem=_describe(error),
                    part=_dotted(invalid_part),
                )
            )
            invalid_parts.add(invalid_part)
        removed = [_remove(data, part) for part in invalid_parts]
        if not any(removed):  # no progress possible: give up on the file as a whole
            problems.append(_("{path}: using default settings.").format(path=path))
            return ConfigFile(), problems


_TABLES_OF_ENTRIES = ("profiles", "keys")


def _invalid_part(loc: tuple[str, ...], error_type: str) -> tuple[str, ...]:
    """The smallest self-contained part of the file that holds an error at ``loc``."""
    if error_type == "extra_forbidden":
        return loc  # just the unknown setting
    if loc and loc[0] in _TABLES_OF_ENTRIES and len(loc) >= 2:
        return loc[:2]  # the whole profile or binding: half of one is no use
    return loc[:1]


def _remove(data: dict[str, Any], part: tuple[str, ...]) -> bool:
    """Delete ``part`` (a key path) from ``data``; whether there was anything to delete."""
    if not part:
        return False
    table: Any = data
    for key in part[:-1]:
        table = table.get(key) if isinstance(table, dict) else None
    if not isinstance(table, dict) or part[-1] not in table:
        return False
    del table[part[-1]]
    return True


def _describe(error: Any) -> str:
    if error["type"] == "value_error":
        return str(error["ctx"]["error"])  # our own plain message, without pydantic's prefix
    if error["type"] == "extra_forbidden":
        return _("unknown setting")
    if error["type"] == "missing":
        return _("required setting is missing")
    said = _PYDANTIC_SAYS.get(error["type"])
    if said is not None:  # pydantic's own words are English: ours for the common ones
        return _(said).format(**{k: v for k, v in error.get("ctx", {}).items()})
    return str(error["msg"])


# What a setting of the wrong kind is told, by pydantic's error type ({…} from its context).
_PYDANTIC_SAYS = {
    "float_parsing": N_("expected a number"),
    "float_type": N_("expected a number"),
    "finite_number": N_("expected a finite number"),
    "int_parsing": N_("expected a whole number"),
    "int_type": N_("expected a whole number"),
    "bool_parsing": N_("expected true or false"),
    "bool_type": N_("expected true or false"),
    "string_type": N_("expected text in quotes"),
    "dict_type": N_("expected a table"),
    "greater_than": N_("expected a number greater than {gt}"),
    "greater_than_equal": N_("expected a number of at least {ge}"),
    "less_than_equal": N_("expected a number of at most {le}"),
}


def _dotted(loc: tuple[Any, ...]) -> str:
    return ".".join(_toml_key(str(part)) for part in loc)


def _insecure_file_warning(path: Path, config_file: ConfigFile) -> str | None:
    if os.name != "posix" or not any(
        p.api_key or p.metrics_password for p in config_file.profiles.values()
    ):
        return None
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
    except OSError:
        return None
    if not mode & 0o077:
        return None
    return _(
        "{path} holds an API key and other users on this machine can read it; run: chmod 600 {path}"
    ).format(path=path)


def _split_keymap(raw: Mapping[str, str], path: Path) -> tuple[dict[str, str], list[str]]:
    """Valid bindings (whitespace tidied) and a problem per invalid one."""
    valid: dict[str, str] = {}
    problems: list[str] = []
    for binding_id, keys in raw.items():
        parts = [part.strip() for part in keys.split(",")]
        if not binding_id.strip():
            reason = _("the binding id is empty")
        elif not all(parts):
            reason = _("empty key")
        elif any(char.isspace() for part in parts for char in part):
            reason = _("a key name cannot contain spaces (use e.g. ctrl+x)")
        else:
            valid[binding_id] = ",".join(parts)
            continue
        problems.append(
            _("{path}: {setting}: {problem}; ignoring it.").format(
                path=path, setting=_dotted(("keys", binding_id)), problem=reason
            )
        )
    valid, refused = check_keymap(valid)  # ids, keys a terminal sends, clashes on a screen
    for binding_id, reason in refused:
        default = default_keys(binding_id)
        if default:
            said = _("{path}: {setting}: {problem}; ignoring it ({binding} keeps {keys}).")
        else:
            said = _("{path}: {setting}: {problem}; ignoring it.")
        problems.append(
            said.format(
                path=path,
                setting=_dotted(("keys", binding_id)),
                problem=reason,
                binding=binding_id,
                keys=default,
            )
        )
    return valid, problems


def keymap(config: ResolvedConfig) -> dict[str, str]:
    """The valid binding-id -> key(s) entries of ``config``; invalid ones are added to its
    problems (once, however often this is called)."""
    valid, problems = _split_keymap(config.keys, config.path)
    config.problems.extend(problem for problem in problems if problem not in config.problems)
    return valid


def load_config(
    *,
    url: str | None = None,
    api_key: str | SecretStr | None = None,
    profile: str | None = None,
    demo: bool = False,
    path: Path | None = None,
    environ: Mapping[str, str] | None = None,
) -> ResolvedConfig:
    """Merge flags, environment and config file (see the module doc). Never raises."""
    path = config_path() if path is None else Path(path)
    config_file, problems = read_config_file(path)
    keys, keymap_problems = _split_keymap(config_file.keys, path)
    problems.extend(keymap_problems)
    env = EnvSettings.from_environ(environ)

    profile_name = profile or env.profile or config_file.default_profile
    chosen = config_file.profiles.get(profile_name) if profile_name else None
    if profile_name and chosen is None:
        known = ", ".join(sorted(config_file.profiles)) or "none"
        problems.append(
            _("Profile '{profile}' is not in {path} (profiles there: {known}).").format(
                profile=profile_name, path=path, known=known
            )
        )

    # Each of url and key: flag, else environment, else the profile.
    url_source = "--url" if url else "GATEWAY_URL" if env.url else None
    if url_source:
        chosen_url = _checked_url(url or env.url, url_source, problems)
    else:
        chosen_url = chosen.url if chosen else None
    uses_profile = chosen is not None and chosen_url == chosen.url
    if api_key:
        key = api_key if isinstance(api_key, SecretStr) else SecretStr(api_key)
    elif env.api_key:
        key = env.api_key
    else:
        key = _profile_key(chosen, profile_name, environ, problems) if uses_profile else None
    if uses_profile and key is None and chosen.api_key_env and not chosen.keychain:
        problems.append(
            _("Profile '{profile}' reads its API key from ${variable}, which is not set.").format(
                profile=profile_name, variable=chosen.api_key_env
            )
        )
    if chosen is not None and not uses_profile and chosen_url and key is None:
        problems.append(
            _(
                "{source} points at another gateway than profile '{profile}', "
                "whose API key is only sent to its own URL."
            ).format(source=url_source, profile=profile_name)
        )

    file_warning = _insecure_file_warning(path, config_file)
    interval, interval_warning = clamped_refresh_interval(config_file.refresh_interval)
    unreachable, unreachable_warning = clamped_unreachable_alert_after(
        config_file.unreachable_alert_after
    )
    language_warning = _language_warning(config_file.language)
    base = ResolvedConfig(
        demo=demo,
        refresh_interval=interval,
        request_timeout=config_file.request_timeout,
        max_response_mb=config_file.max_response_mb,
        theme=config_file.theme,
        mark_read_on_open=config_file.mark_read_on_open,
        desktop_notifications=config_file.desktop_notifications,
        unreachable_alert_after=unreachable,
        keys=keys,
        profiles=dict(config_file.profiles),
        path=path,
        problems=problems,
        warnings=[
            w for w in (file_warning, interval_warning, unreachable_warning, language_warning) if w
        ],
    )
    return base._retarget(chosen_url, key, profile_name if uses_profile else None)


def _language_warning(language: str | None) -> str | None:
    """What to say of a ``language`` the app does not ship (it then speaks by --lang or the
    environment, as if the setting were absent)."""
    from gateway_tui.core.text.i18n import LANGUAGES, normalize

    if language is None or normalize(language) is not None:
        return None
    return _(
        "language = {value} is not a language gateway-tui speaks ({known}): it is left out"
    ).format(value=repr(language), known=", ".join(LANGUAGES))


def _profile_key(
    profile: Profile, name: str | None, environ: Mapping[str, str] | None, problems: list[str]
) -> SecretStr | None:
    """``profile``'s key; what keeps the keychain from giving it goes into ``problems``."""
    from gateway_tui.core.files.keychain import KeychainError

    try:
        key = profile.resolve_key(environ, name=name)
    except KeychainError as exc:
        problems.append(
            _("Profile '{profile}' keeps its API key in the OS keychain, but {reason}.").format(
                profile=name, reason=exc
            )
        )
        return None
    if key is None and profile.keychain and profile.api_key is None:
        problems.append(
            _(
                "Profile '{profile}' keeps its API key in the OS keychain, which has none for "
                "it (save the profile again from the connect screen)."
            ).format(profile=name)
        )
    return key


def _checked_url(url: str, source: str, problems: list[str]) -> str | None:
    try:
        return validate_gateway_url(url)
    except ValueError as exc:
        problems.append(f"{source}: {exc}.")
        return None


_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def _toml_key(key: str) -> str:
    """A key as the file would spell it, for messages (a JSON string is a TOML basic one)."""
    return key if _BARE_KEY.fullmatch(key) else json.dumps(key, ensure_ascii=False)
