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

Four more rows explain the gap. The start is CPU-bound: the app's CPU time when its instances
show is next to its wall time, so there is no wait to overlap the imports with; no order of the
work saves time, only less work does. Import times, measured inside a process that only imports
(no interpreter start-up or exit): the libraries the instances need beyond Textual (pydantic for
the models, httpx with the httpcore, h11 and anyio it loads on the first request, phonenumbers
for the owner column) against Textual (and the DataTable) alone; and what those libraries add,
against half the bare app's first frame, which is all the room the ≤ 1.5× target leaves above
its floor. Last, a whole process on the same pty that starts and imports everything the
instances need (Textual, those libraries and the app's own modules) and draws nothing, against
the target itself: what it leaves is all the time there is for the request, building the
models and drawing.
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
# httpcore, h11 and anyio it loads on the first request), pydantic (with the pieces a model
# and a TypeAdapter pull in) and phonenumbers. (`gateway_tui` first: it keeps httpx's
# command-line client from loading, as in the app.)
LIBRARIES = (
    "httpx, httpcore, h11, anyio._backends._asyncio, pydantic.main, pydantic.type_adapter, "
    "pydantic.types, phonenumbers"
)
STACK_IMPORTS = "gateway_tui, " + TEXTUAL_IMPORTS + ", " + LIBRARIES
# Every module the instances on screen need: the app's (the home screen, the config, the state,
# the actions, the client) with all they import, and the libraries above.
APP_IMPORTS = (
    "gateway_tui.main, gateway_tui.tui.app, gateway_tui.tui.screens.starting, "
    "gateway_tui.core.files.config, gateway_tui.core.state, gateway_tui.core.services, "
    "gateway_tui.core.api.client, "
    "gateway_tui.tui.screens.instances, " + LIBRARIES
)
IMPORTED = b"imported-all-the-instances-need"
# With the collector off, as the app imports after its first frame.
IMPORT_ALL = f"import gc; gc.disable(); import {APP_IMPORTS}; print({IMPORTED.decode()!r})"
TIMED_IMPORT = (
    "import time; started = time.perf_counter(); import {modules}; "
    "print((time.perf_counter() - started) * 1000)"
)


def _first_frame(argv: list[str], needle: bytes, env: dict[str, str]) -> float:
    with PtyProcess(argv, env, watch=[needle]) as process:
        return (process.wait_for_output(needle) - process.spawned_at) * 1000


def _app_frames(argv: list[str], env: dict[str, str]) -> tuple[float, float, float]:
    """Milliseconds from launch to the app's first frame and to the instances on screen, and
    the CPU time the app had used when the instances showed."""
    with PtyProcess(argv, env, watch=[FIRST_FRAME, FIRST_INSTANCE]) as process:
        shown = process.wait_for_output(FIRST_INSTANCE)
        cpu_ms = process.cpu_ms()
        first = process.wait_for_output(FIRST_FRAME)
        return (first - process.spawned_at) * 1000, (shown - process.spawned_at) * 1000, cpu_ms


def _import_time(modules: str, env: dict[str, str]) -> float:
    code = TIMED_IMPORT.format(modules=modules)
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True
    )
    return float(done.stdout)


def run(report: Report, runs: int, demo_url: str, demo_key: str) -> None:
    app_argv = [str(BIN / "gateway-tui"), "--url", demo_url, "--api-key", demo_key]
    bare_argv = [sys.executable, "-m", "bench.bare_app"]
    app, first_frame, bare, app_cpu = [], [], [], []
    stack, textual, ours = [], [], []
    with tempfile.TemporaryDirectory(prefix="bench-start-") as home:
        env = child_env(home)
        for index in range(2 * runs + 1):  # the first round warms caches and is not counted
            first_ms, app_ms, cpu_ms = _app_frames(app_argv, env)
            bare_ms = _first_frame(bare_argv, FIRST_ROW_TEXT.encode(), env)
            textual_ms = _import_time(TEXTUAL_IMPORTS, env)
            stack_ms = _import_time(STACK_IMPORTS, env)
            ours_ms = _first_frame([sys.executable, "-c", IMPORT_ALL], IMPORTED, env)
            if index:
                app.append(app_ms)
                app_cpu.append(cpu_ms)
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
            Figure("the app's CPU time (user + system) when its instances show", app_cpu),
            Figure("launch → first frame with instances (wall)", app),
        )
    )
    report.add(
        Row(
            section,
            Figure("import Textual + pydantic + httpx/httpcore/h11/anyio + phonenumbers", stack),
            Figure("import Textual", textual),
        )
    )
    report.add(
        Row(
            section,
            Figure(
                "those libraries alone (the row above less its floor, run by run)",
                [with_them - alone for with_them, alone in zip(stack, textual, strict=True)],
            ),
            Figure(
                "half the bare app: the room a ≤ 1.5× start has above its floor",
                [0.5 * bare_ms for bare_ms in bare],
            ),
        )
    )
    report.add(
        Row(
            section,
            Figure("launch → all the instances need imported (nothing drawn, no request)", ours),
            Figure("1.5 × the bare app: the target", [1.5 * bare_ms for bare_ms in bare]),
        )
    )
