"""`python -m gateway_tui.screenshots DIR`: write an SVG of every screen into DIR."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from gateway_tui.screenshots import all_scenarios
from gateway_tui.screenshots.base import Scenario, build_app


async def _shoot(scenario: Scenario, out_dir: Path) -> Path:
    from gateway_tui.demo.server import DemoServer

    with DemoServer(**scenario.server_options) as server:
        app = build_app(server, scenario)
        async with app.run_test(size=scenario.size) as pilot:
            await scenario.run(pilot)
            path = out_dir / f"{scenario.name}.svg"
            path.write_text(app.export_screenshot(title=f"gateway-tui — {scenario.name}"))
            return path


def main(argv: list[str]) -> int:
    out_dir = Path(argv[0] if argv else "screenshots")
    out_dir.mkdir(parents=True, exist_ok=True)
    wanted = set(argv[1:])
    for scenario in all_scenarios():
        if wanted and scenario.name not in wanted:
            continue
        path = asyncio.run(_shoot(scenario, out_dir))
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
