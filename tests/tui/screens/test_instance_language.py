"""The instance area in Português do Brasil and Español (issue 35): the instance list and the
instance view (the first screens a user sees) hold at 80×24 on both demo lines, pairing, a new
instance, the connect form and the webhook form speak the language; counts and numbers follow it.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from types import SimpleNamespace

import pytest

from gateway_tui.core.api.errors import GatewayUnreachable, Unauthorized
from gateway_tui.core.api.lifecycle import (
    WebhookSettings,
    WebsocketSettings,
    check_new_instance_name,
    integration_shown,
    webhook_differences,
    websocket_differences,
)
from gateway_tui.core.api.models import ConnectionState
from gateway_tui.core.files.config import load_config
from gateway_tui.core.files.instances_head import InstancesHead
from gateway_tui.core.identity import Identity, NoRoute
from gateway_tui.core.text.i18n import _
from gateway_tui.demo.server import DemoServer
from gateway_tui.tui.app import GatewayApp
from gateway_tui.tui.screens.connect import ConnectScreen
from gateway_tui.tui.screens.instance import InstanceScreen, _stored
from gateway_tui.tui.screens.instances import INSTANCE_COLUMNS, InstancesScreen
from gateway_tui.tui.screens.lifecycle_keys import restart_explanation
from gateway_tui.tui.screens.new_instance import NewInstanceScreen
from gateway_tui.tui.screens.starting import instances_summary
from gateway_tui.tui.screens.webhook import HookSettingsScreen
from gateway_tui.tui.widgets.status_panel import error_advice
from gateway_tui.tui.widgets.styled import styled
from tests.navigation import open_instance, open_pairing
from tests.support import make_app, make_config, screen_text, wait_for

LINES = ["1.7.1", "2.3.7"]
# What the list's summary and header say, per language (the demo has 8 instances).
LIST_WORDS = {
    "pt_BR": ("8 instâncias", ("Nome", "Status", "Dono")),
    "es": ("8 instancias", ("Nombre", "Estado", "Propietario")),
}


def _lines(app) -> list[str]:
    return screen_text(app).rstrip("\n").splitlines()


def _global_keys_shown(footer: str) -> bool:
    """The app's own keys stay at the right of the footer (q quits, f1 lists the keys)."""
    return bool(re.search(r"▏q \S", footer)) and "f1 " in footer


@pytest.mark.parametrize("line", LINES)
@pytest.mark.parametrize("code", ["pt_BR", "es"])
async def test_the_instance_list_holds_at_80x24(code, line, language):
    language(code)
    summary, headers = LIST_WORDS[code]
    with DemoServer(api_version=line) as server:
        app = make_app(make_config(server))
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(
                pilot,
                lambda: isinstance(app.screen, InstancesScreen) and bool(app.state.instances.value),
            )
            await wait_for(pilot, lambda: summary in screen_text(app))
            lines = _lines(app)
            header = next(row for row in lines if row.startswith(headers[0]))
            # Every column title whole: each cell of the header is a title as translated
            # (a column too narrow for its title would show it cut, "Nome do pe…").
            titles = {_(column.label) for column in INSTANCE_COLUMNS}
            cells = [cell for cell in re.split(r"\s{2,}", header.strip()) if cell]
            assert cells and all(cell in titles for cell in cells), header
            for word in headers:  # the status column is among those shown
                assert word in cells, header
            for name in server.state.instances:
                assert name in screen_text(app)
            assert _global_keys_shown(lines[-1]), lines[-1]


# The instance view's details: the label of each row, as the two lines show them.
VIEW_WORDS = {
    "pt_BR": ("Status", "Nome do perfil", "space liga/desliga uma configuração"),
    "es": ("Estado", "Nombre del perfil", "space activa/desactiva un ajuste"),
}


@pytest.mark.parametrize("line", LINES)
@pytest.mark.parametrize("code", ["pt_BR", "es"])
async def test_the_instance_view_holds_at_80x24(code, line, language):
    language(code)
    status, profile, toggles = VIEW_WORDS[code]
    with DemoServer(api_version=line) as server:
        app = make_app(make_config(server))
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await open_instance(app, pilot, "sales-eu")
            assert isinstance(screen, InstanceScreen)
            await wait_for(pilot, lambda: profile in screen_text(app))
            await wait_for(pilot, lambda: any(toggles in row for row in _lines(app)))
            lines = _lines(app)
            assert "sales-eu" in lines[0]  # the bar names the instance
            assert any(re.match(rf"\s*{status}\s+● open", row) for row in lines), lines
            # The settings line wraps between its phrases, never inside one.
            assert any(row.strip() == toggles or row.rstrip().endswith(toggles) for row in lines)
            assert _global_keys_shown(lines[-1]), lines[-1]


async def test_the_instance_view_reads_in_portuguese(app_for, language):
    language("pt_BR")
    app = app_for()
    async with app.run_test(size=(120, 40)) as pilot:
        await open_instance(app, pilot, "sales-eu")
        await wait_for(pilot, lambda: "Recusar chamadas recebidas" in screen_text(app))
        text = screen_text(app)
        assert "Resposta a chamadas rejeitadas: — (e edita)" in text
        assert "g grupos · m escrever mensagem de lista" in text
        assert "Reject incoming calls" not in text


@pytest.mark.parametrize(
    ("code", "countdown", "state"),
    [("pt_BR", "Novo código em", "Estado: "), ("es", "Nuevo código en", "Estado: ")],
)
async def test_pairing_reads_in_the_language(app_for, language, code, countdown, state):
    language(code)
    app = app_for()
    async with app.run_test(size=(120, 40)) as pilot:
        await open_pairing(app, pilot)
        await wait_for(pilot, lambda: countdown in screen_text(app))
        text = screen_text(app)
        assert "Conectar onboarding" in text and state in text
        assert "New code in" not in text and "State: " not in text


async def test_a_new_instance_reads_in_portuguese(app_for, language):
    language("pt_BR")
    app = app_for()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, NewInstanceScreen))
        await pilot.pause()
        assert "Nova instância" in screen_text(app)
        assert "Nome (vira uma pasta no gateway)" in screen_text(app)
        await pilot.press("ctrl+s")  # no name typed
        await wait_for(pilot, lambda: "digite um nome" in screen_text(app))


async def test_the_connect_form_reads_in_portuguese(language):
    language("pt_BR")
    app = GatewayApp(load_config())
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ConnectScreen))
        await pilot.pause()
        assert "Conectar a um gateway" in screen_text(app)
        assert "URL do gateway" in screen_text(app)
        assert "Testar conexão (^r)" in screen_text(app)


async def test_the_webhook_form_reads_in_portuguese(app_for, language):
    language("pt_BR")
    app = app_for()
    async with app.run_test(size=(120, 40)) as pilot:
        await open_instance(app, pilot, "sales-eu")
        await pilot.press("w")
        await wait_for(pilot, lambda: isinstance(app.screen, HookSettingsScreen))
        await wait_for(pilot, lambda: "lido às" in screen_text(app))
        text = screen_text(app)
        assert "Webhook de sales-eu" in text
        assert "Eventos (nenhum marcado: o gateway assina todos os 26)" in text


# --- the sentences built outside a screen ---------------------------------------------------


def test_counts_follow_the_language_one_and_many(language):
    language("pt_BR")
    one = SimpleNamespace(message_count=1, contact_count=1, chat_count=1)
    assert _stored(one) == "1 mensagem · 1 contato · 1 conversa"
    many = SimpleNamespace(message_count=1234, contact_count=2, chat_count=None)
    assert _stored(many) == "1.234 mensagens · 2 contatos · ? conversas"
    language("es")
    assert _stored(one) == "1 mensaje · 1 contacto · 1 chat"
    assert _stored(many) == "1.234 mensajes · 2 contactos · ? chats"


def test_the_first_frame_counts_kept_instances_in_the_language(language):
    language("pt_BR")
    at = datetime.now(UTC)
    head = InstancesHead(launch="x", label="demo", at=at, total=1, rows=[])
    assert instances_summary(head).plain.startswith("1 instância de demo da última execução")
    head = InstancesHead(launch="x", label="demo", at=at, total=1234, rows=[])
    assert instances_summary(head).plain.startswith("1.234 instâncias de demo")


def test_advice_for_errors_is_whole_sentences_with_or_without_a_key(language):
    language("pt_BR")
    refused = Unauthorized(status=401, messages=["Unauthorized"])
    title, advice = error_advice(refused, retry_key="^r")
    assert title == "O gateway recusou a chave da API"
    assert advice.endswith("e pressione ^r para tentar de novo.")
    assert error_advice(refused)[1].endswith("e tente de novo.")
    language("es")
    title, advice = error_advice(GatewayUnreachable(messages=["down"]), "http://x:9", retry_key="r")
    assert title == "No se puede acceder a http://x:9"
    assert advice.endswith("Luego pulsa r para volver a intentarlo.")


def test_checks_and_read_backs_are_said_in_the_language(language):
    language("es")
    assert [p.message for p in check_new_instance_name("")] == ["escribe un nombre"]
    language("pt_BR")
    assert integration_shown(None) == "WHATSAPP-BAILEYS (padrão)"
    assert webhook_differences(WebhookSettings(url="https://a.example"), WebhookSettings()) == [
        "o gateway não guardou nada (find responde {})"
    ]
    off = WebsocketSettings.model_validate({"enabled": False, "events": ["SEND_MESSAGE"]})
    on = WebsocketSettings(enabled=True, events=["CALL", "SEND_MESSAGE"])
    said = websocket_differences(on, off)
    assert "enabled: enviado True, mantido False" in said
    assert "eventos: removidos CALL" in said


def test_lid_labels_and_refusals_are_said_in_the_language(language):
    language("pt_BR")
    hidden = Identity("123@lid", lid="123@lid")
    assert hidden.label() == "123@lid (número oculto)"
    with pytest.raises(NoRoute, match="o WhatsApp oculta o número deste contato"):
        hidden.send_jid("2.3.7")


def test_restart_is_explained_in_the_language(language):
    language("es")
    said = restart_explanation(
        "support", ConnectionState.model_validate({"instance": {"state": "close"}}), "C"
    )
    assert said.startswith("support está close: un gateway solo reconecta")
    assert said.endswith("C la conecta.")


def test_a_styled_sentence_keeps_its_data_as_text():
    text = styled("Delete {name}?", name=("[b]x[/b]", "bold"))
    assert text.plain == "Delete [b]x[/b]?"
    assert [(span.start, span.end, span.style) for span in text.spans] == [(7, 15, "bold")]
