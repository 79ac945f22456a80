"""A profile's key in the OS keychain: saved there from the connect screen where a keychain
exists (never in the file), read back at start, and a plain word where there is none. The
tests set keyring's backend themselves (an in-memory one, or keyring's "none" backend): the
user's keychain is never touched."""

from __future__ import annotations

import tomllib

import keyring
import pytest
from keyring.backend import KeyringBackend
from keyring.backends import fail
from textual.widgets import Checkbox, Input, Static

from gateway_tui.core.files.config import config_path, load_config
from gateway_tui.core.files.config_check import show
from gateway_tui.core.files.keychain import SERVICE
from gateway_tui.tui.app import GatewayApp
from gateway_tui.tui.screens.connect import ConnectScreen
from tests.support import wait_for

KEY = "EVO-TEST-KEYCHAIN-0123456789"


class MemoryKeyring(KeyringBackend):
    """A keychain in a dict (a test backend)."""

    priority = 1  # type: ignore[assignment]

    def __init__(self) -> None:
        super().__init__()
        self.entries: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.entries.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.entries[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        self.entries.pop((service, username), None)


@pytest.fixture
def memory_keyring():
    before = keyring.get_keyring()
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    yield backend
    keyring.set_keyring(before)


@pytest.fixture
def no_keyring():
    before = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())
    yield
    keyring.set_keyring(before)


def _config_file(text: str) -> None:
    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def test_a_profile_reads_its_key_from_the_keychain(memory_keyring):
    memory_keyring.set_password(SERVICE, "prod", KEY)
    _config_file('[profiles.prod]\nurl = "https://gw.example.com"\nkeychain = true\n')
    config = load_config(profile="prod")
    assert config.api_key is not None and config.api_key.get_secret_value() == KEY
    assert not config.problems
    rows, _ = show(profile="prod")
    assert {r.name: r.source for r in rows}["api_key"] == "profile prod: the OS keychain"


def test_no_keychain_is_said_plainly_and_nothing_breaks(no_keyring):
    _config_file('[profiles.prod]\nurl = "https://gw.example.com"\nkeychain = true\n')
    config = load_config(profile="prod")
    assert config.api_key is None
    assert any("keychain" in p and "prod" in p for p in config.problems), config.problems


def test_an_empty_keychain_entry_is_said(memory_keyring):
    _config_file('[profiles.prod]\nurl = "https://gw.example.com"\nkeychain = true\n')
    config = load_config(profile="prod")
    assert config.api_key is None
    assert any("which has none for it" in p for p in config.problems)


async def _fill_connect_form(app, pilot, demo_server) -> ConnectScreen:
    await wait_for(pilot, lambda: isinstance(app.screen, ConnectScreen))
    screen = app.screen
    screen.query_one("#url", Input).value = demo_server.url
    screen.query_one("#api-key", Input).value = demo_server.api_key
    screen.query_one("#profile-name", Input).value = "demo-gw"
    return screen


async def test_the_connect_screen_saves_the_key_in_the_keychain(demo_server, memory_keyring):
    app = GatewayApp(load_config())
    async with app.run_test(size=(120, 50)) as pilot:
        screen = await _fill_connect_form(app, pilot, demo_server)
        box = screen.query_one("#keychain", Checkbox)
        await wait_for(pilot, lambda: box.display)
        box.value = True
        screen.action_save()
        result = screen.query_one("#connect-result", Static)
        await wait_for(pilot, lambda: "✓ Saved" in str(result.render()))
        assert "OS keychain" in str(result.render())
    assert memory_keyring.get_password(SERVICE, "demo-gw") == demo_server.api_key
    text = config_path().read_text()
    assert demo_server.api_key not in text
    assert tomllib.loads(text)["profiles"]["demo-gw"] == {"url": demo_server.url, "keychain": True}
    config = load_config(profile="demo-gw")
    assert config.api_key is not None
    assert config.api_key.get_secret_value() == demo_server.api_key


async def test_the_connect_screen_says_where_there_is_no_keychain(demo_server, no_keyring):
    app = GatewayApp(load_config())
    async with app.run_test(size=(120, 50)) as pilot:
        screen = await _fill_connect_form(app, pilot, demo_server)
        note = screen.query_one("#keychain-note", Static)
        await wait_for(pilot, lambda: "no OS keychain" in str(note.render()))
        assert not screen.query_one("#keychain", Checkbox).display
