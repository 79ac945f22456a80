"""Event records and their one-line summaries, from the recorded streams of both lines and the
payload shapes the gateway sends: never a key, never a control sequence."""

from __future__ import annotations

import json

import pytest

from gateway_tui.core.events.export import ndjson_line
from gateway_tui.core.events.record import (
    GLOBAL,
    SOCKET,
    by_events_path,
    from_envelope,
    setting_name,
)
from gateway_tui.core.events.summary import chat_of, summarize
from gateway_tui.core.text.sanitize import MASK, is_safe
from tests.support import RECORDINGS

CLIENT_EVENTS = {"connect", "connect_error", "disconnect"}


def recorded_events() -> list[tuple[str, dict]]:
    found = []
    for path in sorted(RECORDINGS.glob("*/events-*.json")):
        for event in json.loads(path.read_text())["events"]:
            if event["event"] not in CLIENT_EVENTS:
                found.append((f"{path.parent.name}/{path.name}", event))
    return found


RECORDED = recorded_events()


def test_the_recorded_streams_are_there():
    lines = {name.split("/")[0] for name, _ in RECORDED}
    assert {"v1.7.1-more", "v2.3.6-more", "v2.3.7-more"} <= lines
    assert len(RECORDED) > 100


@pytest.mark.parametrize(
    "where,event", RECORDED[::7], ids=lambda v: v if isinstance(v, str) else None
)
def test_every_recorded_event_becomes_a_record_without_its_key(where, event):
    key = event["data"]["apikey"]
    via = GLOBAL if event["namespace"] == "/" else SOCKET
    record = from_envelope(dict(event["data"]), via=via, namespace=event["namespace"])
    assert record is not None
    assert record.event == event["event"]
    assert record.instance == event["data"]["instance"]
    assert record.sent_at == event["data"]["date_time"]
    line = ndjson_line(record)
    assert key not in line and "apikey" not in line
    assert json.loads(line)["data"] == event["data"]["data"]
    summary = summarize(record)
    assert summary and is_safe(summary)


def _recorded(name: str) -> dict:
    return next(dict(e["data"]) for _, e in RECORDED if e["event"] == name)


@pytest.mark.parametrize(
    "event,expected",
    [
        ("connection.update", "state connecting (200)"),
        ("status.instance", "status closed (401)"),
        ("instance.create", "created ws-1"),
        ("instance.delete", "deleted ws-1"),
        ("logout.instance", "the instance was logged out"),
        ("remove.instance", "the instance was removed"),
    ],
)
def test_recorded_lifecycle_events_are_told_in_words(event, expected):
    assert summarize(from_envelope(_recorded(event))) == expected


def envelope(event: str, data, **extra) -> dict:
    return {"event": event, "instance": "sales-eu", "data": data, "apikey": "K-1234", **extra}


def upsert(text="hello", *, from_me=False, push_name="Ana", participant=None, jid=None):
    jid = jid or ("120363@g.us" if participant else "4917000001@s.whatsapp.net")
    key = {"remoteJid": jid, "fromMe": from_me, "id": "3EB0AA"}
    data = {"key": key, "pushName": push_name, "message": {"conversation": text}}
    if participant:
        key["participant"] = participant
    data["messageType"] = "conversation"
    return data


def test_a_message_says_chat_sender_type_and_text():
    line = summarize(from_envelope(envelope("messages.upsert", upsert())))
    assert line == "4917000001@s.whatsapp.net · Ana · conversation: hello"
    mine = summarize(from_envelope(envelope("send.message", upsert(from_me=True, push_name=""))))
    assert mine == "4917000001@s.whatsapp.net · me · conversation: hello"
    member = upsert(participant="4917000002@s.whatsapp.net", push_name="Bo")
    assert "120363@g.us · Bo 4917000002@s.whatsapp.net" in summarize(
        from_envelope(envelope("messages.upsert", member))
    )


def test_a_media_message_says_its_kind():
    data = upsert()
    data["message"] = {"imageMessage": {"caption": "the menu", "url": "https://x"}}
    data["messageType"] = "imageMessage"
    line = summarize(from_envelope(envelope("messages.upsert", data)))
    assert "imageMessage" in line and "the menu" in line


@pytest.mark.parametrize(
    "data",
    [
        # 1.7.1: the store's row
        {
            "id": "3EB0AA",
            "remoteJid": "4917000001@s.whatsapp.net",
            "fromMe": True,
            "status": "READ",
        },
        # 2.x: keyId
        {"keyId": "3EB0AA", "remoteJid": "4917000001@s.whatsapp.net", "status": "READ"},
    ],
)
def test_a_delivery_mark_of_either_line(data):
    record = from_envelope(envelope("messages.update", data))
    assert summarize(record) == "4917000001@s.whatsapp.net · 3EB0AA → READ"
    assert chat_of(record) == "4917000001@s.whatsapp.net"


def test_a_qr_code_is_said_never_written_out():
    qrcode = {
        "instance": "sales-eu",
        "code": "2@SECRETISH,abc",
        "base64": "data:image/png;base64,AAA",
    }
    line = summarize(from_envelope(envelope("qrcode.updated", {"qrcode": qrcode})))
    assert line == "a new QR code to scan"
    qrcode["pairingCode"] = "WZYEH1YY"
    assert "pairing code WZYEH1YY" in summarize(
        from_envelope(envelope("qrcode.updated", {"qrcode": qrcode}))
    )


def test_presence_and_lists():
    presence = {
        "id": "4917000001@s.whatsapp.net",
        "presences": {"4917000001@s.whatsapp.net": {"lastKnownPresence": "composing"}},
    }
    record = from_envelope(envelope("presence.update", presence))
    assert summarize(record) == "4917000001@s.whatsapp.net: composing"
    assert chat_of(record) == "4917000001@s.whatsapp.net"
    contacts = [{"remoteJid": f"49170000{i}@s.whatsapp.net", "pushName": f"P{i}"} for i in range(5)]
    line = summarize(from_envelope(envelope("contacts.upsert", contacts)))
    assert line.startswith("5 contacts: P0 491700000@s.whatsapp.net") and "(+2 more)" in line


def test_history_sync_events_of_both_versions():
    batch = envelope("messages.set", [upsert(), upsert()], isLatest=False, progress=42)
    assert summarize(from_envelope(batch)) == "history sync: 2 messages · 42 %"
    done = {"messageCount": 1420, "chatCount": 350, "contactCount": 500, "progress": 100}
    assert summarize(from_envelope(envelope("messaging-history.set", done))) == (
        "history sync: 1,420 messages · 350 chats · 500 contacts · 100 %"
    )


def test_an_unknown_event_names_its_fields():
    line = summarize(from_envelope(envelope("labels.something", {"a": 1, "b": 2})))
    assert line == "{a, b}"


def test_server_text_never_reaches_the_terminal_raw():
    hostile = upsert("\x1b]52;c;SGVsbG8=\x07 hi \x9b31m \u202eevil", push_name="\x1b[2J Eve")
    line = summarize(from_envelope(envelope("messages.upsert", hostile)))
    assert is_safe(line)
    assert "hi" in line and "Eve" in line


def test_keys_inside_the_data_are_masked_and_the_envelope_key_dropped():
    data = {"instance": {"instanceName": "x", "token": "TOK-999"}, "hash": {"apikey": "AK-777"}}
    record = from_envelope(envelope("instance.create", data))
    text = ndjson_line(record)
    assert "TOK-999" not in text and "AK-777" not in text and "K-1234" not in text
    assert record.data["hash"]["apikey"] == MASK


def test_not_an_event():
    assert from_envelope(["x"]) is None
    assert from_envelope({"data": 1}) is None


def test_names_as_settings_and_paths():
    assert setting_name("messages.upsert") == "MESSAGES_UPSERT"
    assert setting_name("group-participants.update") == "GROUP_PARTICIPANTS_UPDATE"
    assert setting_name("messaging-history.set") == "MESSAGING_HISTORY_SET"
    assert by_events_path("messages.upsert") == "/messages-upsert"
