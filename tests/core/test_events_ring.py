"""The monitor's memory (a bounded ring, said on screen), its filters and the NDJSON export of
what is filtered."""

from __future__ import annotations

import json
import os
import stat

import pytest

from gateway_tui.core.events.export import export_ndjson
from gateway_tui.core.events.filters import EventFilter
from gateway_tui.core.events.record import GLOBAL, SOCKET, WEBHOOK, from_envelope
from gateway_tui.core.events.ring import EventRing
from gateway_tui.core.text.sanitize import add_secret


def record(
    event="messages.upsert",
    instance="sales-eu",
    jid="4917000001@s.whatsapp.net",
    text="hi",
    via=SOCKET,
):
    data = {
        "key": {"remoteJid": jid, "fromMe": False, "id": "3EB0" + text},
        "pushName": "Ana",
        "message": {"conversation": text},
    }
    payload = {"event": event, "instance": instance, "data": data, "apikey": "INSTANCE-KEY-9"}
    return from_envelope(payload, via=via)


def test_the_ring_keeps_the_newest_and_says_so():
    ring = EventRing(capacity=3)
    for n in range(10):
        ring.add(record(text=f"m{n}"))
    assert len(ring) == 3
    assert [r.data["message"]["conversation"] for r in ring] == ["m7", "m8", "m9"]
    assert ring.total == 10 and ring.dropped == 7
    assert ring.capacity_line() == (
        "3 of the last 3 events kept (10 arrived: 7 dropped from the ring)"
    )
    assert ring.count("MESSAGES_UPSERT") == 10


def test_clearing_forgets_the_events_not_what_arrived():
    ring = EventRing(capacity=5)
    ring.add(record(via=SOCKET))
    ring.add(record(via=GLOBAL))
    ring.add(record(via=WEBHOOK))
    ring.clear()
    assert len(ring) == 0 and ring.dropped == 0
    assert ring.capacity_line() == "0 of the last 5 events kept"
    assert ring.count("MESSAGES_UPSERT") == 3
    assert ring.count("MESSAGES_UPSERT", WEBHOOK) == 1


def test_a_ring_holds_at_least_one():
    with pytest.raises(ValueError):
        EventRing(0)


def test_filters_by_event_instance_chat_and_text():
    events = [
        record(),
        record(event="messages.update"),
        record(instance="support"),
        record(jid="4917000999@s.whatsapp.net"),
        record(text="The Menu"),
    ]
    assert len(list(EventFilter.of(events=["MESSAGES_UPDATE"]).apply(events))) == 1
    assert len(list(EventFilter.of(events=["messages.update"]).apply(events))) == 1
    assert len(list(EventFilter.of(instances=["support"]).apply(events))) == 1
    assert list(EventFilter.of(chat="0999").apply(events)) == [events[3]]
    assert list(EventFilter.of(text="menu").apply(events)) == [events[4]]  # case-insensitive
    assert len(list(EventFilter.of().apply(events))) == 5
    both = EventFilter.of(events=["messages.upsert"], instances=["sales-eu"], text="hi")
    assert len(list(both.apply(events))) == 2  # the chat 0999 one and the first
    assert both.describe() == "event MESSAGES_UPSERT, instance sales-eu, text ~ hi"


def test_text_is_found_in_the_data_too():
    event = record()
    event.data["message"]["extra"] = "deep-needle"
    assert EventFilter.of(text="DEEP-NEEDLE").matches(event)


def test_export_writes_what_is_filtered_as_ndjson_safely(tmp_path):
    add_secret("GLOBAL-KEY-FOR-TEST")
    events = [
        record(text="\x1b]2;title\x07 \x9b2J \u202e fine"),
        record(instance="support", text="other"),
        record(text="has GLOBAL-KEY-FOR-TEST inside"),
    ]
    target = tmp_path / "events.ndjson"
    count = export_ndjson(EventFilter.of(instances=["sales-eu"]).apply(events), target)
    assert count == 2
    raw = target.read_bytes()
    for unsafe in (b"\x1b", b"\xc2\x9b", "\u202e".encode()):
        assert unsafe not in raw
    assert b"INSTANCE-KEY-9" not in raw and b"GLOBAL-KEY-FOR-TEST" not in raw
    lines = [json.loads(line) for line in raw.decode().splitlines()]
    assert [line["instance"] for line in lines] == ["sales-eu", "sales-eu"]
    for line in lines:
        assert {"time", "instance", "event", "data"} <= set(line)
    # JSON readers turn the escapes back into the same text
    assert lines[0]["data"]["message"]["conversation"] == "\x1b]2;title\x07 \x9b2J \u202e fine"
    if os.name != "nt":
        assert stat.S_IMODE(target.stat().st_mode) == 0o600
    with pytest.raises(FileExistsError):
        export_ndjson(events, target)


def test_a_typed_filter_names_its_fields():
    typed = EventFilter.parse(
        "event:messages.upsert,SEND_MESSAGE instance:sales-eu chat:0999 the menu"
    )
    assert typed == EventFilter.of(
        ["messages.upsert", "send.message"], ["sales-eu"], "0999", "the menu"
    )
    assert EventFilter.parse("url:http://x") == EventFilter.of(text="url:http://x")
    assert EventFilter.parse("").empty
