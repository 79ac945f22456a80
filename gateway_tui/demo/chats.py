"""The demo gateway's chat store: chats, messages, contacts and delivery statuses.

An open instance gets about 30 chats of history (groups included, every common message kind,
a list message and its reply, a deleted message) on top of the chats its workspace starts with.
Answers follow the real 1.7.1 *file* store, quirks included (gateway-behaviour-1.7.1-more.md §1):
filters other than the message / contact id are ignored, there is no paging, a message sent
through the API is stored with ``pushName: ""`` and a protobuf-Long timestamp (so the server's
own sort leaves it out of order), and only the latest status of each message is kept. A message
sent here advances PENDING → SERVER_ACK → DELIVERY_ACK → READ over about ten seconds.

Shares no code with ``gateway_tui.core.api``: the client is tested against this.
"""

from __future__ import annotations

import random
import time
from typing import TYPE_CHECKING, Any

from gateway_tui.demo.data import (
    CONTACT_NAMES,
    GROUP_DOMAIN,
    SEED_EPOCH,
    Chat,
    Instance,
    Message,
    Workspace,
    new_message_id,
    number_of,
    person_jid,
)
from gateway_tui.demo.errors import GatewayError
from gateway_tui.demo.labels import chat_labels
from gateway_tui.demo.validation import create_jid

if TYPE_CHECKING:
    from gateway_tui.demo.app import Call

Reply = tuple[int, Any]

# Seconds after sending at which a sent message reaches each status.
STATUS_STEPS = ((0.0, "PENDING"), (1.0, "SERVER_ACK"), (4.0, "DELIVERY_ACK"), (10.0, "READ"))
BIG_CHAT_JID = person_jid("4915199990000")

# fmt: off
_NAMES = (
    "Ana Souza", "Bruno Lima", "Carla Dias", "Diego Alves", "Eva Martins", "Felix Braun",
    "Grace Okafor", "Hannah Kim", "Ivan Petrov", "Julia Rossi", "Kenji Sato", "Laura Gómez",
    "Mateo Silva", "Nina Larsen", "Omar Haddad", "Paula Costa", "Quentin Moreau", "Rosa Vidal",
    "Sam Carter", "Tara Singh", "Uma Patel", "Victor Hugo", "Wen Li", "Ximena Ruiz",
    "Yusuf Demir", "Zoe Clarke", "Loja Exemplo", "Oficina Central", "Dra. Beatriz",
)
_LINES = (
    "Hi! Is my order on its way?", "It left the warehouse this morning.",
    "Can you send the invoice again?", "Sure, sending it now.", "Thanks a lot!",
    "Do you open on Sunday?", "Only until noon on Sundays.", "Perfect, see you then.",
    "The delivery was missing one box.", "Sorry about that, we'll send it today.",
    "What's the price for 50 units?", "€4.20 each, €190 for 50.", "Great, I'll take them.",
    "Can we move the meeting to 3pm?", "3pm works for me.", "Running 10 minutes late",
    "No problem 👍", "Where can I pick it up?", "At the shop on Rua Augusta, 1200.",
)
# fmt: on
_HISTORY_TAG = 0x12C4A75


def _long(seconds: int) -> dict[str, Any]:
    return {"low": seconds, "high": 0, "unsigned": True}


def _media(rng: random.Random) -> dict[str, Any]:
    """A received message of some other kind than text."""
    return rng.choice(
        (
            {"imageMessage": {"caption": "the receipt", "mimetype": "image/jpeg"}},
            {"imageMessage": {"mimetype": "image/jpeg"}},
            {"audioMessage": {"ptt": True, "seconds": rng.randint(3, 90)}},
            {"documentMessage": {"fileName": "invoice-2211.pdf", "mimetype": "application/pdf"}},
            {"stickerMessage": {"mimetype": "image/webp"}},
            {"locationMessage": {"degreesLatitude": -23.5614, "degreesLongitude": -46.6559}},
            {"contactMessage": {"displayName": "Oficina Central", "vcard": "BEGIN:VCARD…"}},
            {"videoMessage": {"caption": "how it arrived", "seconds": 14}},
            {"reactionMessage": {"text": "👍", "key": {"id": "x"}}},
            {"interactiveMessage": {"body": {"text": "a kind this demo does not name"}}},
        )
    )


_LIST = {
    "title": "Delivery slots",
    "description": "Pick the best time for Saturday",
    "buttonText": "See slots",
    "listType": "PRODUCT_LIST",
    "sections": [
        {
            "title": "Saturday",
            "rows": [
                {"title": "Morning", "description": "9am to 12pm", "rowId": "sat-morning"},
                {"title": "Afternoon", "description": "1pm to 5pm", "rowId": "sat-afternoon"},
            ],
        },
        {"title": "Other", "rows": [{"title": "Talk to a person", "rowId": "agent"}]},
    ],
    "footerText": "Acme Store",
    "contextInfo": {},
}


_QUOTED_LIST = {k: v for k, v in _LIST.items() if k != "contextInfo"}


def _reply_to_list(list_id: str, row: dict[str, str], owner: str) -> dict[str, Any]:
    return {
        "listResponseMessage": {
            "title": row["title"],
            "listType": "SINGLE_SELECT",
            "singleSelectReply": {"selectedRowId": row["rowId"]},
            "contextInfo": {
                "stanzaId": list_id,
                "participant": owner,
                "quotedMessage": {"listMessage": _QUOTED_LIST},
            },
            "description": row.get("description", ""),
        }
    }


def add_history(instance: Instance, workspace: Workspace) -> None:
    """Chats, contacts and statuses of an open instance (deterministic per instance)."""
    rng = random.Random(instance.workspace_seed ^ _HISTORY_TAG)
    count = instance.history_chats
    many = count > 200  # the 10,000-chat knob: short chats, so the store stays small
    groups = list(workspace.groups.values())
    for jid, chat in workspace.chats.items():
        if not jid.endswith(GROUP_DOMAIN):
            known = CONTACT_NAMES.get(number_of(jid))
            workspace.contacts.setdefault(
                jid, known or _NAMES[len(workspace.contacts) % len(_NAMES)]
            )
        group = workspace.groups.get(jid)
        for position, message in enumerate(chat.messages):
            if message.key["fromMe"]:
                message.status = "READ"  # long read: only new messages are followed
                continue
            message.push_name = workspace.contacts.get(jid, "")
            if group is not None:  # a member wrote it: the store names them
                member = group.participants[(position + 2) % len(group.participants)]["id"]
                message.participant = member
                message.push_name = _NAMES[int(number_of(member)[-4:]) % len(_NAMES)]
    start = SEED_EPOCH - 3 * 86400
    for index in range(count):
        group = groups[index] if index < min(3, len(groups)) and not many else None
        if group is not None:
            jid = group.jid
        else:
            jid = person_jid(f"55119{rng.randint(10**7, 10**8 - 1)}")
            # Every seventh contact never set a name: the store keeps pushName "".
            name = "" if index % 7 == 6 else _NAMES[index % len(_NAMES)]
            workspace.contacts[jid] = name
        if jid in workspace.chats:
            continue
        chat = workspace.chats[jid] = Chat(jid, archived=index % 11 == 9)
        at = start + index * (3 * 86400 // max(count, 1))
        size = 2 if many else rng.randint(4, 16)
        others = group.participants if group is not None else []
        members = [p["id"] for p in others if p["id"] != instance.owner][:5]
        for position in range(size):
            at += rng.randint(30, 900)
            from_me = position % 2 == 1 if position < 2 else rng.random() < 0.45
            message = Message(
                key={"remoteJid": jid, "fromMe": from_me, "id": _history_id(rng, from_me)},
                text=rng.choice(_LINES),
                timestamp=at,
                status="READ",
            )
            if group is not None and not from_me and members:
                message.participant = rng.choice(members)
                message.push_name = _NAMES[int(number_of(message.participant)[-4:]) % len(_NAMES)]
            elif not from_me:
                message.push_name = workspace.contacts.get(jid, "")
            if not from_me and not many and rng.random() < 0.25:
                message.content = _media(rng)
                message.text = ""
            chat.messages.append(message)
        if not many:
            _special(index, instance, chat, rng)
    if instance.big_chat_messages:
        _big_chat(instance, workspace)


def _history_id(rng: random.Random, from_me: bool) -> str:
    return new_message_id(rng) if from_me else f"3A{rng.getrandbits(72):018X}"


def _special(index: int, instance: Instance, chat: Chat, rng: random.Random) -> None:
    """A few chats that show what the screens must draw right."""
    last = chat.messages[-1]
    if index == 3:  # a list message and the row the contact chose
        list_id = new_message_id(rng)
        chat.messages += [
            Message(
                key={"remoteJid": chat.jid, "fromMe": True, "id": list_id},
                text=_LIST["title"],
                timestamp=last.timestamp + 60,
                status="READ",
                list_message=dict(_LIST),
            ),
            Message(
                key={"remoteJid": chat.jid, "fromMe": False, "id": _history_id(rng, False)},
                text="",
                timestamp=last.timestamp + 300,
                content=_reply_to_list(list_id, _LIST["sections"][0]["rows"][0], instance.owner),
                push_name=last.push_name or chat.messages[0].push_name,
            ),
            Message(
                key={"remoteJid": chat.jid, "fromMe": True, "id": new_message_id(rng)},
                text="Booked: Saturday between 9am and 12pm.",
                timestamp=last.timestamp + 420,
                status="DELIVERY_ACK",
            ),
        ]
    elif index == 4:  # deleted by the sender: the file stays, the status says DELETED
        first = next((m for m in chat.messages if not m.key["fromMe"]), None)
        if first is not None:
            first.status = "DELETED"
    elif index == 5:  # a run of own messages at every delivery step
        lines = ("Order confirmed.", "Invoice attached below.", "Driver assigned.", "Out now.")
        statuses = ("READ", "DELIVERY_ACK", "SERVER_ACK", "PENDING")
        for step, (line, status) in enumerate(zip(lines, statuses, strict=True)):
            chat.messages.append(
                Message(
                    key={"remoteJid": chat.jid, "fromMe": True, "id": new_message_id(rng)},
                    text=line,
                    timestamp=last.timestamp + 60 * (step + 1),
                    status=status,
                )
            )
    elif index == 6:  # delivered, not read yet
        own = [m for m in chat.messages if m.key["fromMe"]]
        if own:
            own[-1].status = "DELIVERY_ACK"


def _big_chat(instance: Instance, workspace: Workspace) -> None:
    """One chat of ``big_chat_messages`` messages, for the benchmark."""
    chat = workspace.chats[BIG_CHAT_JID] = Chat(BIG_CHAT_JID)
    workspace.contacts[BIG_CHAT_JID] = "Big Chat"
    at = SEED_EPOCH - instance.big_chat_messages * 30
    for index in range(instance.big_chat_messages):
        from_me = index % 3 == 0
        chat.messages.append(
            Message(
                key={"remoteJid": BIG_CHAT_JID, "fromMe": from_me, "id": f"3A{index:018X}"},
                text=f"{_LINES[index % len(_LINES)]} (#{index})",
                timestamp=at + index * 30,
                status="READ",
                push_name="" if from_me else "Big Chat",
            )
        )


# --- what the store answers ----------------------------------------------------------------------


MEDIA_KINDS = ("imageMessage", "videoMessage", "audioMessage", "documentMessage", "stickerMessage")


def media_kind(message: Message) -> str | None:
    kind = next(iter(message.content), None) if message.content else None
    return kind if kind in MEDIA_KINDS else None


def media_bytes(message: Message) -> bytes:
    """The file of a media message: what was sent, else bytes made from its id (the same on
    every request, so a saved file can be compared with this)."""
    if message.media is not None:
        return message.media
    rng = random.Random(message.key["id"])
    return (
        b"DEMO-MEDIA "
        + message.key["id"].encode()
        + b"\n"
        + rng.randbytes(rng.randint(2_000, 40_000))
    )


def status_of(message: Message, now: float | None = None) -> tuple[str, float]:
    """The message's status now, and how many seconds after it was sent it got there."""
    if message.sent_clock is None:
        return message.status, 60.0
    elapsed = (time.monotonic() if now is None else now) - message.sent_clock
    reached = [step for step in STATUS_STEPS if step[0] <= elapsed]
    at, status = reached[-1]
    return status, at


def message_json(instance: Instance, message: Message) -> dict[str, Any]:
    sent_by_api = message.sent_clock is not None
    if message.content is not None:
        content = message.content
    elif message.list_message is not None:
        content = {"listMessage": message.list_message}
    elif sent_by_api or (message.key["fromMe"] and message.edited):
        content = {"extendedTextMessage": {"text": message.text}}
    else:
        content = {"conversation": message.text}
    key = dict(message.key)
    data: dict[str, Any] = {"key": key, "pushName": "" if sent_by_api else message.push_name}
    if message.participant:
        key["participant"] = message.participant
        data["participant"] = message.participant
    kind = next(iter(content))
    if (
        kind in MEDIA_KINDS
        and isinstance(content[kind], dict)
        and "fileLength" not in content[kind]
    ):
        content = {kind: {**content[kind], "fileLength": str(len(media_bytes(message)))}}
    data["message"] = content
    if sent_by_api:
        data["contextInfo"] = {} if kind == "listMessage" else None
    data["messageType"] = kind
    data["messageTimestamp"] = _long(message.timestamp) if sent_by_api else message.timestamp
    data["owner"] = instance.name
    data["source"] = "unknown" if sent_by_api else "web"
    return data


def _status_rows(instance: Instance) -> list[tuple[Message, str, float]]:
    """One row per message with a status (own messages outside groups, deleted ones)."""
    rows = []
    now = time.monotonic()
    for chat in instance.chats.values():
        for message in chat.messages:
            status, after = status_of(message, now)
            if status == "DELETED" or (
                message.key["fromMe"] and not chat.jid.endswith(GROUP_DOMAIN)
            ):
                rows.append((message, status, after))
    return rows


def _status_json(instance: Instance, message: Message, status: str, after: float) -> dict[str, Any]:
    return {
        "remoteJid": message.key["remoteJid"],
        "fromMe": message.key["fromMe"],
        "id": message.key["id"],
        "status": status,
        "datetime": int((message.timestamp + after) * 1000),
        "owner": instance.name,
    }


def _store_sort_key(message: Message) -> float:
    # The file store sorts on messageTimestamp; a Long object compares as NaN, which leaves
    # sent messages wherever the comparisons put them: here, after all the others.
    return float("-inf") if message.sent_clock is not None else float(message.timestamp)


def _where(call: Call) -> dict[str, Any]:
    body = call.body if isinstance(call.body, dict) else {}
    where = body.get("where", {})
    if not isinstance(where, dict):
        raise GatewayError(400, [["where is not of a type(s) object"]])
    limit = body.get("limit")
    if limit is not None and (not isinstance(limit, int) or isinstance(limit, bool)):
        raise GatewayError(400, [["limit is not of a type(s) integer"]])
    return where


def _limited(items: list[Any], call: Call) -> list[Any]:
    limit = call.body.get("limit") if isinstance(call.body, dict) else None
    if limit is None:
        return items
    return items[:limit] if limit > 0 else []


async def find_chats(call: Call, instance: Instance) -> Reply:
    chats = []
    for jid, chat in instance.chats.items():
        if jid.endswith(GROUP_DOMAIN):
            chats.append({"id": jid, "owner": instance.owner})
            continue
        received = [m.timestamp for m in chat.messages if not m.key["fromMe"]]
        item: dict[str, Any] = {"id": jid, "owner": instance.name}
        if received:
            item["lastMsgTimestamp"] = max(received)
        chats.append(item | chat_labels(chat))
    return 200, chats


async def find_messages(call: Call, instance: Instance) -> Reply:
    where = _where(call)
    key = where.get("key", {})
    if not isinstance(key, dict):
        raise GatewayError(400, [["where.key is not of a type(s) object"]])
    if "fromMe" in key and not isinstance(key["fromMe"], bool):
        raise GatewayError(
            400,
            [
                [
                    "where.key.fromMe is not of a type(s) boolean",
                    "where.key.fromMe is not one of enum values: true,false",
                ]
            ],
        )
    if key.get("id") == "" or key.get("remoteJid") == "" or where.get("_id") == "":
        raise GatewayError(400, [["The property cannot be empty"]])
    messages = [m for chat in instance.chats.values() for m in chat.messages]
    if isinstance(key.get("id"), str):  # the one filter the file store honours
        messages = [m for m in messages if m.key["id"] == key["id"]]
    messages.sort(key=_store_sort_key, reverse=True)
    return 200, [message_json(instance, m) for m in _limited(messages, call)]


async def find_contacts(call: Call, instance: Instance) -> Reply:
    where = _where(call)
    for name in ("_id", "id", "pushName"):
        if where.get(name) == "":
            raise GatewayError(400, [["The property cannot be empty"]])
    wanted = create_jid(where["id"]) if isinstance(where.get("id"), str) else None
    return 200, [
        {"id": jid, "pushName": name, "profilePictureUrl": None, "owner": instance.name}
        for jid, name in instance.workspace.contacts.items()
        if wanted is None or jid == wanted
    ]


async def find_status_messages(call: Call, instance: Instance) -> Reply:
    where = _where(call)
    if len(where) == 1 and next(iter(where.values())) == "":
        raise GatewayError(400, [["The property cannot be empty"]])
    rows = _status_rows(instance)
    if isinstance(where.get("id"), str):
        rows = [row for row in rows if row[0].key["id"] == where["id"]]
    answer = [_status_json(instance, *row) for row in rows]
    answer.sort(key=lambda item: item["datetime"], reverse=True)
    return 200, _limited(answer, call)


ROUTES = (
    ("GET", "/chat/findChats/{instance}", find_chats),
    ("POST", "/chat/findMessages/{instance}", find_messages),
    ("POST", "/chat/findContacts/{instance}", find_contacts),
    ("POST", "/chat/findStatusMessage/{instance}", find_status_messages),
)
