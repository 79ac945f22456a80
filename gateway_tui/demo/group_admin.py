"""Group administration on the demo gateway: participants (add, remove, promote, demote),
settings (announcement / locked), description, disappearing messages, leave, create, group
details, and 2.4's member-add mode.

As the real servers answer (../shared/recordings v1.7.1-more 109-119 and 150-152,
v2.3.6-more 117-127 and 159-161, v2.3.7 913-919 and 953-955; the 1.7.1 and 2.3.6 sources for
the success bodies): 1.7.1 changes a group with PUT, 2.x with POST; the group JID comes from
the body or the ``groupJid`` query; validation errors are ``[{"property", "message"}]``. On an
open instance the change is made, so the group's participants, settings and description read
back changed; WhatsApp's refusals are the texts Baileys gives (``Error: not-authorized``,
``Error: item-not-found``) and, per participant, a status code (``409`` already there, ``404``
not a member, ``403`` not allowed).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from gateway_tui.demo.data import GROUP_DOMAIN, Group, Instance, is_on_whatsapp, number_of
from gateway_tui.demo.errors import GatewayError
from gateway_tui.demo.session import (
    Reply,
    is_v2,
    labelled,
    only_on_24,
    require_open,
)
from gateway_tui.demo.validation import GROUP_ONLY, create_jid

if TYPE_CHECKING:
    from gateway_tui.demo.app import Call

_STRING = {"type": "string"}
_NUMBERS = {
    "type": "array",
    "minItems": 1,
    "uniqueItems": True,
    "items": {
        "type": "string",
        "minLength": 10,
        "pattern": r"\d+",
        "description": '"participants" must be an array of numeric strings',
    },
}
PARTICIPANT_ACTIONS = ["add", "remove", "promote", "demote"]
SETTING_ACTIONS = ["announcement", "not_announcement", "locked", "unlocked"]
EXPIRATIONS = [0, 86400, 604800, 7776000]
MEMBER_ADD_MODES = ["admin_add", "all_member_add"]

UPDATE_PARTICIPANTS = {
    "type": "object",
    "properties": {
        "groupJid": _STRING,
        "action": {"type": "string", "enum": PARTICIPANT_ACTIONS},
        "participants": _NUMBERS,
    },
    "required": ["groupJid", "action", "participants"],
    "notEmpty": ["groupJid", "action"],
}
UPDATE_SETTING = {
    "type": "object",
    "properties": {"groupJid": _STRING, "action": {"type": "string", "enum": SETTING_ACTIONS}},
    "required": ["groupJid", "action"],
    "notEmpty": ["groupJid", "action"],
}
TOGGLE_EPHEMERAL = {
    "type": "object",
    "properties": {"groupJid": _STRING, "expiration": {"type": "number", "enum": EXPIRATIONS}},
    "required": ["groupJid", "expiration"],
    "notEmpty": ["groupJid", "expiration"],
}
UPDATE_DESCRIPTION = {
    "type": "object",
    "properties": {"groupJid": _STRING, "description": _STRING},
    "required": ["groupJid", "description"],
    "notEmpty": ["groupJid", "description"],
}
MEMBER_ADD_MODE = {
    "type": "object",
    "properties": {"groupJid": _STRING, "mode": {"type": "string", "enum": MEMBER_ADD_MODES}},
    "required": ["groupJid", "mode"],
    "notEmpty": ["groupJid", "mode"],
}
CREATE_GROUP = {
    "type": "object",
    "properties": {
        "subject": _STRING,
        "description": _STRING,
        "profilePicture": _STRING,
        "promoteParticipants": {"type": "boolean", "enum": [True, False]},
        "participants": _NUMBERS,
    },
    "required": ["subject", "participants"],
    "notEmpty": ["subject", "description", "profilePicture"],
}
LEAVE = {"type": "object", "properties": {"groupJid": _STRING}, "required": ["groupJid"]}


def _target(
    call: Call,
    instance: Instance,
    schema: dict[str, Any],
    failure: tuple[int, str, str],
    *,
    as_admin: bool | None = True,
) -> tuple[Group, dict[str, Any]]:
    """Validate, need the session, find the group: the group and the request.

    ``failure`` is the route's (status, label, session method); ``as_admin`` None: only when
    the group is locked (only admins then edit its info).
    """
    status, label, client_method = failure
    request = call.group_request(schema)
    require_open(instance, client_method, labelled(status, label))
    group = instance.groups.get(request["groupJid"])
    if group is None:
        raise GatewayError(status, [label, "Error: item-not-found"])
    if as_admin is None:
        as_admin = group.restrict
    if as_admin and group.role_of(instance.owner) is None:
        raise GatewayError(status, [label, "Error: not-authorized"])
    return group, request


# ---------------------------------------------------------------- participants


def _participant_result(jid: str, status: str) -> dict[str, Any]:
    attrs: dict[str, Any] = {"jid": jid}
    if status != "200":
        attrs["error"] = status
    return {"status": status, "jid": jid, "content": {"tag": "participant", "attrs": attrs}}


def _change(call: Call, group: Group, action: str, jid: str) -> str:
    """One participant's change, made; its status code as WhatsApp reports it."""
    member = next((p for p in group.participants if p["id"] == jid), None)
    if action == "add":
        if member is not None:
            return "409"
        if jid.endswith("@s.whatsapp.net") and (
            not is_on_whatsapp(number_of(jid)) or number_of(jid) in call.state.not_on_whatsapp
        ):
            return "403"
        group.participants.append({"id": jid, "admin": None})
        return "200"
    if member is None:
        return "404"
    if member["admin"] == "superadmin" and action in ("remove", "demote"):
        return "403"  # the group's creator stays
    if action == "remove":
        group.participants.remove(member)
    else:
        member["admin"] = "admin" if action == "promote" else None
    return "200"


async def update_participant(call: Call, instance: Instance) -> Reply:
    failure = (400, "Error updating participants", "groupParticipantsUpdate")
    group, request = _target(call, instance, UPDATE_PARTICIPANTS, failure)
    results = []
    for number in request["participants"]:
        jid = create_jid(number)
        results.append(_participant_result(jid, _change(call, group, request["action"], jid)))
    changed = [result["jid"] for result in results if result["status"] == "200"]
    _announce_participants(call, instance, group, request["action"], changed)
    return 201, {"updateParticipants": results}


def _announce_participants(
    call: Call, instance: Instance, group: Group, action: str, jids: list[str]
) -> None:
    """group-participants.update, as WhatsApp confirms a change; 2.x adds participantsData
    (each one's phone number: the ``@lid``'s when known, else the JID's number)."""
    if not jids or call.state.events is None:
        return
    data: dict[str, Any] = {
        "id": group.jid,
        "author": instance.owner,
        "participants": jids,
        "action": action,
    }
    if is_v2(call.state):
        lids = instance.workspace.lids
        data["participantsData"] = [
            {"jid": jid, "phoneNumber": lids.get(jid) or number_of(jid)} for jid in jids
        ]
    call.state.events.emit(instance, "group-participants.update", data)


# ---------------------------------------------------------------- settings and description


async def update_setting(call: Call, instance: Instance) -> Reply:
    failure = (400, "Error updating setting", "groupSettingUpdate")
    group, request = _target(call, instance, UPDATE_SETTING, failure)
    action = request["action"]
    if action in ("announcement", "not_announcement"):
        group.announce = action == "announcement"
    else:
        group.restrict = action == "locked"
    # Baileys answers nothing: the server's {updateSetting: undefined} is written as {}.
    return 201, {}


async def toggle_ephemeral(call: Call, instance: Instance) -> Reply:
    failure = (400, "Error updating setting", "groupToggleEphemeral")
    group, request = _target(call, instance, TOGGLE_EPHEMERAL, failure, as_admin=None)
    group.ephemeral = int(request["expiration"])
    return 201, {"success": True}


async def update_description(call: Call, instance: Instance) -> Reply:
    failure = (500, "Error updating group description", "groupUpdateDescription")
    group, request = _target(call, instance, UPDATE_DESCRIPTION, failure)
    group.description = request["description"]
    return 201, {"update": "success"}


async def update_member_add_mode(call: Call, instance: Instance) -> Reply:
    """2.4: who may add members (``admin_add`` / ``all_member_add``)."""
    failure = (400, "Error updating member add mode", "groupMemberAddMode")
    group, request = _target(call, instance, MEMBER_ADD_MODE, failure)
    group.member_add_mode = request["mode"]
    return 201, {"update": "success", "mode": request["mode"]}


# ---------------------------------------------------------------- details, leave, create


def participants_of(call: Call, instance: Instance, group: Group) -> list[dict[str, Any]]:
    """The participants as the line lists them: on 2.x an ``…@lid`` member carries its
    ``phoneNumber`` when WhatsApp gave it (Baileys 7)."""
    if not is_v2(call.state):
        return [dict(p) for p in group.participants]
    lids = instance.workspace.lids
    return [
        {**p, "phoneNumber": lids[p["id"]]} if lids.get(p["id"]) else dict(p)
        for p in group.participants
    ]


def _details(call: Call, instance: Instance, group: Group) -> dict[str, Any]:
    item = group.summary(with_participants=False)
    item["participants"] = participants_of(call, instance, group)
    if is_v2(call.state):
        item |= {"isCommunity": False, "isCommunityAnnounce": False}
    return item


async def find_group_infos(call: Call, instance: Instance) -> Reply:
    failure = (404, "Error fetching group", "groupMetadata")
    group, _ = _target(call, instance, GROUP_ONLY, failure, as_admin=False)
    return 200, _details(call, instance, group)


async def group_participants_v2(call: Call, instance: Instance) -> Reply:
    """2.x /group/participants: the 1.7.1 answer, with the @lid members' phone numbers."""
    failure = (404, "No participants", "groupMetadata")
    group, _ = _target(call, instance, GROUP_ONLY, failure, as_admin=False)
    return 200, {"participants": participants_of(call, instance, group)}


async def leave_group(call: Call, instance: Instance) -> Reply:
    failure = (400, "Unable to leave the group", "groupLeave")
    group, _ = _target(call, instance, LEAVE, failure, as_admin=False)
    jid = group.jid
    del instance.groups[jid]
    return 200, {"groupJid": jid, "leave": True}


def _metadata(call: Call, group: Group) -> dict[str, Any]:
    """What Baileys' groupMetadata gives (the real create answers it whole)."""
    item: dict[str, Any] = {"id": group.jid}
    if is_v2(call.state):
        item["addressingMode"] = "pn"
    return item | {
        "subject": group.subject,
        "subjectOwner": group.subject_owner,
        "subjectTime": group.subject_time,
        "size": len(group.participants),
        "creation": group.creation,
        "owner": group.owner,
        "desc": group.description or None,
        "descId": f"{group.creation:X}" if group.description else None,
        "restrict": group.restrict,
        "announce": group.announce,
        "isCommunity": False,
        "isCommunityAnnounce": False,
        "joinApprovalMode": False,
        "memberAddMode": group.member_add_mode == "all_member_add",
        "participants": [dict(p) for p in group.participants],
        "ephemeralDuration": group.ephemeral or None,
    }


async def create_group(call: Call, instance: Instance) -> Reply:
    label = "Error creating group"
    body = call.validated(CREATE_GROUP)
    require_open(instance, "onWhatsApp", labelled(500, label))
    state = call.state
    members = []
    for number in body["participants"]:
        jid = create_jid(number)
        on_whatsapp = jid.endswith("@lid") or (
            is_on_whatsapp(number_of(jid)) and number_of(jid) not in state.not_on_whatsapp
        )
        if on_whatsapp and jid != instance.owner and jid not in members:
            members.append(jid)  # the real server drops who is not on WhatsApp
    now = int(time.time())
    jid = f"120363{state.rng.getrandbits(40) % 10**12:012d}{GROUP_DOMAIN}"
    role = "admin" if body.get("promoteParticipants") else None
    group = Group(
        jid=jid,
        subject=body["subject"],
        owner=instance.owner,
        creation=now,
        participants=[{"id": instance.owner, "admin": "superadmin"}]
        + [{"id": member, "admin": role} for member in members],
        invite_code=state.new_invite_code(),
        description=body.get("description", ""),
        subject_owner=instance.owner,
        subject_time=now,
    )
    instance.groups[jid] = group
    return 201, _metadata(call, group)


# ---------------------------------------------------------------- routes

_GROUP = "/group/{name}/{{instance}}"


def _path(name: str) -> str:
    return _GROUP.format(name=name)


ROUTES_1 = (
    ("PUT", _path("updateParticipant"), update_participant),
    ("PUT", _path("updateSetting"), update_setting),
    ("PUT", _path("toggleEphemeral"), toggle_ephemeral),
    ("PUT", _path("updateGroupDescription"), update_description),
    ("GET", _path("findGroupInfos"), find_group_infos),
    ("POST", _path("create"), create_group),
    ("DELETE", _path("leaveGroup"), leave_group),
)
ROUTES_2 = (
    ("POST", _path("updateParticipant"), update_participant),
    ("POST", _path("updateSetting"), update_setting),
    ("POST", _path("toggleEphemeral"), toggle_ephemeral),
    ("POST", _path("updateGroupDescription"), update_description),
    ("POST", _path("updateMemberAddMode"), only_on_24(update_member_add_mode)),
    ("GET", _path("findGroupInfos"), find_group_infos),
    ("GET", _path("participants"), group_participants_v2),
    ("POST", _path("create"), create_group),
    ("DELETE", _path("leaveGroup"), leave_group),
)
