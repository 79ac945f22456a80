"""A flood of live events (1,000 a second; the benchmark floods a full minute, bench/live.py)
never freezes the screen and keeps nothing it does not need: events are applied in one batch
per frame, known messages sent again replace themselves, delivery marks keep the newest."""

from __future__ import annotations

import asyncio

from gateway_tui.demo.chats import BIG_CHAT_JID
from gateway_tui.demo.server import DemoServer
from tests.navigation import open_conversation
from tests.support import PROCESS_LIMIT, make_app, make_config, wait_for

INSTANCE = "sales-eu"
SIZE = (140, 40)
CHAT = 2_000
RATE = 1_000
EVENTS = 5_000  # five seconds of it


async def test_a_flood_never_freezes_the_screen_and_is_applied_per_frame():
    with DemoServer(big_chat=CHAT) as server:
        app = make_app(make_config(server))
        async with app.run_test(size=SIZE) as pilot:
            screen = await open_conversation(app, pilot, BIG_CHAT_JID, INSTANCE)
            loadable = app.actions.chats.messages_of(INSTANCE, BIG_CHAT_JID)
            await wait_for(pilot, lambda: app.state.live is True)
            before = len(loadable.value)
            statuses = app.actions.chats.statuses_of(INSTANCE)
            marks_before = len(statuses)
            batches: list[int] = []
            apply = app.actions.chats.apply_live

            def counted(events):
                batches.append(len(events))
                return apply(events)

            app.actions.chats.apply_live = counted
            flood = server.flood(INSTANCE, BIG_CHAT_JID, RATE, EVENTS)
            keys = answered_during_flood = 0
            while not flood.done():
                index = screen.view.index
                await pilot.press("up" if keys % 2 == 0 else "down")
                # Answered, however slowly a busy machine answers it (no clock): a frozen screen
                # fails the count below, which wants a key answered while the flood still ran.
                await wait_for(pilot, lambda i=index: screen.view.index != i)
                keys += 1
                answered_during_flood += not flood.done()
                await asyncio.sleep(0.3)
            written = flood.result(PROCESS_LIMIT)
            await wait_for(pilot, lambda: screen.view.find(written[-1]) is not None)
            assert answered_during_flood >= 1  # every key was answered, while it flooded too
            # Every event came, in far fewer batches than events: one per frame.
            await wait_for(pilot, lambda: sum(batches) == EVENTS)
            assert len(batches) < EVENTS / 5, batches
            assert not app.session.link.take()  # nothing left waiting
            # What is kept is bounded by what the events say, not by how many came: the
            # messages sent again replaced themselves, the new ones were added once each.
            assert len(loadable.value) == before + len(written)
            assert len(app.state.live_items[(INSTANCE, BIG_CHAT_JID)]) <= 200
            assert len(statuses) <= marks_before + 50  # the flood marks 50 messages


async def test_a_flood_arrives_whole_on_the_app_link_while_the_app_loop_is_busy(
    app_for, demo_server
):
    """The app's own socket (LiveLink) is read, and its pings answered, apart from the app's
    loop: a frame that holds the loop longer than the server's ping timeout loses nothing.
    Read on the app's loop, the server timed the client out during a flood and the events
    it still had queued were lost (issue 29, item 4)."""
    import time

    from tests.navigation import open_chats

    eio = demo_server.events.sio.eio
    eio.ping_interval, eio.ping_timeout = 1, 2  # seconds (the defaults are 25 and 20)
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await open_chats(app, pilot)
        await wait_for(pilot, lambda: app.live_for(INSTANCE))
        book = app.actions.chats.chat_book(INSTANCE)
        count, first = 1_500, 700_000
        jids = {f"{5519900000000 + first + n}@s.whatsapp.net" for n in range(count)}
        taken: set[str] = set()  # the flood's chats whose event came over the socket
        apply = app.actions.chats.apply_live

        def counted(events):
            taken.update(e.data["key"]["remoteJid"] for e in events if e.event == "messages.upsert")
            return apply(events)

        app.actions.chats.apply_live = counted
        flood = demo_server.flood_chats(INSTANCE, 500, count, first)
        # The load, not a wait: a frame that holds the app's loop for 5 s, past the ping timeout.
        time.sleep(5)  # noqa: ASYNC251
        assert await asyncio.to_thread(flood.result, 120) == count
        await wait_for(pilot, lambda: jids <= set(book.value.last), within=120)
        await wait_for(pilot, lambda: jids <= taken)  # each over the socket
        assert app.session.link.reconnects == 0  # never timed out, nothing to read again
