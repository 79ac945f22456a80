"""Issue 23 item 11: the smaller things (a config file with a BOM, the copy notice, the
pairing code as text)."""

from __future__ import annotations

from gateway_tui.core.files.config import config_path, load_config
from tests.support import screen_text, wait_for


def test_a_config_file_saved_with_a_utf8_bom_is_read():
    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    text = 'default_profile = "work"\n[profiles.work]\nurl = "https://gw.example.com"\n'
    path.write_bytes("\ufeff".encode() + text.encode())  # Notepad's "UTF-8"
    path.chmod(0o600)
    config = load_config()
    assert config.url == "https://gw.example.com"
    assert not config.problems


async def test_the_copy_notice_gives_the_tmux_advice_only_when_tmux_holds_it_back(
    app_for, tmp_path, monkeypatch
):
    from gateway_tui.tui.screens import base
    from tests.support import notices, wait_for

    fake = tmp_path / "bin" / "tmux"
    fake.parent.mkdir()
    monkeypatch.setenv("PATH", f"{fake.parent}:/usr/bin:/bin")
    monkeypatch.setenv("TMUX", "/tmp/tmux-1000/default,1,0")
    app = app_for()
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        for setting, advised in (("on", False), ("off", True)):
            fake.write_text(f"#!/bin/sh\necho {setting}\n")
            fake.chmod(0o755)
            base.tmux_passes_clipboard.cache_clear()
            app.clear_notifications()
            app.screen.copy("sales-eu", "Instance name")
            await pilot.pause()
            said = " ".join(notices(app))
            assert "Instance name: sales-eu" in said
            assert ("set-clipboard on" in said) is advised, said


async def test_the_pairing_code_is_also_plain_text_beside_its_large_letters(app_for, demo_server):
    from gateway_tui.tui.screens.pairing import PairingScreen
    from gateway_tui.tui.widgets.big_code import grouped
    from tests.support import screen_text, wait_for

    demo_server.state.auto_scan_seconds = None
    app = app_for()
    async with app.run_test(size=(140, 45)) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        app.open_pairing("onboarding", "4915123450000")
        await wait_for(pilot, lambda: isinstance(app.screen, PairingScreen))
        answer = app.actions.lifecycle.pairing_of("onboarding")
        await wait_for(pilot, lambda: answer.value is not None and bool(answer.value.pairing_code))
        await pilot.pause()
        shown = app.screen.query_one("#pairing-code").render().plain
        assert "█" in shown  # large letters
        assert grouped(answer.value.pairing_code) in screen_text(app)  # and as text


async def test_the_request_log_lists_calls_by_when_they_started(app_for):
    from datetime import datetime, timedelta

    from gateway_tui.core.api.events import CallEvent
    from tests.navigation import open_request_log

    app = app_for()
    async with app.run_test(size=(120, 36)) as pilot:
        log = await open_request_log(app, pilot)
        app.state.clear_calls()
        at = datetime(2026, 11, 24, 15, 42, 44)
        # A slow call started first and finished last: the log is in the order calls started.
        for path, started in (("/fast", 0.6), ("/slow", 0.1)):
            event = CallEvent("GET", path, "http://x" + path, at + timedelta(seconds=started), 1.0)
            app.state.record_call(event)
        await pilot.pause()
        assert [e.path for e in log.table.visible_rows] == ["/fast", "/slow"]


async def test_the_participants_export_is_offered_in_the_apps_folder_not_the_working_one(
    app_for, demo_server, tmp_path, monkeypatch
):
    from textual.widgets import Input

    from gateway_tui.core.files.storage import data_dir
    from gateway_tui.tui.screens.group_modals import ExportScreen
    from tests.navigation import open_participants

    monkeypatch.chdir(tmp_path)  # a git checkout, say
    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        await open_participants(app, pilot)
        await pilot.press("e")
        await pilot.pause()
        assert isinstance(app.screen, ExportScreen)
        offered = app.screen.query_one("#export-path", Input).value
        assert offered.startswith(str(data_dir() / "exports") + "/"), offered
        await pilot.press("enter")
        await pilot.pause()
    assert list(tmp_path.iterdir()) == []
    assert len(list((data_dir() / "exports").glob("*.csv"))) == 1


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


async def test_the_participants_header_wraps_between_phrases_at_120_columns(app_for):
    from gateway_tui.tui.screens.participants import ParticipantsScreen

    app = app_for()
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        app.push_screen(ParticipantsScreen("sales-eu", "120363012345678901@g.us"))
        await wait_for(pilot, lambda: "1,024 participants" in screen_text(app))
        await pilot.press("o", "/", *"49151", "enter")  # sorted and filtered: a longer header
        await wait_for(pilot, lambda: "showing " in screen_text(app))
        head = screen_text(app).splitlines()[2:4]
        keys = "o sort · y copy number · e export CSV · r refresh"
        for phrase in ("5 admins (1 superadmin)", "filter: “49151”", "sort: number ▲", keys):
            assert any(phrase in line for line in head), "\n".join(head)


def test_phrases_wrap_between_phrases_never_inside_one():
    import io

    from rich.console import Console

    from gateway_tui.core.text.formatting import Phrases

    console = Console(width=30, file=io.StringIO(), record=True, color_system=None)
    console.print(Phrases(["12 participants", "3 admins (1 superadmin)", "read 09:30", ""]))
    assert console.export_text().splitlines() == [
        "12 participants",
        "3 admins (1 superadmin)",
        "read 09:30",
    ]


async def test_campaign_sends_are_in_the_sent_history_marked_as_a_campaign(app_for):
    from datetime import datetime

    from gateway_tui.core.campaign.journal import Pace, Status, create_campaign
    from gateway_tui.core.campaign.recipients import parse_recipients
    from gateway_tui.core.files.drafts import Draft, DraftRow, DraftSection
    from tests.navigation import open_composer

    app = app_for()
    draft = Draft(
        title="Autumn menu, {name}",
        description="Fresh today",
        button_text="See it",
        sections=[DraftSection("Soups", [DraftRow("Pumpkin")])],
    )
    campaign = create_campaign(
        gateway=app.gateway_identity or "",
        instance="sales-eu",
        draft=draft,
        recipients=parse_recipients("number,name\n4917300000001,Ana\n4917300000002,Ben\n"),
        pace=Pace(0),
        now=datetime(2026, 11, 23, 10, 0),
    )
    campaign.record_try(0, at=1.0, planned=1.0, gap=0.0)
    campaign.record_done(0, Status.SENT, at=1.5, message_id="3EB0CAFE")
    campaign.unlock()
    async with app.run_test(size=(140, 40)) as pilot:
        screen = await open_composer(app, pilot)
        await pilot.press("f8")
        await wait_for(pilot, lambda: "campaign" in screen_text(app) and app.screen is not screen)
        text = screen_text(app)
        assert "⇉ campaign: 1 of 2 sent" in text and "Autumn menu, {name}" in text, text
        assert campaign.id in text
        await pilot.press("enter")  # the form is empty: reopened at once
        await wait_for(pilot, lambda: screen.draft.title == "Autumn menu, {name}")


async def test_the_instance_list_checks_no_states_while_another_screen_covers_it(app_for):
    """Textual's is_current holds for the screen right under the top one: the list kept
    asking connectionState (and fetchInstances) every interval under the chats."""
    from gateway_tui.tui.screens.chats import ChatsScreen
    from gateway_tui.tui.screens.instances import InstancesScreen

    app = app_for(refresh_interval=1)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        listing = app.screen
        assert isinstance(listing, InstancesScreen) and listing.in_view
        app.open_chats("sales-eu")
        await wait_for(pilot, lambda: isinstance(app.screen, ChatsScreen) and app.screen.is_mounted)
        assert not listing.in_view
        await wait_for(pilot, lambda: not app.state.instances.loading)
        started = [w for w in app.workers if w.node is listing]
        listing._check_states_in_view()
        listing._refresh_on_interval()
        assert [w for w in app.workers if w.node is listing] == started
        app.pop_screen()
        await wait_for(pilot, lambda: app.screen is listing)
        assert listing.in_view
        listing._check_states_in_view()
        assert any(w.group == "live-state" for w in app.workers if w.node is listing)
