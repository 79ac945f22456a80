"""Drafts, history and templates are filed under the gateway's identity, not its port.

The embedded demo runs on a new port each time: a relaunch must find what was typed before.
"""

from __future__ import annotations

import errno
import stat
from datetime import datetime

import pytest
from textual.widgets import Input

from gateway_tui.core.draft import Draft
from gateway_tui.core.files.config import load_config
from gateway_tui.core.files.drafts import ComposeStore, HistoryEntry
from gateway_tui.demo.server import DemoServer
from gateway_tui.main import demo_config
from gateway_tui.tui.app import GatewayApp
from gateway_tui.tui.screens.composer import ComposerScreen
from gateway_tui.tui.screens.confirm import ConfirmScreen
from tests.data import JONAS, good_draft, store_for
from tests.navigation import open_composer, open_composer_with
from tests.support import screen_text, wait_for

INSTANCE = "support"
SIZE = (140, 40)


def _fill_the_disk(monkeypatch) -> dict[str, bool]:
    disk = {"full": True}
    real = ComposeStore.save_draft

    def save_draft(self, draft):
        if disk["full"]:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(self, draft)

    monkeypatch.setattr(ComposeStore, "save_draft", save_draft)
    return disk


async def test_a_demo_relaunch_on_another_port_finds_the_draft_history_and_templates():
    with DemoServer() as first:
        app = GatewayApp(demo_config(load_config(demo=True), first))
        async with app.run_test(size=SIZE) as pilot:
            screen = await open_composer(app, pilot, INSTANCE)
            await pilot.press(*"4915123")
            assert screen.store is not None
            screen.store.add_history(
                HistoryEntry("4915123", {"number": "4915123"}, {}, datetime(2026, 1, 2, 3, 4))
            )
            await pilot.press("ctrl+q")
        first_url = first.url
    with DemoServer() as second:
        assert second.url != first_url  # a new port, as every `--demo` run gets
        app = GatewayApp(demo_config(load_config(demo=True), second))
        async with app.run_test(size=SIZE) as pilot:
            screen = await open_composer(app, pilot, INSTANCE)
            assert screen.restored
            assert screen.query_one("#f-recipient", Input).value == "4915123"
            assert screen.store is not None
            assert [entry.recipient for entry in screen.store.history()] == ["4915123"]


def test_a_real_gateway_is_still_filed_under_its_address():
    config = load_config(url="http://gw.example:8080", api_key="k")
    assert config.gateway_identity == "http://gw.example:8080"
    a = ComposeStore(config.gateway_identity, INSTANCE)
    b = ComposeStore("http://gw.example:9090", INSTANCE)
    assert a.dir != b.dir  # two gateways on one host are two accounts


def test_switching_away_from_the_demo_drops_its_identity():
    with DemoServer() as server:
        config = demo_config(load_config(demo=True), server)
        assert config.gateway_identity == "demo"
        other = config.with_gateway("http://gw.example:8080", "k")
        assert other.gateway_identity == "http://gw.example:8080"


@pytest.mark.in_process
async def test_6_leaving_after_a_failed_autosave_asks_and_keeps_the_draft(
    app_for, demo_server, monkeypatch
):
    disk = _fill_the_disk(monkeypatch)
    app = app_for()
    async with app.run_test(size=(140, 50)) as pilot:
        composer = await open_composer(app, pilot)
        await pilot.press(*"4915")
        await wait_for(pilot, lambda: composer._save_failing)  # the autosave failed
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert "No space left on device" in screen_text(app)
        await pilot.press("n")  # stay
        await wait_for(pilot, lambda: app.screen is composer)
        assert composer.draft.recipient == "4915"
        disk["full"] = False  # room again: leaving saves, without asking
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, ComposerScreen))
        assert not isinstance(app.screen, ConfirmScreen)
    assert store_for(demo_server).load_draft().recipient == "4915"


@pytest.mark.in_process
async def test_6_leaving_without_the_draft_is_the_users_choice(app_for, demo_server, monkeypatch):
    _fill_the_disk(monkeypatch)
    app = app_for()
    async with app.run_test(size=(140, 50)) as pilot:
        await open_composer(app, pilot)
        await pilot.press(*"4915")
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")  # leave without it
        await wait_for(pilot, lambda: not isinstance(app.screen, (ComposerScreen, ConfirmScreen)))


# --- drafts, templates and history ----------------------------------------------------------------


async def test_typing_is_autosaved_privately_and_restored(app_for, demo_server):
    store = store_for(demo_server)
    app = app_for()
    async with app.run_test(size=(140, 50)) as pilot:
        screen = await open_composer(app, pilot)
        await pilot.press(*JONAS, "tab", *"Kartoffelsalat")

        def saved() -> bool:
            found = store.load_draft()
            return found is not None and found.title == "Kartoffelsalat"

        await wait_for(pilot, saved)
        assert stat.S_IMODE(store.draft_path.stat().st_mode) == 0o600
        assert "draft autosaved" in str(screen.query_one("#composer-draft-status").render())
        await pilot.press("escape")
        await pilot.pause()
        again = await open_composer(app, pilot)
        assert again.query_one("#f-title", Input).value == "Kartoffelsalat"
        assert again.query_one("#f-recipient", Input).value == JONAS


async def test_a_successful_send_clears_the_draft_and_keeps_history(app_for, demo_server):
    store = store_for(demo_server)
    app = app_for()
    async with app.run_test(size=(140, 50)) as pilot:
        screen = await open_composer_with(app, pilot, demo_server, good_draft())
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: screen.last_result is not None)
        assert store.load_draft() is None
        [entry] = store.history()
        assert entry.message_id == screen.last_result.key.id
        assert entry.body == good_draft().body()

        # f8: the history; enter reopens the message as a new draft.
        # A new empty draft, at once: the message in the form is in the history.
        await pilot.press("f9")
        await wait_for(pilot, lambda: screen.draft.is_empty)
        assert not isinstance(app.screen, ConfirmScreen)
        await pilot.press("f8")
        await pilot.pause()
        assert "Lunch menu" in screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        assert screen.query_one("#f-title", Input).value == "Lunch menu"
        assert screen.draft.body() == good_draft().body()


async def test_templates_are_saved_loaded_and_deleted(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=(140, 50)) as pilot:
        screen = await open_composer_with(app, pilot, demo_server, good_draft())
        await pilot.press("f6")
        await pilot.pause()
        await pilot.press("ctrl+u", *"Lunch", "enter")  # written in a worker thread
        await wait_for(pilot, lambda: list(store_for(demo_server).templates()) == ["Lunch"])

        await pilot.press("f9", "y")
        await pilot.pause()
        screen.query_one("#f-recipient", Input).focus()
        await pilot.press(*"447700900456")
        await pilot.press("f7")
        await pilot.pause()
        assert "Lunch" in screen_text(app)
        await pilot.press("enter")  # loads; the form has only a recipient: asks first
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert screen.draft.title == "Lunch menu"
        assert screen.draft.recipient == "447700900456"  # a template keeps the recipient
        await pilot.press("f7")
        await pilot.pause()
        await pilot.press("d")
        await pilot.pause()
        assert store_for(demo_server).templates() != {}  # asked first
        await pilot.press("y")
        await pilot.pause()
        assert store_for(demo_server).templates() == {}
        assert "No templates yet" in screen_text(app)


async def test_quitting_saves_the_draft_at_once(app_for, demo_server, monkeypatch):
    import gateway_tui.tui.screens.composer as composer

    monkeypatch.setattr(composer, "AUTOSAVE_SECONDS", 3600)  # only leaving can save it
    app = app_for()
    async with app.run_test(size=(140, 50)) as pilot:
        await open_composer(app, pilot)
        await pilot.press(*"4915")
        assert store_for(demo_server).load_draft() is None
        await pilot.press("ctrl+q")
    assert store_for(demo_server).load_draft().recipient == "4915"


@pytest.mark.in_process
async def test_a_restored_draft_shows_no_errors_on_fields_not_reached_yet(app_for, demo_server):
    ComposeStore(demo_server.url, "sales-eu").save_draft(Draft(recipient="4915112340001"))
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        app.open_composer("sales-eu")
        await wait_for(pilot, lambda: isinstance(app.screen, ComposerScreen))
        await pilot.pause()
        screen = app.screen
        assert screen.restored
        shown = [w.id for w in screen.query(".composer-error") if "✕" in str(w.render())]
        assert shown == []  # the title, description, button and sections are not reached yet
        await pilot.press("ctrl+s")  # trying to send reveals them all
        await pilot.pause()
        shown = [w.id for w in screen.query(".composer-error") if "✕" in str(w.render())]
        assert {"err-title", "err-description", "err-button"} <= set(shown)


async def test_f9_and_f7_warn_only_when_the_form_would_be_lost(app_for, demo_server):
    """The message just sent is in the history, a template loaded unchanged is in its file:
    replacing either loses nothing, so nothing is asked; a change typed since is asked about."""
    from gateway_tui.tui.screens.confirm import ConfirmScreen
    from tests.data import good_draft
    from tests.navigation import open_composer_with

    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        screen = await open_composer_with(app, pilot, demo_server, good_draft())
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: screen.last_result is not None)
        await pilot.press("f9")
        await wait_for(pilot, lambda: screen.draft.is_empty)
        assert not isinstance(app.screen, ConfirmScreen)

        screen.store.save_template("Lunch", good_draft(recipient=""))
        await pilot.press("f7")
        await wait_for(pilot, lambda: "Lunch" in screen_text(app) and app.screen is not screen)
        await pilot.press("enter")  # the form is empty: loaded at once
        await wait_for(pilot, lambda: screen.draft.title == "Lunch menu")
        await pilot.press("f9")  # the template, unchanged: nothing to lose
        await wait_for(pilot, lambda: screen.draft.is_empty)
        assert not isinstance(app.screen, ConfirmScreen)

        await pilot.press(*"4915")  # typed, kept nowhere: asked first
        await pilot.press("f9")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert "will be replaced" in screen_text(app)
