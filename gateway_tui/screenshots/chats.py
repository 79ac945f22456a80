"""Scenarios of the chats and a conversation: the chat list, a list message and its reply,
delivery marks, editing an own message, a reply being typed (also to a message that just came
over the socket), a media card, a business profile.

They show the demo's seeded history only (its times are fixed), so pictures do not change from
run to run; a message sent during the scenario would carry the wall clock's time (the one that
arrives live is given a fixed one).
"""

from __future__ import annotations

from textual.pilot import Pilot

from gateway_tui.screenshots.base import DEMO_OF, Scenario, wait_until
from gateway_tui.screenshots.compose import INSTANCE, _instances, _store

SIZE = (140, 40)
JONAS = "4915112340001@s.whatsapp.net"
BAKERY = "5511912345678@s.whatsapp.net"
LIST_CHAT = "5511997160360@s.whatsapp.net"  # Diego Alves: a list message and his reply
MARKS_CHAT = "5511997046386@s.whatsapp.net"  # Felix Braun: own messages at every status
MEDIA_CHAT = "5511973411345@s.whatsapp.net"  # a document among its messages
MEDIA_ID = "3AC4D3896724CBE0E9AE"


async def open_chats(pilot: Pilot):
    from gateway_tui.tui.screens.chats import ChatsScreen

    app = pilot.app
    await _instances(pilot)
    screen = ChatsScreen(INSTANCE, store=_store(app))
    app.push_screen(screen)
    await wait_until(pilot, lambda: app.screen is screen and screen.is_mounted)
    await wait_until(pilot, lambda: len(screen.table.rows) > 30)
    await wait_until(pilot, lambda: app.state.groups_of(INSTANCE).value is not None)
    await pilot.pause()
    return screen


async def _chats(pilot: Pilot) -> None:
    app = pilot.app
    screen = await open_chats(pilot)
    await app.actions.chats.archive_chat(
        INSTANCE, BAKERY, screen.rows[[r.jid for r in screen.rows].index(BAKERY)].last_key, True
    )
    await wait_until(pilot, lambda: next(r for r in screen.rows if r.jid == BAKERY).archived)


async def open_conversation(pilot: Pilot, jid: str, title: str):
    from gateway_tui.tui.screens.messages import MessagesScreen

    app = pilot.app
    await _instances(pilot)
    screen = MessagesScreen(INSTANCE, jid, title=title, store=_store(app))
    app.push_screen(screen)
    await wait_until(pilot, lambda: app.screen is screen and screen.is_mounted)
    loadable = app.actions.chats.messages_of(INSTANCE, jid)
    await wait_until(pilot, lambda: loadable.value is not None and not loadable.loading)
    await wait_until(pilot, lambda: bool(screen.view.statuses))
    await pilot.pause()
    return screen


async def _list_and_reply(pilot: Pilot) -> None:
    screen = await open_conversation(pilot, LIST_CHAT, "Diego Alves")
    await pilot.press("up")  # the reply: the list above it, the chosen row in it
    await wait_until(
        pilot,
        lambda: (
            screen.view.selected is not None and screen.view.selected.kind == "listResponseMessage"
        ),
    )


async def _delivery_marks(pilot: Pilot) -> None:
    await open_conversation(pilot, MARKS_CHAT, "Felix Braun")


async def _edit(pilot: Pilot) -> None:
    from gateway_tui.tui.screens.chat_modals import EditMessageScreen
    from gateway_tui.tui.screens.confirm import ConfirmScreen

    app = pilot.app
    await open_conversation(pilot, JONAS, "Jonas Weber")
    await pilot.press("e")  # the newest message is the instance's own text: editable
    # The demo's messages are older than WhatsApp's 15 minutes: the app asks first.
    await wait_until(
        pilot,
        lambda: (
            isinstance(app.screen, (EditMessageScreen, ConfirmScreen)) and app.screen.is_mounted
        ),
    )
    if isinstance(app.screen, ConfirmScreen):
        await pilot.press("y")
    await wait_until(
        pilot, lambda: isinstance(app.screen, EditMessageScreen) and app.screen.is_mounted
    )


async def _reply_typed(pilot: Pilot) -> None:
    screen = await open_conversation(pilot, JONAS, "Jonas Weber")
    await pilot.press("R")  # a quoted reply to his newest message, being typed
    await pilot.press(*"Arrives Friday before noon", "ctrl+j", *"signature needed")
    from gateway_tui.tui.widgets.message_line import MessageLine

    line = screen.query_one(MessageLine)
    await wait_until(pilot, lambda: screen.reply_to is not None and line.text.endswith("needed"))


async def _live_reply_typed(pilot: Pilot) -> None:
    """A message arrives over the socket while the chat is open; a reply to it is typed."""
    import asyncio

    app = pilot.app
    server = DEMO_OF[app]
    screen = await open_conversation(pilot, JONAS, "Jonas Weber")
    await wait_until(pilot, lambda: app.live_for(INSTANCE))
    # A fixed time a minute after his last message: the picture does not change with the clock.
    last = server.state.instances[INSTANCE].chats[JONAS].messages[-1].timestamp
    text = "Just arrived? Can you send me the tracking number?"
    written = await asyncio.to_thread(server.write, INSTANCE, JONAS, text, last + 60)
    await wait_until(pilot, lambda: screen.view.selected is not None)
    await wait_until(pilot, lambda: screen.view.selected.id == written)
    await pilot.press("R")  # a quoted reply to it, being typed
    await pilot.press(*"Sure: DHL 00340434161094042557", "ctrl+j", *"arrives Friday")
    await wait_until(pilot, lambda: screen.reply_to is not None and screen.reply_to.id == written)


async def _media_card(pilot: Pilot) -> None:
    screen = await open_conversation(pilot, MEDIA_CHAT, "A document")
    index = next(i for i, m in enumerate(screen.view.messages) if m.id == MEDIA_ID)
    screen.view.select(index)
    await wait_until(
        pilot, lambda: screen.view.selected is not None and screen.view.selected.id == MEDIA_ID
    )


async def _profile(pilot: Pilot) -> None:
    from gateway_tui.tui.screens.chat_modals import ProfileScreen

    app = pilot.app
    screen = await open_chats(pilot)
    screen.table.move_cursor_to_key(BAKERY)  # the bakery: a business profile
    await pilot.press("p")
    # The card itself, read: the chats screen under it has no "busy" to wait on.
    await wait_until(
        pilot,
        lambda: (
            isinstance(app.screen, ProfileScreen) and app.screen.is_mounted and not app.screen.busy
        ),
    )


SCENARIOS = [
    Scenario("chats", _chats, size=SIZE),
    Scenario("conversation-list-reply", _list_and_reply, size=SIZE),
    Scenario("conversation-delivery-marks", _delivery_marks, size=SIZE),
    Scenario("chat-edit", _edit, size=SIZE),
    Scenario("conversation-reply", _reply_typed, size=SIZE),
    Scenario("conversation-live-reply", _live_reply_typed, size=SIZE, live=True),
    Scenario("conversation-media-card", _media_card, size=SIZE),
    Scenario("profile-card", _profile, size=SIZE),
]
