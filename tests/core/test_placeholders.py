"""Placeholders: a single send holding an unfilled ``{placeholder}`` is refused before sending,
naming it (and the field); a campaign fills them, and its rows that leave one empty are found
("Hello {name}" with no name would read "Hello ")."""

from __future__ import annotations

from gateway_tui.core.api import dialects
from gateway_tui.core.campaign.recipients import MessageTemplate, parse_recipients
from gateway_tui.core.draft import Draft, DraftRow, DraftSection
from tests.data import good_draft


def test_a_single_send_with_a_placeholder_is_refused_naming_it_and_its_field() -> None:
    draft = good_draft(title="Hi {name}!")
    draft.sections[0].rows[1].description = "for {City}"
    for line in (dialects.V1, dialects.V2):
        errors = draft.check(line).errors
        said = {problem.field: problem.message for problem in errors}
        assert "{name} is a placeholder with nothing to fill it" in said["title"]
        assert "{City}" in said["sections[0].rows[1].description"]
        assert not draft.check(line).ok


def test_literal_braces_and_a_draft_without_placeholders_are_fine() -> None:
    assert good_draft(title="Prices {{in euros}}").check().ok
    assert good_draft().check().ok


def test_a_campaign_template_may_hold_placeholders() -> None:
    draft = good_draft(title="Hi {name}!")
    assert draft.check(placeholders=True).ok
    recipients = parse_recipients("number,name\n4917300000001,Ana\n")
    assert MessageTemplate(draft).problems(recipients) == []


def test_rows_that_leave_a_used_placeholder_empty_are_found() -> None:
    draft = Draft(
        title="Hi {name}!",
        description="Menu for {city}",
        button_text="See",
        sections=[DraftSection("Drinks", [DraftRow("Cola")])],
    )
    recipients = parse_recipients(
        "number,name,city,unused\n"
        "4917300000001,Ana,Berlin,\n"  # an empty column the message does not use: fine
        "4917300000002,,Paris,x\n"
        "4917300000003,  ,,x\n"
    )
    template = MessageTemplate(draft)
    found = [(r.line, names) for r, names in template.empty_rows(recipients)]
    assert found == [(3, ["name"]), (4, ["city", "name"])]
    # What they would get without the set-up's question:
    assert template.draft_for(recipients.recipients[1]).title == "Hi !"


def test_no_placeholder_no_empty_rows() -> None:
    recipients = parse_recipients("number,name\n4917300000001,\n")
    assert MessageTemplate(good_draft()).empty_rows(recipients) == []
