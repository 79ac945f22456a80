"""Themes: every registered Textual theme and the user's own can be chosen; the choice is kept
in config.toml; a bad theme file or an unknown theme name is said once, and the app starts."""

from __future__ import annotations

import tomllib

from textual.theme import BUILTIN_THEMES

from gateway_tui.core.files.config import config_path, load_config
from gateway_tui.tui.app import GatewayApp
from gateway_tui.tui.themes import user_themes_dir
from tests.support import notices, wait_for

HARBOUR = 'name = "harbour"\nprimary = "#4ea1d3"\nbackground = "#0b1d2a"\ndark = true\n'


def _config_file(text: str) -> None:
    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def _kept_theme() -> str | None:
    return tomllib.loads(config_path().read_text()).get("theme")


async def test_a_user_theme_from_the_config_dir_is_chosen_at_start():
    user_themes_dir().mkdir(parents=True, exist_ok=True)
    (user_themes_dir() / "harbour.toml").write_text(HARBOUR)
    (user_themes_dir() / "broken.toml").write_text('primary = "not a colour"\n')
    _config_file('theme = "harbour"\n')
    app = GatewayApp(load_config())
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: app.theme == "harbour")
        assert app.current_theme.primary == "#4ea1d3"
        # Every built-in theme can be chosen too.
        assert set(BUILTIN_THEMES) <= set(app.available_themes)
        said = [line for line in notices(app) if "broken.toml" in line]
        assert len(said) == 1 and "theme not loaded" in said[0]


async def test_the_theme_picked_is_kept_in_the_config_with_its_comments():
    _config_file(
        '# my settings\nrefresh_interval = 10\n\n[profiles.x]\nurl = "https://gw.example.com"\n'
    )
    app = GatewayApp(load_config())
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        app.theme = "nord"  # what the palette's "Change theme" does
        await wait_for(pilot, lambda: _kept_theme() == "nord")
        await pilot.press("ctrl+t")  # nord is dark: ctrl+t gives the light theme
        await wait_for(pilot, lambda: _kept_theme() == "textual-light")
    text = config_path().read_text()
    assert text.startswith("# my settings\n") and "[profiles.x]" in text
    assert load_config().theme == "textual-light"


async def test_an_unknown_theme_name_is_said_and_the_default_stays():
    _config_file('theme = "no-such-theme"\n')
    app = GatewayApp(load_config())
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: any("no-such-theme" in line for line in notices(app)))
        assert app.theme == "textual-dark"
    assert _kept_theme() == "no-such-theme"  # nothing was picked: the file is left as it was
