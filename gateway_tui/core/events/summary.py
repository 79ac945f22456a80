"""One line per event: what happened, in a few words (chat and sender, message type, new state,
QR, presence, history sync…), read from the recorded payloads of both lines.

Every reader is liberal (a field of the wrong type reads as absent; an unknown event gets the
names of its fields) and the line is printable (core/text/sanitize): server data, never markup,
never a control sequence. A QR code's image or code is never written out, only that one came.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gateway_tui.core.events.record import EventRecord, setting_name
from gateway_tui.core.text.sanitize import printable

LIMIT = 160


def _s(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _d(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _items(data: Any) -> list[dict[str, Any]]:
    """The objects of ``data``: a list's, or ``data`` itself."""
    if isinstance(data, list):
        return [item for item in data if isinstance(item, dict)]
    return [data] if isinstance(data, dict) else []


def _more(items: list[Any], shown: int = 1) -> str:
    return f" (+{len(items) - shown} more)" if len(items) > shown else ""


def _number(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return int(value)
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    return None


def chat_of(record: EventRecord) -> str:
    """The chat (JID) an event is about, "" when it names none."""
    for item in _items(record.data)[:1]:
        key = _d(item.get("key"))
        for value in (key.get("remoteJid"), item.get("remoteJid"), item.get("chatId")):
            if _s(value):
                return value
        if record.event.startswith(("presence.", "chats.", "contacts.", "group")):
            if _s(item.get("id")):
                return item["id"]
        association = _d(item.get("association"))
        if _s(association.get("chatId")):
            return association["chatId"]
    return ""


def _message(data: Any) -> str:
    from gateway_tui.core.api.chat_models import StoredMessage

    items = _items(data)
    if not items:
        return "no message in it"
    message = StoredMessage.read(items[0])
    if message is None:
        return "a message the app cannot read" + _more(items)
    if message.from_me:
        who = "me"
    elif message.participant:  # a group member
        who = f"{message.sender_name or ''} {message.participant}".strip()
    else:  # the chat itself wrote: its name, when it gave one
        who = message.sender_name or ""
    kind = message.kind or "message"
    text = f": {message.text}" if message.text and message.text != f"[{kind}]" else ""
    parts = [message.remote_jid, who, f"{kind}{text}"]
    return " · ".join(part for part in parts if part) + _more(items)


def _update(data: Any) -> str:
    items = _items(data)
    if not items:
        return "no update in it"
    item = items[0]
    key = _d(item.get("key"))
    chat = _s(item.get("remoteJid")) or _s(key.get("remoteJid"))
    ident = _s(item.get("keyId")) or _s(item.get("id")) or _s(key.get("id"))
    update = _d(item.get("update"))
    status = item.get("status") or update.get("status")
    shown = f"→ {status}" if status is not None else "changed"
    return f"{chat} · {ident} {shown}{_more(items)}".strip(" ·")


def _deleted(data: Any) -> str:
    items = _items(data)
    if not items:
        return "deleted"
    key = _d(items[0].get("key")) or items[0]
    return f"{_s(key.get('remoteJid'))} · {_s(key.get('id'))} deleted{_more(items)}"


def _connection(data: Any) -> str:
    item = _d(data)
    state = _s(item.get("state")) or "?"
    reason = item.get("statusReason")
    who = _s(item.get("profileName")) or _s(item.get("wuid"))
    parts = [f"state {state}" + (f" ({reason})" if reason is not None else "")]
    if who:
        parts.append(who)
    return " · ".join(parts)


def _qrcode(data: Any) -> str:
    qrcode = _d(_d(data).get("qrcode")) or _d(data)
    pairing = _s(qrcode.get("pairingCode"))
    said = "a new QR code to scan"
    return f"{said} (pairing code {pairing})" if pairing else said


def _presence(data: Any) -> str:
    item = _d(data)
    chat = _s(item.get("id"))
    presences = _d(item.get("presences"))
    states = [
        f"{jid if jid != chat else ''} {_s(_d(value).get('lastKnownPresence')) or '?'}".strip()
        for jid, value in list(presences.items())[:3]
    ]
    return f"{chat}: {', '.join(states) or 'presence'}"


def _named_list(what: str) -> Callable[[Any], str]:
    def summary(data: Any) -> str:
        items = _items(data)
        names = []
        for item in items[:3]:
            ident = _s(item.get("remoteJid")) or _s(item.get("id"))
            name = _s(item.get("pushName")) or _s(item.get("name")) or _s(item.get("subject"))
            names.append(f"{name} {ident}".strip() if name and name != ident else ident)
        count = len(items)
        head = f"{count} {what}" if count != 1 else f"1 {what.rstrip('s')}"
        return f"{head}: {', '.join(n for n in names if n)}{_more(items, 3)}" if names else head

    return summary


def _participants(data: Any) -> str:
    item = _d(data)
    people = item.get("participants")
    count = len(people) if isinstance(people, list) else 0
    action = _s(item.get("action")) or "change"
    return f"{_s(item.get('id'))}: {action} {count} participant{'s' if count != 1 else ''}"


def _call(data: Any) -> str:
    item = (_items(data) or [{}])[0]
    kind = "video call" if item.get("isVideo") is True else "call"
    return f"{kind} from {_s(item.get('from')) or '?'}: {_s(item.get('status')) or '?'}"


def _status(data: Any) -> str:
    item = _d(data)
    code = item.get("disconnectionReasonCode")
    return f"status {_s(item.get('status')) or '?'}" + (f" ({code})" if code is not None else "")


def _instance(what: str) -> Callable[[Any], str]:
    def summary(data: Any) -> str:
        name = _s(_d(data).get("instanceName"))
        return f"{what} {name}".strip()

    return summary


def _labels(data: Any) -> str:
    item = _d(data)
    name = _s(item.get("name")) or _s(item.get("id"))
    return f"label {name}" + (" deleted" if item.get("deleted") is True else "")


def _label_association(data: Any) -> str:
    item = _d(data)
    association = _d(item.get("association"))
    return (
        f"label {_s(association.get('labelId'))} {_s(item.get('type')) or 'change'} "
        f"on {_s(association.get('chatId'))}"
    )


def history_figures(record: EventRecord) -> dict[str, Any]:
    """What a history sync event says of its progress: ``progress`` (0-100), ``isLatest``,
    ``messageCount``, ``chatCount``, ``contactCount`` and ``messages`` (in this batch), those
    it has. 2.3.7's ``messages.set`` has isLatest and progress at the top level of the
    payload; 2.4's ``messaging-history.set`` has them in ``data``."""
    data = _d(record.data)
    figures: dict[str, Any] = {}
    for source in (data, record.extra):
        for name in ("progress", "messageCount", "chatCount", "contactCount"):
            number = _number(source.get(name))
            if number is not None and name not in figures:
                figures[name] = number
        latest = source.get("isLatest")
        if isinstance(latest, bool) and "isLatest" not in figures:
            figures["isLatest"] = latest
    messages = record.data if isinstance(record.data, list) else data.get("messages")
    if isinstance(messages, list):
        figures["messages"] = len(messages)
    return figures


def _history(record: EventRecord) -> str:
    figures = history_figures(record)
    parts = []
    for name, label in (
        ("messages", "messages"),
        ("messageCount", "messages"),
        ("chatCount", "chats"),
        ("contactCount", "contacts"),
    ):
        if name in figures:
            parts.append(f"{figures[name]:,} {label}")
    if "progress" in figures:
        parts.append(f"{figures['progress']} %")
    if figures.get("isLatest") is True:
        parts.append("latest")
    return "history sync: " + (" · ".join(parts) or "a batch")


_BY_SETTING: dict[str, Callable[[Any], str]] = {
    "MESSAGES_UPSERT": _message,
    "SEND_MESSAGE": _message,
    "MESSAGES_EDITED": _message,
    "MESSAGES_UPDATE": _update,
    "SEND_MESSAGE_UPDATE": _update,
    "MESSAGES_DELETE": _deleted,
    "CONNECTION_UPDATE": _connection,
    "QRCODE_UPDATED": _qrcode,
    "PRESENCE_UPDATE": _presence,
    "CHATS_SET": _named_list("chats"),
    "CHATS_UPSERT": _named_list("chats"),
    "CHATS_UPDATE": _named_list("chats"),
    "CHATS_DELETE": _named_list("chats"),
    "CONTACTS_SET": _named_list("contacts"),
    "CONTACTS_UPSERT": _named_list("contacts"),
    "CONTACTS_UPDATE": _named_list("contacts"),
    "GROUPS_UPSERT": _named_list("groups"),
    "GROUP_UPDATE": _named_list("groups"),
    "GROUP_PARTICIPANTS_UPDATE": _participants,
    "CALL": _call,
    "STATUS_INSTANCE": _status,
    "LOGOUT_INSTANCE": lambda _data: "the instance was logged out",
    "REMOVE_INSTANCE": lambda _data: "the instance was removed",
    "INSTANCE_CREATE": _instance("created"),
    "INSTANCE_DELETE": _instance("deleted"),
    "LABELS_EDIT": _labels,
    "LABELS_ASSOCIATION": _label_association,
}
HISTORY = frozenset({"MESSAGES_SET", "MESSAGING_HISTORY_SET"})


def _fields(data: Any) -> str:
    if isinstance(data, dict):
        names = list(data)[:6]
        return "{" + ", ".join(map(str, names)) + (", …" if len(data) > 6 else "") + "}"
    if isinstance(data, list):
        return f"{len(data)} items"
    if data is None:
        return "no data"
    return str(data)


def summarize(record: EventRecord, limit: int = LIMIT) -> str:
    """The event in one printable line of at most ``limit`` characters."""
    name = setting_name(record.event)
    try:
        if name in HISTORY:
            text = _history(record)
        else:
            text = _BY_SETTING.get(name, _fields)(record.data)
    except Exception:  # noqa: BLE001 - a shape no reader expected: say what it holds
        text = _fields(record.data)
    flat = printable(" ".join(text.split()))
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
