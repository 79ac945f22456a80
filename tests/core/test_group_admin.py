"""core/group_admin.py: which group a name means, which numbers may be added, each outcome."""

from __future__ import annotations

import pytest

from gateway_tui.core.api.group_models import ParticipantsUpdate
from gateway_tui.core.api.models import GroupSummary, Participant
from gateway_tui.core.group_admin import GroupNotFound, find_group, numbers_to_add, outcomes

GROUPS = [
    GroupSummary(id="120363012345678901@g.us", subject="EU Sales"),
    GroupSummary(id="120363012345678902@g.us", subject="Team"),
    GroupSummary(id="120363012345678903@g.us", subject="Team"),
]
MEMBERS = [
    Participant(id="5511987650001@s.whatsapp.net", admin="superadmin"),
    Participant(id="205641847891234@lid", phoneNumber="5511987001234@s.whatsapp.net"),
]


@pytest.mark.parametrize("name", ["EU Sales", "120363012345678901@g.us", "120363012345678901"])
def test_a_group_by_jid_or_exact_subject(name: str) -> None:
    assert find_group(GROUPS, name).id == "120363012345678901@g.us"


def test_an_ambiguous_subject_is_refused_with_the_candidates() -> None:
    with pytest.raises(GroupNotFound) as caught:
        find_group(GROUPS, "Team")
    assert "120363012345678902@g.us" in str(caught.value)
    assert "120363012345678903@g.us" in str(caught.value)


def test_an_unknown_name_suggests_the_subject_written_otherwise() -> None:
    with pytest.raises(GroupNotFound, match="did you mean 'EU Sales'"):
        find_group(GROUPS, "eu sales")


def test_numbers_to_add_are_checked_deduplicated_and_members_left_out() -> None:
    plan = numbers_to_add(
        "+49 151 12340077\n0049 15112340077, 5511987650001; +55 11 98700-1234\n12345", MEMBERS
    )
    assert plan.numbers == ["4915112340077"]
    assert plan.duplicates == 1
    assert plan.members == ["5511987650001", "5511987001234"]  # the second, a member by LID
    assert len(plan.invalid) == 1 and "12345" in plan.invalid[0].message
    assert plan.summary() == "1 to add, 1 duplicate removed, 2 already members, 1 invalid"


def test_each_number_gets_its_own_outcome() -> None:
    answer = ParticipantsUpdate.model_validate(
        {
            "updateParticipants": [
                {"status": "200", "jid": "4915112340077@s.whatsapp.net"},
                {"status": "403", "jid": "5511988887777@s.whatsapp.net"},
            ]
        }
    )
    said = outcomes(["+49 151 12340077", "5511988887777", "5511900000000"], answer)
    assert [(o.ok, o.reason) for o in said] == [
        (True, "done"),
        (False, "not allowed (their privacy settings, or not on WhatsApp)"),
        (False, "no answer for this number"),
    ]
