"""The models of group administration, labels and contacts, read from real answers.

Labels and contacts: the recorded 2.3.7 answers. Group administration: every recorded answer
is a refusal (no recorder's instance ever paired), so the success shapes are the ones the 2.3.6
source returns (quoted in core/api/group_models.py), and the refusals are read in
tests/core/test_group_admin_client.py through the client.
"""

from __future__ import annotations

import pytest

from gateway_tui.core.api.dialects import V1, V2
from gateway_tui.core.api.group_models import (
    GroupMetadata,
    LeaveResult,
    ParticipantsUpdate,
    disappearing_seconds,
)
from gateway_tui.core.api.label_models import LABEL_LIST, LabelResult, labels_of_chat
from tests.recorded.gateway import load_folder

LID = "205641847891234@lid"


def _recorded(folder: str, seq: int):
    return next(r for r in load_folder(folder) if r.seq == seq)


@pytest.mark.parametrize("seq", [924, 963])
def test_no_labels_reads_as_none(seq: int) -> None:
    assert LABEL_LIST.validate_python(_recorded("v2.3.7", seq).response_body) == []


def test_the_planted_label_reads_with_its_colour() -> None:
    (label,) = LABEL_LIST.validate_python(_recorded("v2.3.7", 925).response_body)
    assert (label.id, label.name, label.predefined_id) == ("1", "New customer", "1")
    assert label.colour_index == 1
    assert label.colour is not None


def test_a_1_7_1_label_colour_is_a_number_and_reads_the_same() -> None:
    (label,) = LABEL_LIST.validate_python([{"color": 1, "name": "New customer", "id": "1"}])
    assert label.colour_index == 1
    (odd,) = LABEL_LIST.validate_python([{"color": "teal", "name": None, "id": 7}])
    assert (odd.id, odd.name, odd.colour) == ("7", "", None)


def test_a_label_put_on_a_chat() -> None:
    result = LabelResult.model_validate(
        {"numberJid": "5511999999999@s.whatsapp.net", "labelId": "1", "add": True}
    )
    assert result.done and result.number_jid == "5511999999999@s.whatsapp.net"
    assert not LabelResult.model_validate({"labelId": "1"}).done


def test_a_chat_rows_labels() -> None:
    assert labels_of_chat({"id": "x", "labels": ["1", 11, None, ""]}) == ("1", "11")
    assert labels_of_chat({"id": "x", "labels": "1"}) == ()


@pytest.mark.parametrize("seq", [920, 921, 922])
def test_recorded_2_3_7_contacts_read_with_their_jid_and_name(seq: int) -> None:
    (row,) = _recorded("v2.3.7", seq).response_body
    contact = V2.read_contact(row)
    assert contact is not None
    assert (contact.id, contact.name) == ("5511999999999@s.whatsapp.net", "Alice")


def test_a_1_7_1_contact_row() -> None:
    contact = V1.read_contact({"id": "5511999999999@s.whatsapp.net", "pushName": " "})
    assert contact is not None and contact.name is None


def test_participant_outcomes_one_per_number() -> None:
    answer = ParticipantsUpdate.model_validate(
        {
            "updateParticipants": [
                {"status": "200", "jid": "5511988887777@s.whatsapp.net", "content": {}},
                {"status": "409", "jid": "5511988886666@s.whatsapp.net"},
                {"status": 403, "jid": "5511988885555@s.whatsapp.net"},
                "garbage",
            ]
        }
    )
    assert [c.ok for c in answer.update_participants] == [True, False, False]
    assert answer.outcome_of("5511988886666@s.whatsapp.net").reason == "already a member"
    assert "not allowed" in answer.outcome_of("5511988885555@s.whatsapp.net").reason
    assert answer.outcome_of("nobody") is None


def test_group_metadata_with_lid_members_and_settings() -> None:
    group = GroupMetadata.model_validate(
        {
            "id": "120363025912345678@g.us",
            "addressingMode": "lid",
            "subject": "EU Sales",
            "announce": True,
            "restrict": "yes",
            "ephemeralDuration": 604800,
            "size": "3",
            "participants": [
                {"id": LID, "admin": None, "phoneNumber": "5511987001234@s.whatsapp.net"},
                {"id": "5511999999999@s.whatsapp.net", "admin": "superadmin"},
                {"admin": "admin"},
            ],
        }
    )
    assert (group.announce, group.restrict, group.size) == (True, None, 3)
    assert group.disappearing == "7 days"
    assert [p.number for p in group.participants] == ["5511987001234", "5511999999999"]


def test_leave_answer() -> None:
    left = LeaveResult.model_validate({"groupJid": "120363025912345678@g.us", "leave": True})
    assert left.leave and left.group_jid == "120363025912345678@g.us"


@pytest.mark.parametrize(
    ("text", "seconds"), [("off", 0), ("24h", 86400), ("7 d", 604800), ("90d", 7776000)]
)
def test_disappearing_choices(text: str, seconds: int) -> None:
    assert disappearing_seconds(text) == seconds


def test_disappearing_refuses_other_durations_naming_the_choices() -> None:
    with pytest.raises(ValueError, match="off, 24h, 7d, 90d"):
        disappearing_seconds("5")
