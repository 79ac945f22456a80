"""10. Fleet (issue 30 item 8): 20 gateways × 500 instances on the fleet screen.

The app is the installed ``gateway-tui --fleet`` on a pty, with a config of 20 profiles, each a
demo gateway of its own with 500 instances, served from this process (one uvicorn thread each),
so the requests each receives can be counted.

- launch → the first frame with the rows kept at the last run (dimmed, with their age: "rows
  from the last run" in the summary), beside the bare Textual app's first frame (the issue's
  target: ≤ 1.1×): the starting screen draws them from a small file of the first rows
  (core/fleet/head.py), before the config, the HTTP stack and the 10,000 kept rows are read;
  and launch → every gateway read ("every gateway read since" in the summary);
- HTTP requests per minute at rest (refresh interval 10 s), against the budget: one
  fetchInstances per gateway per refresh (the demo has no /metrics on this line, so each
  refresh also asks connectionState of at most 5 instances listed open per gateway, in turn);
- the app's peak RSS once every row is shown, beside the bare app's.

The first launch of each section (a warm-up, not counted) has no rows kept yet; the later ones
draw the rows the one before kept when it quit.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from bench._proc import BIN, PtyProcess, child_env
from bench.bare_app import FIRST_ROW_TEXT
from bench.report import Figure, Report, Row, at_most_ratio

GATEWAYS = 20
INSTANCES = 500
INTERVAL = 10.0
REST_WINDOW = 30.0
CACHED_ROWS = b"from the last run"
EVERY_ROW = b"every gateway read since"


def _config(home: str, servers) -> None:  # noqa: ANN001 - DemoServers
    lines = [f"refresh_interval = {INTERVAL}", 'default_profile = "gw-00"']
    for index, server in enumerate(servers):
        lines += [
            f"[profiles.gw-{index:02d}]",
            f'url = "{server.url}"',
            f'api_key = "{server.api_key}"',
        ]
    path = Path(home) / "config" / "config.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n")
    path.chmod(0o600)


def _requests(servers, began: float, ended: float) -> int:  # noqa: ANN001
    return sum(1 for server in servers for t, _m, _p in list(server.requests) if began <= t < ended)


def run(report: Report, runs: int) -> None:
    from contextlib import ExitStack

    from gateway_tui.demo.server import DemoServer

    cached, first, bare, rest, rss, bare_rss = [], [], [], [], [], []
    with ExitStack() as stack, tempfile.TemporaryDirectory(prefix="bench-fleet-") as home:
        servers = [
            stack.enter_context(DemoServer(instances=INSTANCES, chats=0)) for _ in range(GATEWAYS)
        ]
        _config(home, servers)
        env = child_env(home)
        app_argv = [str(BIN / "gateway-tui"), "--fleet"]
        bare_argv = [sys.executable, "-m", "bench.bare_app"]
        for index in range(runs + 1):  # the first round warms caches and is not counted
            with PtyProcess(app_argv, env, watch=[CACHED_ROWS, EVERY_ROW]) as app:
                shown = app.wait_for_output(EVERY_ROW, timeout=180)
                if index:
                    kept = app.wait_for_output(CACHED_ROWS, timeout=1)
                    cached.append((kept - app.spawned_at) * 1000)
                    first.append((shown - app.spawned_at) * 1000)
                    rss.append(app.peak_rss_kib() / 1024)
                if index == 1:  # at rest: one window is enough (it spans three refreshes)
                    time.sleep(INTERVAL)  # the refresh that follows the first reading
                    began = time.monotonic()
                    time.sleep(REST_WINDOW)
                    ended = time.monotonic()
                    rest.append(_requests(servers, began, ended) * 60 / (ended - began))
            with PtyProcess(bare_argv, env, watch=[FIRST_ROW_TEXT.encode()]) as floor:
                at = floor.wait_for_output(FIRST_ROW_TEXT.encode())
                if index:
                    bare.append((at - floor.spawned_at) * 1000)
                    bare_rss.append(floor.peak_rss_kib() / 1024)
    section = f"10. Fleet ({GATEWAYS} demo gateways × {INSTANCES} instances, pty 140×40)"
    report.add(
        Row(
            section,
            Figure("gateway-tui --fleet: launch → first frame with the last run's rows", cached),
            Figure("bare Textual app: launch → first frame", bare),
            target="≤ 1.1× floor",
            check=at_most_ratio(1.1),
        )
    )
    report.add(
        Row(
            section,
            Figure("gateway-tui --fleet: launch → every gateway read, every row current", first),
            Figure("bare Textual app: launch → first frame", bare),
            note="20 fetchInstances of 500 rows, from 20 demo gateways in one process",
        )
    )
    per_refresh = 60 / INTERVAL
    report.add(
        Row(
            section,
            Figure("HTTP requests per minute at rest (refresh every 10 s)", rest, unit="/min"),
            Figure(
                "one fetchInstances per gateway per refresh",
                [GATEWAYS * per_refresh] * len(rest),
                unit="/min",
            ),
            target="≤ 6× floor (fetchInstances + ≤ 5 connectionState per gateway)",
            check=at_most_ratio(6.0),
        )
    )
    report.add(
        Row(
            section,
            Figure("peak RSS with every row shown", rss, unit="MiB"),
            Figure("bare Textual app", bare_rss, unit="MiB"),
        )
    )
