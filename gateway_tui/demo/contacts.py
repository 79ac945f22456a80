"""Contacts on the demo gateway, ``@lid`` identities included.

WhatsApp hides many numbers behind ``…@lid`` identities. The open instance ``support`` (of the
seeded world; the other instances' data stays as before) has a few such contacts: their chats'
``remoteJid`` is the ``@lid``; on 2.x (Baileys 7) a message key carries the phone JID as
``remoteJidAlt`` (``participantAlt`` in a group) with ``addressingMode: "lid"`` where WhatsApp
gave it, and a group member listed as ``@lid`` carries its ``phoneNumber``. One of them never
shared a number: nothing gives it.

findContacts on 2.x (POST): 2.3.6 honours ``where.remoteJid`` only; 2.3.7 also ``where.id``
(the contact row's id, not a JID) and ``where.pushName`` (exact), as recorded
(v2.3.7-more/105, v2.3.7/920-923, v2.3.7-vs-2.3.6.md). Rows as the real server writes them:
``isSaved`` when the contact has a name or picture, ``type`` contact / group_member / group.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any

from gateway_tui.demo import versions
from gateway_tui.demo.data import (
    GROUP_DOMAIN,
    SEED_EPOCH,
    Chat,
    Instance,
    Message,
    Workspace,
    new_message_id,
)
from gateway_tui.demo.session import Reply
from gateway_tui.demo.validation import create_jid

if TYPE_CHECKING:
    from gateway_tui.demo.app import Call

# (lid, phone JID or None, name, what they wrote)
LID_PEOPLE = (
    ("205641847891234@lid", "5511987001234@s.whatsapp.net", "Marina Costa", "Oi! Vi o anúncio."),
    ("118822334455667@lid", None, "Theo Baker", "Is the blue one still available?"),
    ("90210123456789@lid", "4915112340077@s.whatsapp.net", "Jana Vogel", "Danke, ist angekommen!"),
)
LID_INSTANCE = "support"
# A WhatsApp channel the instance follows (2.4's findChannels lists it).
CHANNEL = "120363401234567890@newsletter"
_STAMP = "2026-01-01T00:00:00.000Z"


def add_people(instance: Instance, workspace: Workspace) -> None:
    """Labels, and on ``support`` the ``@lid`` contacts with a chat each, one of them in its
    first group, and a channel (called when the workspace is built)."""
    from gateway_tui.demo import labels

    if instance.status == "open" and instance.name == LID_INSTANCE:
        for index, (lid, phone, name, line) in enumerate(LID_PEOPLE):
            workspace.contacts[lid] = name
            workspace.lids[lid] = phone
            at = SEED_EPOCH + 3600 * (index + 1)
            received = Message(
                key={"remoteJid": lid, "fromMe": False, "id": f"3A0L1D{index:014X}"},
                text=line,
                timestamp=at,
                status="READ",
                push_name=name,
            )
            answer = Message(
                key={"remoteJid": lid, "fromMe": True, "id": new_message_id_for(lid)},
                text="Thanks, we'll get back to you shortly.",
                timestamp=at + 120,
                status="READ",
            )
            workspace.chats.setdefault(lid, Chat(lid)).messages.extend((received, answer))
        news = Message(
            key={"remoteJid": CHANNEL, "fromMe": False, "id": "3A0CHANNEL0000000001"},
            text="This week: new delivery slots on Saturdays.",
            timestamp=SEED_EPOCH + 7200,
            status="READ",
        )
        workspace.chats.setdefault(CHANNEL, Chat(CHANNEL)).messages.append(news)
        group = next(iter(workspace.groups.values()), None)
        if group is not None and not any(p["id"] == LID_PEOPLE[0][0] for p in group.participants):
            group.participants.append({"id": LID_PEOPLE[0][0], "admin": None})
    labels.seed(instance, workspace)


def new_message_id_for(seed: str) -> str:
    import random

    return new_message_id(random.Random(seed))


def v2_key(instance: Instance, key: dict[str, Any]) -> dict[str, Any]:
    """A stored message's key as 2.x writes it: the phone JID beside an ``@lid``."""
    lids = instance.workspace.lids
    extra: dict[str, Any] = {}
    if lids.get(key.get("remoteJid", "")):
        extra = {"remoteJidAlt": lids[key["remoteJid"]], "addressingMode": "lid"}
    elif lids.get(key.get("participant") or ""):
        extra = {"participantAlt": lids[key["participant"]], "addressingMode": "lid"}
    return key | extra if extra else key


# ---------------------------------------------------------------- findContacts on 2.x


def contact_id(jid: str) -> str:
    """The contact row's id (the same one findChats gives as a chat's ``id``)."""
    return "ct-" + hashlib.sha256(jid.encode()).hexdigest()[:12]


def contact_row(instance: Instance, jid: str, name: str | None) -> dict[str, Any]:
    is_group = jid.endswith(GROUP_DOMAIN)
    saved = bool(name)
    return {
        "id": contact_id(jid),
        "remoteJid": jid,
        "pushName": name,
        "profilePicUrl": None,
        "createdAt": _STAMP,
        "updatedAt": _STAMP,
        "instanceId": instance.instance_id,
        "isGroup": is_group,
        "isSaved": saved,
        "type": "group" if is_group else "contact" if saved else "group_member",
    }


def _query_schema(fields: tuple[str, ...]) -> dict[str, Any]:
    """contactValidateSchema: ``where``'s fields are non-empty strings."""
    where = {
        "type": "object",
        "properties": {name: {"type": "string", "minLength": 1} for name in fields},
        "notEmpty": list(fields),
    }
    return {"type": "object", "properties": {"where": where}}


FIND_CONTACTS_2_3_6 = _query_schema(("_id", "pushName", "id"))
FIND_CONTACTS_2_3_7 = _query_schema(("_id", "pushName", "id", "remoteJid"))


def honours_filters(call: Call) -> bool:
    """2.3.7 and later apply ``where.id`` and ``where.pushName``; 2.3.6 ignores them."""
    return versions.at_least(call.state, "2.3.7")


async def find_contacts_v2(call: Call, instance: Instance) -> Reply:
    body = call.validated(FIND_CONTACTS_2_3_7 if honours_filters(call) else FIND_CONTACTS_2_3_6)
    where = body.get("where") or {}
    wanted = where.get("remoteJid")
    wanted_jid = create_jid(wanted) if isinstance(wanted, str) and wanted else None
    rows = [
        contact_row(instance, jid, name)
        for jid, name in instance.workspace.contacts.items()
        if wanted_jid is None or jid == wanted_jid
    ]
    if honours_filters(call):
        for field in ("id", "pushName"):
            if isinstance(where.get(field), str) and where[field]:
                rows = [row for row in rows if row[field] == where[field]]
    return 200, rows


ROUTES_2 = (("POST", "/chat/findContacts/{instance}", find_contacts_v2),)
