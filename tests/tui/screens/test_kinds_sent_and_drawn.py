"""Each new kind sent through the app against the demo, then drawn in the conversation, on
both demo lines (1.7.1 and 2.3.7; 2.4 where the kind needs it): voice note, poll, location,
contact card, delete for everyone, reaction. And poll votes under their poll: 2.4's getPollVote,
2.3.7's votes kept in the store (before 2.3.7 the poll says its votes are not available), mark
played, and the carousel composer."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace

import pytest
from textual.widgets import Input, Static

from gateway_tui.core.api import message_kinds as kinds
from gateway_tui.demo.interactive import receive_poll_vote
from gateway_tui.demo.session import extras
from gateway_tui.tui.app import GatewayApp
from gateway_tui.tui.screens.interactive_composer import InteractiveComposerScreen
from tests.data import JONAS_JID
from tests.in_process import InProcessDemo
from tests.navigation import open_conversation, select_message
from tests.support import make_config, screen_text, wait_for, wav_base64

SIZE = (120, 40)
INSTANCE = "sales-eu"
LINES = ("1.7.1", "2.3.7")


@asynccontextmanager
async def conversation(version: str, isolated_home) -> AsyncIterator[tuple]:
    """An app on an in-process demo of ``version``, its conversation with Jonas open."""
    with InProcessDemo(api_version=version) as demo:
        app = GatewayApp(make_config(demo, api_version="auto"), transport=demo.transport())
        async with app.run_test(size=SIZE) as pilot:
            screen = await open_conversation(app, pilot, JONAS_JID)
            yield demo, app, pilot, screen


async def sent_then_drawn(app, pilot, screen, work, shown: str) -> str:
    """Run ``work`` (the app's own call), read the conversation again, wait for ``shown``."""
    before = app.actions.chats.messages_of(INSTANCE, JONAS_JID).value
    await work
    screen.action_refresh()
    await wait_for(
        pilot,
        lambda: (
            app.actions.chats.messages_of(INSTANCE, JONAS_JID).value is not before
            and shown in screen_text(app)
        ),
    )
    return screen_text(app)


KIND_CASES = {
    "voice note": (
        "send_voice_note",
        kinds.VoiceNote(audio=wav_base64(3.0), file_name="memo.wav"),
        "Voice message",
    ),
    "poll": (
        "send_poll",
        kinds.Poll(name="Lunch today?", values=("Pizza", "Sushi"), selectable_count=1),
        "○ Sushi",
    ),
    "location": (
        "send_location",
        kinds.Location(latitude=-23.5617, longitude=-46.6559, name="Office", address="Av 1"),
        "openstreetmap.org/?mlat=-23.561700",
    ),
    "contact card": (
        "send_contacts",
        kinds.ContactCards(
            (kinds.ContactCard(full_name="Bob Card", phone_number="+55 11 97777-6666"),)
        ),
        "👤 Bob Card",
    ),
}


@pytest.mark.parametrize("version", LINES)
@pytest.mark.parametrize("kind", list(KIND_CASES))
async def test_each_new_kind_is_sent_and_drawn(version, kind, isolated_home) -> None:
    method, message, shown = KIND_CASES[kind]
    async with conversation(version, isolated_home) as (_demo, app, pilot, screen):
        work = app.actions.kinds.send(method, INSTANCE, JONAS_JID, message)
        await sent_then_drawn(app, pilot, screen, work, shown)
        newest = screen.view.messages[-1]
        assert newest.from_me and newest.kind != "conversation"


@pytest.mark.parametrize("version", LINES)
async def test_a_reaction_and_a_delete_for_everyone_are_drawn_on_their_message(
    version, isolated_home
) -> None:
    async with conversation(version, isolated_home) as (_demo, app, pilot, screen):
        poll = kinds.Poll(name="Friday drinks?", values=("Yes", "No"), selectable_count=1)
        await sent_then_drawn(
            app,
            pilot,
            screen,
            app.actions.kinds.send("send_poll", INSTANCE, JONAS_JID, poll),
            "Friday drinks?",
        )
        target = screen.view.messages[-1]
        count = len(screen.view.messages)
        work = app.actions.messages.send_reaction(INSTANCE, target.key, "🎉")
        await sent_then_drawn(app, pilot, screen, work, "🎉")
        # The reaction is drawn under its message, not as a bubble of its own.
        assert screen.view.decorations.reaction_line(target.id) == "🎉"
        assert len(screen.view.messages) == count + 1 and screen.view._hidden(count)
        work = app.actions.kinds.delete_for_everyone(INSTANCE, target.key)
        await sent_then_drawn(app, pilot, screen, work, "deleted for everyone")


async def test_poll_votes_are_drawn_under_the_poll_on_24(isolated_home) -> None:
    async with conversation("2.4.0", isolated_home) as (demo, app, pilot, screen):
        poll = kinds.Poll(name="Lunch?", values=("Yes", "No"), selectable_count=1)
        sent = await app.actions.kinds.send("send_poll", INSTANCE, JONAS_JID, poll)
        extras(demo.state).poll_votes[sent.key.id] = {
            "4915112340002@s.whatsapp.net": ["No"],
            "4915112340003@s.whatsapp.net": ["No"],
        }
        screen.action_refresh()
        await wait_for(pilot, lambda: "No  2 votes" in screen_text(app))
        assert "Yes  0 votes" in screen_text(app)
        votes = [e for e in app.state.calls if "/getPollVote/" in e.path]
        assert votes[-1].request_body == {
            "message": {"key": {"id": sent.key.id}},
            "remoteJid": JONAS_JID,
        }


@pytest.mark.parametrize("version", ("1.7.1", "2.3.6"))
async def test_where_votes_are_dropped_a_poll_says_its_votes_are_not_available(
    version, isolated_home
) -> None:
    async with conversation(version, isolated_home) as (demo, app, pilot, screen):
        poll = kinds.Poll(name="Lunch?", values=("Yes", "No"), selectable_count=1)
        sent = await app.actions.kinds.send("send_poll", INSTANCE, JONAS_JID, poll)
        chat = demo.state.instances[INSTANCE].chats[JONAS_JID]
        receive_poll_vote(demo.state, chat, sent.key.id, JONAS_JID, ["No"])  # dropped
        screen.action_refresh()
        await wait_for(pilot, lambda: f"votes not available on {version}" in screen_text(app))
        assert "No  1 vote" not in screen_text(app)
        assert not [e for e in app.state.calls if "/getPollVote/" in e.path]


async def test_on_237_votes_kept_in_the_store_are_counted_under_the_poll(isolated_home) -> None:
    async with conversation("2.3.7", isolated_home) as (demo, app, pilot, screen):
        poll = kinds.Poll(name="Lunch?", values=("Yes", "No", "Later"), selectable_count=1)
        await sent_then_drawn(
            app,
            pilot,
            screen,
            app.actions.kinds.send("send_poll", INSTANCE, JONAS_JID, poll),
            "Yes  0 votes",
        )
        poll_id = screen.view.messages[-1].id
        chat = demo.state.instances[INSTANCE].chats[JONAS_JID]
        receive_poll_vote(demo.state, chat, poll_id, JONAS_JID, ["No"])
        screen.action_refresh()
        await wait_for(pilot, lambda: "No  1 vote" in screen_text(app))
        # Jonas changes his mind: his vote moves, it is not counted twice.
        receive_poll_vote(demo.state, chat, poll_id, JONAS_JID, ["Later"])
        screen.action_refresh()
        await wait_for(pilot, lambda: "Later  1 vote" in screen_text(app))
        text = screen_text(app)
        assert "No  0 votes" in text and "Yes  0 votes" in text
        assert "votes not available" not in text
        # The votes are drawn on their poll, not as bubbles of their own.
        assert len(screen.view.decorations.hidden) == 2
        assert not [e for e in app.state.calls if "/getPollVote/" in e.path]


async def test_mark_played_on_24_from_the_conversation(isolated_home) -> None:
    async with conversation("2.4.0", isolated_home) as (_demo, app, pilot, screen):
        theirs = next(m for m in screen.view.messages if not m.from_me)
        await select_message(pilot, screen, theirs.id)
        await pilot.press("Z")  # not a voice note: nothing sent
        await pilot.pause()
        assert not [e for e in app.state.calls if "/markMessageAsPlayed/" in e.path]
        note = replace(theirs, kind="audioMessage", content={"audioMessage": {"ptt": True}})
        screen.view.messages = [*screen.view.messages[:-1], note]
        screen.view.select(len(screen.view.messages) - 1)
        await pilot.press("Z")
        await wait_for(
            pilot,
            lambda: any("/markMessageAsPlayed/" in e.path for e in app.state.calls),
        )
    (played,) = [e for e in app.state.calls if "/markMessageAsPlayed/" in e.path]
    assert played.request_body == {"playedMessages": [note.key.to_json()]}
    assert played.status == 201  # 2.4.0-rc2 answers CREATED


async def test_the_carousel_composer_sends_on_24(isolated_home) -> None:
    async with conversation("2.4.0", isolated_home) as (_demo, app, pilot, _screen):
        await pilot.press("K")
        await wait_for(pilot, lambda: isinstance(app.screen, InteractiveComposerScreen))
        composer = app.screen
        composer.query_one("#i-body", Input).value = "Our plans"
        await wait_for(pilot, lambda: "ready to send" in screen_text(app))
        assert "card 2" in str(composer.query_one("#i-preview", Static).render())
        curl = str(composer.query_one("#i-curl", Static).render())
        assert "/message/sendCarousel/sales-eu" in curl
        composer.query_one("#i-lines").text = "Basic\npix: Shop | email | a@b.c"
        await wait_for(pilot, lambda: "no PIX" in screen_text(app))
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: "Not sent" in screen_text(app))
        assert not [e for e in app.state.calls if "/sendCarousel/" in e.path]
        composer.query_one("#i-lines").text = "Basic plan\nurl: See it = https://example.com/b"
        await wait_for(pilot, lambda: "ready to send" in screen_text(app))
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: "✓ Sent" in screen_text(app))
    (sent,) = [e for e in app.state.calls if "/sendCarousel/" in e.path]
    assert sent.request_body["body"] == "Our plans"
    assert sent.request_body["cards"][0]["buttons"][0]["url"] == "https://example.com/b"
