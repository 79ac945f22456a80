"""The events area in the reader's language (issue 35): the event monitor and its asked-versus-
arrived panel in Portuguese, the fleet's verdicts, summary and alert line in Spanish — ids
(MESSAGES_UPSERT, messages.upsert), names and the gateway's words kept as they came."""

from __future__ import annotations

from gateway_tui.core.api.lifecycle import WebsocketSettings
from gateway_tui.tui.screens.event_monitor import EventMonitorScreen
from tests.data import INSTANCE
from tests.navigation import open_instance
from tests.support import screen_text, wait_for
from tests.tui.screens.test_event_monitor import SIZE, write
from tests.tui.screens.test_fleet import all_read, fleet_app, gateways, told  # noqa: F401


async def test_the_event_monitor_and_its_panel_in_portuguese(app_for, demo_server, language):
    language("pt_BR")
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await open_instance(app, pilot)
        await app.actions.lifecycle.save_websocket(
            INSTANCE, WebsocketSettings(enabled=True, events=["CONNECTION_UPDATE"])
        )
        await pilot.press("E")
        await wait_for(pilot, lambda: isinstance(app.screen, EventMonitorScreen))
        screen = app.screen
        await wait_for(pilot, lambda: screen.stream is not None and screen.stream.connected)
        await write(demo_server, "não pedido")
        await wait_for(pilot, lambda: screen.table.visible_count == 1)
        verdict = "MESSAGES_UPSERT: visto no websocket, mas não marcado (1 visto)"
        await wait_for(pilot, lambda: verdict in screen_text(app))
        text = screen_text(app)
        assert f"Eventos de {INSTANCE}" in text
        assert "Pedido versus recebido" in text
        assert "websocket: ligado, 1 evento marcado" in text  # one: the singular
        assert "CONNECTION_UPDATE: marcado para o websocket, nenhum visto ainda" in text
        assert "1 dos últimos 5.000 eventos guardados" in text  # 5.000: the locale's number
        assert "messages.upsert" in text  # an event's name is an id: never translated


async def test_the_fleet_s_verdicts_summary_and_alert_line_in_spanish(gateways, language):  # noqa: F811
    language("es")
    app = fleet_app(gateways)
    one = gateways["one"][2]
    told(app)
    async with app.run_test(size=(160, 40)) as pilot:
        await wait_for(pilot, lambda: all_read(app))
        await wait_for(pilot, lambda: "inaccesible" in screen_text(app))
        text = screen_text(app)
        assert "no autorizado" in text  # the refused key's verdict
        assert "4 gateways · 12 instancias · " in text
        one.state.instances["sales-eu"].status = "close"
        await app.fleet.refresh()
        await wait_for(pilot, lambda: "dejó de estar abierta" in screen_text(app))
        (alert,) = [a for a in app.fleet.alerts if a.kind.value == "left open"]  # a code
        assert alert.summary().startswith("one / sales-eu: dejó de estar abierta: ")
        assert any("dejó de estar abierta" in notice for notice in told(app))
