"""At 80×24 (issue 29): the bar keeps the instance name, the instance view opens with its Status
in sight, and no footer shows a key cut mid-label. On both demo lines (1.7.1 and 2.3.7)."""

from __future__ import annotations

import pytest
from rich.text import Text

from gateway_tui.core.state import Health
from gateway_tui.core.text.i18n import _
from gateway_tui.demo.server import DemoServer
from gateway_tui.tui.screens.chats import ChatsScreen
from gateway_tui.tui.screens.instance import InstanceScreen
from gateway_tui.tui.textual_private import FooterKey
from gateway_tui.tui.widgets.footer import GatewayFooter
from gateway_tui.tui.widgets.gateway_bar import GatewayBar
from gateway_tui.tui.widgets.record_table import RecordTable
from tests.support import make_app, make_config, screen_text, wait_for

SIZE = (80, 24)
INSTANCE = "sales-eu"
LINES = ["1.7.1", "2.3.7"]


def footer_cut(app) -> list[str]:
    """The screen's footer keys that are shown but not whole on the footer's line."""
    footer = app.screen.query_one(GatewayFooter)
    line = screen_text(app).splitlines()[footer.region.y]
    cut = []
    for key in footer.query(FooterKey):
        if key.display:
            label = f"{key.key_display} {key.description}".strip()
            if label not in line:
                cut.append(label)
    return cut


@pytest.mark.parametrize("line", LINES)
async def test_at_80x24_the_bar_names_the_instance_and_no_footer_key_is_cut(line):
    with DemoServer(api_version=line) as server:
        app = make_app(make_config(server))
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: bool(app.state.instances.value))
            await pilot.pause()
            assert footer_cut(app) == []  # the instance list's "^d Delete" was cut to "^d"

            app.open_instance(INSTANCE)
            await wait_for(pilot, lambda: isinstance(app.screen, InstanceScreen))
            await wait_for(pilot, lambda: app.state.settings_of(INSTANCE).value is not None)
            await pilot.pause()
            text = screen_text(app)
            assert f"instance {INSTANCE}" in text.splitlines()[0]
            # Opened at the top: the details' first row in sight, not scrolled to the settings.
            assert "Status" in text and "Owner" in text
            assert footer_cut(app) == []  # "g Gro" before

            app.open_chats(INSTANCE)
            await wait_for(pilot, lambda: isinstance(app.screen, ChatsScreen))
            await wait_for(pilot, lambda: app.actions.chats.chat_book(INSTANCE).value is not None)
            await pilot.pause()
            assert f"instance {INSTANCE}" in screen_text(app).splitlines()[0]
            assert footer_cut(app) == []


async def test_the_bar_drops_the_version_and_the_key_before_the_instance_name(demo_server):
    app = make_app(make_config(demo_server))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        bar = app.screen.query_one(GatewayBar)
        bar.show(
            url="https://gateway.example.com:8443/evolution",
            masked_key="••••5f30",
            health=Health.OK,
            version="2.3.7",
            selected="marketing-br",
            profile="production",
            insecure=True,
            live=True,
        )
        await pilot.pause()
        shown = bar.render()
        assert isinstance(shown, Text)
        assert shown.cell_len <= SIZE[0]
        plain = shown.plain
        assert "instance marketing-br" in plain and "⚠ key sent in clear" in plain
        assert "● ok" in plain and "https://gat…" in plain  # the URL cut in the middle
        # On a wide terminal all of it shows again.
        await pilot.resize_terminal(200, 24)
        await pilot.pause()
        assert "Evolution API 2.3.7" in bar.render().plain and "(production)" in bar.render().plain


@pytest.mark.parametrize(
    ("line", "lang"),
    [("1.7.1", "en"), ("2.3.7", "en"), ("2.3.7", "pt_BR"), ("1.7.1", "es")],
)
async def test_at_80x24_the_chats_table_shows_whole_columns_only(line, lang, language):
    """Issue 29: the chats table cut its last column at the edge (`gatew`, `Archiv`). Narrow,
    it shrinks the name and the last message, then drops low-value columns: every column
    shown fits whole, with its header (in Portuguese and Spanish too, which run longer)."""
    language(lang)
    with DemoServer(api_version=line) as server:
        app = make_app(make_config(server))
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: bool(app.state.instances.value))
            app.open_chats(INSTANCE)
            await wait_for(pilot, lambda: isinstance(app.screen, ChatsScreen))
            await wait_for(pilot, lambda: app.actions.chats.chat_book(INSTANCE).value is not None)
            table = app.screen.query_one(RecordTable)
            await wait_for(pilot, lambda: table.visible_count > 0)
            await pilot.pause()
            room = table.scrollable_content_region.width
            assert table.virtual_size.width <= room  # nothing to scroll sideways, nothing cut
            shown = table.shown_columns
            assert {"chat", "number", "last"} <= set(shown)
            header = screen_text(app).splitlines()[table.region.y]
            labels = {c.key: _(c.label) for c in app.screen.COLUMNS}
            for key in shown:
                assert labels[key] in header, (key, header)
            # Wide, the dropped columns come back.
            await pilot.resize_terminal(200, 36)
            await wait_for(pilot, lambda: "source" in table.shown_columns)
            assert "archived" in table.shown_columns and "when" in table.shown_columns


@pytest.mark.parametrize("lang", ["pt_BR", "es"])
async def test_at_80x24_the_chats_footer_keeps_every_key_whole_in_other_languages(lang, language):
    language(lang)
    with DemoServer(api_version="2.3.7") as server:
        app = make_app(make_config(server))
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: bool(app.state.instances.value))
            app.open_chats(INSTANCE)
            await wait_for(pilot, lambda: isinstance(app.screen, ChatsScreen))
            await wait_for(pilot, lambda: app.actions.chats.chat_book(INSTANCE).value is not None)
            await pilot.pause()
            text = screen_text(app)
            assert ("Conversas de" if lang == "pt_BR" else "Chats de") in text
            assert footer_cut(app) == []
