"""Issue 35: the campaign screens in the reader's language — the set-up in pt-BR, the rows
that leave a placeholder empty, the run screen's counters and rate in es, numbers the
locale's way, plurals by count."""

from __future__ import annotations

from datetime import datetime

import pytest
from textual.widgets import TextArea

from gateway_tui.core.campaign.journal import Pace, Status, create_campaign
from gateway_tui.core.campaign.recipients import Recipient, parse_recipients
from gateway_tui.core.campaign.runner import Attempt, Progress, RunState
from gateway_tui.tui.screens.campaign_lines import attempt_line, counts_line, parse_pace
from gateway_tui.tui.screens.campaign_run import CampaignRunScreen
from gateway_tui.tui.screens.confirm import ConfirmScreen
from tests.data import PASTED, SETUP_DRAFT
from tests.navigation import open_campaign_setup
from tests.support import screen_text, wait_for


def _progress(**counts: int | float) -> Progress:
    values = {"sent": 0, "failed": 0, "unknown": 0, "skipped": 0, "left": 0, **counts}
    return Progress(state=RunState.WAITING, total=5_000, **values)  # type: ignore[arg-type]


@pytest.mark.in_process
async def test_the_campaign_setup_speaks_portuguese(app_for, demo_server, language):
    language("pt_BR")
    app = app_for()
    async with app.run_test(size=(140, 44)) as pilot:
        setup = await open_campaign_setup(app, pilot, demo_server)
        text = screen_text(app)
        assert "Enviar a vários de sales-eu: “Hello {name}”" in text
        assert "Arquivo CSV" in text and "Por minuto" in text and "Atraso (ms)" in text
        assert "Não está pronta: carregue um arquivo CSV ou cole os destinatários" in text
        setup.query_one("#c-paste", TextArea).text = PASTED
        await wait_for(pilot, lambda: "Pronta: ctrl+s pergunta" in screen_text(app))
        text = screen_text(app)
        assert "linhas coladas: " in text
        assert "2 destinatários levam cerca de 6 s" in text  # 20 a minute: one every 3 s
        assert "Como Ana a recebe (linha 2)" in text
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        text = screen_text(app)
        assert "Iniciar a campanha" in text
        assert "Enviar “Hello {name}” para 2 destinatários de sales-eu" in text
        assert "Um diário registra tudo" in text
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is setup)


@pytest.mark.in_process
async def test_rows_with_an_empty_placeholder_are_said_in_spanish_one_and_many(
    app_for, demo_server, language
):
    language("es")
    app = app_for()
    async with app.run_test(size=(140, 44)) as pilot:
        setup = await open_campaign_setup(app, pilot, demo_server)
        paste = setup.query_one("#c-paste", TextArea)
        paste.text = "number,name,city\n4917300000001,Ana,Berlin\n4917300000002,,Paris\n"
        await wait_for(pilot, lambda: "1 fila deja un marcador vacío" in screen_text(app))
        text = screen_text(app)
        assert "⚠ 1 fila deja un marcador vacío (el mensaje quedaría con un hueco" in text
        assert "línea 3 (4917300000002): {name} vacío" in text
        assert "Vacíos" in text and "elige: enviar tal cual u omitir" in text
        assert "No está lista: 1 fila deja un marcador vacío: elige enviarla tal cual" in text
        paste.text = (
            "number,name,city\n4917300000001,Ana,Berlin\n4917300000002,,Paris\n4917300000003,,\n"
        )
        await wait_for(pilot, lambda: "2 filas dejan un marcador vacío" in screen_text(app))
        assert "línea 4 (4917300000003): {city}, {name} vacíos" in screen_text(app)


@pytest.mark.in_process
async def test_the_run_screen_counts_and_rate_in_spanish(app_for, demo_server, language):
    campaign = create_campaign(
        gateway=demo_server.url,
        instance="sales-eu",
        draft=SETUP_DRAFT,
        recipients=parse_recipients(PASTED),
        pace=Pace(20, 0.3),
        now=datetime(2026, 11, 23, 10, 0),
    )
    language("es")
    app = app_for()
    async with app.run_test(size=(140, 44)) as pilot:
        run = CampaignRunScreen(campaign)
        app.push_screen(run)
        await wait_for(pilot, lambda: "Faltan 2" in screen_text(app))
        text = screen_text(app)
        assert f"Campaña {campaign.id} · desde sales-eu" in text
        assert "faltan enviar 2 — r reanuda" in text
        assert "Enviados ahora (el último al final)" in text
        run._latest = _progress(
            sent=1_234, failed=1, unknown=2, left=3_763, rate_per_minute=12.5, eta_seconds=18_060
        )
        run._redraw()
        await wait_for(pilot, lambda: "Enviados 1.234" in screen_text(app))
        text = screen_text(app)
        assert "Fallidos 1" in text and "Dudosos 2" in text and "Faltan 3.763" in text
        assert "ritmo 12,5/min" in text and "faltan unos 5 h 1 min" in text
        assert "Sent" not in text and "rate" not in text


def test_the_counts_in_portuguese_group_thousands_with_a_dot(language):
    language("pt_BR")
    line = counts_line(_progress(sent=1_234, skipped=2_001, left=10)).plain
    assert "Enviadas 1.234" in line and "Postas de lado 2.001" in line and "Faltam 10" in line
    language("en")
    assert "Sent 1,234" in counts_line(_progress(sent=1_234)).plain


def test_the_end_of_a_run_says_one_and_many_in_portuguese(language):
    language("pt_BR")
    one = CampaignRunScreen._finished_line(_progress(failed=1, unknown=1)).plain
    assert "1 falhou (o relatório diz por quê)" in one
    assert "1 com resultado incerto (retido abaixo: confira a conversa)" in one
    many = CampaignRunScreen._finished_line(_progress(failed=2, unknown=3)).plain
    assert "2 falharam" in many and "3 com resultado incerto (retidos abaixo" in many
    assert many.startswith("Concluída, não falta ninguém — mas ")


def test_a_log_line_in_portuguese_keeps_its_column(language):
    recipient = Recipient(line=3, number="4917300000001", name="Ana")
    at = datetime(2026, 11, 23, 10, 0, 5).timestamp()
    language("pt_BR")
    sent = attempt_line(Attempt(0, recipient, Status.SENT, at=at)).plain
    held = attempt_line(Attempt(0, recipient, Status.UNKNOWN, at=at)).plain
    assert sent.startswith("10:00:05  ✓ enviada") and "linha 3" in sent
    assert held.startswith("10:00:05  ? incerta, retida")
    assert sent.index("linha 3") == held.index("linha 3")  # the outcomes in one column


def test_a_pace_that_cannot_be_read_is_said_in_spanish(language):
    language("es")
    pace, problems = parse_pace("lots", "95")
    assert pace is None
    assert [str(p) for p in problems] == [
        "mensajes por minuto: un número desde 0 (máxima velocidad)",
        "variación: un porcentaje de 0 a 90",
    ]
