"""Recipients from CSV or pasted lines, and the message each one gets (placeholders)."""

from __future__ import annotations

import pytest

from gateway_tui.core.campaign.recipients import (
    MessageTemplate,
    RecipientFileError,
    fill,
    parse_recipients,
    read_recipients_file,
)
from gateway_tui.core.draft import Draft, DraftRow, DraftSection


def menu(title: str = "Hello {name}", row: str = "Cola for {city}") -> Draft:
    return Draft(
        title=title,
        description="Menu of the week",
        button_text="See the menu",
        footer="Reply STOP",
        sections=[DraftSection("Drinks", [DraftRow(row), DraftRow("Water")])],
    )


def test_header_names_the_placeholders_and_numbers_are_normalised():
    recipients = parse_recipients(
        "Phone,Name,City\n+49 151 2345-6701,Ana,Berlin\n4915123456702,Bo,Paris\n"
    )
    assert recipients.columns == ("number", "name", "city")
    assert [r.number for r in recipients.recipients] == ["4915123456701", "4915123456702"]
    assert recipients.recipients[0].fields() == {
        "number": "4915123456701",
        "name": "Ana",
        "city": "Berlin",
    }
    assert recipients.recipients[1].line == 3


def test_without_a_header_the_columns_are_number_and_name():
    recipients = parse_recipients("4915123456701;Ana\n\n# a comment\n4915123456702\n")
    assert [(r.number, r.name, r.line) for r in recipients.recipients] == [
        ("4915123456701", "Ana", 1),
        ("4915123456702", "", 4),
    ]


def test_duplicates_are_removed_and_counted_invalid_numbers_listed_by_line():
    recipients = parse_recipients(
        "4915123456701,Ana\n+49 1512 3456701,Again\n4915123456701@s.whatsapp.net,Jid\n"
        "12ab,Bad\n123,Short\n"
    )
    assert [r.name for r in recipients.recipients] == ["Ana"]
    assert recipients.duplicates == 2
    assert [p.field for p in recipients.invalid] == ["line 4", "line 5"]
    assert "12ab" in recipients.invalid[0].message
    assert recipients.summary() == ("1 recipient, 2 duplicates removed, 2 invalid numbers left out")


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ('number,name\n4915123456701,"Ana\n4915123456702,Bo\n', 2, "not valid CSV"),
        ("4915123456701,Ana,Berlin\n", 1, "add a header row"),
        ("number,name\n4915123456701,Ana\n4915123456702,Bo,extra\n", 3, "the header names 2"),
        ("number,name\n4915123456701,Ana\x00\n", 2, "NUL"),
        ("number,name,name\n4915123456701,Ana,Bo\n", 1, "twice"),
    ],
)
def test_malformed_csv_is_refused_with_its_line_number(text, line, words):
    with pytest.raises(RecipientFileError) as refused:
        parse_recipients(text)
    assert f"line {line}:" in str(refused.value)
    assert words in str(refused.value)


def test_a_file_that_is_not_utf8_is_refused_with_its_line(tmp_path):
    path = tmp_path / "to.csv"
    path.write_bytes(b"number,name\n4915123456701,Ana\n4915123456702,Jos\xe9\n")
    with pytest.raises(RecipientFileError, match=r"to\.csv, line 3: not UTF-8"):
        read_recipients_file(path)


def test_a_missing_file_is_refused_in_plain_words(tmp_path):
    with pytest.raises(RecipientFileError, match="cannot read"):
        read_recipients_file(tmp_path / "nope.csv")


def test_placeholders_fill_every_text_field_but_not_row_ids():
    recipients = parse_recipients("number,name,city\n4915123456701,Ana,Berlin\n")
    draft = menu()
    draft.description = "For {name} in {CITY}"
    draft.footer = "{name}, reply STOP"
    draft.sections[0].title = "{city} drinks"
    draft.sections[0].rows[1].description = "still, for {name}"
    template = MessageTemplate(draft)
    assert template.placeholders == ["city", "name"]
    body = template.request(recipients.recipients[0]).to_json()
    message = body["listMessage"]
    assert body["number"] == "4915123456701"
    assert message["title"] == "Hello Ana"
    assert message["description"] == "For Ana in Berlin"
    assert message["footerText"] == "Ana, reply STOP"
    assert message["sections"][0]["title"] == "Berlin drinks"
    rows = message["sections"][0]["rows"]
    assert rows[0]["title"] == "Cola for Berlin"
    assert rows[1]["description"] == "still, for Ana"
    # The automatic rowId comes from the template, the same for every recipient.
    assert rows[0]["rowId"] == "cola-for-city"


def test_fill_is_plain_substitution():
    values = {"name": "Ana"}
    assert fill("{{name}} is {name}", values) == "{name} is Ana"
    assert fill("{name.__class__} {0} {unknown}", values) == "{name.__class__} {0} {unknown}"
    assert fill("a lone { brace", values) == "a lone { brace"


def test_unknown_placeholders_and_messages_emptied_by_a_value_are_problems():
    recipients = parse_recipients("number,name\n4915123456701,Ana\n4915123456702,\n")
    unknown = MessageTemplate(menu(row="Cola in {city}")).problems(recipients)
    assert len(unknown) == 1
    assert "{city} is not a column" in unknown[0].message
    emptied = MessageTemplate(menu(title="{name}", row="Cola")).problems(recipients)
    assert [p.field for p in emptied] == ["line 3"]
    assert "title" in emptied[0].message


def test_a_message_without_placeholders_is_built_once_per_recipient_number():
    recipients = parse_recipients("4915123456701\n4915123456702\n")
    template = MessageTemplate(menu(title="Hello", row="Cola"))
    first, second = (template.request(r) for r in recipients.recipients)
    assert (first.number, second.number) == ("4915123456701", "4915123456702")
    assert first.list_message == second.list_message
    assert template.problems(recipients) == []
