"""The chats area in pt-BR and es: the chats, conversation and contacts screens, the record
table's own lines, and the words the app writes for a message's kind (never what a contact
wrote). English is pinned by the other tests; each test here sets its language."""

from __future__ import annotations

from datetime import datetime

import pytest

from gateway_tui.core.api.chat_models import StoredMessage
from gateway_tui.core.api.message_kinds import Poll
from gateway_tui.core.api.message_views import PollView, human_size
from gateway_tui.core.chat_book import ChatRow
from gateway_tui.demo.server import DemoServer
from gateway_tui.tui.screens.chats import _last, _source, when_text
from gateway_tui.tui.screens.contacts import ContactsScreen
from gateway_tui.tui.widgets.conversation import clipped_text, when
from tests.data import JONAS_JID, chat_with
from tests.navigation import open_chats, open_conversation, open_instance, select_message
from tests.support import make_app, make_config, screen_text, wait_for

SIZE = (140, 40)


def _message(content: dict, *, from_me: bool = False) -> StoredMessage:
    message = StoredMessage.read(
        {
            "key": {"id": "M1", "remoteJid": JONAS_JID, "fromMe": from_me},
            "pushName": "",
            "message": content,
            "messageTimestamp": 1_764_000_000,
        }
    )
    assert message is not None
    return message


def _row(**fields) -> ChatRow:
    values = dict(
        jid=JONAS_JID,
        name="Jonas",
        last=None,
        last_text="Bis morgen",
        last_at=datetime(2026, 11, 27, 14, 3),
        from_me=False,
        archived=False,
        in_store=True,
        sent_here=0,
    )
    values.update(fields)
    return ChatRow(**values)


@pytest.mark.in_process
async def test_the_chats_screen_speaks_portuguese(app_for, language):
    language("pt_BR")
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_chats(app, pilot)
        rows = len(screen.table.visible_rows)
        text = screen_text(app)
        assert "Conversas de " in text
        for header in ("Conversa", "Número / JID", "Última mensagem", "Última atividade"):
            assert header in text
        assert f"{rows} conversas" in text and "arquivada" in text
        assert "Você: Tracking: DHL" in text  # the app's words around the contact's
        assert "abre a conversa" in text
        assert "Chats of" not in text and "Last message" not in text
        await pilot.press("slash", *"zzzz")
        await wait_for(pilot, lambda: "Nenhuma linha corresponde a “zzzz”" in screen_text(app))
        assert "0 exibida" in screen_text(app)  # pt-BR: 0 and 1 are singular


@pytest.mark.in_process
async def test_the_chats_screen_speaks_spanish(app_for, language):
    language("es")
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_chats(app, pilot)
        rows = len(screen.table.visible_rows)
        text = screen_text(app)
        assert "Chats de " in text
        assert "Último mensaje" in text and "Última actividad" in text
        assert f"{rows} chats" in text and "archivados" in text
        assert "Tú: Tracking: DHL" in text
        await pilot.press("s")  # sort by the first column: the summary names it in Spanish
        await wait_for(pilot, lambda: "orden: chat ▲" in screen_text(app))


def test_chat_rows_count_new_messages_and_dates_by_the_locale(language):
    language("pt_BR")
    assert _last(_row(unread=1)) == "● 1 nova · Bis morgen"
    assert _last(_row(unread=2, from_me=True)) == "● 2 novas · Você: Bis morgen"
    assert when_text(_row()) == "27/11/2026 14:03"
    assert _source(_row(sent_here=1, in_store=False)) == "1 enviada daqui"
    assert _source(_row(sent_here=1234)) == "gateway + 1.234 enviadas"
    language("es")
    assert _last(_row(unread=2)) == "● 2 nuevos · Bis morgen"
    assert when_text(_row()) == "27/11/2026 14:03"
    language("en")
    assert when_text(_row()) == "2026-11-27 14:03"


@pytest.mark.in_process
async def test_the_conversation_speaks_portuguese(app_for, demo_server, language):
    language("pt_BR")
    jid = chat_with(demo_server, lambda m: m.list_message is not None)
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_conversation(app, pilot, jid)
        total = len(screen.view.messages)
        text = screen_text(app)
        assert f"{total} mensagens" in text
        assert "Escreva uma mensagem · enter envia · ctrl+j nova linha" in text
        await select_message(pilot, screen, screen.view.messages[-2].id)
        text = screen_text(app)
        assert "escolheu ● Morning" in text  # the row's title is the contact's: as written
        assert "da lista “Delivery slots”" in text
        assert "copia o id" in text and "responde" in text
        await pilot.press("n")  # no search yet: the notice says how to search
        await wait_for(pilot, lambda: any("Nenhuma busca" in n for n in _notices(app)))


@pytest.mark.in_process
async def test_the_conversation_speaks_spanish(app_for, language):
    language("es")
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_conversation(app, pilot, JONAS_JID)
        text = screen_text(app)
        assert f"{len(screen.view.messages)} mensajes" in text
        assert "Escribe un mensaje" in text
        assert "elige un mensaje" in text or "Tú" in text


def _notices(app) -> list[str]:
    from tests.support import notices

    return notices(app)


async def test_the_contacts_screen_speaks_portuguese(language):
    language("pt_BR")
    with DemoServer(api_version="2.3.7") as server:
        app = make_app(make_config(server))
        async with app.run_test(size=(120, 36)) as pilot:
            await open_instance(app, pilot, "support")
            await pilot.press("k")
            await wait_for(pilot, lambda: isinstance(app.screen, ContactsScreen))
            screen = app.screen
            await wait_for(pilot, lambda: screen.table.visible_count > 0)
            # The title, the count line and the hidden numbers are drawn after the rows come:
            # on a busy machine the frame that has the rows may not have them yet.
            said = ("Contatos de support", "número oculto", "Nome", "Número")
            await wait_for(
                pilot,
                lambda: (
                    all(words in screen_text(app) for words in said)
                    and f"{screen.table.visible_count} contatos" in screen_text(app)
                ),
            )
            text = screen_text(app)
            assert "Contatos de support" in text and "número oculto" in text
            assert f"{screen.table.visible_count} contatos" in text
            assert "Nome" in text and "Número" in text


@pytest.mark.parametrize(
    ("content", "portuguese", "spanish"),
    [
        ({"stickerMessage": {}}, "Figurinha", "Sticker"),
        (
            {"audioMessage": {"ptt": True, "seconds": 7}},
            "🎤 Mensagem de voz 0:07",
            "🎤 Mensaje de voz 0:07",
        ),
        ({"locationMessage": {"name": "Loja"}}, "📍 Localização: Loja", "📍 Ubicación: Loja"),
        ({"contactsArrayMessage": {"contacts": [{}]}}, "👤 1 contato", "👤 1 contacto"),
        ({"contactsArrayMessage": {"contacts": [{}, {}]}}, "👤 2 contatos", "👤 2 contactos"),
        ({"reactionMessage": {"text": ""}}, "Reação removida", "Reacción eliminada"),
        ({"protocolMessage": {"type": "REVOKE"}}, "🚫 Mensagem apagada", "🚫 Mensaje eliminado"),
    ],
)
def test_a_kinds_words_are_the_readers_language(content, portuguese, spanish, language):
    language("pt_BR")
    assert _message(content).text == portuguese
    language("es")
    assert _message(content).text == spanish


def test_what_a_contact_wrote_is_never_translated(language):
    language("pt_BR")
    assert _message({"conversation": "Sticker"}).text == "Sticker"
    assert _message({"imageMessage": {"caption": "Location"}}).text == "📷 Foto: Location"


def test_counts_and_sizes_by_the_locale(language):
    language("pt_BR")
    assert human_size(1_500_000) == "1,5 MB"
    assert human_size(1) == "1 byte" and human_size(2) == "2 bytes"
    poll = PollView("Almoço?", ("Pizza", "Sushi"), 0, votes={"Pizza": 1, "Sushi": 1234})
    assert poll.lines() == [
        "📊 Almoço? (várias escolhas)",
        "  ○ Pizza  1 voto",
        "  ○ Sushi  1.234 votos",
    ]
    cut = clipped_text("x" * 5000, 3, {"view": "v"}).plain
    assert cut.endswith("… mais 4.820 caracteres: v mostra a mensagem inteira")
    assert when(None) == "hora desconhecida"
    language("es")
    assert clipped_text("a\nb\nc\nd", 3, {"view": "v"}).plain.endswith(
        "… 1 línea más: v muestra el mensaje completo"
    )


def test_a_kinds_problems_are_said_in_the_readers_language(language):
    language("pt_BR")
    problems = [p.message for p in Poll("", ("Pizza",)).problems()]
    assert "a enquete precisa de uma pergunta" in problems
    # Our words, then the gateway's own, kept as it says them.
    assert (
        "uma enquete precisa de pelo menos 2 opções (o gateway: values does not meet minimum "
        "length of 2)" in problems
    )
