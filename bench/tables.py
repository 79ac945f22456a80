"""2. Instances at 10,000 and 3. participants at 1,024: the app in a pty, probed.

Each run is a fresh ``python -m bench.probe`` process (the real GatewayApp with Textual's real
driver on a pty; see bench/probe.py) against a demo gateway in a process of its own.

- first frame: from the moment the response's last byte came off the socket to the first frame
  written to the terminal that shows the rows (validation, state, table, paint);
- interactive: from that same moment to the frame that answers a key (cursor down) typed into
  the pty as soon as the first frame was seen: the app is interactive once it answers keys, and
  this is when the user's first key would be answered;
- keystroke / page: from writing the key into the pty to the first frame written to the
  terminal that shows its effect (the filter applied, the cursor a page further);
- peak RSS: VmHWM of the app's process at the end of the run.

Floors, same run: for the first frame and interactive, pydantic's validation of the same bytes
alone (bench/validate_floor.py: the least any client can do); for keystrokes, page down/up in
the bare Textual app's DataTable (100 rows): the round trip key → Textual → frame with a full
table redraw; for RSS, the bare app's peak.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time

import httpx

from bench._proc import (
    KEY_BACKSPACE,
    KEY_DOWN,
    KEY_PAGE_DOWN,
    KEY_PAGE_UP,
    REPO,
    ProbeProcess,
    child_env,
)
from bench.report import Figure, Report, Row, at_most_ms

# A gap after each key, so one measurement does not queue behind the previous one's frames.
SETTLE = 0.25
PAGES_PER_RUN = 6
INSTANCE_FILTER = "support-eu"  # typed one key at a time, then erased one key at a time
PARTICIPANT_FILTER = "4915"
BIG_GROUP = "120363012345678901@g.us"  # "EU Sales — all hands" on sales-eu: 1,024 participants


def _keystrokes(probe: ProbeProcess, text: str, focus: str) -> list[float]:
    """Open the filter with "/", type `text` and erase it; one latency per key, in ms."""
    sent = probe.send(b"/")
    probe.wait("frame", after=sent, focus=focus)
    time.sleep(SETTLE)
    latencies = []
    typed = ""
    steps = [(char.encode(), typed := typed + char) for char in text]
    for index in range(len(text) - 1, -1, -1):
        steps.append((KEY_BACKSPACE, text[:index]))
    for key, expected in steps:
        sent = probe.send(key)
        frame = probe.wait("frame", after=sent, filter=expected)
        latencies.append((frame["t"] - sent) * 1000)
        time.sleep(SETTLE)
    return latencies


def _pages(probe: ProbeProcess, count: int, *, alternate: bool) -> list[float]:
    """Page down (or down and up, alternately); one latency per key, in ms."""
    latencies = []
    for index in range(count):
        before = probe.last("frame")["cursor"]
        key = KEY_PAGE_UP if alternate and index % 2 else KEY_PAGE_DOWN
        sent = probe.send(key)
        frame = probe.wait("frame", after=sent, test=lambda r, before=before: r["cursor"] != before)
        latencies.append((frame["t"] - sent) * 1000)
        time.sleep(SETTLE)
    return latencies


def _has_rows(record: dict) -> bool:
    return record["visible"] > 0


def _first_rows(probe: ProbeProcess, screen: str, path_part: str) -> tuple[float, float]:
    """From the response's last byte: to the first frame with rows, and to the frame that
    answers a key (cursor down) typed the moment that first frame was seen; both in ms."""
    shown = probe.wait("frame", screen=screen, test=_has_rows)
    sent = probe.send(KEY_DOWN)
    answered = probe.wait(
        "frame", after=sent, screen=screen, test=lambda record: record["cursor"] != shown["cursor"]
    )
    arrived = probe.wait("bytes", test=lambda record: path_part in record["path"])
    return (shown["t"] - arrived["t"]) * 1000, (answered["t"] - arrived["t"]) * 1000


def _validation_floor(kind: str, body: bytes, env: dict[str, str]) -> float:
    """Validating `body` once in a fresh minimal process (bench/validate_floor.py), in ms."""
    with tempfile.NamedTemporaryFile(suffix=".json") as file:
        file.write(body)
        file.flush()
        done = subprocess.run(
            [sys.executable, "-m", "bench.validate_floor", kind, file.name],
            env=env,
            cwd=REPO,
            check=True,
            capture_output=True,
            text=True,
        )
    return float(done.stdout)


def _bare_run(env: dict[str, str]) -> tuple[list[float], float]:
    """One run of the bare Textual app: page key → frame latencies (ms), and peak RSS (MiB)."""
    with ProbeProcess("bare", ["--rows", "100"], env) as probe:
        probe.wait("frame", visible=100)
        time.sleep(SETTLE)
        keys = _pages(probe, PAGES_PER_RUN, alternate=True)
        return keys, probe.peak_rss_kib() / 1024


def run_instances(report: Report, runs: int, url: str, key: str, line: str = "1.7.1") -> None:
    """``line``: the demo's line; 2.x's flat rows are read by their own model (the floor too)."""
    body = httpx.get(f"{url}/instance/fetchInstances", headers={"apikey": key}).content
    shown, interactive, filters, pages, rss, validation = [], [], [], [], [], []
    bare_keys, bare_rss = [], []
    with tempfile.TemporaryDirectory(prefix="bench-instances-") as home:
        env = child_env(home)
        for _ in range(runs):  # figure and floors alternate, so drifting load hits both
            keys, peak = _bare_run(env)
            bare_keys += keys
            bare_rss.append(peak)
            with ProbeProcess("instances", ["--url", url, "--key", key], env) as probe:
                first, answered = _first_rows(probe, "InstancesScreen", "fetchInstances")
                shown.append(first)
                interactive.append(answered)
                time.sleep(SETTLE)
                pages += _pages(probe, PAGES_PER_RUN, alternate=False)
                filters += _keystrokes(probe, INSTANCE_FILTER, "instances-filter")
                rss.append(probe.peak_rss_kib() / 1024)
            kind = "instances" if line == "1.7.1" else "instances-v2"
            validation.append(_validation_floor(kind, body, env))
    number = "2." if line == "1.7.1" else "2b."
    section = f"{number} Instances at 10,000, {line} rows ({len(body) / 1e6:.1f} MB response)"
    _add_response_rows(report, section, shown, interactive, validation, target_ms=250)
    report.add(
        Row(
            section,
            Figure("filter keystroke → frame", filters),
            Figure("bare DataTable page key", bare_keys),
            target="≤ 50 ms",
            check=at_most_ms(50),
            note=f"{len(filters)} keys",
        )
    )
    report.add(
        Row(
            section,
            Figure("page down → frame", pages),
            Figure("bare DataTable page key", bare_keys),
            target="≤ 50 ms",
            check=at_most_ms(50),
            note=f"{len(pages)} pages",
        )
    )
    report.add(
        Row(
            section,
            Figure("peak RSS of the app process", rss, unit="MiB"),
            Figure("bare Textual app", bare_rss, unit="MiB"),
            target="≤ 120 MiB",
            check=lambda value, _floor: value <= 120,
        )
    )
    firsts = ", ".join(f"{value:.0f}" for value in filters[:: 2 * len(INSTANCE_FILTER)])
    report.notes.append(
        f"10,000 instances ({line}), filter keystrokes: the worst of {len(filters)} took "
        f"{max(filters):.0f} ms; the first key of each run (which builds the search index) "
        f"took {firsts} ms."
    )


def run_participants(report: Report, runs: int, url: str, key: str) -> None:
    from gateway_tui.core.api.models import ParticipantList

    body = httpx.get(
        f"{url}/group/participants/sales-eu",
        params={"groupJid": BIG_GROUP},
        headers={"apikey": key},
    ).content
    count = len(ParticipantList.model_validate_json(body).participants)
    opened, shown, interactive, filters, validation, bare_keys = [], [], [], [], [], []
    with tempfile.TemporaryDirectory(prefix="bench-participants-") as home:
        env = child_env(home)
        for _ in range(runs):  # figure and floors alternate, so drifting load hits both
            bare_keys += _bare_run(env)[0]
            args = ["--url", url, "--key", key, "--instance", "sales-eu", "--group", BIG_GROUP]
            with ProbeProcess("participants", args, env) as probe:
                start = probe.wait("open")
                first, answered = _first_rows(probe, "ParticipantsScreen", "participants")
                shown.append(first)
                interactive.append(answered)
                rows = probe.wait("frame", screen="ParticipantsScreen", test=_has_rows)
                opened.append((rows["t"] - start["t"]) * 1000)
                time.sleep(SETTLE)
                filters += _keystrokes(probe, PARTICIPANT_FILTER, "participants-filter")
            validation.append(_validation_floor("participants", body, env))
    section = f"3. Participants at {count:,} ({len(body) / 1e3:.0f} kB response)"
    _add_response_rows(report, section, shown, interactive, validation, target_ms=100)
    report.add(
        Row(
            section,
            Figure("open (push screen) → first frame with the rows", opened),
            Figure("validate_json alone, GC off", validation),
            note="includes the request",
        )
    )
    report.add(
        Row(
            section,
            Figure("filter keystroke → frame", filters),
            Figure("bare DataTable page key", bare_keys),
            target="≤ 30 ms",
            check=at_most_ms(30),
            note=f"{len(filters)} keys",
        )
    )


def _add_response_rows(
    report: Report,
    section: str,
    shown: list[float],
    interactive: list[float],
    validation: list[float],
    *,
    target_ms: int,
) -> None:
    """Response bytes → first frame, and → interactive (with its target), both over the
    validation floor."""
    floor = Figure("validate_json alone, GC off", validation)
    report.add(Row(section, Figure("response bytes → first frame with the rows", shown), floor))
    report.add(
        Row(
            section,
            Figure("response bytes → interactive (first key answered)", interactive),
            floor,
            target=f"≤ {target_ms} ms",
            check=at_most_ms(target_ms),
        )
    )
