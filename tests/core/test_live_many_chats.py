"""Live events over many chats (a history sync after pairing): the chat book's newest
messages are updated in place and renewed once per batch, and live items are kept only for
chats whose messages were read — not one per chat of the flood (issue 29, item 4)."""

from __future__ import annotations

from gateway_tui.core.live import LiveEvent
from gateway_tui.core.session import GatewaySession
from tests.support import make_config

INSTANCE = "sales-eu"
CHATS = 3000


def upsert(jid: str, n: int) -> LiveEvent:
    data = {
        "key": {"id": f"FLOOD{n:06d}", "remoteJid": jid, "fromMe": False},
        "message": {"conversation": f"flood {n}"},
        "messageTimestamp": 1_900_000_000 + n,
        "pushName": "Someone",
    }
    return LiveEvent("messages.upsert", INSTANCE, data)


async def test_a_flood_over_many_chats_keeps_nothing_per_unread_chat(demo_server) -> None:
    session = GatewaySession.open(make_config(demo_server), live=False)
    try:
        chats = session.actions.chats
        await chats.load_chat_book(INSTANCE)
        book = chats.chat_book(INSTANCE)
        open_jid = next(iter(book.value.last))
        await chats.load_messages(INSTANCE, open_jid)
        books = []  # kept alive: their ids stay distinct
        for start in range(0, CHATS, 500):  # six frames' batches
            batch = [upsert(f"55119{n:08d}@s.whatsapp.net", n) for n in range(start, start + 500)]
            chats.apply_live(batch)
            books.append(book.value)
        chats.apply_live([upsert(open_jid, CHATS + 1)])
    finally:
        await session.aclose()
    assert all(f"55119{n:08d}@s.whatsapp.net" in book.value.last for n in range(CHATS))
    assert len({id(b) for b in books}) == CHATS // 500  # renewed each batch: the screen redraws
    # Bounded: only the chat whose messages were read keeps live items.
    assert list(session.state.live_items) == [(INSTANCE, open_jid)]
    assert chats.messages_of(INSTANCE, open_jid).value.index_of(f"FLOOD{CHATS + 1:06d}") >= 0
