"""5. A million instances (``--only bigread``): the longest event-loop gap while the answer is read.

A gateway answering fetchInstances with 1,000,000 instances (about 200 MB) is served by a plain
HTTP server in a process of its own. In this process an asyncio loop runs a ticker (what drives
Textual's frames: a frame cannot be drawn while the loop is held) and measures the longest gap
between ticks while:

- figure: ``GatewayClient.fetch_instances()`` reads, decodes and validates the answer (big lists
  are validated in batches in a worker thread: gateway_tui/core/api/lists.py);
- floor: a bare ``httpx`` GET reads the same bytes, no parsing;
- before (one run): the whole list validated on the loop as the client did before (one pydantic
  call), the freeze the screen used to show at every auto-refresh.
"""

from __future__ import annotations

import asyncio
import gc
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from bench._proc import free_port
from bench.report import Figure, Report, Row, at_most_ms

COUNT = 1_000_000
TICK = 0.005
_SERVER = """
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

body = open(sys.argv[2], "rb").read()

class Handler(BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        view = memoryview(body)
        for start in range(0, len(body), 1 << 20):
            self.wfile.write(view[start : start + (1 << 20)])

    def log_message(self, *args):
        pass

ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
"""


def build_body(count: int = COUNT) -> bytes:
    """``count`` instances of about 200 bytes each, as a gateway lists them."""
    items = [
        {
            "instance": {
                "instanceName": f"sales-region-{n:07d}",
                "instanceId": f"{n:08x}-0000-4000-8000-000000000000",
                "status": ("open", "close", "connecting")[n % 3],
                "owner": f"55119{n:08d}@s.whatsapp.net",
                "profileName": f"Acme {n % 997}",
                "serverUrl": "http://gw",
            }
        }
        for n in range(count)
    ]
    return json.dumps(items, separators=(",", ":")).encode()


async def _longest_gap(work) -> tuple[float, float]:
    """(longest gap between ticks, ms; the work's duration, ms) while ``work`` runs."""
    longest = 0.0
    done = False

    async def ticker() -> None:
        nonlocal longest
        last = time.perf_counter()
        while not done:
            await asyncio.sleep(TICK)
            now = time.perf_counter()
            longest = max(longest, now - last - TICK)
            last = now

    task = asyncio.create_task(ticker())
    await asyncio.sleep(TICK * 2)
    began = time.perf_counter()
    result = await work()
    took = time.perf_counter() - began
    done = True
    await task
    del result
    gc.collect()
    return longest * 1000, took * 1000


def run(report: Report, runs: int) -> None:
    from gateway_tui.core.api.client import GatewayClient
    from gateway_tui.core.api.models import INSTANCE_LIST

    body = build_body()
    size_mb = len(body) / 2**20
    section = f"5. {COUNT:,} instances ({size_mb:.0f} MB): longest event-loop gap while read"
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "instances.json"
        path.write_bytes(body)
        port = free_port()
        server = subprocess.Popen([sys.executable, "-c", _SERVER, str(port), str(path)])
        url = f"http://127.0.0.1:{port}"
        try:
            _wait_for(url)
            gaps: dict[str, list[float]] = {"client": [], "bare": [], "before": []}
            durations: dict[str, list[float]] = {"client": [], "bare": [], "before": []}

            async def client_read():
                async with GatewayClient(
                    url, "bench-key", timeout=600, max_response_bytes=1024 * 2**20
                ) as client:
                    items = await client.instances.fetch()
                    assert len(items) == COUNT
                    return items

            async def bare_read():
                async with httpx.AsyncClient(timeout=600) as client:
                    response = await client.get(url + "/instance/fetchInstances")
                    return response.content

            async def before_read():
                async with httpx.AsyncClient(timeout=600) as client:
                    response = await client.get(url + "/instance/fetchInstances")
                    return INSTANCE_LIST.validate_json(response.content)

            for run_number in range(runs):
                # The old path freezes for its whole length: once is enough to show it.
                before = [("before", before_read)] if run_number == 0 else []
                for name, work in [("bare", bare_read), ("client", client_read), *before]:
                    gap, took = asyncio.run(_longest_gap(work))
                    gaps[name].append(gap)
                    durations[name].append(took)
                    print(f"  {name}: longest gap {gap:.1f} ms, read in {took / 1000:.1f} s")
        finally:
            server.terminate()
            server.wait()
    report.add(
        Row(
            section,
            Figure("GatewayClient.fetch_instances: longest gap", gaps["client"]),
            Figure("bare httpx GET (no parsing): longest gap", gaps["bare"]),
            target="≤ 100 ms",
            check=at_most_ms(100),
        )
    )
    report.add(
        Row(
            section,
            Figure("before (validated on the loop): longest gap", gaps["before"]),
            note="one run: the freeze every auto-refresh used to cause",
        )
    )
    report.add(
        Row(
            section,
            Figure("GatewayClient.fetch_instances: whole read", durations["client"]),
            Figure("before: whole read", durations["before"]),
        )
    )


def _wait_for(url: str) -> None:
    deadline = time.monotonic() + 30
    while True:
        try:
            httpx.head(url, timeout=1)
            return
        except httpx.HTTPError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)
