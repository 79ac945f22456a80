"""Contacts on the demo: findContacts' filters as 2.3.6 and 2.3.7 apply them (the recorded
answers), and the ``@lid`` contacts with their phone number where each line gives it."""

from __future__ import annotations

import pytest

from tests.demo.recorded_replay import Gateway, compared, demo_of, gateway
from tests.recorded.gateway import load_folder
from tests.support import RECORDINGS

pytestmark = pytest.mark.skipif(
    not (RECORDINGS / "v2.3.7").is_dir(), reason=f"no recordings at {RECORDINGS}"
)

ALICE = "5511999999999@s.whatsapp.net"


def _recorded(file_prefix: str):
    folder, prefix = file_prefix.split("/")
    return next(rec for rec in load_folder(folder) if rec.file.startswith(prefix))


@pytest.mark.parametrize(
    ("version", "case", "where_id"),
    [
        # the recorder planted Alice; the demo plants her too, then asks as recorded
        ("2.3.7", "v2.3.7/920", None),
        ("2.3.7", "v2.3.7/921", "row id"),
        ("2.3.7", "v2.3.7/922", None),
        ("2.3.7", "v2.3.7/923", None),
        ("2.3.7", "v2.3.7-more/104", None),
        ("2.3.7", "v2.3.7-more/105", None),
        ("2.3.6", "v2.3.6-more/103", None),
        ("2.3.6", "v2.3.6-more/104", None),
        ("2.3.6", "v2.3.6-more/105", None),
    ],
)
def test_find_contacts_filters_as_the_line_does(
    version: str, case: str, where_id: str | None
) -> None:
    from gateway_tui.demo.contacts import contact_id

    rec = _recorded(case)
    body = rec.request_body
    if where_id:  # the recorded row id is the recorder's; ask for the demo's row of Alice
        body = {"where": {"id": contact_id(ALICE)}}
    with demo_of(version) as demo:
        instance = demo.state.create_instance("x-1", None)
        instance.status = "close"
        instance.workspace.contacts[ALICE] = "Alice"  # as the recorder planted her
        with Gateway(demo).client as client:
            response = client.post("/chat/findContacts/x-1", json=body)
    got = compared(response.status_code, response.json())
    want = compared(rec.status, rec.response_body)
    found = response.json()
    if rec.response_body:  # one row: Alice, with the recorded fields
        assert [row["remoteJid"] for row in found] == [ALICE]
        assert got == want
    else:
        assert found == []


@pytest.mark.parametrize(
    "where", [{"pushName": "Alice"}, {"remoteJid": "5511999999999"}, {"id": "ALICE-ROW"}]
)
def test_2_3_7_keeps_only_the_match(where: dict) -> None:
    from gateway_tui.demo.contacts import contact_id

    if where.get("id"):
        where = {"id": contact_id(ALICE)}
    with demo_of("2.3.7") as demo:
        instance = demo.state.create_instance("x-1", None)
        instance.workspace.contacts |= {ALICE: "Alice", "5511988887777@s.whatsapp.net": "Bob"}
        with Gateway(demo).client as client:
            found = client.post("/chat/findContacts/x-1", json={"where": where}).json()
    assert [row["remoteJid"] for row in found] == [ALICE]


def test_2_3_6_ignores_id_and_push_name() -> None:
    with demo_of("2.3.6") as demo:
        instance = demo.state.create_instance("x-1", None)
        instance.workspace.contacts |= {ALICE: "Alice", "5511988887777@s.whatsapp.net": "Bob"}
        with Gateway(demo).client as client:
            by_name = client.post("/chat/findContacts/x-1", json={"where": {"pushName": "Nobody"}})
    assert len(by_name.json()) == 2


LID = "205641847891234@lid"
HIDDEN = "118822334455667@lid"


def test_lid_contacts_are_listed_and_found_by_name() -> None:
    with gateway("2.3.7") as gw:
        rows = gw.call("POST", "/chat/findContacts/support", {}).json()
        assert {LID, HIDDEN} <= {row["remoteJid"] for row in rows}
        (marina,) = gw.call(
            "POST", "/chat/findContacts/support", {"where": {"pushName": "Marina Costa"}}
        ).json()
        assert marina["remoteJid"] == LID and marina["type"] == "contact"


def test_2x_keys_carry_the_phone_beside_the_lid_where_known() -> None:
    with gateway("2.3.7") as gw:
        (received, *_) = [
            m for m in gw.messages("support", remote_jid=LID) if not m["key"]["fromMe"]
        ]
        assert received["key"]["remoteJid"] == LID
        assert received["key"]["remoteJidAlt"] == "5511987001234@s.whatsapp.net"
        assert received["key"]["addressingMode"] == "lid"
        hidden = gw.messages("support", remote_jid=HIDDEN)
        assert hidden and all("remoteJidAlt" not in m["key"] for m in hidden)


def test_1_7_1_keys_have_no_alt() -> None:
    with gateway("1.7.1") as gw:
        lid_messages = gw.messages("support", remote_jid=LID)
        assert lid_messages and all("remoteJidAlt" not in m["key"] for m in lid_messages)


def test_a_lid_member_carries_its_phone_number_on_2x_only() -> None:
    with gateway("2.3.7") as gw:
        group = next(iter(gw.instance("support").groups))
        members = gw.call("GET", "/group/participants/support", groupJid=group).json()
        (member,) = [p for p in members["participants"] if p["id"] == LID]
        assert member["phoneNumber"] == "5511987001234@s.whatsapp.net"
    with gateway("1.7.1") as gw:
        group = next(iter(gw.instance("support").groups))
        members = gw.call("GET", "/group/participants/support", groupJid=group).json()
        (member,) = [p for p in members["participants"] if p["id"] == LID]
        assert "phoneNumber" not in member


@pytest.mark.parametrize(
    ("version", "reaches"), [("1.7.1", False), ("2.3.7", False), ("2.4.0", True)]
)
def test_a_send_to_an_lid_answers_exists_false_before_2_4(version: str, reaches: bool) -> None:
    """Before 2.4.0-rc2 the server's onWhatsApp check knows no ``@lid``: every send to one
    answers 400 ``exists: false`` (the phone JID beside it is what reaches the person)."""
    with gateway(version) as gw:
        text = {"text": "hello"} if gw.v2 else {"textMessage": {"text": "hello"}}
        answer = gw.call("POST", "/message/sendText/support", {"number": LID, **text})
        if reaches:
            assert answer.status_code == 201
            assert answer.json()["key"]["remoteJid"] == LID
        else:
            assert answer.status_code == 400
            (refusal,) = answer.json()["response"]["message"]
            assert refusal["exists"] is False and refusal["jid"] == LID
        phone = {"number": "5511987001234", **text}
        assert gw.call("POST", "/message/sendText/support", phone).status_code == 201
