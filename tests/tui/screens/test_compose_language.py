"""The compose area in Portuguese and Spanish (issue 35): the list composer (its fields, hints,
checks, status and send flow), its preview, the validation messages beside the fields, the
interactive composer, the reply / reaction / file dialogs and the media card say their sentences
in the chosen language, counts as plurals and numbers the locale's way."""

from __future__ import annotations

import io
import json

import pytest
from rich.console import Console
from textual.widgets import Input

from gateway_tui.core.api.dialects.v1 import V1Dialect
from gateway_tui.core.api.lists import unreadable_names_of, unreadable_of
from gateway_tui.core.api.validation import check_recipient, check_subject
from gateway_tui.core.draft import Draft, DraftRow, DraftSection
from gateway_tui.core.interactive_form import parse_buttons
from gateway_tui.tui.app import GatewayApp
from gateway_tui.tui.screens.composer_library import _summary
from gateway_tui.tui.screens.conversation_modals import ReactionScreen, SendFileScreen
from gateway_tui.tui.screens.interactive_composer import InteractiveComposerScreen
from gateway_tui.tui.widgets.list_preview import ListPreview, bubble, opened_list
from gateway_tui.tui.widgets.message_kinds_view import file_size
from tests.data import JONAS_JID, JONAS_LAST_ID, good_draft
from tests.in_process import InProcessDemo
from tests.navigation import open_composer_with, open_conversation, open_instance, select_message
from tests.support import make_config, screen_text, wait_for

SIZE = (140, 50)


def _drawn(renderable) -> str:
    console = Console(width=60, file=io.StringIO(), record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


# --- the list composer ------------------------------------------------------------------------


@pytest.mark.in_process
async def test_the_composer_in_portuguese(app_for, demo_server, language):
    language("pt_BR")
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await open_composer_with(app, pilot, demo_server, good_draft())
        await wait_for(pilot, lambda: "Mensagem de lista de sales-eu" in screen_text(app))
        text = screen_text(app)
        assert "rascunho restaurado" in text
        assert "pronto para enviar (ctrl+s)" in text
        assert "Destinatário" in text and "Seções" in text and "Rodapé" in text
        # The hint of the field under the cursor (the recipient).
        assert "Destinatário: número internacional com o código do país" in text
        # The preview beside the form.
        assert "Lista aberta" in text
        assert "Recipient" not in text and "ready to send" not in text


@pytest.mark.in_process
async def test_the_composer_in_spanish(app_for, demo_server, language):
    language("es")
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await open_composer_with(app, pilot, demo_server, good_draft())
        await wait_for(pilot, lambda: "Mensaje de lista desde sales-eu" in screen_text(app))
        text = screen_text(app)
        assert "borrador restaurado" in text and "listo para enviar (ctrl+s)" in text
        assert "Destinatario" in text and "Secciones" in text


@pytest.mark.in_process
async def test_the_checks_beside_the_fields_and_the_refused_send_in_portuguese(
    app_for, demo_server, language
):
    language("pt_BR")
    draft = good_draft()
    draft.sections[0].title = ""  # one error: a section needs a title
    draft.sections[1].rows[0].title = ""  # two: a row needs a title
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_composer_with(app, pilot, demo_server, draft)
        await pilot.press("ctrl+s")
        await wait_for(
            pilot,
            lambda: (
                "Não enviada: 2 problemas a corrigir, indicados junto aos campos"
                in (screen_text(app))
            ),
        )
        text = screen_text(app)
        assert "título: uma seção precisa de um título" in text
        assert "uma linha precisa de um título" in text
        assert "2 a corrigir antes de enviar" in text
        await pilot.press("f2")  # the JSON view says it too, as a plural
        preview = screen.query_one("#composer-preview", ListPreview)
        await wait_for(
            pilot,
            lambda: "ainda não dá para enviar: 2 problemas indicados" in preview.plain_text(200),
        )
        assert "Corpo JSON que será enviado" in preview.plain_text(200)


@pytest.mark.in_process
async def test_templates_and_history_say_so_in_portuguese(app_for, demo_server, language):
    language("pt_BR")
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await open_composer_with(app, pilot, demo_server, good_draft())
        await pilot.press("f7")
        await wait_for(
            pilot,
            lambda: "Nenhum modelo ainda: f6 salva a mensagem do formulário" in screen_text(app),
        )
        await pilot.press("escape")
        await pilot.press("f6")
        await wait_for(pilot, lambda: "Salvar como modelo" in screen_text(app))
        assert "Guarda a mensagem (sem o destinatário) com um nome" in screen_text(app)


def test_a_draft_summary_counts_sections_and_rows_as_plurals(language):
    language("pt_BR")
    one = Draft(title="Menu", sections=[DraftSection("A", [DraftRow("x")])])
    assert _summary(one) == "Menu · 1 seção, 1 linha"
    assert _summary(good_draft()) == "Lunch menu · 2 seções, 3 linhas"
    language("es")
    assert _summary(one) == "Menu · 1 sección, 1 fila"
    assert _summary(Draft()) == "(sin título) · 1 sección, 1 fila"


# --- the preview ------------------------------------------------------------------------------


def test_the_preview_of_an_empty_draft_in_portuguese(language):
    language("pt_BR")
    shown = _drawn(bubble(Draft())) + _drawn(opened_list(Draft()))
    assert "(título)" in shown and "(descrição)" in shown and "(texto do botão)" in shown
    assert "(título da seção 1)" in shown and "(título da linha)" in shown


def test_rows_past_ten_are_said_in_spanish(language):
    language("es")
    draft = Draft(sections=[DraftSection("A", [DraftRow(f"r{n}") for n in range(11)])])
    assert "WhatsApp no la muestra" in _drawn(opened_list(draft))
    warnings = draft.check().warnings
    assert "11 filas: WhatsApp muestra como máximo 10" in [w.message for w in warnings]


# --- the validation messages, where they are built ---------------------------------------------


def test_validation_messages_in_portuguese_and_spanish(language):
    language("pt_BR")
    assert check_recipient("")[0].message == (
        "digite um número com o código do país, ou um JID de grupo"
    )
    # A number the locale's way: 1.234.
    assert check_subject("x" * 1234)[0].message == (
        "o WhatsApp aceita no máximo 100 caracteres (este tem 1.234)"
    )
    errors = {(p.field, p.message) for p in Draft().check().errors}
    assert ("title", "não pode ficar vazio") in errors
    assert ("sections[0].rows[0].title", "uma linha precisa de um título") in errors
    language("es")
    draft = good_draft()
    draft.sections[0].rows[0].row_id = draft.sections[0].rows[1].row_id = "menu"
    warnings = [p.message for p in draft.check().warnings]
    assert "el rowId 'menu' se usa dos veces" in warnings


def test_the_interactive_form_and_a_skipped_item_in_portuguese(language):
    language("pt_BR")
    _buttons, problems = parse_buttons("link: x = y")
    assert str(problems[0]) == ("botões, linha 1: comece com um tipo: reply, url, call, copy, pix")
    body = [{"instance": {"instanceName": 7, "status": "open"}}]
    items = V1Dialect.instances.read(json.dumps(body).encode())
    assert unreadable_names_of(items) == ["linha 1"]
    assert unreadable_of(items)[0].startswith("item 1: ")


# --- the interactive composer -------------------------------------------------------------------


async def test_the_interactive_composer_in_portuguese(isolated_home, language) -> None:
    language("pt_BR")
    with InProcessDemo(api_version="2.4.0") as demo:
        app = GatewayApp(make_config(demo, api_version="auto"), transport=demo.transport())
        async with app.run_test(size=SIZE) as pilot:
            await open_instance(app, pilot)
            await pilot.press("p")
            await wait_for(pilot, lambda: isinstance(app.screen, InteractiveComposerScreen))
            pix = app.screen
            assert "Botão de pagamento PIX de sales-eu" in screen_text(app)
            pix.query_one("#i-to", Input).value = "4915112340001"
            await wait_for(pilot, lambda: "pronto para enviar (ctrl+s)" in screen_text(app))
            assert "Uma linha: pix: nome | tipo de chave" in screen_text(app)
            pix.query_one("#i-lines").text = "pix: A | email | a@b.c\nreply: Ok = ok"
            await wait_for(
                pilot,
                lambda: "botões reply: este editor escreve um botão PIX" in screen_text(app),
            )
            await pilot.press("ctrl+s")
            await wait_for(pilot, lambda: "✕ Não enviada:" in screen_text(app))


# --- the conversation's reply, reaction and file dialogs -----------------------------------------


@pytest.mark.in_process
async def test_reply_react_and_send_a_file_in_portuguese(app_for, demo_server, language):
    language("pt_BR")
    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        screen = await open_conversation(app, pilot, JONAS_JID)
        await select_message(pilot, screen, JONAS_LAST_ID)
        await pilot.press("R")
        await wait_for(pilot, lambda: "Respondendo a Você: Tracking: DHL" in screen_text(app))
        screen.view.focus()  # off the message line: + is a key again, not a letter
        await pilot.press("plus")
        await wait_for(pilot, lambda: isinstance(app.screen, ReactionScreen))
        assert "Reagir a" in screen_text(app) and "ou digite um emoji e tecle enter" in (
            screen_text(app)
        )
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, ReactionScreen))
        await pilot.press("f")
        await wait_for(pilot, lambda: isinstance(app.screen, SendFileScreen))
        assert "Enviar um arquivo para" in screen_text(app)
        assert "Legenda (opcional)" in screen_text(app)


def test_file_sizes_the_locale_way(language):
    language("pt_BR")
    assert file_size(1536) == "1,5 KB"
    assert file_size(1234) == "1,2 KB"
    language("es")
    assert file_size(3 * 2**20 // 2) == "1,5 MB"
