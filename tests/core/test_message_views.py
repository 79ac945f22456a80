"""What the conversation shows of stored messages of the new kinds: read from a real 2.3.7
store's answer where one holds the kind (a photo's mimetype and size), and from messages in the
shape Baileys stores them (polls, locations, contact cards, voice notes, revokes, reactions)."""

from __future__ import annotations

import json

from gateway_tui.core.api.chat_models import StoredMessage
from gateway_tui.core.api.message_views import (
    Decorations,
    contact_cards,
    detail_lines,
    file_facts,
    location_view,
    poll_view,
    voice_note_seconds,
)
from tests.recorded.gateway import recordings_dir

CHAT = "5511999999999@s.whatsapp.net"


def stored(message_id: str, content: dict, *, from_me=False, stamp=1764000000, who=None):
    key = {"id": message_id, "remoteJid": CHAT, "fromMe": from_me}
    if who:
        key["participant"] = who
    data = {"key": key, "message": content, "messageTimestamp": stamp}
    return StoredMessage.read(data)


def test_a_recorded_photo_shows_its_mimetype_and_size() -> None:
    path = recordings_dir() / "v2.3.7-more" / "096-findMessages-a-all.json"
    records = json.loads(path.read_text())["response_body"]["messages"]["records"]
    photo = next(StoredMessage.read(r) for r in records if r["messageType"] == "imageMessage")
    assert file_facts(photo) == "image/jpeg · 48.2 kB"


def test_a_document_shows_name_mimetype_and_size() -> None:
    doc = stored(
        "D1",
        {
            "documentMessage": {
                "fileName": "invoice.pdf",
                "mimetype": "application/pdf",
                "fileLength": {"low": 1_250_000, "high": 0, "unsigned": True},
            }
        },
    )
    assert detail_lines(doc) == ["📄 invoice.pdf", "  application/pdf · 1.2 MB"]


def test_a_poll_shows_its_options_and_votes_when_given() -> None:
    poll = stored(
        "P1",
        {
            "pollCreationMessageV3": {
                "name": "Lunch?",
                "options": [{"optionName": "Yes"}, {"optionName": "No"}],
                "selectableOptionsCount": 1,
            }
        },
    )
    view = poll_view(poll)
    assert view is not None and view.options == ("Yes", "No") and not view.several
    assert detail_lines(poll) == ["📊 Lunch?", "  ○ Yes", "  ○ No"]
    with_votes = detail_lines(poll, {"Yes": 2, "No": 1})
    assert with_votes[1:] == ["  ○ Yes  2 votes", "  ○ No  1 vote"]


def test_a_location_shows_coordinates_name_and_a_map_link() -> None:
    place = stored(
        "L1",
        {
            "locationMessage": {
                "degreesLatitude": -23.5617,
                "degreesLongitude": -46.6559,
                "name": "Office",
                "address": "Av. Paulista, 1000",
            }
        },
    )
    view = location_view(place)
    assert view is not None
    assert "mlat=-23.561700&mlon=-46.655900" in view.map_link
    assert detail_lines(place)[:3] == [
        "📍 Office",
        "  Av. Paulista, 1000",
        "  -23.56170, -46.65590",
    ]


def test_contact_cards_show_names_and_numbers() -> None:
    vcard = (
        "BEGIN:VCARD\nVERSION:3.0\nFN:Bob\n"
        "TEL;type=CELL;waid=5511977776666:+55 11 97777-6666\nEND:VCARD"
    )
    one = stored("C1", {"contactMessage": {"displayName": "Bob", "vcard": vcard}})
    assert [(c.name, c.phones) for c in contact_cards(one)] == [("Bob", ("+55 11 97777-6666",))]
    many = stored(
        "C2",
        {
            "contactsArrayMessage": {
                "contacts": [
                    {"displayName": "Bob", "vcard": vcard},
                    {"displayName": "Ana", "vcard": "BEGIN:VCARD\nEND:VCARD"},
                ]
            }
        },
    )
    assert detail_lines(many) == ["👤 Bob  +55 11 97777-6666", "👤 Ana"]


def test_a_voice_note_shows_its_length() -> None:
    note = stored("A1", {"audioMessage": {"ptt": True, "seconds": 75}})
    assert voice_note_seconds(note) == 75
    assert detail_lines(note) == ["🎤 Voice message 1:15"]


def test_reactions_are_counted_on_their_message_and_revokes_mark_it_deleted() -> None:
    target = stored("T1", {"conversation": "hi"}, from_me=True)
    gone = stored("T2", {"conversation": "oops"}, from_me=True)
    react = lambda mid, emoji, who, at: stored(  # noqa: E731
        mid, {"reactionMessage": {"key": {"id": "T1"}, "text": emoji}}, who=who, stamp=at
    )
    messages = [
        target,
        gone,
        react("R1", "👍", "a@s.whatsapp.net", 1),
        react("R2", "👍", "b@s.whatsapp.net", 2),
        react("R3", "❤️", "c@s.whatsapp.net", 3),
        react("R4", "😮", "a@s.whatsapp.net", 4),  # a changed their mind: 👍 → 😮
        react("R5", "", "c@s.whatsapp.net", 5),  # c took theirs away
        stored("X1", {"protocolMessage": {"type": "REVOKE", "key": {"id": "T2"}}}, from_me=True),
        stored("R6", {"reactionMessage": {"key": {"id": "elsewhere"}, "text": "👍"}}),
    ]
    seen = Decorations.of(messages)
    assert dict(seen.reactions["T1"]) == {"👍": 1, "😮": 1}
    assert seen.reaction_line("T1") in ("👍 😮", "😮 👍")
    assert seen.deleted == {"T2"}
    # Reactions and revokes that point at a loaded message are not bubbles of their own; one
    # on a message not loaded still is.
    assert seen.hidden == {"R1", "R2", "R3", "R4", "R5", "X1"}


def test_votes_kept_in_the_store_are_counted_per_voter_the_latest_wins() -> None:
    """2.3.7 keeps each vote as a ``pollUpdateMessage`` whose ``vote.selectedOptions`` holds
    the chosen option names (decrypted on arrival); findMessages returns them newest first."""
    poll = stored(
        "P1",
        {
            "pollCreationMessageV3": {
                "name": "Lunch?",
                "options": [{"optionName": n} for n in ("Yes", "No", "Later")],
                "selectableOptionsCount": 0,
            }
        },
        from_me=True,
    )

    def vote(mid, chosen, who, at, *, from_me=False):
        content = {
            "pollUpdateMessage": {
                "pollCreationMessageKey": {"remoteJid": CHAT, "fromMe": True, "id": "P1"},
                "vote": {"encPayload": "", "encIv": "", "selectedOptions": chosen},
                "senderTimestampMs": str(at * 1000),
            }
        }
        return stored(mid, content, who=who, stamp=at, from_me=from_me)

    undecrypted = [{"type": "Buffer", "data": [1, 2, 3]}]
    messages = [
        poll,
        vote("V4", ["Later"], "a@s.whatsapp.net", 4),  # a's latest, read before their first
        vote("V1", ["Yes"], "a@s.whatsapp.net", 1),
        vote("V2", ["Yes", "No"], "b@s.whatsapp.net", 2),
        vote("V3", ["No"], "c@s.whatsapp.net", 3),
        vote("V5", [], "c@s.whatsapp.net", 5),  # c took theirs away
        vote("V6", ["No"], None, 6, from_me=True),
        vote("V7", undecrypted, "d@s.whatsapp.net", 7),  # not names: not counted
    ]
    unread = stored(
        "V8",
        {"pollUpdateMessage": {"pollCreationMessageKey": {"id": "P1"}, "vote": {"encIv": "x"}}},
        who="e@s.whatsapp.net",
        stamp=8,
    )  # the gateway did not find the poll: the vote stays encrypted
    messages.append(unread)
    seen = Decorations.of(messages)
    assert seen.poll_votes["P1"] == {"Later": 1, "Yes": 1, "No": 2}
    assert seen.hidden == {"V1", "V2", "V3", "V4", "V5", "V6"}
    lines = detail_lines(poll, seen.poll_votes["P1"])
    assert lines[1:] == ["  ○ Yes  1 vote", "  ○ No  2 votes", "  ○ Later  1 vote"]
    nobody = Decorations.of([poll, vote("V9", [], "a@s.whatsapp.net", 9)])
    assert detail_lines(poll, nobody.poll_votes["P1"])[1] == "  ○ Yes  0 votes"
