"""Issue 23 item 11: the smaller things (a config file with a BOM, the copy notice, the
pairing code as text)."""

from __future__ import annotations

from gateway_tui.config import config_path, load_config


def test_a_config_file_saved_with_a_utf8_bom_is_read():
    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    text = 'default_profile = "work"\n[profiles.work]\nurl = "https://gw.example.com"\n'
    path.write_bytes("\ufeff".encode() + text.encode())  # Notepad's "UTF-8"
    path.chmod(0o600)
    config = load_config()
    assert config.url == "https://gw.example.com"
    assert not config.problems
