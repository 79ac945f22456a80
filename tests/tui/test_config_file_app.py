"""What the app does with its config file: a corrupt one is named, and the app still starts."""

from __future__ import annotations

import os
import stat

from gateway_tui.core.files.config import Profile, config_path, load_config
from gateway_tui.core.files.config_writer import save_profile
from gateway_tui.tui.app import GatewayApp
from gateway_tui.tui.screens.connect import ConnectScreen
from tests.support import notices, screen_text


async def test_a_corrupt_config_file_is_named_with_its_line_and_the_app_starts():
    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('default_profile = "prod"\nrefresh_interval = = 3\n')
    app = GatewayApp(load_config())
    async with app.run_test(size=(160, 40)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ConnectScreen)
        text = screen_text(app)
        assert "config.toml" in text and "line 2" in text
        assert any("line 2" in line for line in notices(app))


def test_saved_profiles_are_private_files_in_private_dirs():
    save_profile("p", Profile(url="https://gw.example.com", api_key="k-123456789"))
    path = config_path()
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(path.parent).st_mode) == 0o700


def test_a_config_file_saved_with_a_utf8_bom_is_read():
    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    text = 'default_profile = "work"\n[profiles.work]\nurl = "https://gw.example.com"\n'
    path.write_bytes("\ufeff".encode() + text.encode())  # Notepad's "UTF-8"
    path.chmod(0o600)
    config = load_config()
    assert config.url == "https://gw.example.com"
    assert not config.problems
