"""Asked for versus arrived: the instance's websocket and webhook settings beside what came."""

from __future__ import annotations

import json
from collections import Counter

from gateway_tui.core.api.dialects.v2 import EVENT_NAMES as V2_EVENTS
from gateway_tui.core.api.lifecycle import EVENT_NAMES, WebhookSettings, WebsocketSettings
from gateway_tui.core.events.coverage import Asked, coverage, headline
from gateway_tui.core.events.record import GLOBAL, SOCKET, WEBHOOK
from tests.support import RECORDINGS


def recorded_answer(path: str) -> dict:
    return json.loads((RECORDINGS / path).read_text())["response_body"]


def rows_by_name(rows):
    return {row.setting: row for row in rows}


def test_ticked_never_seen_and_seen_not_ticked_are_said():
    # What a real 1.7.1 keeps after websocket/set with two events (recorded).
    found = WebsocketSettings.model_validate(
        recorded_answer("v1.7.1-more/045-websocket-find-a-after-set.json")
    )
    seen = Counter({("CONNECTION_UPDATE", SOCKET): 4, ("PRESENCE_UPDATE", SOCKET): 1})
    rows = rows_by_name(coverage(seen, Asked.of(found), None, event_names=EVENT_NAMES))
    assert set(rows) == {"MESSAGES_UPSERT", "CONNECTION_UPDATE", "PRESENCE_UPDATE"}
    assert rows["MESSAGES_UPSERT"].verdict == "ticked for the websocket, none seen yet"
    assert rows["PRESENCE_UPDATE"].verdict == "seen on the websocket but not ticked"
    assert rows["CONNECTION_UPDATE"].verdict == ""
    assert rows["CONNECTION_UPDATE"].socket_seen == 4
    assert rows["CONNECTION_UPDATE"].webhook_ticked is None


def test_the_global_stream_sends_whatever_is_ticked():
    websocket = Asked(enabled=True, events=frozenset({"MESSAGES_UPSERT"}))
    seen = Counter({("MESSAGES_UPSERT", SOCKET): 1, ("INSTANCE_CREATE", GLOBAL): 1})
    rows = rows_by_name(coverage(seen, websocket, None, event_names=V2_EVENTS))
    assert rows["INSTANCE_CREATE"].verdict == ""
    assert rows["INSTANCE_CREATE"].global_seen == 1


def test_an_enabled_list_left_empty_ticks_every_event():
    websocket = Asked(enabled=True, events=frozenset())
    rows = rows_by_name(coverage(Counter(), websocket, None, event_names=EVENT_NAMES))
    assert set(rows) == set(EVENT_NAMES)
    # never sent by a real 1.7.1 although it takes them: no "none seen" for those
    assert rows["APPLICATION_STARTUP"].verdict == ""
    assert rows["CALL"].verdict == "ticked for the websocket, none seen yet"


def test_a_websocket_turned_off_ticks_nothing():
    websocket = Asked(enabled=False, events=frozenset({"MESSAGES_UPSERT"}))
    rows = rows_by_name(coverage(Counter({("MESSAGES_UPSERT", SOCKET): 2}), websocket, None))
    assert rows["MESSAGES_UPSERT"].verdict == "seen on the websocket but not ticked"


def test_webhook_arrivals_are_judged_only_while_listening():
    found = WebhookSettings.model_validate(
        recorded_answer("v1.7.1-more/034-webhook-find-a-after-valid.json")
    )
    webhook = Asked.of(found)
    assert webhook.where == "http://127.0.0.1:9/hook"
    ticked = "CONNECTION_UPDATE"  # one of the three the recording keeps
    quiet = rows_by_name(coverage(Counter(), None, webhook, event_names=EVENT_NAMES))
    assert quiet[ticked].verdict == ""  # nobody here receives the webhook: nothing to say
    listening = coverage(Counter(), None, webhook, event_names=EVENT_NAMES, listening=True)
    assert rows_by_name(listening)[ticked].verdict == "ticked for the webhook, none arrived yet"
    assert "PRESENCE_UPDATE" not in webhook.events
    extra = Counter({("PRESENCE_UPDATE", WEBHOOK): 1, ("MESSAGES_UPSERT", WEBHOOK): 2})
    rows = rows_by_name(coverage(extra, None, webhook, event_names=EVENT_NAMES, listening=True))
    assert rows["PRESENCE_UPDATE"].verdict == "arrived by webhook but not ticked"
    assert rows["MESSAGES_UPSERT"].verdict == ""
    assert rows["MESSAGES_UPSERT"].webhook_seen == 2


def test_headline_says_each_setting():
    never = WebsocketSettings.model_validate({})
    lines = headline(
        Asked.of(never),
        Asked(enabled=True, events=frozenset(), where="http://h/x", by_events=True),
    )
    assert lines == [
        "websocket: never set on this instance",
        "webhook: on, every event → http://h/x (one URL per event)",
    ]
    assert headline(None, Asked(enabled=False, events=frozenset())) == [
        "websocket: settings not read",
        "webhook: off (nothing is sent this way)",
    ]
