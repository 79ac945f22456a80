"""A campaign killed with SIGKILL at random moments, then resumed: nobody gets it twice.

``gateway-tui send-list`` runs as a process of its own against a demo gateway in this process,
which counts every list message it sends per recipient number and drops a share of connections
after the message went out. Each seed kills the campaign twice, at a random number of sends,
then resumes it until it ends. Every recipient must then be sent exactly once, refused (never
sent), or held as unknown (sent at most once) - checked against the gateway's own counters.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gateway_tui.core.campaign.journal import Status, list_campaigns, open_campaign
from gateway_tui.demo.server import DemoServer
from tests.data import CAMPAIGN_DRAFT_JSON
from tests.support import PROCESS_LIMIT, wait_in_thread

RECIPIENTS = 14
SEEDS = range(10)


def _send_list(env: dict[str, str], *args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "gateway_tui", "send-list", "--rate", "max", "--json", *args],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def _sent_total(server: DemoServer) -> int:
    return sum(server.state.sends_by_number.values())


@pytest.mark.parametrize("seed", SEEDS)
def test_killed_twice_then_resumed_sends_each_number_at_most_once(
    seed: int, tmp_path: Path, isolated_home: Path
) -> None:
    rng = random.Random(seed)
    numbers = [f"49171{seed:02d}{index:06d}" for index in range(RECIPIENTS)]
    refused = numbers[rng.randrange(RECIPIENTS)]
    recipients = tmp_path / "to.csv"
    recipients.write_text(
        "number,name\n" + "".join(f"{n},Person {i}\n" for i, n in enumerate(numbers))
    )
    draft = tmp_path / "draft.json"
    draft.write_text(json.dumps(CAMPAIGN_DRAFT_JSON))
    with DemoServer(seed=seed, drop_share=0.15, not_on_whatsapp={refused}) as server:
        env = {
            **os.environ,
            "GATEWAY_TUI_HOME": str(isolated_home),
            "GATEWAY_URL": server.url,
            "GATEWAY_API_KEY": server.api_key,
        }
        first = ["--instance", "sales-eu", "--draft", str(draft), "--to", str(recipients)]
        campaign_id = None
        for _ in range(2):
            args = first if campaign_id is None else ["--resume", campaign_id]
            before = _sent_total(server)
            target = before + rng.randint(1, 5)
            process = _send_list(env, *args)
            wait_in_thread(
                lambda target=target, process=process: (
                    _sent_total(server) >= target or process.poll() is not None
                ),
                "the campaign to send",
            )
            time.sleep(rng.uniform(0, 0.01))  # a random moment, not an assertion
            process.kill()
            process.wait()
            found = list_campaigns()
            if found:
                campaign_id = found[0].id
        assert campaign_id is not None, "the first run sent nothing before it was killed"

        # Resume until it ends (a run exits 4 only when it stopped with recipients left).
        for _ in range(4):
            result = subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "gateway_tui",
                    "send-list",
                    "--resume",
                    campaign_id,
                    "--rate",
                    "max",
                ],
                env=env,
                capture_output=True,
                text=True,
                timeout=PROCESS_LIMIT,
            )
            assert "Traceback" not in result.stderr, result.stderr
            if result.returncode != 4:
                break
        assert result.returncode in (0, 3), result.stdout + result.stderr
        counts = dict(server.state.sends_by_number)

    campaign = open_campaign(campaign_id)
    assert campaign.count(Status.PENDING) == 0
    assert all(count <= 1 for count in counts.values()), counts
    for index, recipient in enumerate(campaign.recipients):
        sends = counts.get(recipient.number, 0)
        status = campaign.status(index)
        if status is Status.SENT:
            assert sends == 1, (recipient.number, status, sends)
        elif status is Status.FAILED:
            assert recipient.number == refused and sends == 0
        else:
            assert status is Status.UNKNOWN and sends <= 1, (recipient.number, status, sends)
    report = campaign.report_path.read_text().splitlines()
    assert report[0] == "number,name,status,message_id,time,error,error_code"
    assert len(report) == RECIPIENTS + 1
