"""The chats' "new" markers survive a restart (issue 29): kept per gateway, instance and chat
in the app's data dir, written atomically; a chat opened clears its marker on disk too; a
damaged file loses nothing else."""

from __future__ import annotations

import json
import time

import httpx

from gateway_tui.core.chat_book import ChatBook
from gateway_tui.core.files.config import load_config
from gateway_tui.core.files.new_marks import load_marks, marks_path
from gateway_tui.core.live import LiveEvent
from gateway_tui.core.session import GatewaySession
from gateway_tui.core.state import Loadable

JID = "4915112340001@s.whatsapp.net"
OTHER = "5511912345678@s.whatsapp.net"


def _session(url: str = "http://gw-a.test") -> GatewaySession:
    refuse = httpx.MockTransport(lambda request: httpx.Response(500))
    session = GatewaySession.open(load_config(url=url, api_key="KEY"), transport=refuse)
    for instance in ("sales-eu", "support"):  # their chats lists were read
        session.state.chat_books[instance] = Loadable(ChatBook.build([], [], []))
    return session


def _incoming(instance: str, jid: str, number: int) -> LiveEvent:
    data = {
        "key": {"remoteJid": jid, "fromMe": False, "id": f"IN-{jid[:4]}-{number}"},
        "message": {"conversation": f"hello {number}"},
        "messageTimestamp": int(time.time()),
    }
    return LiveEvent("messages.upsert", instance, data)


async def test_markers_come_back_after_a_restart_per_gateway_instance_and_chat() -> None:
    first = _session()
    first.actions.chats.apply_live(
        [_incoming("sales-eu", JID, n) for n in range(3)] + [_incoming("support", OTHER, 9)]
    )
    await first.aclose()  # quitting writes what the last events left
    assert json.loads(marks_path().read_text())["version"] == 1
    again = _session()
    assert again.state.unread == {"sales-eu": {JID: 3}, "support": {OTHER: 1}}
    assert _session("http://gw-b.test").state.unread == {}  # another gateway has its own
    # Opening the chat clears its marker, on disk at once.
    again.actions.chats.mark_seen("sales-eu", JID)
    assert load_marks("http://gw-a.test") == {"support": {OTHER: 1}}
    await again.aclose()


async def test_a_damaged_marker_file_is_no_marker_and_no_crash() -> None:
    marks_path().parent.mkdir(parents=True, exist_ok=True)
    marks_path().write_text('{"version": 1, "gateways": {"http://gw-a.test": {"x": {"j": "3"}')
    assert _session().state.unread == {}
    marks_path().write_text(
        json.dumps({"gateways": {"http://gw-a.test": {"x": {"j": 2, "k": -1, "l": True}}}})
    )
    assert _session().state.unread == {"x": {"j": 2}}


async def test_the_timed_writes_during_a_flood_leave_the_app_loop_and_keep_their_order(
    monkeypatch,
) -> None:
    """A write reads and rewrites the whole file (O(chats marked)): during a flood over
    10,000 chats that held the app's loop for seconds. The timed writes go to a thread; the
    last, forced one (quitting) waits for it, so the newest marks are what is kept."""
    import threading

    from gateway_tui.core.files import new_marks
    from gateway_tui.core.services import chats

    written_on: list[str] = []
    write = new_marks.save_marks

    def watched(url, marks):
        written_on.append(threading.current_thread().name)
        write(url, marks)

    monkeypatch.setattr(new_marks, "save_marks", watched)
    monkeypatch.setattr(chats, "MARKS_EVERY", 0.0)  # a write at every batch
    session = _session()
    for batch in range(5):
        session.actions.chats.apply_live([_incoming("sales-eu", JID, batch)])
    await session.aclose()
    assert written_on[0] == "new-marks"  # the first batch's write: not on the app's loop
    assert written_on[-1] == threading.current_thread().name  # quitting: at once, here
    assert load_marks("http://gw-a.test") == {"sales-eu": {JID: 5}}
