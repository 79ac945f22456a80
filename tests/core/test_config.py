import os
import stat
import tomllib
from pathlib import Path

import pytest
import tomlkit
from hypothesis import given
from hypothesis import strategies as st
from pydantic import SecretStr, ValidationError

from gateway_tui.core.files.config import (
    ConfigFileError,
    EnvSettings,
    Profile,
    ResolvedConfig,
    config_path,
    insecure_url_warning,
    is_insecure_url,
    keymap,
    load_config,
    mask_key,
    validate_gateway_url,
)
from gateway_tui.core.files.config_writer import save_profile

FILE = """\
default_profile = "prod"
refresh_interval = 12.5
request_timeout = 4.5
theme = "textual-light"

[keys]
"instances.delete" = "ctrl+x"

[profiles.prod]
url = "https://gw.example.com/"
api_key_env = "PROD_GATEWAY_KEY"

[profiles.local]
url = "http://127.0.0.1:8080"
api_key = "local-file-key"
"""


def write_config(text: str) -> Path:
    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    path.chmod(0o600)
    return path


def key_of(config: ResolvedConfig) -> str | None:
    return config.api_key.get_secret_value() if config.api_key else None


# ---------------------------------------------------------------------------- loading


# conftest.py's autouse isolated_home gives every test its own GATEWAY_TUI_HOME and clears
# GATEWAY_URL / GATEWAY_API_KEY / GATEWAY_PROFILE.


def test_config_path_is_under_the_home_override(isolated_home):
    assert config_path() == isolated_home / "config" / "config.toml"


def test_no_file_no_env_gives_defaults_without_problems():
    config = load_config()
    assert (config.url, config.api_key, config.profile) == (None, None, None)
    assert config.refresh_interval == 30.0
    assert config.problems == [] and config.warnings == []
    assert not config.is_complete
    assert config.path == config_path()


def test_file_settings_and_default_profile_are_used(monkeypatch):
    write_config(FILE)
    monkeypatch.setenv("PROD_GATEWAY_KEY", "prod-env-key")
    config = load_config()
    assert config.profile == "prod"
    assert config.url == "https://gw.example.com"  # trailing slash stripped
    assert key_of(config) == "prod-env-key"
    assert config.refresh_interval == 12.5
    assert config.request_timeout == 4.5
    assert config.theme == "textual-light"
    assert config.keys == {"instances.delete": "ctrl+x"}
    assert set(config.profiles) == {"prod", "local"}
    assert config.is_complete
    assert config.problems == []


@pytest.mark.parametrize(
    ("flag", "env", "expected"),
    [
        (None, None, "http://127.0.0.1:8080"),
        (None, "https://env.example.com", "https://env.example.com"),
        ("https://flag.example.com", "https://env.example.com", "https://flag.example.com"),
    ],
)
def test_url_precedence_flag_over_env_over_file(monkeypatch, flag, env, expected):
    write_config(FILE)
    if env:
        monkeypatch.setenv("GATEWAY_URL", env)
    assert load_config(url=flag, profile="local").url == expected


@pytest.mark.parametrize(
    ("flag", "env", "expected"),
    [
        (None, None, "local-file-key"),
        (None, "env-key", "env-key"),
        ("flag-key", "env-key", "flag-key"),
    ],
)
def test_key_precedence_flag_over_env_over_file(monkeypatch, flag, env, expected):
    write_config(FILE)
    if env:
        monkeypatch.setenv("GATEWAY_API_KEY", env)
    assert key_of(load_config(api_key=flag, profile="local")) == expected


@pytest.mark.parametrize(
    ("flag", "env", "expected"),
    [(None, None, "prod"), (None, "local", "local"), ("prod", "local", "prod")],
)
def test_profile_precedence_flag_over_env_over_file(monkeypatch, flag, env, expected):
    write_config(FILE)
    monkeypatch.setenv("PROD_GATEWAY_KEY", "k")
    if env:
        monkeypatch.setenv("GATEWAY_PROFILE", env)
    config = load_config(profile=flag)
    assert config.profile == expected
    assert config.url == config.profiles[expected].url


def test_a_profile_key_is_never_paired_with_another_url():
    write_config(FILE)
    config = load_config(url="https://elsewhere.example.com", profile="local")
    assert config.url == "https://elsewhere.example.com"
    assert config.api_key is None
    assert config.profile is None  # the gateway in use is not the profile's
    assert config.problems == [
        "--url points at another gateway than profile 'local', "
        "whose API key is only sent to its own URL."
    ]


def test_the_same_url_spelled_differently_still_uses_the_profile_key():
    write_config(FILE)
    config = load_config(url="http://127.0.0.1:8080/", profile="local")
    assert (config.profile, key_of(config)) == ("local", "local-file-key")


def test_an_explicit_environ_replaces_os_environ(monkeypatch):
    write_config(FILE)
    monkeypatch.setenv("GATEWAY_URL", "https://from-os.example.com")
    environ = {"GATEWAY_PROFILE": "prod", "PROD_GATEWAY_KEY": "from-mapping"}
    config = load_config(environ=environ)
    assert config.url == "https://gw.example.com"
    assert key_of(config) == "from-mapping"


def test_env_settings_reads_the_prefixed_variables(monkeypatch):
    monkeypatch.setenv("GATEWAY_URL", "https://a.example.com")
    monkeypatch.setenv("GATEWAY_API_KEY", "k")
    monkeypatch.setenv("GATEWAY_PROFILE", "")  # empty counts as unset
    settings = EnvSettings.from_environ()
    assert settings.url == "https://a.example.com"
    assert settings.api_key.get_secret_value() == "k"
    assert settings.profile is None


def test_api_key_env_wins_over_api_key_when_set():
    profile = Profile(url="https://a.example.com", api_key="on-disk", api_key_env="MY_KEY")
    assert profile.resolve_key({"MY_KEY": "from-env"}).get_secret_value() == "from-env"
    assert profile.resolve_key({}).get_secret_value() == "on-disk"
    assert Profile(url="https://a.example.com", api_key_env="MY_KEY").resolve_key({}) is None


def test_an_unset_api_key_env_is_reported(monkeypatch):
    monkeypatch.delenv("PROD_GATEWAY_KEY", raising=False)
    write_config(FILE)
    config = load_config(profile="prod")
    assert config.api_key is None
    assert any("$PROD_GATEWAY_KEY" in problem for problem in config.problems)


def test_a_missing_profile_is_a_problem_not_an_error():
    path = write_config(FILE)
    config = load_config(profile="staging")
    assert config.url is None and config.profile is None
    [problem] = config.problems
    assert "'staging'" in problem and str(path) in problem
    assert "local, prod" in problem


def test_a_missing_default_profile_is_a_problem():
    write_config('default_profile = "gone"\n')
    assert "'gone'" in load_config().problems[0]


def test_corrupt_toml_names_file_and_line_and_falls_back_to_defaults():
    path = write_config('theme = "x"\nrefresh_interval = = 3\n')
    config = load_config(url="https://gw.example.com", api_key="k")
    [problem] = config.problems
    assert str(path) in problem and "line 2" in problem
    assert config.refresh_interval == 30.0 and config.theme is None
    assert config.is_complete  # flags still work, so the app can start


def test_a_file_that_is_not_utf8_is_a_problem():
    path = config_path()
    path.parent.mkdir(parents=True)
    path.write_bytes(b'theme = "\xff"\n')
    [problem] = load_config().problems
    assert str(path) in problem and "UTF-8" in problem


def test_wrong_types_name_the_key_and_keep_the_rest(monkeypatch):
    path = write_config(
        FILE.replace("refresh_interval = 12.5", 'refresh_interval = "soon"')
        + '\n[profiles.broken]\nurl = 42\n\n[profiles.ftp]\nurl = "ftp://files.example.com"\n'
    )
    config = load_config(profile="local")
    assert config.refresh_interval == 30.0  # the bad value falls back to its default
    assert config.theme == "textual-light"  # the rest of the file is kept
    assert set(config.profiles) == {"prod", "local"}
    assert key_of(config) == "local-file-key"
    problems = "\n".join(config.problems)
    assert all(problem.startswith(str(path)) for problem in config.problems)
    assert "refresh_interval:" in problems
    assert "profiles.broken.url:" in problems
    assert "profiles.ftp.url: The URL must start with http:// or https://" in problems


def test_a_negative_refresh_interval_is_rejected():
    write_config("refresh_interval = -1\n")
    config = load_config()
    assert config.refresh_interval == 30.0
    assert "refresh_interval" in config.problems[0]


def test_a_misspelt_setting_is_reported_and_the_profile_kept():
    write_config('[profiles.p]\nurl = "https://a.example.com"\napikey = "oops"\n')
    config = load_config(profile="p")
    assert config.url == "https://a.example.com"
    assert any("profiles.p.apikey: unknown setting" in p for p in config.problems)


def test_problems_never_contain_a_key_from_the_file():
    write_config('[profiles.p]\nurl = "nope"\napi_key = "sk-super-secret"\n')
    config = load_config(profile="p")
    assert config.problems and "sk-super-secret" not in "".join(config.problems)


def test_an_invalid_url_flag_is_a_problem():
    config = load_config(url="gw.example.com")
    assert config.url is None
    assert config.problems == ["--url: The URL must start with http:// or https://."]


@pytest.mark.skipif(os.name != "posix", reason="POSIX file modes")
def test_a_world_readable_file_holding_a_key_gives_a_warning():
    path = write_config(FILE)
    assert load_config().warnings == []
    path.chmod(0o644)
    [warning] = load_config().warnings
    assert "chmod 600" in warning and str(path) in warning


def test_an_insecure_url_gives_a_warning_that_follows_the_gateway():
    write_config(FILE + '\n[profiles.lan]\nurl = "http://10.1.2.3:8080"\napi_key = "k"\n')
    config = load_config(profile="lan")
    assert config.warnings == [insecure_url_warning("http://10.1.2.3:8080")]
    assert config.switch_profile("local").warnings == []
    assert config.with_gateway("https://gw.example.com", "k").warnings == []


def test_switch_profile_uses_that_profile_url_and_key(monkeypatch):
    write_config(FILE)
    config = load_config(profile="local")
    switched = config.switch_profile("prod", environ={"PROD_GATEWAY_KEY": "pk"})
    assert (switched.profile, switched.url, key_of(switched)) == (
        "prod",
        "https://gw.example.com",
        "pk",
    )
    assert config.profile == "local"  # the original is unchanged
    with pytest.raises(KeyError):
        config.switch_profile("nope")


def test_with_gateway_points_at_the_demo_and_keeps_preferences():
    write_config(FILE)
    config = load_config(demo=True).with_gateway("http://127.0.0.1:9999", "demo-key")
    assert (config.url, key_of(config), config.profile) == (
        "http://127.0.0.1:9999",
        "demo-key",
        None,
    )
    assert config.demo and config.is_complete
    assert config.theme == "textual-light"


def test_is_complete_needs_url_and_a_nonempty_key():
    assert ResolvedConfig(url="https://a.example.com", api_key=SecretStr("k")).is_complete
    assert not ResolvedConfig(url="https://a.example.com", api_key=SecretStr("")).is_complete
    assert not ResolvedConfig(url=None, api_key=SecretStr("k")).is_complete


def test_repr_never_shows_the_key():
    config = ResolvedConfig(url="https://a.example.com", api_key=SecretStr("sk-visible"))
    assert "sk-visible" not in repr(config)
    assert "sk-visible" not in repr(Profile(url="https://a.example.com", api_key="sk-visible"))


# ---------------------------------------------------------------------------- key bindings


def test_keymap_keeps_valid_entries_and_reports_bad_ones_once():
    write_config(
        '[keys]\n"app.quit" = "ctrl+q, f10"\n"instances.delete" = ""\n"x.y" = "ctrl + x"\n'
    )
    config = load_config()
    assert keymap(config) == {"app.quit": "ctrl+q,f10"}
    keymap(config)
    assert len(config.problems) == 2
    assert any('keys."instances.delete": empty key' in p for p in config.problems)


def test_keymap_validates_entries_set_after_loading():
    config = ResolvedConfig(keys={"app.quit": "q", "app.help": " "})
    assert keymap(config) == {"app.quit": "q"}
    assert len(config.problems) == 1 and "app.help" in config.problems[0]


# ---------------------------------------------------------------------------- saving


def test_save_profile_keeps_everything_else():
    write_config(FILE + '\n[profiles."with.dot"]\nurl = "https://dot.example.com"\n')
    save_profile("new", Profile(url="https://new.example.com", api_key="new-key"))
    data = tomllib.loads(config_path().read_text())
    assert data["default_profile"] == "prod"
    assert data["refresh_interval"] == 12.5
    assert data["theme"] == "textual-light"
    assert data["keys"] == {"instances.delete": "ctrl+x"}
    assert data["profiles"]["local"] == {
        "url": "http://127.0.0.1:8080",
        "api_key": "local-file-key",
    }
    assert data["profiles"]["prod"] == {
        "url": "https://gw.example.com/",
        "api_key_env": "PROD_GATEWAY_KEY",
    }
    assert data["profiles"]["with.dot"] == {"url": "https://dot.example.com"}
    assert data["profiles"]["new"] == {"url": "https://new.example.com", "api_key": "new-key"}
    assert load_config(profile="new").problems == []


@pytest.mark.skipif(os.name != "posix", reason="POSIX file modes")
def test_save_profile_writes_a_private_file_in_a_private_dir():
    save_profile("p", Profile(url="https://a.example.com", api_key="k"))
    path = config_path()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert [p.name for p in path.parent.iterdir()] == ["config.toml"]  # no temp files left


def test_save_profile_make_default():
    save_profile("a", Profile(url="https://a.example.com"))
    save_profile("b", Profile(url="https://b.example.com"), make_default=True)
    assert load_config().profile == "b"


def test_save_profile_never_writes_a_key_that_comes_from_an_env_var():
    profile = Profile(url="https://a.example.com", api_key="resolved-secret", api_key_env="K")
    save_profile("p", profile)
    text = config_path().read_text()
    assert "resolved-secret" not in text
    assert tomllib.loads(text)["profiles"]["p"] == {
        "url": "https://a.example.com",
        "api_key_env": "K",
    }


def test_save_profile_replaces_the_old_entry_entirely():
    write_config(FILE)
    save_profile("local", Profile(url="http://127.0.0.1:9000", api_key_env="LOCAL_KEY"))
    assert "local-file-key" not in config_path().read_text()


def test_save_profile_refuses_to_overwrite_a_corrupt_file():
    path = write_config("this is = = not toml\n")
    with pytest.raises(ConfigFileError, match="line 1"):
        save_profile("p", Profile(url="https://a.example.com"))
    assert path.read_text() == "this is = = not toml\n"


def test_save_profile_uses_an_explicit_path(tmp_path):
    path = tmp_path / "elsewhere" / "my.toml"
    save_profile("p", Profile(url="https://a.example.com"), path=path)
    assert load_config(path=path, profile="p").url == "https://a.example.com"
    assert not config_path().exists()


def test_save_profile_rejects_an_empty_name():
    with pytest.raises(ValueError):
        save_profile(" ", Profile(url="https://a.example.com"))


toml_text = st.text(st.characters(exclude_categories=["Cs"]))  # any str TOML can hold


@given(name=toml_text.filter(str.strip), key=toml_text, other=toml_text)
def test_saved_strings_round_trip_exactly(name, key, other):
    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(tomlkit.dumps({"theme": other}), encoding="utf-8")
    save_profile(name, Profile(url="https://a.example.com", api_key=key))
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    assert data == {
        "theme": other,
        "profiles": {name: {"url": "https://a.example.com", "api_key": key}},
    }


COMMENTED = """\
# My gateways. Keep this comment!
theme = "textual-light"  # the light one

# Keys I changed:
[keys]
"instances.delete" = "ctrl+x"   # not d


[profiles.local]
# the one on my laptop
url = "http://127.0.0.1:8080"
api_key = "local-file-key"

# production, key from the environment
[profiles.prod]
url = "https://gw.example.com/"
api_key_env = "PROD_GATEWAY_KEY"
"""


def test_saving_a_profile_keeps_the_users_comments_order_and_layout():
    write_config(COMMENTED)
    save_profile("local", Profile(url="http://127.0.0.1:9090", api_key="new-local-key"))
    save_profile("new", Profile(url="https://new.example.com", api_key_env="NEW_KEY"))
    save_profile("prod", Profile(url="https://gw2.example.com", api_key_env="P"), make_default=True)
    text = config_path().read_text()
    for line in COMMENTED.splitlines():
        if line.startswith(("#", '"', "[", "theme")) or not line:
            assert line in text.splitlines(), line  # every comment, key binding, blank line
    assert text.index("# the one on my laptop") < text.index("[profiles.prod]")
    assert text.index("[profiles.prod]") < text.index("[profiles.new]")
    data = tomllib.loads(text)
    assert data["default_profile"] == "prod"
    assert data["profiles"]["local"] == {"url": "http://127.0.0.1:9090", "api_key": "new-local-key"}
    assert data["profiles"]["new"] == {"url": "https://new.example.com", "api_key_env": "NEW_KEY"}
    assert data["profiles"]["prod"] == {"url": "https://gw2.example.com", "api_key_env": "P"}
    assert load_config(profile="local").url == "http://127.0.0.1:9090"


# ---------------------------------------------------------------------------- helpers


@pytest.mark.parametrize(
    ("secret", "shown"),
    [
        (None, "(none)"),
        ("", "••••"),
        ("abcd", "••••"),
        ("abcde", "••••"),
        ("sk-live-0123456789", "••••6789"),
        (SecretStr("sk-live-0123456789"), "••••6789"),
    ],
)
def test_mask_key(secret, shown):
    assert mask_key(secret) == shown


@pytest.mark.parametrize(
    ("url", "insecure"),
    [
        ("http://gw.example.com", True),
        ("http://10.0.0.5:8080", True),
        ("HTTP://GW.EXAMPLE.COM", True),
        ("http://192.168.1.1/api", True),
        ("http://localhost.example.com", True),
        ("http://128.0.0.1", True),
        ("https://gw.example.com", False),
        ("https://10.0.0.5:8443", False),
        ("http://localhost:8080", False),
        ("http://LOCALHOST", False),
        ("http://127.0.0.1:8080", False),
        ("http://127.1.2.3", False),
        ("http://[::1]:8080", False),
        ("http://[::ffff:127.0.0.1]", False),
        ("http://[::1", False),  # not a URL: validate_gateway_url's business
        ("http://", True),
        (None, False),
    ],
)
def test_is_insecure_url(url, insecure):
    assert is_insecure_url(url) is insecure
    assert (insecure_url_warning(url) is not None) is insecure


def test_insecure_url_warning_says_why_in_plain_words():
    warning = insecure_url_warning("http://gw.example.com")
    assert "gw.example.com" in warning and "API key" in warning and "unencrypted" in warning


@pytest.mark.parametrize(
    ("text", "normalised"),
    [
        ("https://gw.example.com/", "https://gw.example.com"),
        ("  HTTPS://gw.example.com  ", "https://gw.example.com"),
        ("http://127.0.0.1:8080", "http://127.0.0.1:8080"),
        ("http://[::1]:8080/", "http://[::1]:8080"),
        ("https://gw.example.com/evolution/api//", "https://gw.example.com/evolution/api"),
        ("http://evolution_api:8080", "http://evolution_api:8080"),
    ],
)
def test_validate_gateway_url_normalises(text, normalised):
    assert validate_gateway_url(text) == normalised


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "Enter the gateway URL"),
        ("gw.example.com", "http:// or https://"),
        ("ftp://gw.example.com", "http:// or https://"),
        ("https://", "no host"),
        ("https://gw.example.com:99999", "port"),
        ("https://gw.example.com:abc", "port"),
        ("https://gw.example.com:0", "port"),
        ("https://gw.example.com:", "port"),
        ("https://gw example.com", "spaces"),
        ("https://user:sk-secret@gw.example.com", "user name or password"),
        ("https://gw.example.com/?key=sk-secret", "'?' or '#'"),
        ("https://gw.example.com/#x", "'?' or '#'"),
        ("https://gw!.example.com", "host name"),
        ("http://[::1", "host name is not valid"),
    ],
)
def test_validate_gateway_url_rejects_with_a_plain_reason(text, reason):
    with pytest.raises(ValueError) as caught:
        validate_gateway_url(text)
    message = str(caught.value)
    assert reason in message
    assert "sk-secret" not in message


def test_profile_urls_are_validated():
    with pytest.raises(ValidationError):
        Profile(url="gw.example.com")
