"""2.x global stream: a 2.x server with WEBSOCKET_GLOBAL_EVENTS=true emits every instance's
events on ``/`` too (recorded: v2.3.6-more/events-001). The app then holds that one
connection instead of one per instance; without global events it keeps one per instance."""

from __future__ import annotations

import json

from gateway_tui.core.live import GLOBAL
from gateway_tui.demo.server import DemoServer
from tests.data import newest_person_chat
from tests.navigation import open_conversation
from tests.recorded.gateway import recordings_dir
from tests.support import (
    make_app,
    make_config,
    wait_for,
)

SIZE = (140, 40)
FIRST, SECOND = "sales-eu", "support"


async def test_the_demo_emits_on_the_default_namespace_as_the_recorded_2x_with_global_events():
    import asyncio

    import socketio

    stream = json.loads(
        (recordings_dir() / "v2.3.6-more" / "events-001-lifecycle-qrcode-false.json").read_text()
    )
    real = next(e for e in stream["events"] if e["namespace"] == "/" and e["event"] != "connect")
    with DemoServer(api_version="2.3.6", global_events=True) as server:
        got: list = []
        client = socketio.AsyncClient()
        client.on("*", lambda event, data: got.append((event, data)))  # on "/"
        await client.connect(server.url, headers={"apikey": server.api_key})  # loop known
        try:
            jid = newest_person_chat(server, FIRST)
            await asyncio.to_thread(server.write, FIRST, jid, "to everyone on /")
            for _ in range(600):
                if got:
                    break
                await asyncio.sleep(0.05)
        finally:
            await client.disconnect()
    event, payload = got[0]
    assert event == "messages.upsert" and set(payload) == set(real["data"])
    assert payload["instance"] == FIRST


async def _open(app, pilot, server, name: str):
    jid = newest_person_chat(server, name)
    return await open_conversation(app, pilot, jid, name), jid


async def test_one_global_connection_carries_every_instance_on_a_2x_with_global_events():
    with DemoServer(api_version="2.3.6", global_events=True) as server:
        app = make_app(make_config(server))
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: bool(app.state.instances.value))
            first, first_jid = await _open(app, pilot, server, FIRST)
            await wait_for(pilot, lambda: app.live_for(FIRST))
            link = app.session.link
            # The first event on "/" shows it carries everything: the instance's own stream ends.
            one = server.write(FIRST, first_jid, "over the global stream")
            await wait_for(pilot, lambda: first.view.find(one) is not None)
            await wait_for(pilot, lambda: link.global_stream and set(link._streams) == {GLOBAL})
            app.pop_screen()
            second, second_jid = await _open(app, pilot, server, SECOND)
            await pilot.pause()
            assert app.live_for(SECOND) and set(link._streams) == {GLOBAL}  # no new connection
            two = server.write(SECOND, second_jid, "the second instance, same stream")
            await wait_for(pilot, lambda: second.view.find(two) is not None)
            texts = [m.text for m in second.view.messages]
            assert texts.count("the second instance, same stream") == 1


async def test_a_2x_without_global_events_keeps_one_connection_per_instance():
    with DemoServer(api_version="2.3.6") as server:
        app = make_app(make_config(server))
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: bool(app.state.instances.value))
            screen, jid = await _open(app, pilot, server, FIRST)
            await wait_for(pilot, lambda: app.live_for(FIRST))
            sent = server.write(FIRST, jid, "on the instance's namespace")
            await wait_for(pilot, lambda: screen.view.find(sent) is not None)
            link = app.session.link
            assert not link.global_stream and f"/{FIRST}" in link._streams
