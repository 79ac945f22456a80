"""The demo posts what it emits to an instance's webhook, as a real server does (both lines).

A receiver on loopback (tests/demo/webhook_receiver.py) records every POST.
"""

from __future__ import annotations

import time

import httpx
import pytest

from gateway_tui.demo.server import DemoServer
from gateway_tui.demo.webhooks import event_path, target
from tests.demo.webhook_receiver import Receiver, receiver, set_webhook
from tests.support import wait_in_thread

__all__ = ["receiver"]  # the fixture


def _open_instance(server: DemoServer) -> str:
    return next(name for name, i in server.state.instances.items() if i.status == "open")


def _person_chat(server: DemoServer, name: str) -> str:
    instance = server.state.instances[name]
    return next(jid for jid in instance.chats if jid.endswith("@s.whatsapp.net"))


@pytest.mark.parametrize("version", ["1.7.1", "2.3.6", "2.3.7"])
def test_an_incoming_message_is_posted_with_the_real_body(version: str, receiver) -> None:
    with DemoServer(api_version=version, instances=3) as server:
        name = _open_instance(server)
        set_webhook(server, name, receiver.url, ["MESSAGES_UPSERT"], by_events=False)
        server.write(name, _person_chat(server, name), "to the webhook")
        wait_in_thread(lambda: receiver.posts, "the webhook POST")
        instance = server.state.instances[name]
    (post,) = receiver.posts
    body = post["body"]
    assert post["path"] == "/hook"
    assert set(body) == {
        "event",
        "instance",
        "data",
        "destination",
        "date_time",
        "sender",
        "server_url",
        "apikey",
    }
    assert (body["event"], body["instance"], body["destination"]) == (
        "messages.upsert",
        name,
        receiver.url,
    )
    assert body["data"]["message"] == {"conversation": "to the webhook"}
    assert body["sender"] == instance.owner and body["server_url"] == server.url
    # 2.3.7 added the headers; 2.3.6 and 1.7.1 have none of them.
    headers = {k.lower(): v for k, v in post["headers"].items()}
    if version == "2.3.7":
        assert headers["x-instance-id"] == instance.instance_id
        assert headers["x-instance-name"] == name
        assert headers["x-event-type"] == "messages.upsert"
        assert abs(int(headers["x-timestamp"]) - time.time()) < 600
    else:
        assert not {h for h in headers if h.startswith("x-instance") or h == "x-event-type"}


@pytest.mark.parametrize("version", ["1.7.1", "2.3.7"])
def test_by_events_posts_to_the_events_own_url_and_only_ticked_events(
    version: str, receiver
) -> None:
    with DemoServer(api_version=version, instances=3) as server:
        name = _open_instance(server)
        set_webhook(server, name, receiver.url, ["SEND_MESSAGE"], by_events=True)
        number = _person_chat(server, name).split("@")[0]
        body = (
            {"number": number, "text": "hello"}
            if version.startswith("2")
            else {"number": number, "textMessage": {"text": "hello"}}
        )
        sent = httpx.post(
            f"{server.url}/message/sendText/{name}", json=body, headers={"apikey": server.api_key}
        )
        assert sent.status_code == 201
        # Not ticked: an incoming message (messages.upsert); the webhook is chosen as the
        # event is emitted, so once write() returns its chance has passed.
        server.write(name, _person_chat(server, name), "not ticked: messages.upsert")
        sender = server.events.webhooks
        wait_in_thread(lambda: receiver.posts and not sender.pending, "the send.message POST")
    assert receiver.events() == ["send.message"]
    assert [entry.event for entry in sender.log] == ["send.message"]
    assert receiver.posts[0]["path"] == "/hook/send-message"


def test_a_disabled_webhook_or_a_url_that_is_no_http_gets_nothing() -> None:
    stored = {"enabled": True, "url": "http://h/x", "events": ["MESSAGES_UPSERT"]}
    assert target(stored, "messages.upsert") == "http://h/x"
    assert target(stored | {"webhookByEvents": True}, "qrcode.updated") is None
    assert target(stored | {"enabled": False}, "messages.upsert") is None
    assert target(stored | {"url": "not a url"}, "messages.upsert") is None
    by_events = stored | {"webhook_by_events": True, "events": ["MESSAGING_HISTORY_SET"]}
    assert target(by_events, "messaging-history.set") == "http://h/x/messaging-history-set"
    assert event_path("connection.update") == "connection-update"


def test_a_slow_receiver_does_not_hold_the_demo_and_times_out() -> None:
    slow = Receiver(delay=60.0)
    try:
        with DemoServer(api_version="2.3.7", instances=3, webhook_timeout=0.5) as server:
            name = _open_instance(server)
            set_webhook(server, name, slow.url, ["MESSAGES_UPSERT"], by_events=False)
            jid = _person_chat(server, name)
            for number in range(3):
                server.write(name, jid, f"slow {number}")  # returns although nobody answers
            answer = httpx.get(
                f"{server.url}/instance/fetchInstances", headers={"apikey": server.api_key}
            )
            assert answer.status_code == 200
            sender = server.events.webhooks
            wait_in_thread(lambda: len(sender.log) == 3, "three timed-out deliveries")
            assert {entry.error for entry in sender.log} == {"ReadTimeout"}
            assert sender.pending == 0
    finally:
        slow.close()


def test_stopping_the_demo_cancels_the_posts_still_waiting() -> None:
    slow = Receiver(delay=120.0)
    try:
        server = DemoServer(api_version="2.3.7", instances=3, webhook_timeout=120.0).start()
        try:
            name = _open_instance(server)
            set_webhook(server, name, slow.url, ["MESSAGES_UPSERT"], by_events=False)
            server.write(name, _person_chat(server, name), "never answered")
            sender = server.events.webhooks
            wait_in_thread(lambda: slow.posts, "the POST reached the receiver")
            assert sender.pending == 1
        finally:
            server.stop()
        assert sender.pending == 0 and not server.running
    finally:
        slow.close()
