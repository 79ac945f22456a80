"""How the conversation draws the kinds beyond text and media: polls (options, votes where
known), locations (coordinates, name, a map link), contact cards, a message deleted for
everyone, and the reactions under the message they react to (a count per emoji).

What is drawn comes from ``core/api/message_views.py``; every text from outside passes
``printable`` (never markup, never a control sequence)."""

from __future__ import annotations

from rich.text import Text

from gateway_tui.core.api.chat_models import StoredMessage, parse_long
from gateway_tui.core.api.message_views import (
    POLL_KINDS,
    Decorations,
    detail_lines,
)
from gateway_tui.core.chat_book import printable
from gateway_tui.core.text.i18n import N_, _, decimal, number

DRAWN_KINDS = frozenset(
    {
        *POLL_KINDS,
        "locationMessage",
        "liveLocationMessage",
        "contactMessage",
        "contactsArrayMessage",
    }
)
# The keys the bubbles' hints name (the screen sets them from its bindings, remaps included).
DEFAULT_KEYS = {"save": "s", "view": "v"}
NO_DECORATIONS = Decorations({}, frozenset(), frozenset())


def kind_card(
    message: StoredMessage, votes: dict[str, int] | None = None, votes_note: str | None = None
) -> Text | None:
    """A poll, location or contact card as drawn in its bubble (None for other kinds); a poll
    with its votes when known, else ``votes_note`` (why none are shown) under it."""
    if message.kind not in DRAWN_KINDS:
        return None
    lines = detail_lines(message, votes, votes_note)
    if not lines:
        return None
    card = Text(printable(lines[0]), style="bold")
    for line in lines[1:]:
        card.append("\n" + printable(line), style="dim" if "://" in line else "")
    return card


def deleted_line() -> Text:
    return Text(_("🚫 deleted for everyone"), style="italic dim")


def reactions_line(decorations: Decorations, message_id: str) -> Text | None:
    said = decorations.reaction_line(message_id)
    return Text(printable(said)) if said else None


# The icon and the word of each kind (the word in English: ``_()`` where it is drawn).
MEDIA_KINDS = {
    "imageMessage": ("🖼", N_("Photo")),
    "videoMessage": ("🎥", N_("Video")),
    "audioMessage": ("🎵", N_("Audio")),
    "documentMessage": ("📄", N_("Document")),
    "stickerMessage": ("🏷", N_("Sticker")),
}


def file_size(size: int | None) -> str:
    if size is None:
        return ""
    if size < 1024:
        return _("{n} B").format(n=number(size))
    if size < 1024 * 1024:
        return _("{n} KB").format(n=decimal(size / 1024, 1))
    return _("{n} MB").format(n=decimal(size / 2**20, 1))


def media_card(message: StoredMessage, keys: dict[str, str] = DEFAULT_KEYS) -> Text:
    """A media message as a card: kind, file name, size, duration, type, caption."""
    body = message.body
    icon, word = MEDIA_KINDS[message.kind]
    label = _(word)
    if message.kind == "audioMessage" and body.get("ptt") is True:
        icon, label = "🎤", _("Voice message")
    if message.kind == "videoMessage" and body.get("gifPlayback") is True:
        label = "GIF"
    card = Text(f"{icon} {label}", style="bold")
    facts = []
    name = body.get("fileName") or body.get("title")
    if isinstance(name, str) and name.strip():
        facts.append(printable(name))
    size = file_size(parse_long(body.get("fileLength")))
    if size:
        facts.append(size)
    seconds = parse_long(body.get("seconds"))
    if seconds:
        facts.append(f"{seconds // 60}:{seconds % 60:02d}")
    width, height = parse_long(body.get("width")), parse_long(body.get("height"))
    if width and height:
        facts.append(f"{width}×{height}")
    mimetype = body.get("mimetype")
    if isinstance(mimetype, str) and mimetype:
        facts.append(printable(mimetype.split(";")[0]))
    if facts:
        card.append("\n" + " · ".join(facts), style="")
    caption = body.get("caption")
    if isinstance(caption, str) and caption.strip():
        card.append("\n")
        card.append(printable(caption))
    card.append("\n" + _("{key} saves the file").format(key=keys["save"]), style="dim italic")
    return card
