"""Every operation the app uses, against the operator's gateway (issue 29, item 15).

Each client method is called on this run's own never-paired instance: one that needs a WhatsApp
session must meet the gateway's "not connected" answer, read as such by the client
(``instance_not_connected``); one that reads the gateway's own store must answer. The instances
this run did not create are only read, with GETs. A method missing from the table (a new one)
fails ``test_the_table_names_every_client_method``: the operator then learns nothing of it.
"""

from __future__ import annotations

import base64
import inspect
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import pytest

from gateway_tui.core.api import (
    GatewayClient,
    GatewayError,
    InvalidResponse,
    ListMessage,
    ListRow,
    ListSection,
    SendListRequest,
)
from gateway_tui.core.api import message_kinds as kinds
from gateway_tui.core.api.group_models import GroupSetting, MemberAddMode, ParticipantAction
from gateway_tui.core.api.label_models import LabelAction
from gateway_tui.core.api.message_bodies import MediaUpload
from gateway_tui.core.api.models import MessageKey
from gateway_tui.core.api.resources.base import Resource
from tests.real_gateway.live import PREFIX

# No real person: a reserved-looking number, and the instance is never paired anyway.
NUMBER = "5500000000000"
JID = f"{NUMBER}@s.whatsapp.net"
GROUP = "120363000000000000@g.us"
KEY = MessageKey.model_validate({"remoteJid": JID, "fromMe": True, "id": "3EB0GTUICONFORMANCE"})
PNG = base64.b64encode(b"\x89PNG\r\n\x1a\n" + bytes(64)).decode("ascii")

Call = Callable[[GatewayClient, str], Awaitable[Any]]


@dataclass(frozen=True)
class Case:
    method: str  # "<resource>.<method>"
    call: Call
    # "answers": a reading of the gateway's store, answered without a session;
    # "not connected": needs WhatsApp, so a never-paired instance is refused, in words the
    #   client recognises;
    # "understood": either, as long as the client reads the answer (no unreadable answer).
    expect: str


def _list_request() -> SendListRequest:
    message = ListMessage(
        title="gtui conformance",
        description="never delivered: the instance is not paired",
        button_text="Open",
        footer_text="gtui conformance",
        sections=[ListSection(title="S", rows=[ListRow(title="Row", row_id="r1")])],
    )
    return SendListRequest(number=NUMBER, list_message=message)


CASES = [
    Case("instances.fetch", lambda c, i: c.instances.fetch(i), "answers"),
    Case("instances.connection_state", lambda c, i: c.instances.connection_state(i), "answers"),
    Case("instances.restart", lambda c, i: c.instances.restart(i), "understood"),
    Case("instances.logout", lambda c, i: c.instances.logout(i), "not connected"),
    Case("settings.find", lambda c, i: c.settings.find(i), "answers"),
    Case("hooks.find_webhook", lambda c, i: c.hooks.find_webhook(i), "answers"),
    Case("hooks.find_websocket", lambda c, i: c.hooks.find_websocket(i), "answers"),
    Case(
        "hooks.websocket_channel_served", lambda c, i: c.hooks.websocket_channel_served(), "answers"
    ),
    Case("chats.find", lambda c, i: c.chats.find(i), "answers"),
    Case("chats.find_messages", lambda c, i: c.chats.find_messages(i, remote_jid=JID), "answers"),
    Case("chats.chat_messages", lambda c, i: c.chats.chat_messages(i, JID), "answers"),
    Case("chats.chat_page", lambda c, i: c.chats.chat_page(i, JID), "answers"),
    Case("chats.last_messages", lambda c, i: c.chats.last_messages(i), "answers"),
    Case("chats.message_json", lambda c, i: c.chats.message_json(i, KEY.id), "answers"),
    Case("chats.statuses", lambda c, i: c.chats.statuses(i, remote_jid=JID), "answers"),
    Case("chats.archive", lambda c, i: c.chats.archive(i, KEY, True), "understood"),
    Case("chats.mark_read", lambda c, i: c.chats.mark_read(i, [KEY]), "understood"),
    Case("chats.media_of", lambda c, i: c.chats.media_of(i, KEY.id), "understood"),
    Case("contacts.find", lambda c, i: c.contacts.find(i), "answers"),
    Case("contacts.fetch_profile", lambda c, i: c.contacts.fetch_profile(i, NUMBER), "understood"),
    # "understood", not "not connected": a real 2.3.6 answers a never-paired instance 400 {}
    # (recording v2.3.6-more/109), a 1.7.1 500 "reading 'onWhatsApp'": no words to tell.
    Case(
        "contacts.whatsapp_numbers",
        lambda c, i: c.contacts.whatsapp_numbers(i, [NUMBER]),
        "understood",
    ),
    Case("groups.fetch_all", lambda c, i: c.groups.fetch_all(i), "understood"),
    Case("groups.participants", lambda c, i: c.groups.participants(i, GROUP), "not connected"),
    Case("groups.invite_code", lambda c, i: c.groups.invite_code(i, GROUP), "understood"),
    Case("groups.revoke_invite", lambda c, i: c.groups.revoke_invite(i, GROUP), "understood"),
    Case(
        "groups.update_subject",
        lambda c, i: c.groups.update_subject(i, GROUP, "gtui conformance"),
        "understood",
    ),
    Case(
        "groups.send_invite",
        lambda c, i: c.groups.send_invite(i, GROUP, [NUMBER], "gtui conformance"),
        "understood",
    ),
    Case(
        "messages.send_list", lambda c, i: c.messages.send_list(i, _list_request()), "not connected"
    ),
    Case(
        "messages.send_text", lambda c, i: c.messages.send_text(i, NUMBER, "gtui"), "not connected"
    ),
    Case(
        "messages.send_media",
        lambda c, i: c.messages.send_media(
            i, NUMBER, MediaUpload(mediatype="image", media=PNG, file_name="gtui.png")
        ),
        "not connected",
    ),
    Case(
        "messages.send_reaction", lambda c, i: c.messages.send_reaction(i, KEY, "👍"), "understood"
    ),
    Case("messages.update", lambda c, i: c.messages.update(i, KEY, "gtui", NUMBER), "understood"),
    # The methods merged later: each on the never-paired instance, the group and number no one's.
    Case(
        "chats.delete_for_everyone", lambda c, i: c.chats.delete_for_everyone(i, KEY), "understood"
    ),
    Case("chats.mark_played", lambda c, i: c.chats.mark_played(i, [KEY]), "understood"),
    Case(
        "chats.get_poll_votes",
        lambda c, i: c.chats.get_poll_votes(i, KEY.remote_jid, KEY.id),
        "understood",
    ),
    Case("chats.mark_unread", lambda c, i: c.chats.mark_unread(i, KEY), "understood"),
    Case(
        "chats.send_presence",
        lambda c, i: c.chats.send_presence(i, NUMBER, "composing"),
        "understood",
    ),
    Case(
        "groups.create",
        lambda c, i: c.groups.create(i, "gtui conformance", [NUMBER]),
        "understood",
    ),
    Case("groups.info", lambda c, i: c.groups.info(i, GROUP), "understood"),
    Case("groups.leave", lambda c, i: c.groups.leave(i, GROUP), "understood"),
    Case(
        "groups.set_disappearing", lambda c, i: c.groups.set_disappearing(i, GROUP, 0), "understood"
    ),
    Case(
        "groups.set_member_add_mode",
        lambda c, i: c.groups.set_member_add_mode(i, GROUP, list(MemberAddMode)[0]),
        "understood",
    ),
    Case(
        "groups.update_description",
        lambda c, i: c.groups.update_description(i, GROUP, "gtui conformance"),
        "understood",
    ),
    Case(
        "groups.update_participants",
        lambda c, i: c.groups.update_participants(i, GROUP, list(ParticipantAction)[0], [NUMBER]),
        "understood",
    ),
    Case(
        "groups.update_setting",
        lambda c, i: c.groups.update_setting(i, GROUP, list(GroupSetting)[0]),
        "understood",
    ),
    Case("labels.find", lambda c, i: c.labels.find(i), "understood"),
    Case("labels.of_chat", lambda c, i: c.labels.of_chat(i, NUMBER), "understood"),
    Case(
        "labels.handle",
        lambda c, i: c.labels.handle(i, NUMBER, "1", list(LabelAction)[0]),
        "understood",
    ),
    Case(
        "messages.send_buttons",
        lambda c, i: c.messages.send_buttons(
            i,
            NUMBER,
            kinds.Buttons(
                title="gtui conformance",
                buttons=(kinds.Button(type="reply", display_text="Ok", id="ok"),),
            ),
        ),
        "understood",
    ),
    Case(
        "messages.send_carousel",
        lambda c, i: c.messages.send_carousel(
            i,
            NUMBER,
            kinds.Carousel(
                body="gtui conformance",
                cards=(
                    kinds.Card(
                        body="gtui",
                        buttons=(kinds.Button(type="reply", display_text="Ok", id="ok"),),
                    ),
                ),
            ),
        ),
        "understood",
    ),
    Case(
        "messages.send_contacts",
        lambda c, i: c.messages.send_contacts(
            i, NUMBER, kinds.ContactCards(cards=(kinds.ContactCard("gtui", NUMBER),))
        ),
        "understood",
    ),
    Case(
        "messages.send_location",
        lambda c, i: c.messages.send_location(i, NUMBER, kinds.Location(0.0, 0.0, "gtui", "gtui")),
        "understood",
    ),
    Case(
        "messages.send_poll",
        lambda c, i: c.messages.send_poll(i, NUMBER, kinds.Poll("gtui", ("a", "b"))),
        "understood",
    ),
    Case(
        "messages.send_voice_note",
        lambda c, i: c.messages.send_voice_note(i, NUMBER, kinds.VoiceNote(audio=PNG)),
        "understood",
    ),
]

# Client methods not in the table, each with where it is checked instead.
ELSEWHERE = {
    "instances.create": "scratch_instance (conftest): every test's own instance",
    "instances.delete": "test_live.py test_delete_removes_the_instance, and the clean-up",
    "instances.connect": "asks the gateway for a QR code: this suite never starts a pairing",
    "settings.set": "test_live.py test_settings_are_written_and_read_back",
    "hooks.set_webhook": "test_live.py test_a_webhook_and_the_websocket_are_written_…",
    "hooks.set_websocket": "test_live.py test_a_webhook_and_the_websocket_are_written_…",
    "messages.send_list_curl": "builds a command line; calls nothing",
}


def client_methods() -> set[str]:
    found = set()
    for name, value in vars(GatewayClient("http://127.0.0.1:9", "k" * 8)).items():
        if isinstance(value, Resource):
            for method, _ in inspect.getmembers(type(value), inspect.isfunction):
                if not method.startswith("_") and method not in ("timeout", "dialect"):
                    found.add(f"{name}.{method}")
    return found


def test_the_table_names_every_client_method() -> None:
    tabled = {case.method for case in CASES}
    assert not tabled & set(ELSEWHERE)
    assert client_methods() - tabled - set(ELSEWHERE) == set()


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.method)
async def test_each_call_on_a_never_paired_instance(client, scratch_instance, case: Case) -> None:
    try:
        await case.call(client, scratch_instance)
    except GatewayError as error:
        assert not isinstance(error, InvalidResponse), f"an answer the client cannot read: {error}"
        assert case.expect != "answers", f"{case.method} refused: {error.summary}"
        if case.expect == "not connected":
            assert error.instance_not_connected, (case.method, error.messages)
    else:
        assert case.expect != "not connected", f"{case.method} answered without a session"


# Only GETs of instances this run did not create: a glance, nothing written.
READS_OF_THE_REST = [
    case
    for case in CASES
    if case.method
    in ("instances.connection_state", "settings.find", "hooks.find_webhook", "hooks.find_websocket")
]


@pytest.mark.parametrize("case", READS_OF_THE_REST, ids=lambda case: case.method)
async def test_reads_of_the_instances_this_run_did_not_create(client, case: Case) -> None:
    others = [i.instance_name for i in await client.instances.fetch()]
    others = [name for name in others if not name.startswith(PREFIX)][:5]
    for name in others:
        try:
            await case.call(client, name)
        except GatewayError as error:  # refused (it may be paired elsewhere, or broken)
            assert not isinstance(error, InvalidResponse), f"{name}: {error}"
