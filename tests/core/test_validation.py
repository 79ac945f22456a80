"""The server's known request rules, checked before sending."""

from __future__ import annotations

import pytest

from gateway_tui.core.api import ListMessage, ListRow, ListSection, MessageKey, Problem
from gateway_tui.core.api import validation as v


def fields(problems: list[Problem]) -> list[str]:
    return [p.field for p in problems]


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("+55 (11) 91234-5678", "5511912345678"),
        (" 4915123456701 ", "4915123456701"),
        ("49\t151-2345 6701", "4915123456701"),
        ("4915123456701@s.whatsapp.net", "4915123456701@s.whatsapp.net"),
        ("120363012345678901@g.us", "120363012345678901@g.us"),
        ("12345@lid", "12345@lid"),
        ("status@broadcast", "status@broadcast"),
        ("", ""),
    ],
)
def test_normalise_number(raw: str, expected: str) -> None:
    assert v.normalise_number(raw) == expected


@pytest.mark.parametrize(
    ("value", "ok"),
    [("0123", True), ("", False), ("12a", False), ("²", False), ("١٢٣", False), ("12 3", False)],
)
def test_is_digits_means_ascii_digits(value: str, ok: bool) -> None:
    assert v.is_digits(value) is ok


@pytest.mark.parametrize(
    ("raw", "problem_fields"),
    [
        ("+55 11 91234-5678", []),
        ("12345678", []),
        ("1234567", ["number"]),
        ("", ["number"]),
        ("  ", ["number"]),
        ("55-11-abc", ["number"]),
        ("١٢٣٤٥٦٧٨٩٠", ["number"]),
        ("5511912345678@s.whatsapp.net", []),
        ("1@lid", []),
        ("120363012345678901@g.us", []),
        ("team@g.us", ["number"]),
    ],
)
def test_check_recipient(raw: str, problem_fields: list[str]) -> None:
    assert fields(v.check_recipient(raw)) == problem_fields


def test_check_recipient_names_the_given_field() -> None:
    assert fields(v.check_recipient("x", field_name="to")) == ["to"]


@pytest.mark.parametrize(
    ("raw", "jid"),
    [
        ("120363012345678901", "120363012345678901@g.us"),
        (" 120363012345678901 ", "120363012345678901@g.us"),
        ("4915123456701-1600000000", "4915123456701-1600000000@g.us"),
        ("120363012345678901@g.us", "120363012345678901@g.us"),
        ("team", "team"),
        ("١٢٣", "١٢٣"),
        ("123\n", "123@g.us"),
    ],
)
def test_group_jid_from(raw: str, jid: str) -> None:
    assert v.group_jid_from(raw) == jid


@pytest.mark.parametrize(
    ("raw", "ok"),
    [
        ("120363012345678901@g.us", True),
        ("120363012345678901", True),
        ("4915123456701-1600000000@g.us", True),
        ("", False),
        ("team@g.us", False),
        ("12-@g.us", False),
        ("12-34-56@g.us", False),
        ("12@g.us.evil", False),
        ("12@g.usx", False),
        ("12@s.whatsapp.net", False),
        ("١٢٣@g.us", False),
        ("12@g.us\nx", False),
    ],
)
def test_check_group_jid(raw: str, ok: bool) -> None:
    problems = v.check_group_jid(raw)
    assert (problems == []) is ok
    assert all(p.field == "groupJid" for p in problems)


@pytest.mark.parametrize(("subject", "ok"), [("Team", True), ("", False), (" \t ", False)])
def test_check_subject(subject: str, ok: bool) -> None:
    assert (v.check_subject(subject) == []) is ok


@pytest.mark.parametrize(
    ("name", "ok"), [("shop", True), ("a b/c", True), ("", False), (" ", False)]
)
def test_check_instance_name(name: str, ok: bool) -> None:
    assert (v.check_instance_name(name) == []) is ok


@pytest.mark.parametrize(
    ("numbers", "problem_fields"),
    [
        (["4915123456701"], []),
        (["4915123456701", "447700900123"], []),
        (["+49 151 2345-6701"], []),
        ([], ["numbers"]),
        (["123456789"], ["numbers[0]"]),
        (["1234567890"], []),
        (["4915123456701", "abc4567890123"], ["numbers[1]"]),
        (["4915123456701", "4915123456701"], ["numbers[1]"]),
        (["4915123456701", "+49 (151) 23456701"], ["numbers[1]"]),
        (["²²²²²²²²²²"], ["numbers[0]"]),
        (["short", "short"], ["numbers[0]", "numbers[1]"]),
    ],
)
def test_check_invite_numbers(numbers: list[str], problem_fields: list[str]) -> None:
    assert fields(v.check_invite_numbers(numbers)) == problem_fields


def test_check_invite_numbers_accepts_any_iterable() -> None:
    assert v.check_invite_numbers(n for n in ["4915123456701"]) == []


def test_normalise_invite_numbers() -> None:
    assert v.normalise_invite_numbers(["+49 151 2345-6701", "(44) 7700900123"]) == [
        "4915123456701",
        "447700900123",
    ]


@pytest.mark.parametrize(
    ("text", "numbers", "problem_fields", "duplicates"),
    [
        ("4915123456701\n447911123456", ["4915123456701", "447911123456"], [], 0),
        ("4915123456701, 447911123456,", ["4915123456701", "447911123456"], [], 0),
        ("+49 151 2345-6701\n4915123456701", ["4915123456701"], [], 1),
        ("", [], ["numbers"], 0),
        ("\n , \n", [], ["numbers"], 0),
        ("4915123456701\nabc\n123", ["4915123456701"], ["line 2", "line 3"], 0),
        ("²²²²²²²²²²", [], ["line 1"], 0),
    ],
)
def test_parse_invite_numbers(
    text: str, numbers: list[str], problem_fields: list[str], duplicates: int
) -> None:
    parsed = v.parse_invite_numbers(text)
    assert parsed.numbers == numbers
    assert fields(parsed.problems) == problem_fields
    assert parsed.duplicates_removed == duplicates


@pytest.mark.parametrize(
    ("text", "value", "ok"),
    [
        ("", None, True),
        ("  ", None, True),
        ("1200", 1200, True),
        (" 0 ", 0, True),
        ("1.5", None, False),
        ("-5", None, False),
        ("1e3", None, False),
        ("ten", None, False),
        ("²", None, False),
        ("١٢", None, False),
    ],
)
def test_parse_delay(text: str, value: int | None, ok: bool) -> None:
    parsed, problems = v.parse_delay(text)
    assert parsed == value
    assert (problems == []) is ok


@pytest.mark.parametrize(
    ("value", "ok"),
    [
        (None, True),
        (0, True),
        (1200, True),
        (1.5, False),
        (2.0, False),
        ("300", False),
        (True, False),
        (-1, False),
    ],
)
def test_check_delay(value: object, ok: bool) -> None:
    problems = v.check_delay(value)
    assert (problems == []) is ok
    assert all(p.field == "delay" for p in problems)


@pytest.mark.parametrize(
    ("value", "ok"),
    [
        (None, True),
        ("", True),
        ("composing", True),
        ("recording", True),
        ("available", True),
        ("unavailable", True),
        ("paused", True),
        ("typing", False),
        ("Composing", False),
    ],
)
def test_check_presence(value: str | None, ok: bool) -> None:
    assert (v.check_presence(value) == []) is ok


@pytest.mark.parametrize(
    ("key", "problem_fields"),
    [
        (MessageKey(remote_jid="1@s.whatsapp.net", id="ABC"), []),
        (MessageKey(remote_jid="", id="ABC"), ["key.remoteJid"]),
        (MessageKey(remote_jid="1@s.whatsapp.net", id=" "), ["key.id"]),
        (MessageKey(remote_jid="", id=""), ["key.remoteJid", "key.id"]),
    ],
)
def test_check_message_key(key: MessageKey, problem_fields: list[str]) -> None:
    assert fields(v.check_message_key(key)) == problem_fields


# --- list messages --------------------------------------------------------------------------------


def row(title: str = "Tea", row_id: str = "tea", description: str = "") -> ListRow:
    return ListRow(title=title, row_id=row_id, description=description)


def message(*sections: ListSection, **top: str) -> ListMessage:
    values = {"title": "Menu", "description": "Pick", "button_text": "Open", **top}
    return ListMessage(sections=list(sections), **values)


def section(*rows: ListRow, title: str = "Drinks") -> ListSection:
    return ListSection(title=title, rows=list(rows))


@pytest.mark.parametrize(
    ("list_message", "errors", "warnings"),
    [
        (message(section(row())), [], []),
        (message(section(row(), row("Coffee", "coffee", "Hot"))), [], []),
        (message(), ["sections"], []),
        (message(section(row()), title=" "), ["title"], []),
        (message(section(row()), description=""), ["description"], []),
        (message(section(row()), button_text=""), ["buttonText"], []),
        (message(section(row()), button_text="x" * 21), [], ["buttonText"]),
        (message(section(row()), button_text="x" * 20), [], []),
        (message(section(row(), title="")), ["sections[0].title"], []),
        (message(section(row(), title="t" * 25)), [], ["sections[0].title"]),
        (message(section()), ["sections[0].rows"], []),
        (message(section(row(title=""))), ["sections[0].rows[0].title"], []),
        (message(section(row(row_id=" "))), [], ["sections[0].rows[0].rowId"]),
        # "" is refused by a real 1.7.1 (400); only spaces pass there
        (message(section(row(row_id=""))), ["sections[0].rows[0].rowId"], []),
        (message(section(row(title="t" * 25))), [], ["sections[0].rows[0].title"]),
        (message(section(row(description="d" * 73))), [], ["sections[0].rows[0].description"]),
        (message(section(row(description="d" * 72))), [], []),
        # identical rows and sections are refused by the server
        (
            message(section(row(), row())),
            ["sections[0].rows[1]"],
            ["sections[0].rows[1].rowId"],
        ),
        (
            message(section(row()), section(row())),
            ["sections[1]"],
            ["sections[1].rows[0].rowId"],
        ),
        # a repeated rowId alone is accepted by the server: a warning only
        (message(section(row("Tea", "x"), row("Coffee", "x"))), [], ["sections[0].rows[1].rowId"]),
        (
            message(section(row("Tea", "x")), section(row("Coffee", "x"), title="Food")),
            [],
            ["sections[1].rows[0].rowId"],
        ),
        # different sections with the same title are not identical
        (message(section(row("A", "a")), section(row("B", "b"))), [], []),
        (
            message(
                section(*[row(f"R{i}", f"r{i}") for i in range(6)]),
                section(*[row(f"S{i}", f"s{i}") for i in range(5)], title="More"),
            ),
            [],
            ["sections"],
        ),
        (message(section(*[row(f"R{i}", f"r{i}") for i in range(10)])), [], []),
    ],
)
def test_check_list_message(
    list_message: ListMessage, errors: list[str], warnings: list[str]
) -> None:
    check = v.check_list_message(list_message)
    assert fields(check.errors) == errors
    assert fields(check.warnings) == warnings
    assert check.ok is (errors == [])


def test_total_rows_warning_says_how_many() -> None:
    rows = [row(f"R{i}", f"r{i}") for i in range(11)]
    (warning,) = v.check_list_message(message(section(*rows))).warnings
    assert warning.message == "11 rows: WhatsApp shows at most 10"
