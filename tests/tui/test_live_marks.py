"""Live delivery marks and connection changes: messages.update moves a bubble's mark without a
status read; connection.update (in the shape both recorded lines emit) moves an instance's row;
qrcode.updated puts a new code on a connect screen waiting for one."""

from __future__ import annotations

import json

import httpx

from gateway_tui.core.live import LiveEvent, _event_from
from gateway_tui.demo.lifecycle import of
from gateway_tui.demo.server import DemoServer
from gateway_tui.tui.screens.messages import MessagesScreen
from gateway_tui.tui.screens.pairing import PairingScreen
from gateway_tui.tui.widgets.qr import QRCode
from tests.data import newest_person_chat
from tests.navigation import open_conversation
from tests.recorded.gateway import recordings_dir
from tests.support import (
    make_app,
    make_config,
    screen_text,
    wait_for,
)

INSTANCE = "sales-eu"
SIZE = (140, 40)


def status_reads(app) -> int:
    return sum(1 for e in app.state.calls if e.path.startswith("/chat/findStatusMessage/"))


async def test_delivery_marks_come_over_the_socket_and_move_the_bubbles_mark():
    with DemoServer() as server:
        jid = newest_person_chat(server, INSTANCE)
        app = make_app(make_config(server))
        async with app.run_test(size=SIZE) as pilot:
            screen = await open_conversation(app, pilot, jid, INSTANCE)
            await wait_for(pilot, lambda: app.live_for(INSTANCE))
            reads = status_reads(app)
            # Another client of the gateway sends: send.message, then the marks as they come.
            async with httpx.AsyncClient(base_url=server.url) as http:
                answer = await http.post(
                    f"/message/sendText/{INSTANCE}",
                    headers={"apikey": server.api_key},
                    json={"number": jid.split("@")[0], "textMessage": {"text": "tracking 4711"}},
                )
            sent = answer.json()["key"]["id"]
            statuses = app.actions.chats.statuses_of(INSTANCE)
            await wait_for(pilot, lambda: screen.view.find(sent) is not None)
            await wait_for(pilot, lambda: sent in statuses)
            await wait_for(pilot, lambda: statuses[sent].status == "DELIVERY_ACK")
            await wait_for(pilot, lambda: screen.view.statuses[sent].status == "DELIVERY_ACK")
            await wait_for(pilot, lambda: statuses[sent].status == "READ")
            await pilot.pause()
            assert screen.view.statuses[sent].status == "READ"
            assert "tracking 4711" in screen_text(app)
            assert status_reads(app) == reads  # brought by the socket, not read again


def connects(app) -> int:
    return sum(1 for e in app.state.calls if e.path.startswith("/instance/connect/"))


def _recorded_connection_updates(line: str) -> list[dict]:
    name = f"v{line}-more/events-001-lifecycle-qrcode-false.json"
    stream = json.loads((recordings_dir() / name).read_text())
    return [e["data"] for e in stream["events"] if e["event"] == "connection.update"]


async def test_connection_updates_of_both_recorded_lines_move_the_instance_row():
    with DemoServer() as server:
        app = make_app(make_config(server))
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: bool(app.state.instances.value))
            for line in ("1.7.1", "2.3.6"):
                for payload in _recorded_connection_updates(line)[:2]:
                    # As it arrives: renamed to an instance of the demo, its key dropped.
                    payload = {**payload, "instance": INSTANCE}
                    payload["data"] = {**payload["data"], "instance": INSTANCE}
                    event = _event_from(f"/{INSTANCE}", payload)
                    assert isinstance(event, LiveEvent) and "apikey" not in payload
                    app.actions.chats.apply_live([event])
                    await pilot.pause()
                    row = app.state.instance(INSTANCE)
                    assert row is not None and row.status == payload["data"]["state"], line


async def test_a_new_qr_code_pushed_over_the_socket_shows_on_the_connect_screen():
    with DemoServer() as server:
        # No automatic scan 6 s in (it ends the pairing): a busy machine takes longer than that.
        server.state.auto_scan_seconds = None
        app = make_app(make_config(server))
        name = "onboarding"  # closed in the demo's world: its connect screen shows a QR
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: bool(app.state.instances.value))
            screen = PairingScreen(name)
            app.push_screen(screen)
            await wait_for(pilot, lambda: screen.is_mounted)
            pairing = app.actions.lifecycle.pairing_of(name)  # the screen's, once mounted
            await wait_for(pilot, lambda: pairing.value is not None and bool(pairing.value.code))
            await wait_for(pilot, lambda: app.live_for(name))
            first = pairing.value.code
            asked = connects(app)
            # The gateway issues the next code (as a real one does every ~20 s) and pushes it.
            pairings = of(server.state).pairings
            pairings[name].issued = 0.0
            async with httpx.AsyncClient(base_url=server.url) as http:
                await http.get(f"/instance/connect/{name}", headers={"apikey": server.api_key})
            # Only that request asked; the app learns the code from qrcode.updated.
            await wait_for(pilot, lambda: pairing.value.code != first)
            assert pairing.value.code == pairings[name].code
            assert connects(app) == asked  # pushed, not asked for
            await wait_for(pilot, lambda: screen.query_one(QRCode)._code == pairings[name].code)


async def test_websocket_events_off_are_told_once_with_the_keys_that_turn_them_on():
    """The app reads an instance's websocket settings (never writes them): off, it says so once
    and names the keys, asked of the bindings; on the websocket screen one key enables it with
    the events live updates need ticked, and nothing is written until the user writes it."""
    from textual.widgets import Checkbox, SelectionList

    from gateway_tui.core.live import LIVE_EVENTS
    from gateway_tui.tui.screens.instance import InstanceScreen
    from gateway_tui.tui.screens.webhook import HookSettingsScreen
    from tests.support import notices

    with DemoServer() as server:
        async with httpx.AsyncClient(base_url=server.url) as http:
            answer = await http.post(
                f"/websocket/set/{INSTANCE}",
                headers={"apikey": server.api_key},
                json={"enabled": True, "events": ["CONNECTION_UPDATE", "MESSAGES_UPSERT"]},
            )
            assert answer.status_code == 201
        jid = newest_person_chat(server, INSTANCE)
        app = make_app(make_config(server))
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: bool(app.state.instances.value))
            for _ in range(2):
                app.push_screen(MessagesScreen(INSTANCE, jid))
                await wait_for(pilot, lambda: any("Live updates from" in n for n in notices(app)))
                app.pop_screen()
                await pilot.pause()
            told = [n for n in notices(app) if "Live updates from" in n]
            assert len(told) == 1, told
            # Partial, not none (issue 29): what comes and what does not, and what is polled.
            assert not [n for n in notices(app) if "No live updates" in n]
            assert f"Live updates from {INSTANCE} are partial" in told[0]
            assert "sends new messages, connection changes, but not" in told[0]
            assert "delivery marks (MESSAGES_UPDATE)" in told[0]
            assert "the conversation reads delivery marks again" in told[0]
            assert app.live_messages_for(INSTANCE) and not app.live_marks_for(INSTANCE)
            screen = app.screen
            websocket_key = screen.key_on(InstanceScreen, "instance.websocket")
            live_key = screen.key_on(HookSettingsScreen, "hooks.live_events")
            assert websocket_key == "W" and f"{websocket_key} on the instance" in told[0]
            assert f"there {live_key} turns it on" in told[0]
            assert "SEND_MESSAGE" in told[0] and "MESSAGES_UPDATE" in told[0]
            # The websocket screen: one key ticks what live updates need; nothing is written.
            hooks = HookSettingsScreen(INSTANCE, "websocket")
            app.push_screen(hooks)
            await wait_for(pilot, lambda: hooks.is_mounted and hooks._filled)
            await pilot.press("ctrl+l")
            await pilot.pause()
            assert hooks.query_one("#hooks-enabled", Checkbox).value is True
            selected = set(hooks.query_one("#hooks-events", SelectionList).selected)
            assert set(LIVE_EVENTS) <= selected and "CONNECTION_UPDATE" in selected
            assert not [c for c in app.state.calls if c.path.startswith("/websocket/set/")]


async def test_an_instance_a_live_event_opens_is_shown_open_and_a_failed_profile_read_said():
    """connection.update open for a closed instance: the row turns open, and the re-read of
    its new profile, when it fails, is said (it was dropped: nobody else asked for it)."""
    import asyncio

    from tests.support import PROCESS_LIMIT, notices

    name = "onboarding"  # closed in the demo's world
    with DemoServer() as server:
        app = make_app(make_config(server))
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: bool(app.state.instances.value))
            app.follow_live(name)  # as its chats or its pairing screen asks
            await wait_for(pilot, lambda: app.live_for(name))
            rule = server.faults.add("status", status=500, path_prefix="/instance/fetchInstances")

            async def emit() -> None:
                data = {"instance": name, "state": "open", "statusReason": 200}
                server.events.emit(server.state.instances[name], "connection.update", data)

            await asyncio.to_thread(lambda: server.on_loop(emit()).result(PROCESS_LIMIT))
            await wait_for(
                pilot, lambda: any("after it connected failed" in n for n in notices(app))
            )
            row = app.state.instance(name)
            assert row is not None and row.status == "open"  # what the event said
            assert rule.hits >= 1
