"""The composer's and the message actions' pure parts: where problems go, and restoring chats."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from gateway_tui.core.api.errors import error_for_response
from gateway_tui.core.api.models import MessageKey, SentListContent, SentMessage, SentMessageContent
from gateway_tui.core.draft import Draft, DraftRow, DraftSection
from gateway_tui.core.services import Actions
from gateway_tui.core.services.messages import chat_jid, record_jid
from gateway_tui.core.state import AppState, SentRecord
from gateway_tui.tui.screens.composer import server_problems, target_of


def draft() -> Draft:
    return Draft(
        sections=[
            DraftSection("A", [DraftRow("a1"), DraftRow("a2")]),
            DraftSection("B", [DraftRow("b1")]),
        ]
    )


def refusal(message):
    return error_for_response(
        400,
        {"status": 400, "error": "Bad Request", "response": {"message": message}},
        method="POST",
        path="/message/sendList/x",
    )


def sent(message_id: str, jid: str, title: str, minutes: int) -> SentRecord:
    return SentRecord(
        instance="sales-eu",
        recipient=jid.split("@")[0],
        result=SentMessage(
            key=MessageKey(remote_jid=jid, from_me=True, id=message_id),
            message=SentMessageContent(list_message=SentListContent(title=title)),
            status="PENDING",
        ),
        body={"listMessage": {"title": title}},
        sent_at=datetime(2026, 11, 21, 9, 0) + timedelta(minutes=minutes),
    )


@pytest.mark.parametrize(
    ("field", "where", "prefix"),
    [
        ("number", "err-recipient", ""),
        ("listMessage.buttonText", "err-button", ""),
        ("options.delay", "err-options", ""),
        ("presence", "err-options", ""),
        ("sections", "err-sections", ""),
        ("sections[1]", "sec:1", ""),
        ("sections[1].title", "sec:1", "title: "),
        ("sections[0].rows[1].rowId", "row:0:1", "rowId: "),
        ("listMessage.sections[0].rows[0]", "row:0:0", ""),
        ("sections[7].title", "err-sections", ""),  # no such section (any more)
        ("sections[1].rows[5]", "sec:1", ""),
        ("something else", "err-general", ""),
    ],
)
def test_problems_go_next_to_the_field_they_name(field, where, prefix):
    d = draft()
    if where.startswith("sec:"):
        where = f"err-sec-{d.sections[int(where[4:])].uid}"
    elif where.startswith("row:"):
        s, r = (int(n) for n in where[4:].split(":"))
        where = f"err-row-{d.sections[s].rows[r].uid}"
    assert target_of(field, d) == (where, prefix)


def test_body_validation_lines_name_their_fields():
    error = refusal(
        [
            [
                'listMessage.sections[0].rows[1] requires property "rowId"',
                'listMessage requires property "sections"',
                'instance requires property "number"',
                'The "buttonText" cannot be empty',
                'The "title" cannot be empty',
                "options.presence is not one of enum values: a,b",
                "Enter a value in milliseconds",
                "Invalid format",
                "An unexpected thing",
            ]
        ]
    )
    fields = [p.field for p in server_problems(error)]
    assert fields == [
        "sections[0].rows[1].rowId",
        "sections",
        "number",
        "buttonText",
        "title",
        "presence",
        "delay",
        "number",
        "",
    ]


def test_numbers_not_on_whatsapp_go_to_the_recipient_once():
    error = refusal(
        [{"exists": False, "jid": "4915100000000@s.whatsapp.net", "number": "4915100000000"}]
    )
    assert [(p.field, p.message) for p in server_problems(error)] == [
        ("number", "4915100000000 is not on WhatsApp")
    ]


def test_property_problems_keep_their_field():
    error = refusal([{"property": "listMessage.title", "message": "too long"}])
    assert [(p.field, p.message) for p in server_problems(error)] == [("title", "too long")]


def test_restoring_history_builds_chats_without_duplicates():
    state = AppState()
    actions = Actions(client=None, state=state)  # type: ignore[arg-type]
    jonas, bakery = "4915112340001@s.whatsapp.net", "5511912345678@s.whatsapp.net"
    records = [
        sent("B", jonas, "Second", 5),
        sent("A", jonas, "First", 1),
        sent("C", bakery, "Pão", 3),
    ]
    added = actions.messages.restore_sent(
        "sales-eu", records, texts={"A": "First (edited)"}, archived={bakery: True, "x@g.us": True}
    )
    assert added == 3
    chats = state.chats_of("sales-eu")
    assert set(chats) == {jonas, bakery}  # no chat is made up from a flag alone
    assert chats[jonas].last_key.id == "B" and chats[jonas].last_text == "Second"
    assert chats[jonas].texts == {"A": "First (edited)", "B": "Second"}
    assert chats[bakery].archived is True and chats[jonas].archived is False
    assert [r.result.key.id for r in state.sent["sales-eu"]] == ["A", "C", "B"]
    # Again (the chat list opened twice): nothing doubles, and what this run did is kept.
    chats[bakery].archived = False
    assert actions.messages.restore_sent("sales-eu", records, archived={bakery: True}) == 0
    assert len(state.sent["sales-eu"]) == 3 and chats[bakery].archived is False


@pytest.mark.parametrize(
    ("recipient", "jid"),
    [
        ("+49 151 1234-0001", "4915112340001@s.whatsapp.net"),
        ("120363012345678901@g.us", "120363012345678901@g.us"),
    ],
)
def test_chat_of_a_recipient(recipient, jid):
    assert chat_jid(recipient) == jid
    record = sent("A", jid, "x", 0)
    assert record_jid(record) == jid


@pytest.mark.parametrize(
    ("digits", "shown"),
    [
        ("447700900123", "+44 7700 900123"),  # was "+44 770 090 0123"
        ("5511999999999", "+55 11 99999-9999"),  # was "+55 119 9999 9999"
        ("4915112340001", "+49 1511 2340001"),
        ("12025550123", "+1 202-555-0123"),
        ("12345", "12345"),  # too short to be a number: as it came
    ],
)
def test_numbers_read_the_way_their_country_writes_them(digits: str, shown: str) -> None:
    from gateway_tui.core.text.formatting import format_number

    assert format_number(digits) == shown
