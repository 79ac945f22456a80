"""The @lid rule (core/identity.py): what to show, to search by and to send to.

No recording of a real gateway carries an ``@lid`` (the recorders' instances never paired with
WhatsApp), so the shapes below are the ones the 2.x sources write (Baileys 7 keys with
``remoteJidAlt``/``participantAlt`` and ``addressingMode``; members with ``phoneNumber``), and
the versions are the ones the recorded servers give in ``GET /``.
"""

from __future__ import annotations

import contextlib

import pytest

from gateway_tui.core.identity import (
    Identities,
    Identity,
    NoRoute,
    sends_to_lid,
    server_matches_alt,
    version_tuple,
)
from tests.recorded.gateway import load_folder

LID = "205641847891234@lid"
PHONE = "5511987001234"
PHONE_JID = f"{PHONE}@s.whatsapp.net"
HIDDEN = "118822334455667@lid"


def _recorded_version(folder: str) -> str:
    root = next(r for r in load_folder(folder) if r.method == "GET" and r.path == "/")
    return root.response_body["version"]


@pytest.mark.parametrize(
    ("folder", "matches_alt", "lid_sends"),
    [
        ("v1.7.1", False, False),
        ("v2.3.6", False, False),
        ("v2.3.7", True, False),
        ("v2.4.0-rc2", True, True),  # the rc2 server calls itself "2.4.0"
    ],
)
def test_the_recorded_servers_versions_decide_search_and_send(
    folder: str, matches_alt: bool, lid_sends: bool
) -> None:
    version = _recorded_version(folder)
    assert server_matches_alt(version) is matches_alt
    assert sends_to_lid(version) is lid_sends


def test_pre_releases_before_rc2_do_not_send_to_a_lid() -> None:
    assert version_tuple("2.4.0-rc2") == (2, 4, 0, 2)
    assert not sends_to_lid("2.4.0-rc1")
    assert sends_to_lid("2.4.0-rc2")
    assert sends_to_lid("2.5.1")
    assert not sends_to_lid(None)
    assert not sends_to_lid("not a version")


def _learnt() -> Identities:
    known = Identities()
    # A stored message of a LID chat on 2.x: the phone JID beside it.
    known.learn_key(
        {
            "remoteJid": LID,
            "fromMe": False,
            "id": "3A0",
            "remoteJidAlt": PHONE_JID,
            "addressingMode": "lid",
        }  # fmt: skip
    )
    known.learn_contacts([(LID, "Marina Costa"), (HIDDEN, "Theo Baker")])
    return known


def test_a_lid_with_its_number_shows_both_and_is_one_person() -> None:
    known = _learnt()
    marina = known.resolve(LID)
    assert marina.phone == PHONE
    assert marina.name == "Marina Costa"
    assert marina.label() == f"+55 11 98700-1234 · {LID}"
    # The same person reached from the phone side.
    assert known.resolve(PHONE_JID).lid == LID
    assert known.resolve(PHONE_JID).name == "Marina Costa"
    assert known.same(LID, PHONE_JID)
    assert not known.same(LID, HIDDEN)


def test_a_lid_without_a_number_says_so() -> None:
    theo = _learnt().resolve(HIDDEN)
    assert theo.hidden_number
    assert theo.label() == f"{HIDDEN} (number hidden)"
    assert theo.title() == f"Theo Baker ({HIDDEN} (number hidden))"


@pytest.mark.parametrize("text", ["marina", "98700", "+55 11 98700-1234", "205641847891234", LID])
def test_search_finds_a_lid_contact_by_name_number_or_lid(text: str) -> None:
    assert _learnt().resolve(LID).matches(text)


def test_search_does_not_match_what_is_not_there() -> None:
    theo = _learnt().resolve(HIDDEN)
    assert not theo.matches("98700")
    assert not theo.matches("marina")


def test_send_goes_to_the_phone_before_2_4_and_to_the_lid_after() -> None:
    marina = _learnt().resolve(LID)
    assert marina.send_jid("2.3.7") == PHONE_JID
    assert marina.send_jid(None) == PHONE_JID
    assert marina.send_jid("2.4.0") == LID


def test_send_to_a_hidden_number_is_refused_before_2_4_with_the_reason() -> None:
    theo = _learnt().resolve(HIDDEN)
    with pytest.raises(NoRoute, match=r"2\.3\.7.*exists: false"):
        theo.send_jid("2.3.7")
    assert theo.send_jid("2.4.0") == HIDDEN


def test_phone_and_group_jids_are_sent_to_as_they_are() -> None:
    known = Identities()
    assert known.resolve(PHONE_JID).send_jid("2.3.6") == PHONE_JID
    group = "120363025912345678@g.us"
    assert known.resolve(group).send_jid("1.7.1") == group
    assert known.resolve(group).label() == group


def test_message_filters_one_on_2_3_7_each_form_before() -> None:
    marina = _learnt().resolve(LID)
    assert marina.message_filters("2.3.7") == [{"remoteJid": PHONE_JID}]
    assert marina.message_filters("2.3.6") == [{"remoteJid": LID}, {"remoteJid": PHONE_JID}]
    theo = _learnt().resolve(HIDDEN)
    assert theo.message_filters("2.3.7") == [{"remoteJid": HIDDEN}]


def test_members_teach_their_numbers_both_ways() -> None:
    known = Identities()
    known.learn_participant({"id": LID, "admin": None, "phoneNumber": PHONE_JID})
    known.learn_participant({"id": "4915112340077@s.whatsapp.net", "lid": "90210123456789@lid"})
    assert known.resolve(LID).phone == PHONE
    assert known.resolve("90210123456789@lid").phone == "4915112340077"
    assert len(known) == 2


def test_group_member_keys_and_baileys_6_sender_pn_pair_too() -> None:
    known = Identities()
    known.learn_key(
        {"remoteJid": "120363025912345678@g.us", "participant": LID, "participantAlt": PHONE_JID}
    )
    known.learn_key({"remoteJid": HIDDEN, "senderPn": "4915112340077@s.whatsapp.net"})
    assert known.resolve(LID).phone == PHONE
    assert known.resolve(HIDDEN).phone == "4915112340077"


def test_nonsense_beside_a_lid_teaches_nothing() -> None:
    known = Identities()
    known.learn_key({"remoteJid": LID, "remoteJidAlt": "not a number"})
    known.learn_key({"remoteJid": LID, "remoteJidAlt": 5511987001234})
    known.learn_participant({"id": LID, "phoneNumber": "120363025912345678@g.us"})
    assert len(known) == 0
    assert known.resolve(LID) == Identity(LID, lid=LID)


def test_stored_2_x_messages_teach_the_number_and_name_of_a_lid_sender() -> None:
    from gateway_tui.core.api.chat_models import StoredMessage

    row = {
        "key": {"remoteJid": LID, "fromMe": False, "id": "3A0", "remoteJidAlt": PHONE_JID,
                "addressingMode": "lid"},
        "pushName": "Marina Costa",
        "message": {"conversation": "Oi!"},
        "messageTimestamp": 1790000000,
    }  # fmt: skip
    message = StoredMessage.read(row)
    assert message is not None and message.alt == PHONE_JID
    known = Identities()
    known.learn_message(message)
    assert known.resolve(LID).title() == f"Marina Costa (+55 11 98700-1234 · {LID})"
    plain = StoredMessage.read(row | {"key": {"remoteJid": PHONE_JID, "id": "3A1"}})
    assert plain is not None and plain.alt is None


# --- the rule in the app's sends, against the demo (its support instance has @lid chats) ---


@contextlib.asynccontextmanager
async def _on_support(version: str):
    """A demo of ``version`` and the app's services on it: (demo, actions)."""
    from gateway_tui.core.api import GatewayClient
    from gateway_tui.core.services import Actions
    from gateway_tui.core.state import AppState
    from gateway_tui.demo.server import DemoServer

    with DemoServer(api_version=version) as server:
        async with GatewayClient(server.url, server.api_key, retry_delays=()) as client:
            await client.fetch_server_info()
            yield server, Actions(client, AppState())


@pytest.mark.parametrize("version", ["1.7.1", "2.3.7", "2.4.0"])
async def test_a_reply_in_a_lid_chat_goes_where_the_version_delivers(version: str) -> None:
    from gateway_tui.core.api.errors import InvalidRequest

    async with _on_support(version) as (server, actions):
        chats = server.state.instances["support"].chats
        await actions.chats.load_messages("support", LID)
        sends = len(server.state.writes)
        if version == "1.7.1":  # no number beside the LID on 1.7.1: refused, not sent
            with pytest.raises(InvalidRequest, match="hides this contact's number"):
                await actions.messages.send_text("support", LID, "hello")
            assert len(server.state.writes) == sends
            return
        await actions.messages.send_text("support", LID, "hello")
        to = LID if version == "2.4.0" else PHONE_JID
        assert chats[to].messages[-1].text == "hello"
        with pytest.raises(InvalidRequest) if version == "2.3.7" else _nothing():
            await actions.messages.send_text("support", HIDDEN, "hello")


def _nothing():
    return contextlib.nullcontext()


# --- the rule in the chats list and in list sends (single and to many) ---


@pytest.mark.parametrize("version", ["1.7.1", "2.3.7", "2.4.0"])
async def test_the_chats_read_shows_a_lid_chats_number_and_list_sends_go_where_they_work(
    version: str,
) -> None:
    """The chats list alone (findChats/findContacts/findMessages' newest keys) teaches a LID
    chat's number (2.x's remoteJidAlt): the row shows it beside the LID and is found by it;
    a list message to the LID goes to the number before 2.4.0-rc2 (the LID answers
    exists: false there), to the LID on 2.4, and is refused, nothing sent, when no number is
    known."""
    from gateway_tui.core.api.errors import InvalidRequest
    from gateway_tui.core.chat_book import chat_rows

    async with _on_support(version) as (server, actions):
        chats = server.state.instances["support"].chats
        book = await actions.chats.load_chat_book("support")
        known = actions.people.identities_of("support")
        rows = {r.jid: r for r in chat_rows(book, {}, lambda _j: None, known)}
        assert rows[HIDDEN].number == f"{HIDDEN} (number hidden)"
        if version == "1.7.1":  # 1.7.1 gives no number beside a LID
            assert rows[LID].number == f"{LID} (number hidden)"
        else:
            assert rows[LID].number == f"+55 11 98700-1234 · {LID}"
            assert PHONE in rows[LID].search
        sends = len(server.state.writes)
        if version == "1.7.1":
            with pytest.raises(InvalidRequest, match="hides this contact's number"):
                await actions.messages.send_list("support", _menu(LID))
            assert len(server.state.writes) == sends
            return
        result = await actions.messages.send_list("support", _menu(LID))
        to = LID if version == "2.4.0" else PHONE_JID
        assert result.key is not None and result.key.remote_jid == to
        assert chats[to].messages[-1].key["id"] == result.key.id
        with pytest.raises(InvalidRequest) if version == "2.3.7" else _nothing():
            await actions.messages.send_list("support", _menu(HIDDEN))


def _menu(to: str):
    from tests.data import send_list_request

    request = send_list_request(to, "Menu")
    footer = request.list_message.model_copy(update={"footer_text": "Thanks"})  # 2.x wants one
    return request.model_copy(update={"list_message": footer})


def test_to_many_a_lid_recipient_goes_to_its_number_or_is_left_out_with_the_reason() -> None:
    from gateway_tui.core.campaign.recipients import parse_recipients

    known = _learnt()
    recipients = parse_recipients(f"number,name\n{LID},Marina\n{HIDDEN},Theo\n{PHONE},Again\n")
    recipients.route_lids(lambda jid: known.resolve(jid).send_jid("2.3.7"))
    assert [r.number for r in recipients.recipients] == [PHONE]  # Marina's number, once
    assert recipients.recipients[0].name == "Marina"
    assert recipients.duplicates == 1
    (left_out,) = recipients.invalid
    assert left_out.field == "line 3" and "exists: false" in left_out.message
    on_2_4 = parse_recipients(f"{LID}\n{HIDDEN}\n")
    on_2_4.route_lids(lambda jid: known.resolve(jid).send_jid("2.4.0"))
    assert [r.number for r in on_2_4.recipients] == [LID, HIDDEN]


@pytest.mark.parametrize("version", ["2.3.7", "2.4.0"])
async def test_a_poll_to_a_lid_chat_goes_where_the_version_delivers(version: str) -> None:
    """The interactive composers' sends (core/services/kinds.py) follow the rule too."""
    from gateway_tui.core.api.errors import InvalidRequest
    from gateway_tui.core.api.message_kinds import Poll

    async with _on_support(version) as (server, actions):
        chats = server.state.instances["support"].chats
        await actions.chats.load_chat_book("support")
        poll = Poll("Lunch?", ("Yes", "No"))
        result = await actions.kinds.send("send_poll", "support", LID, poll)
        to = LID if version == "2.4.0" else PHONE_JID
        assert result.key is not None and result.key.remote_jid == to
        assert chats[to].messages[-1].key["id"] == result.key.id
        with pytest.raises(InvalidRequest) if version == "2.3.7" else _nothing():
            await actions.kinds.send("send_poll", "support", HIDDEN, poll)
