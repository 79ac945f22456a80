"""A chat's own name as the server stores it is shown (issue 29: "a group's name from the
server is not shown"). The recordings' fields per line: 2.x findChats rows carry the chat's
name as ``pushName`` (v2.3.6-more/088); 1.7.1's rows are ``{id, owner}`` with no name
(v1.7.1-more/088). A group list (fetchAllGroups) still wins where it has the subject."""

from __future__ import annotations

import copy

from gateway_tui.core.api.dialects import V1, V2
from gateway_tui.core.chat_book import ChatBook, chat_rows
from tests.recorded.gateway import load_folder

GROUP = "120363025912345678@g.us"


def _row(folder: str, seq: int) -> list:
    return next(r for r in load_folder(folder) if r.seq == seq).response_body


def _book(chats) -> ChatBook:
    return ChatBook.build([c for c in chats if c is not None], (), ())


def test_a_2x_group_row_shows_the_name_the_server_stores_when_no_group_list_has_it() -> None:
    (recorded,) = _row("v2.3.6-more", 88)
    group = copy.deepcopy(recorded) | {"remoteJid": GROUP, "pushName": "Equipe Vendas"}
    book = _book([V2.read_chat(group), V2.read_chat(recorded)])
    rows = {row.jid: row for row in chat_rows(book, {}, lambda jid: None)}
    assert rows[GROUP].name == "Equipe Vendas"
    assert rows["5511999999999@s.whatsapp.net"].name == "Alice"  # a person's row too
    # The group list's subject wins where it has one.
    named = chat_rows(book, {}, lambda jid: "From the list" if jid == GROUP else None)
    assert {row.jid: row.name for row in named}[GROUP] == "From the list"


def test_a_1_7_1_group_row_has_no_name_and_shows_none() -> None:
    book = _book(V1.read_chat(row) for row in _row("v1.7.1-more", 88))
    rows = {row.jid: row for row in chat_rows(book, {}, lambda jid: None)}
    assert rows[GROUP].name == ""  # 1.7.1 stores none: the JID is what there is
