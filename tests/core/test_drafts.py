"""Drafts as plain data: rowIds, the exact body, the checks, and the files they live in."""

from __future__ import annotations

import json
import stat
from datetime import datetime

import pytest

from gateway_tui.core.api.models import MessageKey, SentListContent, SentMessage, SentMessageContent
from gateway_tui.core.draft import Draft, DraftRow, DraftSection, slugify
from gateway_tui.core.files.drafts import (
    ComposeStore,
    HistoryEntry,
    gateway_dir_name,
    instance_dir_name,
)
from gateway_tui.core.files.storage import data_dir
from gateway_tui.core.state import SentRecord

URL = "http://127.0.0.1:8080"


def menu() -> Draft:
    return Draft(
        recipient="+49 151 1234-0001",
        title="Lunch menu",
        description="Pick one",
        button_text="See the menu",
        footer="Order by 11:30",
        delay="1200",
        presence="composing",
        sections=[
            DraftSection("Pizzas", [DraftRow("Margherita", "Tomato"), DraftRow("Funghi")]),
            DraftSection("Drinks", [DraftRow("Cola", row_id="drink-cola")]),
        ],
    )


@pytest.mark.parametrize(
    ("title", "slug"),
    [
        ("Margherita", "margherita"),
        ("Pão de Queijo", "pao-de-queijo"),
        ("  Two   words!! ", "two-words"),
        ("Große Straße 5", "grosse-strasse-5"),
        ("🍕", ""),
        ("x" * 60, "x" * 40),
    ],
)
def test_slugify(title, slug):
    assert slugify(title) == slug


def test_automatic_row_ids_follow_titles_and_are_unique_in_the_message():
    draft = Draft(
        sections=[
            DraftSection("A", [DraftRow("Cola"), DraftRow("Cola"), DraftRow("")]),
            DraftSection("B", [DraftRow("Cola"), DraftRow("Mine", row_id="cola-2"), DraftRow("")]),
        ]
    )
    rows = [row for section in draft.sections for row in section.rows]
    ids = [draft.row_ids()[row.uid] for row in rows]
    # A typed rowId is kept; automatic ones step around it and each other.
    assert ids == ["cola", "cola-3", "row", "cola-4", "cola-2", "row-2"]


def test_body_is_exactly_the_request_json():
    draft = menu()
    body = draft.body()
    assert body == {
        "number": "4915112340001",
        "listMessage": {
            "title": "Lunch menu",
            "description": "Pick one",
            "buttonText": "See the menu",
            "footerText": "Order by 11:30",
            "sections": [
                {
                    "title": "Pizzas",
                    "rows": [
                        {"title": "Margherita", "description": "Tomato", "rowId": "margherita"},
                        {"title": "Funghi", "rowId": "funghi"},  # no description: left out
                    ],
                },
                {
                    "title": "Drinks",
                    "rows": [{"title": "Cola", "rowId": "drink-cola"}],
                },
            ],
        },
        "options": {"delay": 1200, "presence": "composing"},
    }
    assert body == draft.request().to_json()


def test_no_footer_and_no_options_are_left_out():
    draft = menu()
    draft.footer = draft.delay = draft.presence = ""
    body = draft.body()
    assert "footerText" not in body["listMessage"]
    assert "options" not in body


def test_a_valid_draft_has_no_errors_or_warnings():
    check = menu().check()
    assert check.ok and not check.warnings


def test_json_round_trip_keeps_everything_typed():
    draft = menu()
    again = Draft.from_json(json.loads(json.dumps(draft.to_json())))
    assert again.to_json() == draft.to_json()
    assert again.body() == draft.body()


@pytest.mark.parametrize(
    "garbage",
    [None, [], "text", {"sections": "no"}, {"title": 5, "sections": [1, {"rows": [2]}]}],
)
def test_a_damaged_draft_reads_as_what_can_be_read(garbage):
    draft = Draft.from_json(garbage)
    assert isinstance(draft, Draft)
    draft.check()  # still checkable
    draft.body()  # still buildable


def test_from_body_reopens_a_sent_message():
    body = menu().body()
    draft = Draft.from_body(body)
    assert draft.body() == body
    assert draft.recipient == "4915112340001"
    assert draft.delay == "1200"


def test_a_template_has_no_recipient():
    assert menu().as_template().recipient == ""
    assert menu().as_template().title == "Lunch menu"


# --- files ---------------------------------------------------------------------------------------


def test_draft_is_saved_privately_per_gateway_and_instance(isolated_home):
    store = ComposeStore(URL, "sales-eu")
    store.save_draft(menu())
    assert store.draft_path.is_relative_to(data_dir())
    assert stat.S_IMODE(store.draft_path.stat().st_mode) == 0o600
    assert stat.S_IMODE(store.dir.stat().st_mode) == 0o700
    assert store.load_draft().to_json() == menu().to_json()
    # Another instance, or the same name on another gateway, has its own draft.
    assert ComposeStore(URL, "support").load_draft() is None
    assert ComposeStore("https://other.example", "sales-eu").load_draft() is None
    store.discard_draft()
    assert store.load_draft() is None


@pytest.mark.parametrize("name", ["..", ".", "a/b", "sales eu", "x" * 300, "日本"])
def test_odd_instance_names_stay_inside_their_directory(isolated_home, name):
    store = ComposeStore(URL, name)
    store.save_draft(menu())
    assert store.draft_path.resolve().is_relative_to(store.root.resolve())
    assert len(instance_dir_name(name)) < 100
    assert store.load_draft() is not None


def test_gateway_dir_names_differ_by_url():
    assert gateway_dir_name("http://a:1") != gateway_dir_name("http://a:2")
    assert gateway_dir_name("http://a:1/") == gateway_dir_name("http://a:1")


def test_a_corrupt_draft_file_is_no_draft(isolated_home):
    store = ComposeStore(URL, "sales-eu")
    store.save_draft(menu())
    store.draft_path.write_text("{ not json")
    assert store.load_draft() is None


def test_templates_save_load_delete(isolated_home):
    store = ComposeStore(URL, "sales-eu")
    assert store.templates() == {}
    assert store.save_template("Menu", menu()) is False
    assert store.save_template("Menu", menu()) is True  # replaced
    store.save_template("another", Draft(title="x"))
    # Shared by every instance of every gateway.
    shared = ComposeStore("https://other.example", "support").templates()
    assert list(shared) == ["another", "Menu"]
    assert shared["Menu"].title == "Lunch menu" and shared["Menu"].recipient == ""
    assert store.delete_template("Menu") is True
    assert store.delete_template("Menu") is False
    assert list(store.templates()) == ["another"]
    with pytest.raises(ValueError):
        store.save_template("  ", menu())


def _record(message_id: str, jid: str, title: str) -> SentRecord:
    return SentRecord(
        instance="sales-eu",
        recipient=jid.split("@")[0],
        result=SentMessage(
            key=MessageKey(remote_jid=jid, from_me=True, id=message_id),
            message=SentMessageContent(list_message=SentListContent(title=title)),
            message_timestamp="1763717400",
            status="PENDING",
        ),
        body={"number": jid.split("@")[0], "listMessage": {"title": title}},
        sent_at=datetime(2026, 11, 21, 9, 30),
    )


def test_history_keeps_sent_messages_edits_and_archived_flags(isolated_home):
    store = ComposeStore(URL, "sales-eu")
    jid = "4915112340001@s.whatsapp.net"
    store.add_history(HistoryEntry.from_record(_record("ID1", jid, "Lunch"), menu().to_json()))
    store.add_history(HistoryEntry.from_record(_record("ID2", jid, "Dinner")))
    store.record_edit("ID1", "Lunch (edited)")
    store.record_archived(jid, True)

    again = ComposeStore(URL, "sales-eu")
    entries = again.history()
    assert [e.message_id for e in entries] == ["ID1", "ID2"]
    assert entries[0].draft().to_json() == menu().to_json()
    assert entries[1].draft().title == "Dinner"  # no form kept: rebuilt from the body
    stored = again.stored_chats()
    assert [r.result.key.id for r in stored.records] == ["ID1", "ID2"]
    assert stored.texts == {"ID1": "Lunch (edited)"}
    assert stored.archived == {jid: True}
    assert stat.S_IMODE(again.history_path.stat().st_mode) == 0o600


def test_damaged_history_entries_are_skipped(isolated_home):
    store = ComposeStore(URL, "sales-eu")
    store.add_history(HistoryEntry.from_record(_record("ID1", "1@s.whatsapp.net", "ok")))
    raw = json.loads(store.history_path.read_text())
    raw["entries"] += [None, {"body": 1}, {"body": {}, "result": {"key": "x"}}]
    store.history_path.write_text(json.dumps(raw))
    assert [r.result.key.id for r in store.stored_chats().records] == ["ID1"]
