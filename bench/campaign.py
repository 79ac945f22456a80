"""6. Campaign: 10,000 recipients at full speed, against a bare client loop of the same calls.

Each run is a fresh process (``python -m bench.campaign MODE …``) so its peak RSS is its own:

- campaign: the recipients read from a CSV file, the campaign created on disk, then
  ``CampaignRunner.run()`` at full speed (no pacing): one ``try`` and one ``done`` line per
  recipient, each fsync'd, the report written at the end;
- bare loop (the floor): ``await client.messages.send_list(...)`` for the same numbers and
  the same message, one after the other, nothing written.

Sends per second are timed from the first send to the last; peak RSS is the process's VmHWM
(not ``ru_maxrss``: Linux carries that over from the parent across fork and exec, and the bench
process may hold gigabytes after the million-instance read). The campaign also runs at 1,000
recipients: its peak memory should not grow with the recipient count (the journal is on disk,
the state is one byte per recipient).
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench._proc import BIN, REPO, child_env
from bench.report import Figure, Report, Row

RECIPIENTS = 10_000
SMALL = 1_000
INSTANCE = "sales-eu"
RUNS = 3  # each campaign run sends 10,000 messages: fewer runs than the other sections

DRAFT = {
    "title": "Lunch menu",
    "description": "Today's dishes, ready at noon",
    "buttonText": "See the menu",
    "sections": [
        {"title": "Pizzas", "rows": [{"title": "Margherita"}, {"title": "Funghi"}]},
        {"title": "Drinks", "rows": [{"title": "Lemonade"}]},
    ],
}


def _numbers(count: int, run: int) -> list[str]:
    # A new range per run: the demo keeps every chat, and each run should meet new ones.
    return [f"4917{run:02d}{index:07d}" for index in range(count)]


def _rss_mib() -> float:
    """The process's resident memory now."""
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / (1024 * 1024)


def _peak_mib() -> float:
    """This process's peak resident memory (VmHWM: a new program starts its own count)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmHWM in /proc/self/status")


async def _campaign(url: str, key: str, numbers: list[str], home: Path) -> dict:
    from datetime import datetime

    from gateway_tui.core.api.client import GatewayClient
    from gateway_tui.core.campaign.journal import Pace, create_campaign
    from gateway_tui.core.campaign.recipients import read_recipients_file
    from gateway_tui.core.campaign.runner import CampaignRunner
    from gateway_tui.core.draft import Draft

    csv_path = home / "to.csv"
    csv_path.write_text("number,name\n" + "".join(f"{n},Customer\n" for n in numbers))
    recipients = read_recipients_file(csv_path)
    campaign = create_campaign(
        gateway=url,
        instance=INSTANCE,
        draft=Draft.from_json(DRAFT),
        recipients=recipients,
        pace=Pace(0),
        now=datetime.now(),
        root=home / "campaigns",
    )
    del recipients  # on disk now: the run reads them from there
    gc.collect()
    before = _rss_mib()
    async with GatewayClient(url, key) as client:
        runner = CampaignRunner(campaign, client)
        started = time.perf_counter()
        final = await runner.run()
        seconds = time.perf_counter() - started
    growth = max(0.0, _peak_mib() - before)
    return {"seconds": seconds, "sent": final.sent, "failed": final.failed, "growth_mib": growth}


async def _bare(url: str, key: str, numbers: list[str]) -> dict:
    from gateway_tui.core.api.client import GatewayClient
    from gateway_tui.core.draft import Draft

    request = Draft.from_json(DRAFT).request()
    sent = 0
    async with GatewayClient(url, key) as client:
        started = time.perf_counter()
        for number in numbers:
            await client.messages.send_list(INSTANCE, request.model_copy(update={"number": number}))
            sent += 1
        seconds = time.perf_counter() - started
    return {"seconds": seconds, "sent": sent, "failed": 0}


def _worker(argv: list[str]) -> int:
    mode, url, key, count, run = argv[0], argv[1], argv[2], int(argv[3]), int(argv[4])
    numbers = _numbers(count, run)
    with tempfile.TemporaryDirectory(prefix="bench-campaign-") as home:
        if mode == "campaign":
            result = asyncio.run(_campaign(url, key, numbers, Path(home)))
        else:
            result = asyncio.run(_bare(url, key, numbers))
    result["peak_mib"] = _peak_mib()
    print(json.dumps(result))
    return 0


def _run_worker(mode: str, url: str, key: str, count: int, run: int) -> dict:
    with tempfile.TemporaryDirectory(prefix="bench-campaign-home-") as home:
        result = subprocess.run(
            [str(BIN / "python"), "-m", "bench.campaign", mode, url, key, str(count), str(run)],
            env=child_env(home),
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=1800,
        )
    if result.returncode != 0:
        raise RuntimeError(f"bench.campaign {mode} failed: {result.stderr[-2000:]}")
    data = json.loads(result.stdout.strip().splitlines()[-1])
    if data["sent"] != count:
        raise RuntimeError(f"bench.campaign {mode}: {data['sent']} of {count} sent: {data}")
    return data


def run(report: Report, url: str, key: str) -> None:
    section = f"6. Campaign ({RECIPIENTS:,} recipients, full speed, loopback demo gateway)"
    samples: dict[str, list[dict]] = {"campaign": [], "bare": [], "small": []}
    for run_index in range(RUNS):
        # Interleaved, so drifting load hits both alike.
        samples["campaign"].append(_run_worker("campaign", url, key, RECIPIENTS, run_index * 3))
        samples["bare"].append(_run_worker("bare", url, key, RECIPIENTS, run_index * 3 + 1))
        samples["small"].append(_run_worker("campaign", url, key, SMALL, run_index * 3 + 2))

    def rate(results: list[dict], label: str) -> Figure:
        per_second = [r["sent"] / r["seconds"] for r in results]
        return Figure(label, per_second, unit="/s")

    def peak(results: list[dict], label: str) -> Figure:
        return Figure(label, [r["peak_mib"] for r in results], unit="MiB")

    report.add(
        Row(
            section,
            rate(
                samples["campaign"], "campaign runner: sends per second (journal fsync'd 2×/send)"
            ),
            rate(samples["bare"], "bare client loop"),
        )
    )
    report.add(
        Row(
            section,
            peak(samples["campaign"], f"campaign process: peak RSS at {RECIPIENTS:,} recipients"),
            peak(samples["small"], f"the same at {SMALL:,} recipients"),
        )
    )
    report.add(
        Row(
            section,
            Figure(
                f"campaign: RSS growth while sending {RECIPIENTS:,}",
                [r["growth_mib"] for r in samples["campaign"]],
                unit="MiB",
            ),
            Figure(
                f"the same sending {SMALL:,}",
                [r["growth_mib"] for r in samples["small"]],
                unit="MiB",
            ),
        )
    )
    report.add(
        Row(
            section,
            peak(samples["bare"], f"bare client loop process: peak RSS at {RECIPIENTS:,}"),
        )
    )
    report.notes.append(
        f"Campaign: {RUNS} runs of each (a run sends {RECIPIENTS:,} messages); sends per second "
        "are timed from the first send to the last, the campaign's including its journal "
        "writes (two fsync'd lines per recipient) and its final report."
    )


if __name__ == "__main__":
    sys.exit(_worker(sys.argv[1:]))
