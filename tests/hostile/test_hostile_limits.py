"""Hard limits on what a gateway can make the client do: an endless body, a gzip bomb, a server
that sends one byte a second, a send that stalls (given up with esc, never retried), a list with
one unreadable item, and a huge list validated off the event loop."""

from __future__ import annotations

import asyncio
import gzip
import json
from collections.abc import AsyncIterator

import httpx
import pytest

from gateway_tui.core.api import lists
from gateway_tui.core.api.client import GatewayClient
from gateway_tui.core.api.errors import GatewayTimeout, InvalidResponse
from gateway_tui.core.api.lists import ListReader, unreadable_of
from gateway_tui.core.api.models import InstanceEnvelope
from gateway_tui.core.draft import Draft, DraftRow, DraftSection
from gateway_tui.core.files.drafts import ComposeStore
from gateway_tui.tui.screens.composer import ComposerScreen
from gateway_tui.tui.screens.confirm import ConfirmScreen
from tests.support import make_app, make_config, notices, screen_text, wait_for

MB = 1024 * 1024
CHUNK = 64 * 1024
# Each test also bounds itself, so the old code fails instead of hanging the suite.
GENEROUS = 60


def instance(name: str, **fields) -> dict:
    return {"instance": {"instanceName": name, "status": "open", **fields}}


class EndlessBody(httpx.AsyncByteStream):
    """A chunked body that never ends (capped at 256 MB so a failing test cannot eat the host)."""

    def __init__(self) -> None:
        self.sent = 0

    async def __aiter__(self) -> AsyncIterator[bytes]:
        chunk = b"[" + b'{"instance": {"instanceName": "x"}},' * (CHUNK // 36)
        while self.sent < 256 * MB:
            self.sent += len(chunk)
            yield chunk


async def test_an_endless_body_stops_at_the_size_limit():
    body = EndlessBody()
    transport = httpx.MockTransport(lambda request: httpx.Response(200, stream=body))
    client = GatewayClient("http://gw.test", "key1234", transport=transport, max_response_bytes=MB)
    async with asyncio.timeout(GENEROUS), client:
        with pytest.raises(InvalidResponse) as caught:
            await client.instances.fetch()
    assert "larger than 1 MB" in " ".join(caught.value.messages)
    assert body.sent <= MB + 2 * CHUNK  # it stopped reading, instead of growing without end


async def test_a_gzip_bomb_is_counted_decompressed():
    bomb = gzip.compress(b" " * (200 * MB), compresslevel=9)  # ~200 KB on the wire
    assert len(bomb) < MB

    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=bomb, headers={"content-encoding": "gzip"})

    transport = httpx.MockTransport(answer)
    client = GatewayClient(
        "http://gw.test", "key1234", transport=transport, max_response_bytes=10 * MB
    )
    async with client:
        with pytest.raises(InvalidResponse) as caught:
            await client.instances.fetch()
    assert "larger than 10 MB" in " ".join(caught.value.messages)


async def _trickle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """An HTTP server that answers one byte at a time, forever (each read is quick)."""
    await reader.readuntil(b"\r\n\r\n")
    writer.write(b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n")
    writer.write(b"transfer-encoding: chunked\r\n\r\n")
    try:
        while True:
            writer.write(b"1\r\n \r\n")
            await writer.drain()
            await asyncio.sleep(0.05)
    except (ConnectionError, asyncio.CancelledError):
        writer.close()


@pytest.mark.parametrize("write", [False, True])
async def test_request_timeout_is_a_deadline_for_the_whole_call(write):
    server = await asyncio.start_server(_trickle, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    client = GatewayClient(f"http://127.0.0.1:{port}", "key1234", timeout=0.5)
    try:
        async with asyncio.timeout(GENEROUS), client:
            with pytest.raises(GatewayTimeout) as caught:
                if write:
                    await client.instances.delete("sales-eu")
                else:
                    await client.instances.fetch()
    finally:
        server.close()
    assert caught.value.outcome_unknown is write  # a write may have happened: it says so


def test_one_unreadable_instance_is_skipped_and_counted():
    reader = ListReader(InstanceEnvelope, lambda envelope: envelope.instance)
    good = [instance("a"), instance("b", profileName="Bee")]
    for bad in (instance("c", profileName=12), instance("\ud800")):
        body = json.dumps([good[0], bad, good[1]]).encode()  # "\ud800" as a JSON escape
        items = reader.read(body)
        assert [i.instance_name for i in items] == ["a", "b"]
        (reason,) = unreadable_of(items)
        assert reason.startswith("item 2")


async def test_the_instances_screen_says_how_many_were_skipped_and_d_says_why(demo_server):
    demo_server.state.instances["support"].profile_name = 12  # served as "profileName": 12
    app = make_app(make_config(demo_server))
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        await pilot.pause()
        # Named by the row's own raw name (issue 29): not only counted.
        assert "1 instance could not be read (support) — d shows why" in screen_text(app)
        assert len(app.state.instances.value) == len(demo_server.state.instances) - 1
        assert "sales-eu" in screen_text(app)
        await pilot.press("d")
        await pilot.pause()
        assert any("item 2 (support)" in n and "profileName" in n for n in notices(app))


async def test_a_huge_list_is_validated_while_the_event_loop_keeps_running(monkeypatch):
    monkeypatch.setattr(lists, "OFF_LOOP_BYTES", 1024)
    body = json.dumps([instance(f"i{n:05d}", profileName="p" * 40) for n in range(30_000)])
    reader = ListReader(InstanceEnvelope, lambda envelope: envelope.instance)
    ticks = 0
    done = False

    async def ticker() -> None:
        nonlocal ticks
        while not done:
            ticks += 1
            await asyncio.sleep(0)

    task = asyncio.create_task(ticker())
    await asyncio.sleep(0)
    before = ticks
    items = await reader.read_async(body.encode())
    done = True
    await task
    assert len(items) == 30_000 and items[-1].instance_name == "i29999"
    assert ticks - before > 1  # the loop ran while the list was read (never on the old path)
    assert list(reader.read(body.encode())) == list(items)


def test_item_texts_splits_across_pieces(monkeypatch):
    monkeypatch.setattr(lists, "_PIECE", 7)
    body = json.dumps([{"a": "ü" * 5}, {"b": [1, 2, {"c": "]"}]}, {}]).encode()
    texts = list(lists.item_texts(body))
    assert [json.loads(t) for t in texts] == json.loads(body)
    with pytest.raises(ValueError):
        list(lists.item_texts(b'{"not": "a list"}'))
    with pytest.raises(ValueError):
        list(lists.item_texts(b'[{"a": 1}, {"b": '))


async def test_a_stalled_send_can_be_given_up_and_is_never_retried(demo_server):
    demo_server.faults.add("stall", method="POST", path_prefix="/message/sendList/", seconds=60)
    config = make_config(demo_server, request_timeout=120.0)
    app = make_app(config)
    draft = Draft(
        recipient="4915112340001",
        title="Lunch",
        description="Pick one",
        button_text="Menu",
        sections=[DraftSection("Food", [DraftRow("Pizza")])],
    )
    ComposeStore(demo_server.url, "sales-eu").save_draft(draft)
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        app.push_screen(ComposerScreen("sales-eu"))
        await pilot.pause()
        screen = app.screen
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: screen.sending)
        await wait_for(pilot, lambda: len(demo_server.state.writes) == 1)
        await pilot.press("escape")  # used to be refused while sending
        await wait_for(pilot, lambda: "outcome unknown — check before retrying" in screen_text(app))
        assert app.screen is screen and not screen.sending
        await wait_for(pilot, lambda: any("Given up" in (c.error or "") for c in app.state.calls))
        await pilot.press("ctrl+s")  # the next send asks first
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("n")
        await pilot.pause()
        assert len(demo_server.state.writes) == 1  # never sent again on its own
        await pilot.press("escape")  # and esc now goes back
        await wait_for(pilot, lambda: not isinstance(app.screen, ComposerScreen))


async def test_one_unreadable_group_is_skipped_and_counted():
    groups = [
        {"id": "120363000000000001@g.us", "subject": "Good", "size": 3},
        {"id": "120363000000000002@g.us", "subject": ["not", "text"]},
        {"id": "120363000000000003@g.us", "subject": "Also good"},
    ]
    transport = httpx.MockTransport(lambda request: httpx.Response(200, json=groups))
    async with GatewayClient("http://gw.test", "key1234", transport=transport) as client:
        found = await client.groups.fetch_all("sales-eu")
    assert [g.subject for g in found] == ["Good", "Also good"]
    assert unreadable_of(found)[0].startswith("item 2: subject")


async def test_one_unreadable_participant_is_skipped_and_counted():
    answer = {
        "participants": [
            {"id": "4915112340001@s.whatsapp.net", "admin": "superadmin"},
            {"id": "4915112340002@s.whatsapp.net\ud800", "admin": None},
            {"id": "4915112340003@s.whatsapp.net", "admin": None},
        ]
    }
    body = json.dumps(answer).encode()  # the lone surrogate as a JSON escape
    transport = httpx.MockTransport(lambda request: httpx.Response(200, content=body))
    async with GatewayClient("http://gw.test", "key1234", transport=transport) as client:
        found = await client.groups.participants("sales-eu", "120363000000000001@g.us")
    assert [p.id for p in found] == ["4915112340001@s.whatsapp.net", "4915112340003@s.whatsapp.net"]
    assert "lone UTF-16 surrogate" in unreadable_of(found)[0]
    with pytest.raises(InvalidResponse):  # none readable: the answer as a whole is wrong
        bad = json.dumps({"participants": [{"admin": "admin"}]}).encode()
        only_bad = httpx.MockTransport(lambda request: httpx.Response(200, content=bad))
        async with GatewayClient("http://gw.test", "key1234", transport=only_bad) as client:
            await client.groups.participants("sales-eu", "120363000000000001@g.us")
