"""The issue's done-when on ``--demo --fleet``: over the demo's fleet (demo/fleet.py), the
zombie of each line, the flapping instance, the licence-gated gateway and the stopped one each
get their verdict on the fleet screen."""

from __future__ import annotations

import dataclasses

from gateway_tui.core.files.config import load_config
from gateway_tui.core.fleet.verdict import Verdict
from gateway_tui.demo.fleet import start_fleet
from gateway_tui.main import demo_fleet_config
from gateway_tui.tui.app import GatewayApp
from gateway_tui.tui.screens.fleet import FleetScreen
from tests.support import wait_for


def rows_by_key(app: GatewayApp) -> dict[tuple[str, str | None], object]:
    screen = app.screen
    if not isinstance(screen, FleetScreen):
        return {}
    return {(row.gateway, row.instance): row for row in screen.table.rows}


async def test_every_case_of_the_demo_fleet_gets_its_verdict() -> None:
    with start_fleet(instances=2, flap_seconds=0.4) as fleet:
        config = demo_fleet_config(load_config(), fleet)
        config = dataclasses.replace(config, refresh_interval=0.5)
        app = GatewayApp(config, fleet=True)
        async with app.run_test(size=(160, 50)) as pilot:

            def verdict(gateway: str, instance: str | None) -> Verdict | None:
                row = rows_by_key(app).get((gateway, instance))
                return row.verdict if row is not None else None

            await wait_for(pilot, lambda: verdict("demo-1.7.1", "zombie-a") is Verdict.ZOMBIE)
            await wait_for(pilot, lambda: verdict("demo-2.3.7", "zombie-b") is Verdict.ZOMBIE)
            await wait_for(pilot, lambda: verdict("demo-2.4-licence", None) is Verdict.LICENCE)
            await wait_for(pilot, lambda: verdict("demo-stopped", None) is Verdict.UNREACHABLE)
            # the flapping one: marked so once it changed often enough, and sorted with trouble
            await wait_for(
                pilot,
                lambda: getattr(rows_by_key(app).get(("demo-2.3.7", "flaky-b")), "flapping", False),
                within=120,
            )
            licence = rows_by_key(app)[("demo-2.4-licence", None)]
            assert "/manager" in licence.reason  # where to activate it
            zombie = rows_by_key(app)[("demo-2.3.7", "zombie-b")]
            assert "/metrics said close" in zombie.reason  # one call told every state
            rows = list(app.screen.table.visible_rows)
            ok_at = next(
                i for i, row in enumerate(rows) if row.verdict is Verdict.OK and not row.flapping
            )
            assert all(not row.flapping for row in rows[ok_at:])
