"""Group administration on the demo: the recorded answers of real 1.7.1, 2.3.6 and 2.3.7
servers, and on an open instance the changes read back (participants, settings, description,
disappearing messages, leave, create; 2.4's member-add mode)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.demo.recorded_replay import Gateway, answer, case_ids, gateway
from tests.support import RECORDINGS

pytestmark = pytest.mark.skipif(
    not (RECORDINGS / "v2.3.7").is_dir(), reason=f"no recordings at {RECORDINGS}"
)

_NAMES = (
    "updateParticipant",
    "updateSetting",
    "toggleEphemeral",
    "leaveGroup",
    "group-create",
    "findGroupInfos",
)
RECORDED = [
    *case_ids("v1.7.1-more", *_NAMES),
    *case_ids("v2.3.6-more", *_NAMES),
    *case_ids("v2.3.7", *_NAMES),
    *case_ids("v2.3.7-more", *_NAMES),
]


def test_every_recorded_group_administration_case_is_here() -> None:
    # v2.3.7 913-919 and 953-955, and the older folders' groups beyond the 12 operations.
    assert len([c for c in RECORDED if c.startswith("v2.3.7/")]) == 10
    assert len(RECORDED) >= 40


@pytest.mark.parametrize("case_id", RECORDED)
def test_the_demo_answers_as_the_real_server(case_id: str) -> None:
    demo, real = answer(case_id)
    assert demo == real


WAR_ROOM = "120363023456789012@g.us"  # sales-eu is an admin
ALL_HANDS = "120363012345678901@g.us"  # sales-eu created it (superadmin)
PARTNERS = "120363034567890123@g.us"  # sales-eu is a plain member
NEWCOMER = "4915112349999"


@pytest.fixture(params=["1.7.1", "2.3.7"])
def gw(request: pytest.FixtureRequest) -> Iterator[Gateway]:
    with gateway(request.param) as gw:
        yield gw


def _verb(gw: Gateway) -> str:
    return "POST" if gw.v2 else "PUT"


def _participants(gw: Gateway, group: str) -> dict[str, str | None]:
    found = gw.call("GET", "/group/participants/sales-eu", groupJid=group).json()
    return {p["id"]: p["admin"] for p in found["participants"]}


def _update(gw: Gateway, action: str, *numbers: str, group: str = WAR_ROOM) -> list[dict]:
    response = gw.call(
        _verb(gw),
        "/group/updateParticipant/sales-eu",
        {"action": action, "participants": list(numbers)},
        groupJid=group,
    )
    assert response.status_code == 201, response.text
    return response.json()["updateParticipants"]


def test_participants_are_added_promoted_demoted_and_removed(gw: Gateway) -> None:
    jid = NEWCOMER + "@s.whatsapp.net"
    (added,) = _update(gw, "add", NEWCOMER)
    assert added["status"] == "200" and added["jid"] == jid
    assert _participants(gw, WAR_ROOM)[jid] is None
    assert [r["status"] for r in _update(gw, "add", NEWCOMER)] == ["409"]  # already there
    _update(gw, "promote", NEWCOMER)
    assert _participants(gw, WAR_ROOM)[jid] == "admin"
    _update(gw, "demote", NEWCOMER)
    assert _participants(gw, WAR_ROOM)[jid] is None
    _update(gw, "remove", NEWCOMER)
    assert jid not in _participants(gw, WAR_ROOM)
    assert [r["status"] for r in _update(gw, "remove", NEWCOMER)] == ["404"]


def test_a_number_not_on_whatsapp_is_refused_per_participant(gw: Gateway) -> None:
    results = _update(gw, "add", "9991234567890", NEWCOMER)
    assert [r["status"] for r in results] == ["403", "200"]
    assert "9991234567890@s.whatsapp.net" not in _participants(gw, WAR_ROOM)


def test_a_plain_member_is_not_authorized(gw: Gateway) -> None:
    response = gw.call(
        _verb(gw),
        "/group/updateParticipant/sales-eu",
        {"action": "add", "participants": [NEWCOMER]},
        groupJid=PARTNERS,
    )
    assert response.status_code == 400
    assert response.json()["response"]["message"] == [
        "Error updating participants",
        "Error: not-authorized",
    ]


def _group(gw: Gateway, jid: str) -> dict:
    groups = gw.call("GET", "/group/fetchAllGroups/sales-eu", getParticipants="false").json()
    return next(g for g in groups if g["id"] == jid)


@pytest.mark.parametrize(
    ("action", "field", "value"),
    [
        ("not_announcement", "announce", False),
        ("announcement", "announce", True),
        ("locked", "restrict", True),
        ("unlocked", "restrict", False),
    ],
)
def test_settings_change_the_group(gw: Gateway, action: str, field: str, value: bool) -> None:
    group = WAR_ROOM if action != "not_announcement" else ALL_HANDS
    if action == "unlocked":  # from locked
        gw.call(_verb(gw), "/group/updateSetting/sales-eu", {"action": "locked"}, groupJid=group)
        assert _group(gw, group)["restrict"] is True
    response = gw.call(
        _verb(gw), "/group/updateSetting/sales-eu", {"action": action}, groupJid=group
    )
    assert (response.status_code, response.json()) == (201, {})
    assert _group(gw, group)[field] is value


def test_the_description_reads_back(gw: Gateway) -> None:
    body = {"description": "Prices change on Mondays."}
    response = gw.call(_verb(gw), "/group/updateGroupDescription/sales-eu", body, groupJid=WAR_ROOM)
    assert (response.status_code, response.json()) == (201, {"update": "success"})
    info = gw.call("GET", "/group/findGroupInfos/sales-eu", groupJid=WAR_ROOM).json()
    assert info["desc"] == "Prices change on Mondays."
    assert info["subject"] == "Pricing war room" and info["participants"]


@pytest.mark.parametrize("seconds", [86400, 604800, 7776000, 0])
def test_disappearing_messages_are_set(gw: Gateway, seconds: int) -> None:
    response = gw.call(
        _verb(gw), "/group/toggleEphemeral/sales-eu", {"expiration": seconds}, groupJid=WAR_ROOM
    )
    assert (response.status_code, response.json()) == (201, {"success": True})
    assert gw.instance().groups[WAR_ROOM].ephemeral == seconds


def test_leaving_a_group_removes_it(gw: Gateway) -> None:
    response = gw.call("DELETE", "/group/leaveGroup/sales-eu", groupJid=PARTNERS)
    assert (response.status_code, response.json()) == (200, {"groupJid": PARTNERS, "leave": True})
    groups = gw.call("GET", "/group/fetchAllGroups/sales-eu", getParticipants="false").json()
    assert PARTNERS not in {g["id"] for g in groups}
    again = gw.call("DELETE", "/group/leaveGroup/sales-eu", groupJid=PARTNERS)
    assert again.json()["response"]["message"] == [
        "Unable to leave the group",
        "Error: item-not-found",
    ]


def test_a_created_group_is_listed_with_who_is_on_whatsapp(gw: Gateway) -> None:
    body = {
        "subject": "Launch crew",
        "description": "Launch day",
        "participants": [NEWCOMER, "9991234567890"],
        "promoteParticipants": True,
    }
    response = gw.call("POST", "/group/create/sales-eu", body)
    assert response.status_code == 201
    created = response.json()
    owner = gw.instance().owner
    members = {p["id"]: p["admin"] for p in created["participants"]}
    assert members == {owner: "superadmin", NEWCOMER + "@s.whatsapp.net": "admin"}
    listed = _group(gw, created["id"])
    assert (listed["subject"], listed["desc"], listed["size"]) == ("Launch crew", "Launch day", 2)


def test_member_add_mode_is_a_2_4_route() -> None:
    body = {"mode": "all_member_add"}
    with gateway("2.3.7") as gw:
        old = gw.call("POST", "/group/updateMemberAddMode/sales-eu", body, groupJid=WAR_ROOM)
        assert old.status_code == 404 and "Cannot POST" in old.text
    with gateway("2.4.0") as gw:
        new = gw.call("POST", "/group/updateMemberAddMode/sales-eu", body, groupJid=WAR_ROOM)
        assert (new.status_code, new.json()) == (
            201,
            {"update": "success", "mode": "all_member_add"},
        )
        assert gw.instance().groups[WAR_ROOM].member_add_mode == "all_member_add"
        bad = gw.call(
            "POST", "/group/updateMemberAddMode/sales-eu", {"mode": "x"}, groupJid=WAR_ROOM
        )
        assert bad.json()["response"]["message"] == [
            {
                "property": "mode",
                "message": "mode is not one of enum values: admin_add,all_member_add",
            }
        ]


def test_a_participant_change_is_announced(gw: Gateway) -> None:
    sent: list[tuple[str, dict]] = []
    gw.demo.state.events.emit = lambda instance, event, data: sent.append((event, data))
    _update(gw, "add", NEWCOMER, "9991234567890")  # only who was added is announced
    ((event, data),) = sent
    jid = NEWCOMER + "@s.whatsapp.net"
    assert event == "group-participants.update"
    assert (data["id"], data["participants"], data["action"]) == (WAR_ROOM, [jid], "add")
    if gw.v2:
        assert data["participantsData"] == [{"jid": jid, "phoneNumber": NEWCOMER}]
    else:
        assert "participantsData" not in data


def test_a_zombie_instance_answers_connection_closed() -> None:
    from gateway_tui.demo.server import DemoServer

    with DemoServer(api_version="2.3.7", zombie=["sales-eu"]) as demo:
        gw = Gateway(demo)
        response = gw.call(
            "POST", "/group/updateSetting/sales-eu", {"action": "locked"}, groupJid=WAR_ROOM
        )
        assert response.json()["response"]["message"] == [
            "Error updating setting",
            "Error: Connection Closed",
        ]
        poll = {"number": NEWCOMER, "name": "x", "selectableCount": 1, "values": ["a", "b"]}
        sent = gw.call("POST", "/message/sendPoll/sales-eu", poll)
        assert (sent.status_code, sent.json()["response"]["message"]) == (500, "Connection Closed")
        assert gw.instance().groups[WAR_ROOM].restrict is False
