"""ConversationView draws the new kinds: a poll with its options, a location with its map link,
contact cards, a message deleted for everyone, and reactions as a count per emoji under the
message they react to (not bubbles of their own, and no stop for the cursor)."""

from __future__ import annotations

from textual.app import App, ComposeResult

from gateway_tui.core.api.chat_models import StoredMessage
from gateway_tui.tui.widgets.conversation import ConversationView

CHAT = "5511999999999@s.whatsapp.net"


def stored(message_id: str, content: dict, *, from_me=False, stamp=1764000000, who=None):
    key = {"id": message_id, "remoteJid": CHAT, "fromMe": from_me}
    if who:
        key["participant"] = who
    return StoredMessage.read({"key": key, "message": content, "messageTimestamp": stamp})


MESSAGES = [
    stored(
        "P1",
        {
            "pollCreationMessage": {
                "name": "Lunch?",
                "options": [{"optionName": "Pizza"}, {"optionName": "Sushi"}],
                "selectableOptionsCount": 0,
            }
        },
        from_me=True,
    ),
    stored("R1", {"reactionMessage": {"key": {"id": "P1"}, "text": "👍"}}, who="a@s.whatsapp.net"),
    stored("R2", {"reactionMessage": {"key": {"id": "P1"}, "text": "👍"}}, who="b@s.whatsapp.net"),
    stored(
        "L1",
        {
            "locationMessage": {
                "degreesLatitude": -23.5617,
                "degreesLongitude": -46.6559,
                "name": "Office",
            }
        },
    ),
    stored("C1", {"contactMessage": {"displayName": "Bob", "vcard": "TEL:+55 11 97777-6666"}}),
    stored("T1", {"conversation": "sent by mistake"}, from_me=True),
    stored("X1", {"protocolMessage": {"type": "REVOKE", "key": {"id": "T1"}}}, from_me=True),
]


class ViewApp(App):
    def compose(self) -> ComposeResult:
        yield ConversationView(id="view")


def drawn(view: ConversationView) -> str:
    return "\n".join(strip.text for strip in view._lines)


async def test_new_kinds_are_drawn_and_reactions_sit_on_their_message() -> None:
    app = ViewApp()
    async with app.run_test(size=(100, 60)) as pilot:
        view = app.query_one(ConversationView)
        view.set_messages(MESSAGES, {})
        await pilot.pause()
        text = drawn(view)
        assert "📊 Lunch? (several choices)" in text
        assert "○ Pizza" in text and "○ Sushi" in text
        assert "👍 2" in text  # two people, one count
        assert "Reacted" not in text  # no bubble of their own
        assert "📍 Office" in text and "openstreetmap.org/?mlat=-23.561700" in text
        assert "👤 Bob  +55 11 97777-6666" in text
        assert "🚫 deleted for everyone" in text
        assert "protocol message" not in text and "Message deleted" not in text
        # The cursor steps over the reactions and the revoke.
        view.select(0)
        view.action_next()
        assert view.selected is not None and view.selected.id == "L1"
        view.action_last()
        view.action_previous()
        assert view.selected.id == "C1"
