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
from gateway_tui.core.text.i18n import N_, _, ngettext, number
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
    if len(items) <= shown:
        return ""
    return " " + _("(+{n} more)").format(n=number(len(items) - shown))


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
        return _("no message in it")
    message = StoredMessage.read(items[0])
    if message is None:
        return _("a message the app cannot read") + _more(items)
    if message.from_me:
        who = _("me")
    elif message.participant:  # a group member
        who = f"{message.sender_name or ''} {message.participant}".strip()
    else:  # the chat itself wrote: its name, when it gave one
        who = message.sender_name or ""
    kind = message.kind or _("message")
    text = f": {message.text}" if message.text and message.text != f"[{kind}]" else ""
    parts = [message.remote_jid, who, f"{kind}{text}"]
    return " · ".join(part for part in parts if part) + _more(items)


def _update(data: Any) -> str:
    items = _items(data)
    if not items:
        return _("no update in it")
    item = items[0]
    key = _d(item.get("key"))
    chat = _s(item.get("remoteJid")) or _s(key.get("remoteJid"))
    ident = _s(item.get("keyId")) or _s(item.get("id")) or _s(key.get("id"))
    update = _d(item.get("update"))
    status = item.get("status") or update.get("status")
    shown = f"→ {status}" if status is not None else _("changed")
    return f"{chat} · {ident} {shown}{_more(items)}".strip(" ·")


def _deleted(data: Any) -> str:
    items = _items(data)
    if not items:
        return _("deleted")
    key = _d(items[0].get("key")) or items[0]
    said = _("{chat} · {id} deleted").format(chat=_s(key.get("remoteJid")), id=_s(key.get("id")))
    return said + _more(items)


def _connection(data: Any) -> str:
    item = _d(data)
    state = _s(item.get("state")) or "?"
    reason = item.get("statusReason")
    who = _s(item.get("profileName")) or _s(item.get("wuid"))
    parts = [
        _("state {state} ({reason})").format(state=state, reason=reason)
        if reason is not None
        else _("state {state}").format(state=state)
    ]
    if who:
        parts.append(who)
    return " · ".join(parts)


def _qrcode(data: Any) -> str:
    qrcode = _d(_d(data).get("qrcode")) or _d(data)
    pairing = _s(qrcode.get("pairingCode"))
    if pairing:
        return _("a new QR code to scan (pairing code {code})").format(code=pairing)
    return _("a new QR code to scan")


def _presence(data: Any) -> str:
    item = _d(data)
    chat = _s(item.get("id"))
    presences = _d(item.get("presences"))
    states = [
        f"{jid if jid != chat else ''} {_s(_d(value).get('lastKnownPresence')) or '?'}".strip()
        for jid, value in list(presences.items())[:3]
    ]
    return f"{chat}: {', '.join(states) or _('presence')}"


def count_of(what: str, n: int) -> str:
    """ "1 chat", "2 chats" (``what``: messages, chats, contacts or groups), in the current
    language, the number the locale's way."""
    if what == "messages":
        said = ngettext("{n} message", "{n} messages", n)
    elif what == "chats":
        said = ngettext("{n} chat", "{n} chats", n)
    elif what == "contacts":
        said = ngettext("{n} contact", "{n} contacts", n)
    else:
        said = ngettext("{n} group", "{n} groups", n)
    return said.format(n=number(n))


def _named_list(what: str) -> Callable[[Any], str]:
    def summary(data: Any) -> str:
        items = _items(data)
        names = []
        for item in items[:3]:
            ident = _s(item.get("remoteJid")) or _s(item.get("id"))
            name = _s(item.get("pushName")) or _s(item.get("name")) or _s(item.get("subject"))
            names.append(f"{name} {ident}".strip() if name and name != ident else ident)
        count = len(items)
        head = count_of(what, count)
        return f"{head}: {', '.join(n for n in names if n)}{_more(items, 3)}" if names else head

    return summary


def _participants(data: Any) -> str:
    item = _d(data)
    people = item.get("participants")
    count = len(people) if isinstance(people, list) else 0
    action = _s(item.get("action")) or _("change")
    return ngettext(
        "{group}: {action} {n} participant", "{group}: {action} {n} participants", count
    ).format(group=_s(item.get("id")), action=action, n=number(count))


def _call(data: Any) -> str:
    item = (_items(data) or [{}])[0]
    said = (
        _("video call from {who}: {status}")
        if item.get("isVideo") is True
        else _("call from {who}: {status}")
    )
    return said.format(who=_s(item.get("from")) or "?", status=_s(item.get("status")) or "?")


def _status(data: Any) -> str:
    item = _d(data)
    code = item.get("disconnectionReasonCode")
    status = _s(item.get("status")) or "?"
    if code is None:
        return _("status {status}").format(status=status)
    return _("status {status} ({code})").format(status=status, code=code)


def _instance(what: str) -> Callable[[Any], str]:
    """``what``: N_-marked "created {name}"."""

    def summary(data: Any) -> str:
        name = _s(_d(data).get("instanceName"))
        return _(what).format(name=name).strip()

    return summary


def _labels(data: Any) -> str:
    item = _d(data)
    name = _s(item.get("name")) or _s(item.get("id"))
    if item.get("deleted") is True:
        return _("label {name} deleted").format(name=name)
    return _("label {name}").format(name=name)


def _label_association(data: Any) -> str:
    item = _d(data)
    association = _d(item.get("association"))
    return _("label {label} {change} on {chat}").format(
        label=_s(association.get("labelId")),
        change=_s(item.get("type")) or _("change"),
        chat=_s(association.get("chatId")),
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
    for name, what in (
        ("messages", "messages"),
        ("messageCount", "messages"),
        ("chatCount", "chats"),
        ("contactCount", "contacts"),
    ):
        if name in figures:
            parts.append(count_of(what, figures[name]))
    if "progress" in figures:
        parts.append(_("{p} %").format(p=figures["progress"]))
    if figures.get("isLatest") is True:
        parts.append(_("latest"))
    if not parts:
        return _("history sync: a batch")
    return _("history sync: {figures}").format(figures=" · ".join(parts))


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
    "LOGOUT_INSTANCE": lambda _data: _("the instance was logged out"),
    "REMOVE_INSTANCE": lambda _data: _("the instance was removed"),
    "INSTANCE_CREATE": _instance(N_("created {name}")),
    "INSTANCE_DELETE": _instance(N_("deleted {name}")),
    "LABELS_EDIT": _labels,
    "LABELS_ASSOCIATION": _label_association,
}
HISTORY = frozenset({"MESSAGES_SET", "MESSAGING_HISTORY_SET"})


def _fields(data: Any) -> str:
    if isinstance(data, dict):
        names = list(data)[:6]
        return "{" + ", ".join(map(str, names)) + (", …" if len(data) > 6 else "") + "}"
    if isinstance(data, list):
        return ngettext("{n} item", "{n} items", len(data)).format(n=number(len(data)))
    if data is None:
        return _("no data")
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
