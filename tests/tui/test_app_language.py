"""The app's own words in pt-BR and es (issue 35): the bar, help, the palette, confirm, the
request log, the group picker, the table screens' banner, live-update notices, themes and the
crash report. English is pinned everywhere else; each test here asks for its language."""

from __future__ import annotations

from datetime import datetime
from types import SimpleNamespace

import pytest
from rich.text import Text
from textual.widgets import Button, Input

from gateway_tui.core.api.errors import GatewayUnreachable
from gateway_tui.core.api.events import CallEvent
from gateway_tui.core.live import LIVE_EVENTS, OFF, live_gap, said_why, why_not
from gateway_tui.core.state import Health
from gateway_tui.tui.crash import crash_report
from gateway_tui.tui.screens.confirm import ConfirmScreen
from gateway_tui.tui.screens.groups import GROUP_COLUMNS, GroupPickerScreen, GroupRow, jid_preview
from gateway_tui.tui.screens.help import HelpScreen
from gateway_tui.tui.screens.request_log import RequestLogScreen, call_full_details
from gateway_tui.tui.themes import load_user_themes
from gateway_tui.tui.widgets.gateway_bar import GatewayBar
from tests.support import notices, screen_text, wait_for

pytestmark = pytest.mark.in_process

INSTANCE = "sales-eu"
SIZE = (120, 36)


def _call(**overrides) -> CallEvent:
    fields = dict(
        request_id="r-1",
        method="GET",
        url="http://gw.example/instance/fetchInstances",
        path="/instance/fetchInstances",
        status=200,
        elapsed_ms=12.5,
        started_at=datetime(2026, 11, 27, 3, 0, 0),
        attempt=1,
        request_headers=(("accept", "application/json"),),
        response_headers=(),
        request_body=None,
        response_body='{"a": 1}',
        response_size=1234,
    )
    fields.update(overrides)
    return CallEvent(**fields)


def _bar_text(**overrides) -> str:
    bar = GatewayBar()
    fields = dict(
        url="http://gw.example",
        masked_key="EVO-…0001",
        health=Health.UNKNOWN,
        selected=INSTANCE,
        profile=None,
        insecure=True,
        live=True,
        version="2.3.7",
    )
    fields.update(overrides)
    bar.show(**fields)
    return bar._text.plain


# --- the bar ------------------------------------------------------------------------------------


def test_the_bar_says_health_live_and_its_labels_in_portuguese(language):
    language("pt_BR")
    text = _bar_text()
    for said in ("não verificado ainda", "chave EVO-…0001", "instância sales-eu", "⚡ ao vivo"):
        assert said in text
    assert "⚠ chave enviada sem criptografia (http)" in text
    assert "not checked" not in text and " key " not in text
    assert "⟳ consultando" in _bar_text(live=False, health=Health.UNREACHABLE)
    assert "● inacessível" in _bar_text(live=False, health=Health.UNREACHABLE)
    assert "⚡ parcial" in _bar_text(partial=True, health=Health.OK)
    assert "não conectado" in _bar_text(url=None)


def test_the_bar_in_spanish_keeps_the_data_styled_apart(language):
    language("es")
    bar = GatewayBar()
    bar.show(
        url="http://gw.example",
        masked_key="EVO-…0001",
        health=Health.FAILING,
        selected=INSTANCE,
        profile=None,
        insecure=False,
        live=False,
    )
    text = bar._text
    assert "clave EVO-…0001" in text.plain and "● fallando" in text.plain
    assert "⟳ consultando" in text.plain and "instancia sales-eu" in text.plain
    # The instance name is its own bold span, the word before it dimmed.
    start = text.plain.index(INSTANCE)
    styles = {str(span.style) for span in text.spans if span.start == start}
    assert "bold" in styles


# --- help and the palette -----------------------------------------------------------------------


async def test_help_speaks_portuguese(app_for, language):
    language("pt_BR")
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        await pilot.press("f1")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        text = screen_text(app)
        for said in ("Teclas — ", "Esta tela", "Em todo lugar", "Faz", "Id (para [keys])"):
            assert said in text, said
        keys_line = str(app.screen.query("#help-dialog > Static").last().render())
        assert keys_line.startswith("esc limpa o filtro, depois fecha · ")
        assert "encontra todas as ações" in keys_line
        placeholder = app.screen.query_one("#help-filter", Input).placeholder
        assert placeholder == "digite para filtrar: uma tecla, o que faz, o id"
        await pilot.press(*"zzqx")
        await wait_for(pilot, lambda: "Nenhuma tecla corresponde a “zzqx”." in screen_text(app))
        assert "This screen" not in text and "Everywhere" not in text


async def test_the_palette_speaks_spanish(app_for, language):
    language("es")
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        titles = {command.title: command.help for command in app.get_system_commands(app.screen)}
        assert titles["Cambiar tema"] == "Elige cualquier tema"
        assert titles["Captura de pantalla"] == "Guardar un SVG de la pantalla"
        assert titles["Actualizar instancias"] == "Volver a leer la lista de instancias"
        assert titles["Conectar a otro gateway"] == "Introduce una URL y una clave"
        assert "Salir" in titles and "Teclas" in titles  # the app's keys, by bindings.po
        assert not {"Change theme", "Screenshot", "Quit", "Keys"} & set(titles)
        await pilot.press("ctrl+p")
        await wait_for(pilot, lambda: app.screen.id == "--command-palette")
        field = app.screen.query_one(Input)
        assert field.placeholder == "Buscar comandos…"
        await pilot.press(*"abrir")
        await wait_for(pilot, lambda: f"Abrir instancia {INSTANCE}" in screen_text(app))


# --- confirm and prompt -------------------------------------------------------------------------


async def test_confirm_buttons_speak_portuguese(app_for, language):
    language("pt_BR")
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        app.push_screen(ConfirmScreen("Apagar", "corpo"))
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        yes = app.screen.query_one("#confirm-yes", Button)
        no = app.screen.query_one("#confirm-no", Button)
        assert str(yes.label) == "Sim (y)" and str(no.label) == "Cancelar (n)"


# --- the request log ----------------------------------------------------------------------------


def test_request_log_details_in_portuguese_keep_the_protocol_lines(language):
    language("pt_BR")
    text = call_full_details(_call()).plain
    for said in (
        "Cabeçalhos da requisição",
        "Corpo da requisição",
        "Cabeçalhos da resposta",
        "Corpo da resposta (1.234 bytes)",
        "status 200 · 12,5 ms · tentativa 1",
        "ID da requisição r-1",
    ):
        assert said in text, said
    # Protocol lines are data: method, URL and headers as they went.
    assert "GET http://gw.example/instance/fetchInstances" in text
    assert "accept: application/json" in text
    assert "(sem resposta)" in call_full_details(_call(status=None)).plain
    assert "Corpo da resposta (1 byte)" in call_full_details(_call(response_size=1)).plain


async def test_request_log_screen_speaks_portuguese_with_plurals(app_for, language):
    language("pt_BR")
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        app.state.clear_calls()
        app.state.record_call(_call())
        app.action_request_log()
        await wait_for(pilot, lambda: isinstance(app.screen, RequestLogScreen))
        await wait_for(pilot, lambda: "1 chamada · 0 falhou" in screen_text(app))
        text = screen_text(app)
        assert "detalhes" in text and "filtrar" in text
        assert "1 call" not in text
        app.state.record_call(_call(request_id="r-2", status=500, error="boom"))
        await wait_for(pilot, lambda: "2 chamadas · 1 falhou" in screen_text(app))
        assert app.screen.query_one("#log-filter").placeholder == (
            "filtrar por método, caminho ou status"
        )


# --- the group picker ---------------------------------------------------------------------------


def test_group_picker_words_and_numbers_in_portuguese(language):
    language("pt_BR")
    jid, said = jid_preview("120363012345678901")
    assert jid == "120363012345678901@g.us"
    assert said.plain == "→ usa 120363012345678901@g.us  (@g.us adicionado, como o gateway faz)"
    assert jid_preview("")[1].plain == "Digite o ID de um grupo (dígitos) ou o JID completo."
    size = next(column for column in GROUP_COLUMNS if column.key == "size")
    assert size.value(GroupRow("1@g.us", "x", 1234)) == "1.234"


async def test_group_picker_screen_in_spanish(app_for, language):
    language("es")
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        app.open_groups(INSTANCE)
        await wait_for(pilot, lambda: isinstance(app.screen, GroupPickerScreen))
        await wait_for(pilot, lambda: " grupos" in screen_text(app))
        text = screen_text(app)
        assert f"Grupos de {INSTANCE}" in text
        assert "abre" in text and "escribe un JID" in text
        assert "Groups of" not in text and " groups" not in text


# --- table screens: the stale banner and the summary -------------------------------------------


async def test_stale_banner_in_portuguese(app_for, language):
    language("pt_BR")
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        app.open_groups(INSTANCE)
        await wait_for(pilot, lambda: isinstance(app.screen, GroupPickerScreen))
        screen = app.screen
        await wait_for(pilot, lambda: app.state.groups_of(INSTANCE).value is not None)
        loadable = SimpleNamespace(
            stale=True,
            error=GatewayUnreachable("down"),
            updated_at=datetime(2026, 11, 27, 3, 4, 5),
        )
        screen.show_stale(loadable, "grupos", "fora do ar")
        banner = screen.query_one("#groups-stale").render()
        plain = banner.plain if isinstance(banner, Text) else str(banner)
        wanted = "⚠ Mostrando grupos das 03:04:05 — a atualização falhou: fora do ar"
        assert plain.startswith(wanted)
        assert "tenta de novo" in plain


# --- notices: errors, live updates, the crash report --------------------------------------------


async def test_a_failed_call_and_a_bug_are_said_in_portuguese(app_for, language):
    language("pt_BR")
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        app.report_error(GatewayUnreachable("down"), "Atualizando instâncias")
        app.report_unexpected(RuntimeError("x"), None)
        await wait_for(pilot, lambda: len(notices(app)) >= 2)
        said = notices(app)
        assert any(line.startswith("Atualizando instâncias: falhou: ") for line in said)
        assert any(line.startswith("Erro inesperado: RuntimeError: x") for line in said)


def test_crash_report_in_spanish():
    from gateway_tui.core.text.i18n import set_language

    set_language("es")
    try:
        report = crash_report(RuntimeError("boom"), []).plain
    finally:
        set_language("en")
    assert report.startswith("gateway-tui se detuvo por un error inesperado")
    assert "RuntimeError: boom" in report


def test_live_gap_and_reasons_in_portuguese(language):
    language("pt_BR")
    assert live_gap(INSTANCE, [OFF]).startswith(
        f"Sem atualizações ao vivo de {INSTANCE}: o websocket dela está desligado"
    )
    partial = live_gap(INSTANCE, ["MESSAGES_UPDATE"])
    assert partial.startswith(f"As atualizações ao vivo de {INSTANCE} são parciais")
    assert "marcas de entrega (MESSAGES_UPDATE)" in partial
    none_come = live_gap(INSTANCE, list(LIVE_EVENTS))
    assert "não envia nada do que as telas precisam" in none_come
    # The reason stays English where it is decided (refused() reads it), said translated.
    why = why_not("404")
    assert why == "the gateway's websocket is off (/socket.io/ answers 404)"
    assert said_why(why) == "o websocket do gateway está desligado (/socket.io/ responde 404)"
    assert said_why(why_not("timed out")) == "não foi possível alcançar o websocket (timed out)"
    assert said_why("the websocket dropped: reconnecting") == "o websocket caiu: reconectando"


def test_theme_problems_in_spanish_with_plurals(tmp_path, language):
    language("es")
    (tmp_path / "one.toml").write_text('primary = "#4ea1d3"\nfoo = 1\n')
    (tmp_path / "two.toml").write_text('primary = "#4ea1d3"\nfoo = 1\nbar = 2\n')
    (tmp_path / "bad.toml").write_text("primary = [")
    _themes, problems = load_user_themes(tmp_path)
    said = "\n".join(problems)
    assert "ajuste desconocido foo (conocidos:" in said
    assert "ajustes desconocidos bar, foo (conocidos:" in said
    assert "TOML no válido" in said and "tema no cargado." in said


async def test_request_log_summary_in_spanish_keeps_each_key_with_its_words(app_for, language):
    language("es")
    app = app_for()
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        app.state.clear_calls()
        for number in range(12):
            app.state.record_call(_call(request_id=f"r-{number}"))
        app.action_request_log()
        await wait_for(pilot, lambda: isinstance(app.screen, RequestLogScreen))
        await wait_for(pilot, lambda: "12 llamadas" in screen_text(app))
        lines = [line.rstrip() for line in screen_text(app).splitlines()]
        # The summary needs two lines at 80 columns: it breaks between phrases only.
        assert any(line.startswith(" 12 llamadas · 0 fallaron · ") for line in lines)
        assert any("c vacía" in line for line in lines)
        assert not any(line.endswith((" c", " Y", " y", " /", " ⏎")) for line in lines[:4])
