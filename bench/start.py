"""1. Start: launch → first frame, and launch → the instances on screen, as a whole process.

The app is the installed ``gateway-tui`` command, unmodified, pointed at a demo gateway with 100
instances that runs in a process of its own. Its first frame is the moment the empty table's
"loading…" shows up in the terminal's output (drawn before the config, the HTTP stack and
pydantic are imported); its first frame with instances is the moment the name of the first
instance shows up. Both are read from the same launches. The floor is the bare Textual app
of ``bench/bare_app.py`` (Header + DataTable + Footer, 100 rows), whose first frame is the moment
its first row shows up. Both run on a pty of the same size with the same environment, and are
launched alternately so drifting machine load hits both alike.

Start-up is quick and noisy, so this section makes twice as many runs as the others.

Two more rows explain the gap: import times, measured inside a process that only imports (no
interpreter start-up or exit): the dependencies the app's first frame needs beyond Textual, and
the app's own modules, each against Textual (and the DataTable) alone.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile

from bench._proc import BIN, PtyProcess, child_env
from bench.bare_app import FIRST_ROW_TEXT
from bench.report import Figure, Report, Row, at_most_ratio

FIRST_INSTANCE = b"sales-eu"  # the demo gateway's first instance, the table's first row
FIRST_FRAME = "loading…".encode()  # the empty table of the app's first frame
TEXTUAL_IMPORTS = "textual.app, textual.widgets._data_table"
# What the first frame with instances needs beyond Textual: the HTTP stack (httpx, and the
# httpcore, h11 and anyio it loads on the first request), pydantic and pydantic-settings.
# (`gateway_tui` first: it keeps httpx's command-line client from loading, as in the app.)
STACK_IMPORTS = (
    "gateway_tui, "
    + TEXTUAL_IMPORTS
    + ", httpx, httpcore, h11, anyio._backends._asyncio, pydantic, pydantic_settings"
)
APP_IMPORTS = "gateway_tui.cli, gateway_tui.app, gateway_tui.screens.instances"
TIMED_IMPORT = (
    "import time; started = time.perf_counter(); import {modules}; "
    "print((time.perf_counter() - started) * 1000)"
)


def _first_frame(argv: list[str], needle: bytes, env: dict[str, str]) -> float:
    with PtyProcess(argv, env, watch=[needle]) as process:
        return (process.wait_for_output(needle) - process.spawned_at) * 1000


def _app_frames(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Milliseconds from launch to the app's first frame, and to the instances on screen."""
    with PtyProcess(argv, env, watch=[FIRST_FRAME, FIRST_INSTANCE]) as process:
        shown = process.wait_for_output(FIRST_INSTANCE)
        first = process.wait_for_output(FIRST_FRAME)
        return (first - process.spawned_at) * 1000, (shown - process.spawned_at) * 1000


def _import_time(modules: str, env: dict[str, str]) -> float:
    code = TIMED_IMPORT.format(modules=modules)
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True
    )
    return float(done.stdout)


def run(report: Report, runs: int, demo_url: str, demo_key: str) -> None:
    app_argv = [str(BIN / "gateway-tui"), "--url", demo_url, "--api-key", demo_key]
    bare_argv = [sys.executable, "-m", "bench.bare_app"]
    app, first_frame, bare = [], [], []
    stack, textual, ours = [], [], []
    with tempfile.TemporaryDirectory(prefix="bench-start-") as home:
        env = child_env(home)
        for index in range(2 * runs + 1):  # the first round warms caches and is not counted
            first_ms, app_ms = _app_frames(app_argv, env)
            bare_ms = _first_frame(bare_argv, FIRST_ROW_TEXT.encode(), env)
            textual_ms = _import_time(TEXTUAL_IMPORTS, env)
            stack_ms = _import_time(STACK_IMPORTS, env)
            ours_ms = _import_time(APP_IMPORTS, env)
            if index:
                app.append(app_ms)
                first_frame.append(first_ms)
                bare.append(bare_ms)
                textual.append(textual_ms)
                stack.append(stack_ms)
                ours.append(ours_ms)
    section = "1. Start (whole process, pty 140×40, demo gateway with 100 instances)"
    report.add(
        Row(
            section,
            Figure('gateway-tui: launch → first frame (header, table "loading…")', first_frame),
            Figure("bare Textual app", bare),
            target="≤ 1.15× floor",
            check=at_most_ratio(1.15),
        )
    )
    report.add(
        Row(
            section,
            Figure("gateway-tui: launch → first frame with instances", app),
            Figure("bare Textual app", bare),
            target="≤ 1.5× floor",
            check=at_most_ratio(1.5),
        )
    )
    report.add(
        Row(
            section,
            Figure("import Textual + httpx/httpcore/anyio + pydantic(-settings)", stack),
            Figure("import Textual", textual),
        )
    )
    report.add(
        Row(
            section,
            Figure("import gateway_tui.cli + app + instances screen (+ Textual)", ours),
            Figure("import Textual", textual),
        )
    )
