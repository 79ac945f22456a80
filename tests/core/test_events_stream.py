"""The raw socket.io subscription (core/events/stream.py) against the demo gateway: each
event once, as a record without its key; a websocket that is off ends it with the reason."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from gateway_tui.core.events.record import GLOBAL, SOCKET
from gateway_tui.core.events.stream import EventStream
from gateway_tui.demo.server import DemoServer
from tests.data import INSTANCE, newest_person_chat


async def until(condition: Callable[[], bool], within: float = 60.0) -> None:
    async with asyncio.timeout(within):
        while not condition():  # noqa: ASYNC110 - a condition of another thread
            await asyncio.sleep(0.02)


async def test_an_instance_stream_hands_over_records_without_the_key(demo_server):
    records = []
    stream = EventStream(demo_server.url, demo_server.api_key, records.append, instances=[INSTANCE])
    task = asyncio.create_task(stream.run())
    try:
        await until(lambda: f"/{INSTANCE}" in stream.connected)
        jid = newest_person_chat(demo_server, INSTANCE)
        await asyncio.to_thread(demo_server.write, INSTANCE, jid, "hello from the stream")
        await until(lambda: records)
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
    record = records[0]
    assert (record.event, record.instance, record.via) == ("messages.upsert", INSTANCE, SOCKET)
    assert record.data["message"]["conversation"] == "hello from the stream"
    key = demo_server.state.instances[INSTANCE].apikey
    assert "apikey" not in record.extra and key not in repr(record)


class Counting(EventStream):
    """Counts the envelopes as they come, twins included."""

    arrived = 0

    def received(self, namespace, payload):
        self.arrived += 1
        super().received(namespace, payload)


async def test_the_global_stream_and_the_instance_s_give_each_event_once():
    with DemoServer(api_version="2.3.6", global_events=True) as server:
        records = []
        stream = Counting(
            server.url, server.api_key, records.append, instances=[INSTANCE], global_stream=True
        )
        task = asyncio.create_task(stream.run())
        try:
            await until(lambda: stream.connected == {"/", f"/{INSTANCE}"})
            jid = newest_person_chat(server, INSTANCE)
            for n in range(3):
                await asyncio.to_thread(server.write, INSTANCE, jid, f"once {n}")
            await until(lambda: stream.arrived == 6)  # each on "/" and on "/sales-eu"
        finally:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
    texts = [r.data["message"]["conversation"] for r in records]
    assert sorted(texts) == ["once 0", "once 1", "once 2"]
    assert {r.via for r in records} <= {GLOBAL, SOCKET}


async def test_a_websocket_that_is_off_ends_the_stream_with_the_reason():
    with DemoServer(websocket=False) as server:
        stream = EventStream(server.url, server.api_key, lambda _r: None, instances=[INSTANCE])
        await asyncio.wait_for(stream.run(), 60)
    assert stream.failed == "the gateway's websocket is off (/socket.io/ answers 404)"


def test_an_event_is_dropped_only_for_its_twin_from_the_other_way():
    records = []
    stream = EventStream("http://gw", "k", records.append, instances=[INSTANCE], global_stream=True)
    payload = {
        "event": "messages.update",
        "instance": INSTANCE,
        "data": {"keyId": "3EB0", "status": "READ"},
        "date_time": "2026-11-26T20:00:00.000Z",
    }
    stream.received(f"/{INSTANCE}", dict(payload))
    stream.received(f"/{INSTANCE}", dict(payload))  # the same, again, the same way: an event
    assert len(records) == 2
    stream.received("/", dict(payload))  # their twins on the global stream
    stream.received("/", dict(payload))
    assert len(records) == 2
    stream.received("/", dict(payload))  # a third, with no twin left: an event
    assert len(records) == 3
