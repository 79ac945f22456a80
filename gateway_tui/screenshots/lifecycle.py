"""Scenarios of an instance's lifecycle: new instance, the QR code, the pairing code."""

from __future__ import annotations

from textual.pilot import Pilot

from gateway_tui.screenshots.base import Scenario, shown, wait_until
from gateway_tui.screenshots.shell import instances_loaded
from gateway_tui.tui.screens.pairing import PairingScreen
from gateway_tui.tui.widgets.qr import QRCode


async def _new_instance(pilot: Pilot) -> None:
    from textual.widgets import Input

    from gateway_tui.tui.screens.new_instance import NewInstanceScreen

    app = pilot.app
    await instances_loaded(pilot)
    await pilot.press("n")
    await wait_until(pilot, shown(pilot, NewInstanceScreen))
    await wait_until(pilot, lambda: app.focused is not None and app.focused.id == "new-name")
    await pilot.press(*"sales-eu-2", "tab", *"+49 151 2345 0099")
    number = app.screen.query_one("#new-number", Input)
    await wait_until(pilot, lambda: number.value == "+49 151 2345 0099" and number.has_focus)


async def _pairing(pilot: Pilot, number: str | None = None) -> None:
    app = pilot.app
    await instances_loaded(pilot)
    app.open_pairing("onboarding", number)  # type: ignore[attr-defined]
    await wait_until(pilot, shown(pilot, PairingScreen))

    def drawn() -> bool:
        result = app.actions.lifecycle.pairing_of("onboarding").value  # type: ignore[attr-defined]
        if result is None:
            return False
        if number and not result.pairing_code:
            return False
        # With a number the screen opens on the pairing code alone; else on the QR, drawn.
        if not number and app.screen.query_one(QRCode).drawing is None:
            return False
        # The state line says when the state was checked: not "never" in the picture.
        return "onboarding" in app.state.lifecycle.checked_at  # type: ignore[attr-defined]

    await wait_until(pilot, drawn)


async def _qr(pilot: Pilot) -> None:
    await _pairing(pilot)


async def _pairing_code(pilot: Pilot) -> None:
    await _pairing(pilot, "4915123450099")


SCENARIOS = [
    Scenario("new-instance", _new_instance),
    Scenario("connect-qr", _qr, size=(120, 38)),
    Scenario("connect-qr-80x24", _qr, size=(80, 24)),
    Scenario("connect-pairing-code", _pairing_code, size=(140, 40)),
]
