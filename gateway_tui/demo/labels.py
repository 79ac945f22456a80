"""Labels on the demo gateway (WhatsApp Business): an instance's labels, and labels on chats.

As recorded (../shared/recordings/v2.3.7 924-927, 956, 963) and as the 1.7.1 and 2.3.6
sources answer: ``findLabels`` reads the store (it works on a closed instance; one created
through the interface has none), ``handleLabel`` (1.7.1: PUT, 2.x: POST) asks WhatsApp first
(closed: 500 with the bare session error). A label's ``color`` is a number on 1.7.1 (its
model) and a string on 2.x (a text column). 1.7.1's findChats lists a chat's ``labels``; 2.x's
does not, and ``GET /chat/findChatByRemoteJid/{instance}?remoteJid=`` gives the chat row with
them.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from gateway_tui.demo.data import Chat, Instance, Workspace, number_of
from gateway_tui.demo.errors import GatewayError
from gateway_tui.demo.session import Reply, is_v2, plain_500, require_open
from gateway_tui.demo.validation import create_jid

if TYPE_CHECKING:
    from gateway_tui.demo.app import Call

# WhatsApp Business's five predefined labels and one of the business's own.
SEEDED_LABELS = (
    ("1", "New customer", 1, "1"),
    ("2", "New order", 2, "2"),
    ("3", "Pending payment", 3, "3"),
    ("4", "Paid", 4, "4"),
    ("5", "Order complete", 5, "5"),
    ("11", "VIP", 11, None),
)

HANDLE_LABEL = {
    "type": "object",
    "properties": {
        "number": {"type": "string", "description": "Invalid format"},
        "labelId": {"type": "string"},
        "action": {"type": "string", "enum": ["add", "remove"]},
    },
    "required": ["number", "labelId", "action"],
}
HANDLE_LABEL_V2 = HANDLE_LABEL | {"notEmpty": ["number", "labelId", "action"]}


def seed(instance: Instance, workspace: Workspace) -> None:
    """A seeded instance has WhatsApp Business labels; a few of its chats carry them."""
    if instance.integration_fields is not None:
        return  # created through the interface: nothing synced yet (recorded: [])
    workspace.labels = [
        {"id": label_id, "name": name, "color": color, "predefinedId": predefined}
        for label_id, name, color, predefined in SEEDED_LABELS
    ]
    rng = random.Random(instance.workspace_seed ^ 0x1AB)
    for position, chat in enumerate(workspace.chats.values()):
        if position % 3 == 0:
            chat.labels.append(rng.choice(("1", "2", "3")))
        if position % 5 == 1:
            chat.labels.append("11")


def _label_row(call: Call, label: dict[str, Any]) -> dict[str, Any]:
    row = {"color": label["color"], "name": label["name"], "id": label["id"]}
    if is_v2(call.state):
        return row | {"color": str(label["color"]), "predefinedId": label["predefinedId"]}
    if label["predefinedId"] is not None:
        row["predefinedId"] = label["predefinedId"]
    return row


async def find_labels(call: Call, instance: Instance) -> Reply:
    return 200, [_label_row(call, label) for label in instance.workspace.labels]


async def handle_label(call: Call, instance: Instance) -> Reply:
    body = call.validated(HANDLE_LABEL_V2 if is_v2(call.state) else HANDLE_LABEL)
    require_open(instance, "onWhatsApp", plain_500)  # whatsappNumber, unguarded: a bare 500
    from gateway_tui.demo import message_routes

    jid = create_jid(body["number"])
    if (
        not message_routes.exists_on_whatsapp(call.state, instance, jid)
        or number_of(jid) in call.state.not_on_whatsapp
    ):
        raise GatewayError(404, ["Number is not on WhatsApp"])
    action, label_id = body["action"], body["labelId"]
    if not any(label["id"] == label_id for label in instance.workspace.labels):
        # The demo's own refusal: WhatsApp has no such label on this account.
        raise GatewayError(400, [f"Unable to {action} label to chat", "Error: label not found"])
    chat = instance.chats.setdefault(jid, Chat(jid))
    if action == "add" and label_id not in chat.labels:
        chat.labels.append(label_id)
    elif action == "remove" and label_id in chat.labels:
        chat.labels.remove(label_id)
    if (
        call.state.events is not None
    ):  # WhatsApp confirms it: labels.association, as both lines send it
        data = {"instance": instance.name, "type": action, "chatId": jid, "labelId": label_id}
        call.state.events.emit(instance, "labels.association", data)
    return 200, {"numberJid": jid, "labelId": label_id, action: True}


def chat_labels(chat: Chat) -> dict[str, Any]:
    """1.7.1's findChats item: ``labels`` when the chat has any."""
    return {"labels": list(chat.labels)} if chat.labels else {}


async def find_chat_by_remote_jid(call: Call, instance: Instance) -> Reply:
    """2.x: the stored chat row, labels included (``null`` when there is none)."""
    remote_jid = call.query("remoteJid")
    if not remote_jid:
        error = GatewayError(400, None)
        error.body = {"error": "remoteJid is a required query parameter"}
        raise error
    from gateway_tui.demo.routing import JSON_NULL

    chat = instance.chats.get(remote_jid)
    if chat is None:
        return 200, JSON_NULL
    stamp = "2026-01-01T00:00:00.000Z"
    group = instance.groups.get(chat.jid)
    return 200, {
        "id": "cht-" + number_of(chat.jid),
        "remoteJid": chat.jid,
        "name": group.subject if group else None,
        "labels": list(chat.labels),
        "createdAt": stamp,
        "updatedAt": stamp,
        "instanceId": instance.instance_id,
        "unreadMessages": 1 if chat.marked_unread else 0,
    }


ROUTES_1 = (
    ("GET", "/label/findLabels/{instance}", find_labels),
    ("PUT", "/label/handleLabel/{instance}", handle_label),
)
ROUTES_2 = (
    ("GET", "/label/findLabels/{instance}", find_labels),
    ("POST", "/label/handleLabel/{instance}", handle_label),
    ("GET", "/chat/findChatByRemoteJid/{instance}", find_chat_by_remote_jid),
)
