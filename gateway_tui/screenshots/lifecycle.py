"""Scenarios of an instance's lifecycle: new instance, the QR code, the pairing code."""

from __future__ import annotations

from textual.pilot import Pilot

from gateway_tui.screenshots.base import Scenario, wait_until
from gateway_tui.screenshots.shell import instances_loaded
from gateway_tui.tui.widgets.qr import QRCode


async def _new_instance(pilot: Pilot) -> None:
    await instances_loaded(pilot)
    await pilot.press("n")
    await pilot.pause()
    await pilot.press(*"sales-eu-2", "tab", *"+49 151 2345 0099")
    await pilot.pause()


async def _pairing(pilot: Pilot, number: str | None = None) -> None:
    app = pilot.app
    await instances_loaded(pilot)
    app.open_pairing("onboarding", number)  # type: ignore[attr-defined]
    await pilot.pause()

    def shown() -> bool:
        result = app.actions.pairing_of("onboarding").value  # type: ignore[attr-defined]
        if result is None or app.screen.query_one(QRCode).drawing is None:
            return False
        if number and not result.pairing_code:
            return False
        # The state line says when the state was checked: not "never" in the picture.
        return "onboarding" in app.state.lifecycle.checked_at  # type: ignore[attr-defined]

    await wait_until(pilot, shown)


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
