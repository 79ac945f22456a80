"""The capabilities table: what a gateway of a version cannot do, each with its upstream issue."""

from __future__ import annotations

import pytest

from gateway_tui.core.api.capabilities import (
    COMPOSER,
    EVENTS,
    LIMITS,
    NEWEST_KNOWN,
    limits_for,
    notes_for,
    version_note,
)


def keys(version: str | None, where: str | None = None) -> set[str]:
    return {limit.key for limit in limits_for(version, where)}


@pytest.mark.parametrize(
    ("version", "expected"),
    [
        ("1.7.1", {"lid_sends_refused", "history_set_event_refused"}),
        (
            "2.3.6",
            {
                "list_messages_unshown",
                "lid_sends_refused",
                "mentions_everyone_forced",
                "history_set_event_refused",
            },
        ),
        ("2.2.3", {"lid_sends_refused", "mentions_everyone_forced", "history_set_event_refused"}),
        ("2.3.8", {"lid_sends_refused", "mentions_everyone_forced", "history_set_event_refused"}),
        (
            "2.4.0-rc1",
            {
                "lid_sends_refused",
                "mentions_everyone_forced",
                "history_set_event_refused",
                "licence_required",
            },
        ),
        (
            "2.4.0-rc2",
            {"mentions_everyone_forced", "history_set_event_refused", "licence_required"},
        ),
        ("2.4.0", {"licence_required"}),
        (None, set()),
        ("not a version", set()),
    ],
)
def test_version_ranges(version: str | None, expected: set[str]) -> None:
    assert keys(version) == expected


def test_every_limit_names_its_upstream_evidence() -> None:
    for limit in LIMITS:
        assert "#" in limit.upstream or "recording" in limit.upstream
        assert limit.upstream in limit.sentence()
    assert "#1620" in limits_for("2.3.7", COMPOSER)[0].sentence()


def test_where_it_matters() -> None:
    assert "history_set_event_refused" in keys("2.3.6", EVENTS)
    assert "history_set_event_refused" not in keys("2.3.6", COMPOSER)


def test_an_unknown_newer_version_says_so_and_is_read_as_the_newest_known() -> None:
    note = version_note("2.5.1")
    assert note is not None and "newer" in note and NEWEST_KNOWN in note
    assert keys("2.5.1") == keys(NEWEST_KNOWN)
    assert version_note("2.3.6") is None
    assert notes_for("3.0.0", COMPOSER)[0] == version_note("3.0.0")


def test_the_list_message_notes_read_the_table(monkeypatch) -> None:
    from gateway_tui.core.api import capabilities
    from gateway_tui.core.api.dialects import V2, list_message_notes

    notes = " ".join(list_message_notes(V2, "2.3.6"))
    assert "#1996" in notes
    changed = tuple(
        capabilities.Limit(**{**_fields(limit), "upstream": "upstream issue #9999"})
        if limit.key == "list_messages_unshown"
        else limit
        for limit in LIMITS
    )
    monkeypatch.setattr(capabilities, "LIMITS", changed)
    assert "#9999" in " ".join(list_message_notes(V2, "2.3.6"))


def _fields(limit) -> dict:
    return {name: getattr(limit, name) for name in limit.__slots__}


def test_a_newer_gateway_says_so_where_list_messages_are_written() -> None:
    from gateway_tui.core.api.dialects import V2, list_message_notes

    notes = list_message_notes(V2, "2.6.0")
    assert any("newer than any version this app knows" in note for note in notes)
    assert not any("newer" in note for note in list_message_notes(V2, "2.3.7"))
