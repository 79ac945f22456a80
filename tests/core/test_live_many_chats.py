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


async def test_a_batch_beside_a_long_list_redoes_only_the_chats_it_changed(
    demo_server, monkeypatch
) -> None:
    """The chats screen turns the book into rows after each batch. Beside 3,000 chats already
    listed, a batch of one new message works out one chat's name, text and time, not every
    row's (each batch was O(chats): with 10,000+ listed, seconds of the app's loop per frame),
    and the rows are the same as worked out afresh."""
    from dataclasses import replace

    from gateway_tui.core import chat_book

    session = GatewaySession.open(make_config(demo_server), live=False)
    try:
        chats = session.actions.chats
        await chats.load_chat_book(INSTANCE)
        chats.apply_live([upsert(f"55119{n:08d}@s.whatsapp.net", n) for n in range(CHATS)])
        book = chats.chat_book(INSTANCE)

        def subject_of(jid: str) -> str | None:
            return session.state.subject_of(INSTANCE, jid)

        first = chat_book.chat_rows(book.value, {}, subject_of)
        assert len(first) >= CHATS
        made = 0
        printable = chat_book.printable

        def counted(value):
            nonlocal made
            made += 1
            return printable(value)

        monkeypatch.setattr(chat_book, "printable", counted)
        chats.apply_live([upsert(f"55119{CHATS:08d}@s.whatsapp.net", CHATS)])
        rows = chat_book.chat_rows(book.value, {}, subject_of)
        assert len(rows) == len(first) + 1
        assert made <= 4  # one chat's name and text (and no other row's)
        monkeypatch.setattr(chat_book, "printable", printable)
        afresh = chat_book.chat_rows(
            replace(book.value, worked=chat_book._Worked()), {}, subject_of
        )
        assert [(r.jid, r.name, r.last_text, r.last_at) for r in rows] == [
            (r.jid, r.name, r.last_text, r.last_at) for r in afresh
        ]
    finally:
        await session.aclose()
