"""Labels on the demo: the recorded answers of a real 2.3.7, and on an open instance labels
listed, put on chats and taken off, as each line shows them."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.demo.recorded_replay import Gateway, answer, case_ids, gateway
from tests.support import RECORDINGS

pytestmark = pytest.mark.skipif(
    not (RECORDINGS / "v2.3.7").is_dir(), reason=f"no recordings at {RECORDINGS}"
)

# 925 is a label row the recorder planted in the database: the demo's created x-1 has none.
RECORDED = [c for c in case_ids("v2.3.7", "Label") if "planted" not in c]


def test_the_recorded_label_cases_are_here() -> None:
    assert [c.split("/")[1][:3] for c in RECORDED] == ["924", "926", "927", "956", "963"]


@pytest.mark.parametrize("case_id", RECORDED)
def test_the_demo_answers_as_the_real_server(case_id: str) -> None:
    demo, real = answer(case_id)
    assert demo == real


def test_a_label_row_has_the_recorded_fields() -> None:
    (_, real) = answer("v2.3.7/925-x-findLabels-planted")
    with gateway("2.3.7") as gw:
        labels = gw.call("GET", "/label/findLabels/sales-eu").json()
    assert labels and {"shape": [real["shape"][0]]} == {"shape": [_shape(labels[0])]}


def _shape(row: dict) -> dict:
    return {k: type(v).__name__ if v is not None else "NoneType" for k, v in sorted(row.items())}


@pytest.fixture(params=["1.7.1", "2.3.7"])
def gw(request: pytest.FixtureRequest) -> Iterator[Gateway]:
    with gateway(request.param) as gw:
        yield gw


JONAS = "4915112340001"


def _handle(gw: Gateway, action: str, label: str, number: str = JONAS):
    verb = "POST" if gw.v2 else "PUT"
    body = {"number": number, "labelId": label, "action": action}
    return gw.call(verb, "/label/handleLabel/sales-eu", body)


def _chat_labels(gw: Gateway, jid: str) -> list[str]:
    if gw.v2:  # 2.x's findChats has no labels: the chat row has
        row = gw.call("GET", "/chat/findChatByRemoteJid/sales-eu", remoteJid=jid).json()
        return row["labels"]
    chats = gw.call("GET", "/chat/findChats/sales-eu").json()
    return next(c for c in chats if c["id"] == jid).get("labels", [])


def test_labels_are_listed_with_the_line_s_colour_type(gw: Gateway) -> None:
    labels = gw.call("GET", "/label/findLabels/sales-eu").json()
    by_name = {label["name"]: label for label in labels}
    assert {"New customer", "Paid", "VIP"} <= set(by_name)
    colour = by_name["Paid"]["color"]
    assert colour == ("4" if gw.v2 else 4)


def test_a_label_is_put_on_a_chat_and_taken_off(gw: Gateway) -> None:
    jid = JONAS + "@s.whatsapp.net"
    response = _handle(gw, "add", "4")
    assert (response.status_code, response.json()) == (
        200,
        {"numberJid": jid, "labelId": "4", "add": True},
    )
    assert "4" in _chat_labels(gw, jid)
    removed = _handle(gw, "remove", "4")
    assert removed.json() == {"numberJid": jid, "labelId": "4", "remove": True}
    assert "4" not in _chat_labels(gw, jid)


def test_some_seeded_chats_carry_labels(gw: Gateway) -> None:
    chats = gw.instance().chats
    assert any(chat.labels for chat in chats.values())
    if not gw.v2:
        listed = gw.call("GET", "/chat/findChats/sales-eu").json()
        assert any(item.get("labels") for item in listed)


def test_a_number_not_on_whatsapp_and_an_unknown_label_are_refused(gw: Gateway) -> None:
    missing = _handle(gw, "add", "4", number="9991234567890")
    assert (missing.status_code, missing.json()["response"]["message"]) == (
        404,
        ["Number is not on WhatsApp"],
    )
    unknown = _handle(gw, "add", "999")
    assert unknown.status_code == 400
    assert unknown.json()["response"]["message"][0] == "Unable to add label to chat"


def test_find_chat_by_remote_jid_needs_the_query() -> None:
    with gateway("2.3.7") as gw:
        response = gw.call("GET", "/chat/findChatByRemoteJid/sales-eu")
        assert (response.status_code, response.json()) == (
            400,
            {"error": "remoteJid is a required query parameter"},
        )
        assert (
            gw.call(
                "GET", "/chat/findChatByRemoteJid/sales-eu", remoteJid="1@s.whatsapp.net"
            ).json()
            is None
        )


def test_a_label_change_is_announced_as_labels_association(gw: Gateway) -> None:
    sent: list[tuple[str, dict]] = []
    gw.demo.state.events.emit = lambda instance, event, data: sent.append((event, data))
    _handle(gw, "add", "2")
    assert sent == [
        (
            "labels.association",
            {
                "instance": "sales-eu",
                "type": "add",
                "chatId": JONAS + "@s.whatsapp.net",
                "labelId": "2",
            },
        )
    ]
