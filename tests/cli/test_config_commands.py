"""``gateway-tui config show | validate | schema``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from gateway_tui.cli.config_commands import schema_text
from gateway_tui.core.files.config import config_path
from gateway_tui.core.files.config_check import schema
from gateway_tui.main import main

SCHEMA_FILE = Path(__file__).resolve().parents[2] / "docs" / "config.schema.json"
KEY = "EVO-TEST-KEY-0123456789"


def _config_file(text: str) -> Path:
    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def _shown(capsys, *argv: str) -> dict[str, tuple[str, str]]:
    assert main([*argv, "config", "show", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    return {row["setting"]: (row["value"], row["source"]) for row in rows}


def test_show_says_where_each_setting_came_from_and_masks_the_key(capsys, monkeypatch):
    _config_file(
        'default_profile = "prod"\nrequest_timeout = 5\n'
        '[profiles.prod]\nurl = "https://gw.example.com"\napi_key_env = "PROD_KEY"\n'
        '[profiles.staging]\nurl = "https://staging.example.com"\napi_key = "' + KEY + '"\n'
    )
    monkeypatch.setenv("PROD_KEY", KEY)
    shown = _shown(capsys)
    assert shown["profile"] == ("prod", "config file (default_profile)")
    assert shown["url"] == ("https://gw.example.com", "profile prod")
    assert shown["api_key"] == ("••••6789", "profile prod: environment (PROD_KEY)")
    assert shown["request_timeout"] == ("5.0", "config file")
    assert shown["refresh_interval"] == ("30.0", "default")

    monkeypatch.setenv("GATEWAY_PROFILE", "staging")
    shown = _shown(capsys)
    assert shown["profile"] == ("staging", "environment (GATEWAY_PROFILE)")
    assert shown["api_key"][1] == "profile staging: config file"

    monkeypatch.setenv("GATEWAY_URL", "https://other.example.com")
    monkeypatch.setenv("GATEWAY_API_KEY", KEY)
    shown = _shown(capsys, "--profile", "prod")
    assert shown["profile"][1] == "flag --profile"
    assert shown["url"] == ("https://other.example.com", "environment (GATEWAY_URL)")
    assert shown["api_key"][1] == "environment (GATEWAY_API_KEY)"
    shown = _shown(capsys, "--url", "https://flag.example.com", "--api-key", KEY)
    assert shown["url"] == ("https://flag.example.com", "flag --url")
    assert shown["api_key"] == ("••••6789", "flag --api-key")


def test_show_never_prints_the_key(capsys, monkeypatch):
    _config_file(f'[profiles.p]\nurl = "https://gw.example.com"\napi_key = "{KEY}"\n')
    for argv in (
        ["--profile", "p", "config", "show"],
        ["--profile", "p", "config", "show", "--csv"],
    ):
        assert main(argv) == 0
        out, err = capsys.readouterr()
        assert KEY not in out + err and "••••6789" in out


def _validate(capsys) -> tuple[int, str]:
    status = main(["config", "validate"])
    return status, capsys.readouterr().out


def test_validate_names_a_colliding_key_and_every_other_problem(capsys):
    _config_file(
        'refresh_interval = "often"\nfavourite_colour = "blue"\ntheme = "no-such-theme"\n'
        "[keys]\n"
        '"instances.sort" = "f"\n'  # f is the status filter on the instances screen
        '"instances.srot" = "o"\n'
        '"chats.sort" = "ctrl+shift+s"\n'
        '"chats.refresh" = "super+r"\n'
        '"chats.filter" = "enterr"\n'
        '"chats.open" = "ctrl+o"\n'  # fine
    )
    status, out = _validate(capsys)
    assert status == 1
    lines = out.splitlines()

    def said(*parts: str) -> None:
        assert any(all(part in line for part in parts) for line in lines), (parts, lines)

    said('keys."instances.sort"', "f is also instances.status_filter", "InstancesScreen", "keeps s")
    said("refresh_interval", "number")
    said("favourite_colour", "unknown setting")
    said("theme", "no-such-theme")
    said('keys."instances.srot"', "no binding has this id", "instances.sort")
    said('keys."chats.sort"', "ctrl+shift+s", "sends it as ctrl+s")
    said('keys."chats.refresh"', "super")
    said('keys."chats.filter"', "no key is named 'enterr'", "enter")
    assert not any("chats.open" in line for line in lines)
    assert len(lines) == 8  # each problem said once


def test_validate_passes_a_good_file_and_a_swap_of_two_keys(capsys):
    _config_file(
        'theme = "nord"\n[keys]\n"instances.sort" = "f"\n"instances.status_filter" = "s"\n'
    )
    status, out = _validate(capsys)
    assert status == 0 and "no problems" in out


def test_validate_in_a_process_of_its_own_imports_no_textual(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text('[keys]\n"instances.sort" = "f"\n')
    script = (
        "import sys\nfrom gateway_tui.main import main\n"
        f"code = main(['config', 'validate', {str(path)!r}])\n"
        "assert 'textual' not in sys.modules, 'textual imported'\nsys.exit(code)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 1, done.stderr
    assert "instances.status_filter" in done.stdout


def test_the_committed_schema_is_the_generated_one(capsys):
    # After changing a setting or a binding: gateway-tui config schema > docs/config.schema.json
    assert SCHEMA_FILE.read_text() == schema_text(schema())
    assert main(["config", "schema"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert "instances.sort" in printed["properties"]["keys"]["propertyNames"]["enum"]
    assert printed["additionalProperties"] is False
    assert printed["$defs"]["Profile"]["properties"]["keychain"]["type"] == "boolean"
