"""The new kinds' request bodies and checks, against what real servers were sent and answered
(../shared/recordings: v2.3.7/911-962 for 2.x, v1.7.1-more/079-087 for 1.7.1): each body the
client builds is the recorded request's, on both lines; each recorded 400 the client can meet
is refused before sending, quoting the server's own words; and 2.4's button rules."""

from __future__ import annotations

import json
from typing import Any

import pytest

from gateway_tui.core.api import dialects
from gateway_tui.core.api.capabilities import is_24_or_later, unsupported
from gateway_tui.core.api.errors import Problem
from gateway_tui.core.api.message_kinds import (
    Button,
    Buttons,
    Card,
    Carousel,
    ContactCard,
    ContactCards,
    Location,
    Poll,
    VoiceNote,
    check_presence,
    guess_mimetype,
)
from tests.recorded.gateway import recordings_dir


def recorded(folder: str, prefix: str) -> dict[str, Any]:
    path = next((recordings_dir() / folder).glob(f"{prefix}-*.json"))
    return json.loads(path.read_text())


def _said(problems: list[Problem]) -> str:
    return " | ".join(problem.message for problem in problems)


def _card(card: dict[str, Any]) -> ContactCard:
    return ContactCard(card["fullName"], card["phoneNumber"], wuid=card.get("wuid"))


# --- bodies: exactly what was sent to the real servers ---------------------------------------


@pytest.mark.parametrize("prefix", ["911", "952"])
def test_a_voice_note_body_on_2x_is_the_recorded_one(prefix) -> None:
    sent = recorded("v2.3.7", prefix)["request_body"]
    note = VoiceNote(sent["audio"], "silence.wav")
    assert not note.problems()
    assert dialects.V2.kind_body(sent["number"], note) == sent


def test_a_voice_note_body_on_171_is_the_recorded_one_with_options() -> None:
    # Recording 079: without options 1.7.1 answers 500 "Cannot set properties of undefined
    # (setting 'encoding')" before anything else, so the body always carries options.
    case = recorded("v1.7.1-more", "079")
    assert "setting 'encoding'" in case["response_body"]["response"]["message"]
    sent = case["request_body"]
    note = VoiceNote(sent["audioMessage"]["audio"])
    assert dialects.V1.kind_body(sent["number"], note) == sent | {"options": {"delay": 0}}


@pytest.mark.parametrize("prefix", ["928", "957"])
def test_a_poll_body_on_2x_is_the_recorded_one(prefix) -> None:
    sent = recorded("v2.3.7", prefix)["request_body"]
    poll = Poll(sent["name"], tuple(sent["values"]), sent["selectableCount"])
    assert not poll.problems()
    assert dialects.V2.kind_body(sent["number"], poll) == sent
    # 1.7.1: the same under pollMessage (its schema: src/validate/validate.schema.ts)
    assert dialects.V1.kind_body(sent["number"], poll) == {
        "number": sent["number"],
        "options": {"delay": 0},
        "pollMessage": {k: sent[k] for k in ("name", "selectableCount", "values")},
    }


@pytest.mark.parametrize("prefix", ["930", "958"])
def test_a_location_body_on_2x_is_the_recorded_one(prefix) -> None:
    sent = recorded("v2.3.7", prefix)["request_body"]
    place = Location(sent["latitude"], sent["longitude"], sent["name"], sent["address"])
    assert not place.problems()
    assert dialects.V2.kind_body(sent["number"], place) == sent


@pytest.mark.parametrize("prefix", ["932", "959"])
def test_a_contact_card_body_on_2x_is_the_recorded_one(prefix) -> None:
    sent = recorded("v2.3.7", prefix)["request_body"]
    cards = ContactCards(tuple(_card(card) for card in sent["contact"]))
    assert not cards.problems()
    assert dialects.V2.kind_body(sent["number"], cards) == sent
    assert dialects.V1.kind_body(sent["number"], cards)["contactMessage"] == sent["contact"]


def test_presence_bodies_are_the_recorded_ones_on_both_lines() -> None:
    v2 = recorded("v2.3.7", "936")["request_body"]
    assert dialects.V2.presence_body(v2["number"], v2["presence"], v2["delay"]) == v2
    v1 = recorded("v1.7.1-more", "086")["request_body"]
    options = v1["options"]
    assert dialects.V1.presence_body(v1["number"], options["presence"], options["delay"]) == v1


def test_a_delay_and_24s_message_id_go_where_each_line_takes_them() -> None:
    poll = Poll("Lunch?", ("Yes", "No"))
    assert dialects.V2.kind_body("5511", poll, delay=1200, message_id="3EB0AA")["delay"] == 1200
    assert dialects.V2.kind_body("5511", poll, message_id="3EB0AA")["messageId"] == "3EB0AA"
    v1 = dialects.V1.kind_body("5511", poll, delay=1200, message_id="3EB0AA")
    assert v1["options"] == {"delay": 1200} and "messageId" not in v1


# --- checks: the recorded 400s, word for word ------------------------------------------------


def test_a_poll_with_one_option_is_refused_as_the_server_refuses_it() -> None:
    rec = recorded("v2.3.7", "929")
    assert rec["status"] == 400
    sent = rec["request_body"]
    problems = Poll(sent["name"], tuple(sent["values"]), sent["selectableCount"]).problems()
    (server_text,) = rec["response_body"]["response"]["message"][0]
    assert server_text in _said(problems)


def test_a_short_contact_phone_number_is_refused_as_the_server_refuses_it() -> None:
    rec = recorded("v2.3.7", "933")
    cards = ContactCards(tuple(_card(card) for card in rec["request_body"]["contact"]))
    (server_text,) = rec["response_body"]["response"]["message"][0]
    assert server_text in _said(cards.problems())


def test_a_voice_note_without_audio_is_refused_as_171_refuses_it() -> None:
    rec = recorded("v1.7.1-more", "080")
    (server_text,) = rec["response_body"]["response"]["message"][0]
    # 'audioMessage requires property "audio"': the client says 'requires property "audio"'
    assert server_text.split(" ", 1)[1] in _said(VoiceNote("").problems())


def test_the_gateways_other_poll_rules() -> None:
    eleven = tuple(f"option {n}" for n in range(11))
    assert "maximum length of 10" in _said(Poll("Q", eleven).problems())
    assert "duplicate" in _said(Poll("Q", ("Yes", "Yes")).problems())
    assert Poll("Q", ("Yes", "No", "Maybe"), 0).problems() == []  # 0: any number of choices
    assert Poll("", ("Yes", "No")).problems()


def test_voice_note_formats_and_locations_and_presence() -> None:
    assert "ogg/opus" in _said(VoiceNote("AAAA", "notes.txt").problems())
    assert VoiceNote("AAAA", "memo.OGG").problems() == []
    assert Location(91, 0).problems() and Location(0, -181).problems()
    assert Location(-23.56, -46.65).problems() == []
    assert check_presence("composing", 0) == []
    assert check_presence("typing", 0) and check_presence("paused", -1)


def test_documents_get_a_mimetype_from_their_name() -> None:
    assert guess_mimetype("notes.txt") == "text/plain"
    assert guess_mimetype("/tmp/Invoice 22.PDF") == "application/pdf"
    assert guess_mimetype("no-extension") is None


# --- 2.4's interactive messages ----------------------------------------------------------------


def _reply(n: int) -> Button:
    return Button("reply", f"Option {n}", id=f"opt-{n}")


def _url(n: int) -> Button:
    return Button("url", f"Site {n}", url=f"https://example.com/{n}")


PIX = Button("pix", name="Loja", key="loja@example.com", key_type="email")


@pytest.mark.parametrize(
    ("buttons", "rule"),
    [
        ((_reply(1), _reply(2), _reply(3)), None),
        ((_reply(1), _reply(2), _reply(3), _reply(4)), "Maximum of 3 reply buttons allowed"),
        ((_url(1), _url(2)), None),
        ((_url(1), _url(2), Button("call", "Call", phone_number="5511")), "Maximum of 2 CTA"),
        ((_reply(1), _url(1)), "Reply buttons cannot be mixed with CTA or PIX buttons"),
        ((_reply(1), PIX), "Reply buttons cannot be mixed with CTA or PIX buttons"),
        ((PIX,), None),
        ((PIX, PIX), "Only one PIX button is allowed"),
        ((), "At least one button is required"),
    ],
)
def test_24s_button_rules(buttons, rule) -> None:
    said = _said(Buttons("Menu", buttons=buttons).problems())
    if rule is None:
        assert said == ""
    else:
        assert rule in said


def test_buttons_and_carousel_bodies() -> None:
    body = dialects.V2.kind_body("5511", Buttons("Menu", "Pick", "Thanks", (_reply(1), _url(2))))
    assert body["buttons"][0] == {"type": "reply", "displayText": "Option 1", "id": "opt-1"}
    assert body["title"] == "Menu" and body["footer"] == "Thanks"
    carousel = Carousel("Our plans", (Card("Basic", (_url(1),), image_url="https://x/1.png"),))
    assert carousel.problems() == []
    card = dialects.V2.kind_body("5511", carousel)["cards"][0]
    assert card == {
        "body": "Basic",
        "imageUrl": "https://x/1.png",
        "buttons": [{"type": "url", "displayText": "Site 1", "url": "https://example.com/1"}],
    }
    assert "no PIX" in _said(Carousel("x", (Card("a", (PIX,)),)).problems())
    assert "1 to 10 cards" in _said(Carousel("x", ()).problems())


def test_what_needs_24_is_refused_on_older_versions_with_the_reason_and_the_version() -> None:
    assert is_24_or_later("2.4.0") and is_24_or_later("2.4.0-rc2") and is_24_or_later("v2.5.1")
    assert not is_24_or_later("2.3.7") and not is_24_or_later(None)
    why = unsupported("buttons", "2.3.7")
    assert why is not None and "2.4" in why and "2.3.7" in why
    assert unsupported("carousel", "2.4.0") is None
    assert "unknown" in (unsupported("played", None) or "")


def test_a_document_is_sent_with_its_mimetype_on_both_lines(tmp_path) -> None:
    from gateway_tui.core.files.media_files import read_for_upload

    path = tmp_path / "notes.txt"
    path.write_text("hello")
    upload = read_for_upload(str(path))
    assert (upload.mediatype, upload.mimetype) == ("document", "text/plain")
    assert dialects.V2.send_media_body("5511", upload, None, None)["mimetype"] == "text/plain"
    v1 = dialects.V1.send_media_body("5511", upload, None, None)
    assert v1["mediaMessage"]["mimetype"] == "text/plain"
    photo = tmp_path / "a.png"
    photo.write_bytes(b"\x89PNG....")
    assert read_for_upload(str(photo)).mimetype is None  # the gateway reads an image's own


def test_interactive_messages_written_as_lines() -> None:
    from gateway_tui.core.interactive_form import parse_buttons, parse_cards

    buttons, problems = parse_buttons(
        "reply: Yes, please = yes\nurl: Site = https://example.com\n\npix: Loja | email | a@b.c"
    )
    assert problems == []
    assert [b.type for b in buttons] == ["reply", "url", "pix"]
    assert buttons[0].id == "yes" and buttons[1].url == "https://example.com"
    assert buttons[2].key_type == "email"
    # The rule of 2.4, with the server's words:
    assert "Reply buttons cannot be mixed" in _said(Buttons("Menu", buttons=buttons).problems())
    _, bad = parse_buttons("link: x = y\npix: only a name")
    assert [p.field for p in bad] == ["buttons, line 1", "buttons, line 2"]
    cards, problems = parse_cards(
        "Basic\nimage: https://x/b.png\nurl: See = https://x/b\n\nPro\nfooter: best\n"
        "reply: Pick = pro"
    )
    assert problems == []
    assert [(c.body, c.image_url, c.footer) for c in cards] == [
        ("Basic", "https://x/b.png", ""),
        ("Pro", "", "best"),
    ]
    assert Carousel("Plans", cards).problems() == []
