"""The event monitor (tui/screens/event_monitor.py) on a demo gateway writing to it: rows live,
raw JSON on enter, the filter, pause (kept and counted), clear, export of what the filter shows,
the ring said on screen, and the instance's settings against what arrived."""

from __future__ import annotations

import asyncio
import json

from gateway_tui.core.api.lifecycle import WebsocketSettings
from gateway_tui.tui.screens.event_monitor import EventJsonScreen, EventMonitorScreen
from tests.data import INSTANCE, newest_person_chat
from tests.navigation import open_instance
from tests.support import PROCESS_LIMIT, screen_text, wait_for

SIZE = (140, 40)


async def write(server, text: str) -> None:
    jid = newest_person_chat(server, INSTANCE)
    await asyncio.to_thread(server.write, INSTANCE, jid, text)


async def connection_update(server, state: str) -> None:
    async def emit() -> None:
        instance = server.state.instances[INSTANCE]
        data = {"instance": INSTANCE, "state": state, "statusReason": 200}
        server.events.emit(instance, "connection.update", data)

    await asyncio.to_thread(lambda: server.on_loop(emit()).result(PROCESS_LIMIT))


async def open_monitor(app, pilot) -> EventMonitorScreen:
    await open_instance(app, pilot)
    await pilot.press("E")
    await wait_for(pilot, lambda: isinstance(app.screen, EventMonitorScreen))
    screen = app.screen
    await wait_for(pilot, lambda: screen.stream is not None and screen.stream.connected)
    return screen


async def test_events_show_live_filter_and_export(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_monitor(app, pilot)
        await write(demo_server, "first words")
        await connection_update(demo_server, "open")
        await write(demo_server, "second words")
        await wait_for(pilot, lambda: screen.table.visible_count == 3)
        await wait_for(pilot, lambda: "3 of the last 5,000 events kept" in screen_text(app))
        text = screen_text(app)
        assert "messages.upsert" in text and "second words" in text
        assert "state open (200)" in text
        newest = screen.table.visible_rows[0]
        assert newest.data["message"]["conversation"] == "second words"  # newest first

        await pilot.press("slash", *"event:connection.update", "enter")
        await wait_for(pilot, lambda: screen.table.visible_count == 1)
        await wait_for(pilot, lambda: "showing 1 (event CONNECTION_UPDATE)" in screen_text(app))
        await pilot.press("x")
        await wait_for(pilot, lambda: screen.exported is not None)
        lines = [json.loads(line) for line in screen.exported.read_text().splitlines()]
        assert [line["event"] for line in lines] == ["connection.update"]
        assert {"time", "instance", "event", "data"} <= set(lines[0])
        keys = (demo_server.api_key, demo_server.state.instances[INSTANCE].apikey)
        assert not any(key in screen.exported.read_text() for key in keys)

        await pilot.press("escape")  # closes the filter first
        await wait_for(pilot, lambda: screen.table.visible_count == 3)
        assert isinstance(app.screen, EventMonitorScreen)


async def test_pause_keeps_and_counts_and_clear_empties(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_monitor(app, pilot)
        await write(demo_server, "before the pause")
        await wait_for(pilot, lambda: screen.table.visible_count == 1)
        await pilot.press("p")
        await write(demo_server, "during the pause")
        await wait_for(pilot, lambda: screen.ring.total == 2)
        await wait_for(pilot, lambda: "paused: 1 new, kept" in screen_text(app))
        assert screen.table.visible_count == 1
        await pilot.press("p")
        await wait_for(pilot, lambda: screen.table.visible_count == 2)
        await pilot.press("c")
        await wait_for(pilot, lambda: screen.table.visible_count == 0)
        await wait_for(pilot, lambda: "0 of the last 5,000 events kept" in screen_text(app))


async def test_the_ring_is_bounded_and_says_so(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await open_instance(app, pilot)
        screen = EventMonitorScreen(INSTANCE, capacity=3)
        app.push_screen(screen)
        await wait_for(pilot, lambda: screen.stream is not None and screen.stream.connected)
        for n in range(5):
            await write(demo_server, f"message {n}")
        await wait_for(pilot, lambda: screen.ring.total == 5)
        await wait_for(
            pilot, lambda: "3 of the last 3 events kept (5 arrived: 2 dropped" in screen_text(app)
        )
        assert screen.table.visible_count == 3
        shown = [r.data["message"]["conversation"] for r in screen.table.visible_rows]
        assert shown == ["message 4", "message 3", "message 2"]


async def test_enter_shows_the_raw_json_as_data(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_monitor(app, pilot)
        await write(demo_server, "\x1b]0;owned\x07 \x9b2J hostile")
        await wait_for(pilot, lambda: screen.table.visible_count == 1)
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, EventJsonScreen))
        raw = app.screen.query_one("#event-json").text
        document = json.loads(raw)
        assert document["data"]["message"]["conversation"] == "\x1b]0;owned\x07 \x9b2J hostile"
        assert "\x1b" not in raw and "\x9b" not in raw  # escaped in the JSON shown
        assert "apikey" not in raw
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen)


async def test_asked_for_versus_arrived_beside_the_events(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await open_instance(app, pilot)
        await app.actions.lifecycle.save_websocket(
            INSTANCE, WebsocketSettings(enabled=True, events=["CONNECTION_UPDATE"])
        )
        await pilot.press("E")
        await wait_for(pilot, lambda: isinstance(app.screen, EventMonitorScreen))
        screen = app.screen
        await wait_for(pilot, lambda: screen.stream is not None and screen.stream.connected)
        await write(demo_server, "not asked for")
        await wait_for(pilot, lambda: screen.table.visible_count == 1)
        verdict = "MESSAGES_UPSERT: seen on the websocket but not ticked (1 seen)"
        await wait_for(pilot, lambda: verdict in screen_text(app))
        text = screen_text(app)
        assert "websocket: on, 1 event ticked" in text
        assert "MESSAGES_UPSERT: seen on the websocket but not ticked (1 seen)" in text
        assert "CONNECTION_UPDATE: ticked for the websocket, none seen yet" in text


async def test_the_whole_gateway_from_the_palette_s_key(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        await pilot.press("f11")
        await wait_for(pilot, lambda: isinstance(app.screen, EventMonitorScreen))
        screen = app.screen
        assert screen.instance is None and "Events of the whole gateway" in screen_text(app)
        await wait_for(pilot, lambda: screen.stream is not None and screen.stream.connected)
        assert len(screen.stream.namespaces) == len(app.state.instances.value)
        await write(demo_server, "to the gateway")
        await wait_for(pilot, lambda: screen.table.visible_count == 1)
        assert f"{INSTANCE}" in screen_text(app)


async def test_listen_here_points_the_webhook_at_the_app_and_puts_it_back(app_for, demo_server):
    from gateway_tui.core.api.lifecycle import WebhookSettings
    from gateway_tui.core.events.record import WEBHOOK
    from gateway_tui.tui.screens.confirm import ConfirmScreen

    before = WebhookSettings(
        url="http://127.0.0.1:9/hook", enabled=True, events=["MESSAGES_UPSERT"]
    )
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await open_instance(app, pilot)
        await app.actions.lifecycle.save_webhook(INSTANCE, before)
        screen = await open_monitor(app, pilot)
        await wait_for(pilot, lambda: "webhook: on" in screen_text(app))
        await pilot.press("L")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        said = " ".join(screen_text(app).replace("█", " ").split())
        assert "Now: http://127.0.0.1:9/hook, on, MESSAGES_UPSERT" in said
        await pilot.press("y")
        await wait_for(pilot, lambda: screen.listening is not None)
        assert app.actions.lifecycle.webhook_of(INSTANCE).value.url == screen.listening
        await write(demo_server, "both ways")
        await wait_for(pilot, lambda: screen.ring.count("MESSAGES_UPSERT", WEBHOOK) == 1)
        await wait_for(pilot, lambda: screen.ring.count("MESSAGES_UPSERT") == 2)
        await wait_for(pilot, lambda: "the webhook posts here" in screen_text(app))
        await pilot.press("escape")  # leaving asks to put the webhook back first
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_for(pilot, lambda: screen.listening is None)
        await wait_for(
            pilot, lambda: app.actions.lifecycle.webhook_of(INSTANCE).value.url == before.url
        )
        stored = app.actions.lifecycle.webhook_of(INSTANCE).value
        assert (stored.enabled, stored.events) == (True, ["MESSAGES_UPSERT"])


async def test_listen_here_from_the_webhook_screen(app_for, demo_server):
    from gateway_tui.tui.screens.confirm import ConfirmScreen
    from gateway_tui.tui.screens.webhook import HookSettingsScreen

    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await open_instance(app, pilot)
        await pilot.press("w")
        await wait_for(pilot, lambda: isinstance(app.screen, HookSettingsScreen))
        await pilot.press("ctrl+o")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        said = " ".join(screen_text(app).replace("█", " ").split())
        assert f"Point the webhook of {INSTANCE} at http://127.0.0.1:" in said
        assert "Now: never set" in said
        await pilot.press("n")  # nothing written
        await wait_for(pilot, lambda: isinstance(app.screen, EventMonitorScreen))
        assert app.screen.listening is None
        assert not app.actions.lifecycle.webhook_of(INSTANCE).value.configured


async def test_a_flood_is_drawn_a_few_times_a_second_and_keys_answered(app_for, demo_server):
    """1,000 events a second for five seconds: the table is given the ring a few times a
    second (not every frame: a frame of it costs tens of milliseconds on a busy machine, and
    at 60 a second the socket was read late and keys answered in seconds), and keys are
    answered meanwhile."""

    count = 5_000
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_monitor(app, pilot)
        await write(demo_server, "one")
        await write(demo_server, "two")
        await wait_for(pilot, lambda: screen.table.visible_count == 2)
        given: list[int] = []
        set_rows = screen.table.set_rows

        def counted(rows):
            given.append(len(rows))
            set_rows(rows)

        screen.table.set_rows = counted
        before = (screen.ring.total, demo_server.events.emitted)
        flood = demo_server.flood(INSTANCE, newest_person_chat(demo_server, INSTANCE), 1000, count)
        keys = 0
        while not flood.done():
            index = screen.table.cursor_index
            await pilot.press("down" if keys % 2 == 0 else "up")
            await wait_for(pilot, lambda i=index: screen.table.cursor_index != i)
            keys += 1
            await asyncio.sleep(0.3)
        flood.result(PROCESS_LIMIT)
        assert demo_server.events.emitted - before[1] >= count
        # What came is shown, the newest first, once the flood's rows held back are drawn.
        await wait_for(pilot, lambda: screen.ring.total > before[0] + 1_000, within=120)
        await wait_for(
            pilot,
            lambda: screen.table.visible_rows[0] is screen.ring[-1],
        )
        assert keys >= 1
        # Batched, not drawn per event nor per frame: thousands of events came, and the table
        # was given the ring a few times a second at most (no clock in the bound: a frame a
        # second for even a minute-long flood on a busy machine stays far below it).
        arrived = screen.ring.total - before[0]
        assert len(given) <= arrived / 20, (len(given), arrived)


async def test_the_monitor_of_one_instance_keeps_only_its_events_from_the_global_stream():
    from gateway_tui.demo.server import DemoServer
    from tests.support import make_app, make_config

    with DemoServer(api_version="2.3.6", global_events=True) as server:
        other = next(name for name in server.state.instances if name != INSTANCE)
        app = make_app(make_config(server))
        async with app.run_test(size=SIZE) as pilot:
            await open_instance(app, pilot)
            screen = EventMonitorScreen(INSTANCE)
            app.push_screen(screen)
            await wait_for(
                pilot, lambda: screen.stream is not None and "/" in screen.stream.connected
            )
            jid = newest_person_chat(server, other)
            await asyncio.to_thread(server.write, other, jid, "for the other one")
            await write(server, "for this one")
            await wait_for(pilot, lambda: screen.ring.total >= 1)
            await wait_for(pilot, lambda: screen.table.visible_count >= 1)
            assert {record.instance for record in screen.ring} == {INSTANCE}


async def test_a_flood_arrives_whole_while_the_app_loop_is_busy(app_for, demo_server):
    """Every event of a flood is taken in even when the app's loop is held up longer than the
    server's ping timeout (a slow frame): the socket is read, and its pings answered, apart
    from the loop. Read on the app's loop, the server timed the client out and the events it
    had queued were lost (a minute at 1,000 a second: 48,216 of 60,000 taken in)."""
    import time

    eio = demo_server.events.sio.eio
    eio.ping_interval, eio.ping_timeout = 1, 2  # seconds (the defaults are 25 and 20)
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_monitor(app, pilot)
        before, emitted = screen.ring.total, demo_server.events.emitted
        jid = newest_person_chat(demo_server, INSTANCE)
        flood = demo_server.flood(INSTANCE, jid, 500, 1_500)
        # The load, not a wait: a frame that holds the app's loop for 5 s, past the ping timeout.
        time.sleep(5)  # noqa: ASYNC251
        await asyncio.to_thread(flood.result, 120)
        sent = demo_server.events.emitted - emitted
        assert sent == 1_500
        await wait_for(pilot, lambda: screen.ring.total - before == sent, within=120)
        assert screen.stream.drops == 0


async def test_a_dropped_socket_is_counted_and_said(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_monitor(app, pilot)
        sio, namespace = demo_server.events.sio, f"/{INSTANCE}"

        async def drop() -> None:
            for sid, _eio in list(sio.manager.get_participants(namespace, None)):
                await sio.disconnect(sid, namespace=namespace)

        await asyncio.to_thread(lambda: demo_server.on_loop(drop()).result(PROCESS_LIMIT))
        await wait_for(
            pilot, lambda: "the socket dropped 1 time: events during" in screen_text(app)
        )
        assert screen.stream.drops == 1
        await wait_for(pilot, lambda: screen.stream.connected, within=120)  # and it came back


async def test_the_event_monitor_and_its_panel_in_portuguese(app_for, demo_server, language):
    language("pt_BR")
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await open_instance(app, pilot)
        await app.actions.lifecycle.save_websocket(
            INSTANCE, WebsocketSettings(enabled=True, events=["CONNECTION_UPDATE"])
        )
        await pilot.press("E")
        await wait_for(pilot, lambda: isinstance(app.screen, EventMonitorScreen))
        screen = app.screen
        await wait_for(pilot, lambda: screen.stream is not None and screen.stream.connected)
        await write(demo_server, "não pedido")
        await wait_for(pilot, lambda: screen.table.visible_count == 1)
        verdict = "MESSAGES_UPSERT: visto no websocket, mas não marcado (1 visto)"
        await wait_for(pilot, lambda: verdict in screen_text(app))
        text = screen_text(app)
        assert f"Eventos de {INSTANCE}" in text
        assert "Pedido versus recebido" in text
        assert "websocket: ligado, 1 evento marcado" in text  # one: the singular
        assert "CONNECTION_UPDATE: marcado para o websocket, nenhum visto ainda" in text
        assert "1 dos últimos 5.000 eventos guardados" in text  # 5.000: the locale's number
        assert "messages.upsert" in text  # an event's name is an id: never translated
