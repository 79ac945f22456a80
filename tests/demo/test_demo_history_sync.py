"""A history sync after pairing: the events and payloads of each release, and one that stops
early. Watched through the instance's webhook (tests/demo/webhook_receiver.py)."""

from __future__ import annotations

import httpx
import pytest

from gateway_tui.demo import lifecycle
from gateway_tui.demo.server import DemoServer
from tests.demo.webhook_receiver import receiver, set_webhook
from tests.support import wait_in_thread

__all__ = ["receiver"]  # the fixture

HISTORY = ["CHATS_SET", "MESSAGES_SET", "MESSAGING_HISTORY_SET"]


def _pair(server: DemoServer, name: str) -> None:
    """Connect ``name`` (a QR is shown) and let the phone scan it."""
    answer = httpx.get(f"{server.url}/instance/connect/{name}", headers={"apikey": server.api_key})
    assert answer.status_code == 200 and "code" in answer.json()
    assert lifecycle.scan(server.state, name)


def _closed(server: DemoServer) -> str:
    """A new closed instance (its chats come once it is open)."""
    server.state.create_instance("history-1", None).status = "close"
    return "history-1"


@pytest.mark.parametrize("version", ["2.3.6", "2.3.7", "2.4.0"])
def test_pairing_sends_the_history_in_batches_as_the_release_does(version: str, receiver) -> None:
    with DemoServer(api_version=version, instances=4, history_sync=True) as server:
        server.state.auto_scan_seconds = None
        name = _closed(server)
        ticked = HISTORY if version == "2.4.0" else HISTORY[:2]  # refused before 2.4
        set_webhook(server, name, receiver.url, ticked, by_events=False)
        _pair(server, name)
        per_batch = 3 if version == "2.4.0" else 2
        wait_in_thread(lambda: len(receiver.posts) >= 4 * per_batch, "four batches")
        chats = len(server.state.instances[name].chats)
    bodies = [post["body"] for post in receiver.posts]
    sets = [body for body in bodies if body["event"] == "messages.set"]
    assert len(sets) == 4
    assert all(isinstance(body["data"], list) for body in sets)
    chat_sets = [body for body in bodies if body["event"] == "chats.set"]
    assert sum(len(body["data"]) for body in chat_sets) == chats
    assert set(chat_sets[0]["data"][0]) == {"remoteJid", "instanceId", "name"}
    if version == "2.3.6":
        assert all("progress" not in body and "isLatest" not in body for body in sets)
    else:
        # 2.3.7: at the payload's top level, beside event/instance/data.
        assert sorted(body["progress"] for body in sets) == [25, 50, 75, 100]
        assert [body["isLatest"] for body in sorted(sets, key=lambda b: b["progress"])] == [
            False,
            False,
            False,
            True,
        ]
    history = [body["data"] for body in bodies if body["event"] == "messaging-history.set"]
    if version == "2.4.0":
        assert len(history) == 4
        assert set(history[0]) == {
            "messageCount",
            "chatCount",
            "contactCount",
            "progress",
            "isLatest",
        }
        assert sum(item["chatCount"] for item in history) == chats
        assert sum(item["messageCount"] for item in history) == sum(
            len(body["data"]) for body in sets
        )
    else:
        assert history == []


def test_a_sync_that_stops_early_never_says_it_is_the_latest(receiver) -> None:
    with DemoServer(api_version="2.3.7", instances=4, history_stop_at=50) as server:
        server.state.auto_scan_seconds = None
        name = _closed(server)
        set_webhook(server, name, receiver.url, ["MESSAGES_SET"], by_events=False)
        _pair(server, name)
        wait_in_thread(lambda: len(receiver.posts) >= 2, "two batches")
        # A marker: a sync started by hand afterwards; its batches come after the first's.
        assert server.history_sync(name, batches=1) == 1
        wait_in_thread(lambda: len(receiver.posts) >= 3, "the marker batch")
    progress = [post["body"]["progress"] for post in receiver.posts]
    assert progress == [25, 50, 100]  # stopped at 50 %, then the marker's one batch
    assert [post["body"]["isLatest"] for post in receiver.posts[:2]] == [False, False]
