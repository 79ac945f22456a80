"""Every GatewayClient call with valid arguments, what it sends and what a real server answers.

Shared by the mock-transport tests (tests/core/test_client_mock.py) and the property tests
(tests/fuzz/test_client_hypothesis.py).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from gateway_tui.core.api import (
    ArchiveResult,
    BusinessProfile,
    DeleteResult,
    GatewayClient,
    GroupInviteResult,
    GroupSummary,
    Instance,
    InstanceSettings,
    InstanceStatus,
    InviteCode,
    ListMessage,
    ListRow,
    ListSection,
    MessageKey,
    MessageStatus,
    Participant,
    ParticipantRole,
    RevokeResult,
    SendListOptions,
    SendListRequest,
    SentMessage,
)
from gateway_tui.core.api.models import ConnectionState, LogoutResult, SettingsSetResult

# A distinctive key: any test can grep for it in whatever the client shows.
KEY = "sk-LEAKCHECK-5f1e0c7a9b3d"
BASE = "http://gateway.test"
INSTANCE = "shop"
GROUP = "120363012345678901@g.us"
GROUP_ID = "120363012345678901"
NUMBER = "5511912345678"
JID = f"{NUMBER}@s.whatsapp.net"
MSG_KEY = MessageKey(remote_jid=JID, from_me=True, id="BAE5F2A1C0")

LIST_MESSAGE = ListMessage(
    title="Menu",
    description="Pick one",
    button_text="Open",
    footer_text="Thanks",
    sections=[
        ListSection(
            title="Drinks",
            rows=[
                ListRow(title="Tea", description="Hot", row_id="tea"),
                ListRow(title="Coffee", row_id="coffee"),
            ],
        )
    ],
)
LIST_MESSAGE_JSON = {
    "title": "Menu",
    "description": "Pick one",
    "buttonText": "Open",
    "footerText": "Thanks",
    "sections": [
        {
            "title": "Drinks",
            "rows": [
                {"title": "Tea", "description": "Hot", "rowId": "tea"},
                {"title": "Coffee", "rowId": "coffee"},  # no description: left out, not ""
            ],
        }
    ],
}


def list_request(delay: int | None = 1200, presence: str | None = "composing") -> SendListRequest:
    options = None
    if delay is not None or presence is not None:
        options = SendListOptions(delay=delay, presence=presence)
    return SendListRequest(number=NUMBER, list_message=LIST_MESSAGE, options=options)


SENT_MESSAGE = {
    "key": {"remoteJid": JID, "fromMe": True, "id": "BAE5F2A1C0"},
    "message": {"listMessage": {**LIST_MESSAGE_JSON, "listType": "PRODUCT_LIST"}},
    "messageTimestamp": "1717171717",
    "status": "PENDING",
}
INSTANCE_ITEM = {
    "instance": {
        "instanceName": "shop",
        "instanceId": "5b0c2a52-6c2e-4a39-9f3c-7d2f3f1b9a11",
        "owner": JID,
        "profileName": "Shop",
        "profilePictureUrl": None,
        "profileStatus": "",
        "status": "open",
        "serverUrl": "http://gateway.test",
        "apikey": "instance-token-123",
        "integration": {"integration": "WHATSAPP-BAILEYS", "token": "instance-token-123"},
    }
}
SETTINGS = {
    "reject_call": True,
    "groups_ignore": False,
    "always_online": True,
    "read_messages": False,
    "read_status": True,
    "sync_full_history": False,
    "msg_call": "Busy",
}


@dataclass(frozen=True)
class Call:
    """One client method with valid arguments, what it sends and what a real server answers."""

    name: str
    invoke: Callable[[GatewayClient], Awaitable[Any]]
    method: str
    path: str
    status: int
    answer: Any
    check: Callable[[Any], bool]
    query: dict[str, str] = field(default_factory=dict)
    sent: Any = None  # the exact JSON body; None: no body at all
    empty_means_default: bool = False  # documented with an empty body


CALLS = [
    Call(
        "send_list",
        lambda c: c.messages.send_list(INSTANCE, list_request()),
        "POST",
        "/message/sendList/shop",
        201,
        SENT_MESSAGE,
        lambda r: (
            isinstance(r, SentMessage)
            and r.status_kind is MessageStatus.PENDING
            and r.message.list_message is not None
            and r.message.list_message.list_type == "PRODUCT_LIST"
            and r.key == MSG_KEY
        ),
        sent={
            "number": NUMBER,
            "listMessage": LIST_MESSAGE_JSON,
            "options": {"delay": 1200, "presence": "composing"},
        },
    ),
    Call(
        "archive_chat",
        lambda c: c.chats.archive(INSTANCE, MSG_KEY, archive=False),
        "PUT",
        "/chat/archiveChat/shop",
        201,
        {"chatId": JID, "archived": True},
        lambda r: isinstance(r, ArchiveResult) and r.chat_id == JID and r.archived is True,
        sent={
            "lastMessage": {"key": {"remoteJid": JID, "fromMe": True, "id": "BAE5F2A1C0"}},
            "archive": False,
        },
    ),
    Call(
        "update_message",
        lambda c: c.messages.update(INSTANCE, MSG_KEY, "fixed text"),
        "PUT",
        "/chat/updateMessage/shop",
        200,
        {"key": {"id": "BAE5F2A1C0"}, "editedMessage": {"conversation": "fixed text"}},
        lambda r: isinstance(r, dict) and r["editedMessage"]["conversation"] == "fixed text",
        # number is the chat, as a string (a real server refuses an integer).
        sent={
            "number": JID,
            "text": "fixed text",
            "key": {"remoteJid": JID, "fromMe": True, "id": "BAE5F2A1C0"},
        },
        empty_means_default=True,
    ),
    Call(
        "send_group_invite",
        lambda c: c.groups.send_invite(INSTANCE, GROUP, ["4915123456701", "447700900123"], "Hi"),
        "POST",
        "/group/sendInvite/shop",
        200,
        {"send": True, "inviteUrl": "https://chat.whatsapp.com/AbC123"},
        lambda r: (
            isinstance(r, GroupInviteResult)
            and r.send is True
            and r.invite_url == "https://chat.whatsapp.com/AbC123"
        ),
        sent={"groupJid": GROUP, "numbers": ["4915123456701", "447700900123"], "description": "Hi"},
    ),
    Call(
        "fetch_profile",
        lambda c: c.contacts.fetch_profile(INSTANCE, "+55 (11) 91234-5678"),
        "POST",
        "/chat/fetchProfile/shop",
        200,
        {"wuid": JID, "name": "Padaria", "isBusiness": True, "website": ["https://a.example"]},
        lambda r: (
            isinstance(r, BusinessProfile)
            and r.name == "Padaria"
            and r.is_business is True
            and r.websites == ["https://a.example"]
        ),
        sent={"number": NUMBER},
        empty_means_default=True,
    ),
    Call(
        "update_group_subject",
        lambda c: c.groups.update_subject(INSTANCE, GROUP, "New name"),
        "PUT",
        "/group/updateGroupSubject/shop",
        201,
        {"update": "success"},
        lambda r: r.update == "success",
        query={"groupJid": GROUP},
        sent={"subject": "New name"},
        empty_means_default=True,
    ),
    Call(
        "fetch_instances",
        lambda c: c.instances.fetch(),
        "GET",
        "/instance/fetchInstances",
        200,
        [INSTANCE_ITEM, {"instance": {"instanceName": "b", "status": "close"}}],
        lambda r: (
            [i.instance_name for i in r] == ["shop", "b"]
            and all(isinstance(i, Instance) for i in r)
            and r[0].status_kind is InstanceStatus.OPEN
            and r[0].owner_number == NUMBER
        ),
    ),
    Call(
        "fetch_instances_by_name",
        lambda c: c.instances.fetch("shop"),
        "GET",
        "/instance/fetchInstances",
        200,
        INSTANCE_ITEM,  # a real server answers ONE object when a name is given
        lambda r: isinstance(r, list) and [i.instance_name for i in r] == ["shop"],
        query={"instanceName": "shop"},
    ),
    Call(
        "find_settings",
        lambda c: c.settings.find(INSTANCE),
        "GET",
        "/settings/find/shop",
        200,
        SETTINGS,
        lambda r: isinstance(r, InstanceSettings) and r.reject_call and r.msg_call == "Busy",
    ),
    Call(
        "set_settings",
        lambda c: c.settings.set(INSTANCE, InstanceSettings.model_validate(SETTINGS)),
        "POST",
        "/settings/set/shop",
        201,
        {"settings": {"instanceName": "shop", "settings": SETTINGS}},
        lambda r: (
            isinstance(r, SettingsSetResult)
            and r.applied == InstanceSettings.model_validate(SETTINGS)
        ),
        sent=SETTINGS,
    ),
    Call(
        "delete_instance",
        lambda c: c.instances.delete(INSTANCE),
        "DELETE",
        "/instance/delete/shop",
        200,
        {"status": "SUCCESS", "error": False, "response": {"message": "Instance deleted"}},
        lambda r: isinstance(r, DeleteResult) and r.status == "SUCCESS" and r.error is False,
    ),
    Call(
        "logout_instance",
        lambda c: c.instances.logout(INSTANCE),
        "DELETE",
        "/instance/logout/shop",
        200,
        {"status": "SUCCESS", "error": False, "response": {"message": "Instance logged out"}},
        lambda r: isinstance(r, LogoutResult) and r.status == "SUCCESS",
        empty_means_default=True,
    ),
    Call(
        "connection_state",
        lambda c: c.instances.connection_state(INSTANCE),
        "GET",
        "/instance/connectionState/shop",
        200,
        {"instance": {"instanceName": "shop", "state": "open"}},
        lambda r: isinstance(r, ConnectionState) and r.state == "open",
    ),
    Call(
        "group_participants",
        lambda c: c.groups.participants(INSTANCE, GROUP),
        "GET",
        "/group/participants/shop",
        200,
        {"participants": [{"id": JID, "admin": "superadmin"}, {"id": "1@s.whatsapp.net"}]},
        lambda r: (
            all(isinstance(p, Participant) for p in r)
            and [p.role for p in r] == [ParticipantRole.SUPERADMIN, ParticipantRole.MEMBER]
        ),
        query={"groupJid": GROUP},
    ),
    Call(
        "group_invite_code",
        lambda c: c.groups.invite_code(INSTANCE, GROUP),
        "GET",
        "/group/inviteCode/shop",
        200,
        {"inviteUrl": "https://chat.whatsapp.com/AbC123", "inviteCode": "AbC123"},
        lambda r: isinstance(r, InviteCode) and r.invite_code == "AbC123",
        query={"groupJid": GROUP},
    ),
    Call(
        "revoke_group_invite_code",
        lambda c: c.groups.revoke_invite(INSTANCE, GROUP),
        "PUT",
        "/group/revokeInviteCode/shop",
        201,
        {"revoked": True, "inviteCode": "NeW456"},
        lambda r: isinstance(r, RevokeResult) and r.revoked and r.invite_code == "NeW456",
        query={"groupJid": GROUP},
        empty_means_default=True,
    ),
    Call(
        "fetch_all_groups",
        lambda c: c.groups.fetch_all(INSTANCE),
        "GET",
        "/group/fetchAllGroups/shop",
        200,
        [{"id": GROUP, "subject": "Team", "size": "12"}],
        lambda r: (
            all(isinstance(g, GroupSummary) for g in r) and r[0].size == 12 and r[0].id == GROUP
        ),
        query={"getParticipants": "false"},
    ),
]
# Reads sent as POST (their filter in the body): a failure changed nothing, said as a failed read.
POST_READS = [c for c in CALLS if c.name == "fetch_profile"]
WRITES = [c for c in CALLS if c.method != "GET" and c not in POST_READS]
READS = [c for c in CALLS if c.method == "GET"]
NAMES = [c.name for c in CALLS]


def by_name(name: str) -> Call:
    return next(c for c in CALLS if c.name == name)
