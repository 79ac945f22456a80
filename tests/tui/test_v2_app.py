"""The app on the 2.x line: the profile's pin, what the screens show of 2.x fields."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from pydantic import ValidationError

from gateway_tui.core.files.config import Profile
from gateway_tui.core.text.formatting import disconnect_reason, disconnect_text
from tests.support import RECORDINGS


@pytest.mark.parametrize(
    ("given", "kept"), [("2", "2"), ("2.3.6", "2"), ("1", "1"), ("1.7.1", "1"), ("auto", "auto")]
)
def test_a_profile_pins_the_line(given: str, kept: str) -> None:
    assert Profile(url="https://gw.example.com", api_version=given).api_version == kept


def test_a_profile_refuses_an_unknown_line() -> None:
    with pytest.raises(ValidationError, match="api_version"):
        Profile(url="https://gw.example.com", api_version="3")


def test_disconnect_reason_in_words() -> None:
    assert disconnect_reason("401") == "401 logged out"
    assert disconnect_reason("999") == "999"
    assert disconnect_reason(None) == ""
    text = disconnect_text("401", "2026-11-24T16:10:00.000Z")
    assert text.startswith("401 logged out · 2026-11-2")
    assert disconnect_text(None, None) == ""
    assert disconnect_text(None, "not a time") == "not a time"


def _draft(**changes: str):
    from gateway_tui.core.draft import Draft, DraftRow, DraftSection

    draft = Draft(
        recipient="5511999999999",
        title="Menu",
        description="Pick one",
        button_text="Open",
        footer="footer",
        delay="1200",
        presence="composing",
        sections=[DraftSection("S1", [DraftRow("R1", "d1", "r1")])],
    )
    for name, value in changes.items():
        setattr(draft, name, value)
    return draft


def test_the_composer_requires_a_footer_on_2x_only() -> None:
    from gateway_tui.core.api.dialects import V1, V2

    draft = _draft(footer="")
    assert [p.field for p in draft.check(V2).errors] == ["footerText"]
    assert draft.check(V1).ok


def test_the_description_is_optional_on_2x_only() -> None:
    from gateway_tui.core.api.dialects import V1, V2

    draft = _draft(description="")
    assert draft.check(V2).ok
    assert [p.field for p in draft.check(V1).errors] == ["description"]


def test_the_body_shown_is_the_lines_body() -> None:
    from gateway_tui.core.api.dialects import V2

    recorded = json.loads(next((RECORDINGS / "v2.3.6-more").glob("077-*.json")).read_text())[
        "request_body"
    ]
    assert _draft().body(V2) == recorded  # the flat body 2.3.6 took (presence not sent)
    assert "listMessage" in _draft().body()


def test_a_campaign_is_checked_by_the_lines_rules() -> None:
    from gateway_tui.core.api.dialects import V2
    from gateway_tui.core.campaign.recipients import MessageTemplate, parse_recipients

    recipients = parse_recipients("5511999999999\n5511999999998\n")
    template = MessageTemplate(_draft(footer=""))
    assert [p.field for p in template.problems(recipients, V2)] == ["footerText"]
    assert template.problems(recipients) == []


@pytest.mark.parametrize(
    ("version", "warned"),
    [
        ("2.3.6", True),
        ("2.3.0", True),
        ("2.3.7", True),
        ("2.3.8", False),
        ("2.4.0", False),
        ("1.7.1", False),
        (None, False),
    ],
)
def test_list_messages_unshown_on_2_3_0_to_2_3_7(version: str | None, warned: bool) -> None:
    from gateway_tui.core.api.dialects import list_message_warning

    warning = list_message_warning(version)
    assert bool(warning) is warned
    if warning:
        assert "#1620" in warning and "201" in warning and version in warning


async def test_a_deleted_instance_stays_gone_while_2x_finishes_the_delete() -> None:
    from gateway_tui.demo.server import DemoServer
    from tests.support import make_app, make_config, wait_for

    with DemoServer(api_version="2.3.6", instances=5) as server:
        app = make_app(make_config(server))
        async with app.run_test(size=(140, 40)) as pilot:
            await wait_for(pilot, lambda: bool(app.state.instances.value))
            name = "onboarding"  # closed: it may be deleted
            await app.actions.instances.delete_instance(name)
            # The gateway still lists it (rec 067); the list must not bring it back.
            rows = await app.actions.instances.refresh_instances()
            assert name in server.state.instances
            assert name not in [row.instance_name for row in rows]
            assert name not in [row.instance_name for row in app.state.instances.value]


def test_a_lid_member_says_so_plainly() -> None:
    from gateway_tui.core.api.models import Participant
    from gateway_tui.tui.screens.participants import number_cell

    with_number = Participant.model_validate(
        {"id": "123456789@lid", "phoneNumber": "5511999999999@s.whatsapp.net"}
    )
    lid_only = Participant.model_validate({"id": "987654321@lid"})
    assert number_cell(with_number) == "+55 11 99999-9999"
    assert number_cell(lid_only) == "LID only, no number"
    assert number_cell(Participant.model_validate({"id": "x@s.whatsapp.net"})) == "—"


def _message_pages(app, jid: str) -> list[int]:
    """The pages of ``jid``'s findMessages the app asked for, from its request log."""
    pages = []
    for call in app.state.calls:
        body = call.request_body if isinstance(call.request_body, dict) else {}
        key = (body.get("where") or {}).get("key") or {}
        if "/chat/findMessages/" in call.path and key.get("remoteJid") == jid:
            pages.append(body.get("page"))
    return pages


@asynccontextmanager
async def big_2x_chat(messages: int) -> AsyncIterator[tuple[Any, Any, Any, Any]]:
    """A 2.x demo with a chat of ``messages``, its conversation open and first read:
    (server, app, pilot, screen)."""
    from gateway_tui.demo.chats import BIG_CHAT_JID
    from gateway_tui.demo.server import DemoServer
    from gateway_tui.tui.screens.messages import MessagesScreen
    from tests.support import make_app, make_config, wait_for

    with DemoServer(api_version="2.3.6", instances=3, big_chat=messages) as server:
        app = make_app(make_config(server))
        async with app.run_test(size=(140, 40)) as pilot:
            await wait_for(pilot, lambda: bool(app.state.instances.value))
            screen = MessagesScreen("sales-eu", BIG_CHAT_JID)
            app.push_screen(screen)
            await pilot.pause()
            loadable = app.actions.chats.messages_of("sales-eu", BIG_CHAT_JID)
            await wait_for(pilot, lambda: loadable.value is not None and not loadable.loading)
            await pilot.pause()
            yield server, app, pilot, screen


async def test_a_long_2x_chat_opens_on_its_newest_page_and_reads_older_ones_at_the_top() -> None:
    from gateway_tui.demo.chats import BIG_CHAT_JID
    from tests.support import screen_text, wait_for

    async with big_2x_chat(2_500) as (_server, app, pilot, screen):
        loadable = app.actions.chats.messages_of("sales-eu", BIG_CHAT_JID)
        # Opening reads the newest page only, and says what is left.
        assert _message_pages(app, BIG_CHAT_JID) == [1]
        assert len(screen.view.messages) == 1_000
        assert screen.view.selected.text.endswith("(#2499)")
        summary = str(screen.query_one("#messages-summary").render())
        assert "1,500 older on the gateway" in summary
        # To the top: page 2 is asked for, and its messages come before the first read.
        await pilot.press("home")
        on = screen.view.selected.id
        await wait_for(pilot, lambda: len(screen.view.messages) == 2_000)
        await pilot.pause()
        assert _message_pages(app, BIG_CHAT_JID) == [1, 2]
        assert screen.view.messages[0].text.endswith("(#500)")
        assert screen.view.selected.id == on  # the cursor stays on its message
        assert "(#1500)" in screen_text(app)
        summary = str(screen.query_one("#messages-summary").render())
        assert "· 500 older on the gateway" in summary
        # Read again (back from the composer, say): the newest page joins what is read.
        screen.action_refresh()
        await wait_for(pilot, lambda: _message_pages(app, BIG_CHAT_JID) == [1, 2, 1])
        await wait_for(pilot, lambda: not loadable.loading)
        assert len(screen.view.messages) == 2_000 and screen.view.selected.id == on
        # The last page, and then nothing more to ask for.
        await pilot.press("home")
        await wait_for(pilot, lambda: len(screen.view.messages) == 2_500)
        await pilot.pause()
        assert screen.view.messages[0].text.endswith("(#0)")
        await pilot.press("o", "home")
        await pilot.pause()
        assert _message_pages(app, BIG_CHAT_JID) == [1, 2, 1, 3]
        assert "older" not in str(screen.query_one("#messages-summary").render())


def test_a_setting_is_named_as_the_gateways_line_spells_it() -> None:
    from gateway_tui.core.api import dialects
    from gateway_tui.core.api.models import InstanceSettings
    from gateway_tui.tui.screens.instance import setting_prompt

    settings = InstanceSettings(reject_call=True)
    v2 = setting_prompt("reject_call", settings, dialects.V2.wire_name("reject_call"))
    name = dialects.V1.wire_name("sync_full_history")
    v1 = setting_prompt("sync_full_history", settings, name)
    assert v2.plain.endswith("  rejectCall") and v2.plain.startswith("[x]")
    assert v1.plain.endswith("  sync_full_history")


@pytest.mark.parametrize("line", ["V1", "V2"])
def test_the_names_the_screens_show_are_the_ones_the_body_sends(line: str) -> None:
    from gateway_tui.core.api import dialects
    from gateway_tui.core.api.lifecycle import WebhookSettings
    from gateway_tui.core.api.models import SETTING_LABELS, InstanceSettings

    dialect = getattr(dialects, line)
    hook = WebhookSettings(url="https://example.com/h", webhook_by_events=True, webhook_base64=True)
    body = dialect.webhook_body(hook)
    sent = body.get("webhook", body)
    assert dialect.wire_name("webhook_by_events") in sent
    assert dialect.wire_name("webhook_base64") in sent
    settings = dialect.settings_body(InstanceSettings())
    assert {dialect.wire_name(field) for field in SETTING_LABELS} <= set(settings)


async def test_an_older_page_that_fails_is_said_in_place_and_o_asks_again() -> None:
    from gateway_tui.demo.chats import BIG_CHAT_JID
    from tests.support import wait_for

    async with big_2x_chat(1_500) as (server, app, pilot, screen):
        server.faults.add("status", status=500, path_prefix="/chat/findMessages/", times=1)

        def summary() -> str:
            return str(screen.query_one("#messages-summary").render())

        await pilot.press("home")
        await wait_for(pilot, lambda: "older messages could not be read" in summary())
        assert len(screen.view.messages) == 1_000
        await pilot.press("up")  # moving on at the top does not ask again by itself
        await pilot.pause()
        assert _message_pages(app, BIG_CHAT_JID) == [1, 2]
        await pilot.press("o")
        await wait_for(pilot, lambda: len(screen.view.messages) == 1_500)
        assert "could not be read" not in summary()
        assert _message_pages(app, BIG_CHAT_JID) == [1, 2, 2]


@pytest.mark.parametrize(("version", "offered"), [("2.3.6", False), ("1.7.1", True)])
async def test_the_composer_offers_presence_only_where_it_is_sent(version: str, offered: bool):
    from textual.widgets import Label, Select

    from gateway_tui.demo.server import DemoServer
    from tests.navigation import open_composer
    from tests.support import make_app, make_config

    with DemoServer(api_version=version, instances=3) as server:
        app = make_app(make_config(server))
        async with app.run_test(size=(140, 40)) as pilot:
            screen = await open_composer(app, pilot)
            assert screen.query_one("#f-presence", Select).disabled is not offered
            note = str(screen.query_one("#presence-note", Label).render())
            assert ("2.x sends none" in note) is not offered
