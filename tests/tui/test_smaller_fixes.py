"""Item 10 of the keyboard-experts issue: the smaller things a demanding user trips over."""

from __future__ import annotations

import pytest
from rich.text import Text

from gateway_tui.core.api.models import InstanceSettings
from gateway_tui.core.files.drafts import ComposeStore, Draft
from gateway_tui.tui.screens.compose_modals import LibraryScreen
from gateway_tui.tui.screens.composer import ComposerScreen
from gateway_tui.tui.screens.confirm import ConfirmScreen, PromptScreen
from gateway_tui.tui.screens.instance import InstanceScreen, setting_prompt
from gateway_tui.tui.screens.instances import InstancesScreen
from tests.support import notices, screen_text, wait_for

# The demo runs in the test's event loop (tests/in_process.py): these tests need no socket.
pytestmark = pytest.mark.in_process

INSTANCE = "sales-eu"
SIZE = (140, 40)


async def test_a_restored_draft_shows_no_errors_on_fields_not_reached_yet(app_for, demo_server):
    ComposeStore(demo_server.url, INSTANCE).save_draft(Draft(recipient="4915112340001"))
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        app.open_composer(INSTANCE)
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


async def test_d_in_templates_asks_before_deleting(app_for, demo_server):
    store = ComposeStore(demo_server.url, INSTANCE)
    store.save_template("menu", Draft(title="Lunch"))
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        app.open_composer(INSTANCE)
        await wait_for(pilot, lambda: isinstance(app.screen, ComposerScreen))
        await pilot.press("f7")
        await wait_for(pilot, lambda: isinstance(app.screen, LibraryScreen))
        await pilot.press("d")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, LibraryScreen))
        assert "menu" in store.templates()
        await pilot.press("d")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_for(pilot, lambda: "menu" not in store.templates())


async def test_the_status_filter_only_offers_statuses_that_are_there(app_for):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        screen = app.screen
        assert isinstance(screen, InstancesScreen)
        seen = []
        for _ in range(8):
            await pilot.press("f")
            await pilot.pause()
            seen.append(screen.table.visible_count)
        assert 0 not in seen, seen


async def test_sorting_by_owner_puts_instances_without_one_last_both_ways(app_for):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        table = app.screen.table
        assert any(not i.owner_number for i in app.state.instances.value)
        for reverse in (False, True):
            table.sort_by("owner", reverse=reverse)
            await pilot.pause()
            owners = [bool(i.owner_number) for i in table.visible_rows]
            assert owners == sorted(owners, reverse=True), (reverse, owners)


async def test_the_call_reply_has_a_name_and_can_be_edited(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        app.open_instance(INSTANCE)
        await wait_for(pilot, lambda: app.state.settings_of(INSTANCE).value is not None)
        await pilot.pause()
        assert isinstance(app.screen, InstanceScreen)
        text = screen_text(app)
        assert "Reply to rejected calls" in text and "msg_call:" not in text
        await pilot.press("e")
        await wait_for(pilot, lambda: isinstance(app.screen, PromptScreen))
        await pilot.press("ctrl+u", *"Busy, call later", "enter")
        await wait_for(
            pilot,
            lambda: (
                demo_server.state.instances[INSTANCE].settings["msg_call"] == "Busy, call later"
            ),
        )
        await wait_for(pilot, lambda: "Busy, call later" in screen_text(app))


def test_a_ticked_setting_colours_only_its_box():
    settings = InstanceSettings(reject_call=True)
    prompt: Text = setting_prompt("reject_call", settings)
    assert str(prompt.style) == ""
    label_at = prompt.plain.index("Reject")
    assert all(span.end <= label_at for span in prompt.spans if "green" in str(span.style))


async def test_copying_says_how_it_was_sent_instead_of_claiming_copied(app_for, monkeypatch):
    monkeypatch.setenv("TMUX", "/tmp/tmux-1000/default,1,0")
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        await pilot.pause()
        await pilot.press("c")
        await pilot.pause()
        said = "\n".join(notices(app))
        assert "Copied" not in said
        assert "OSC 52" in said and "set-clipboard on" in said
        assert app.clipboard == app.screen.table.cursor_row.instance_name
