"""7. Chats at 10,000 and 8. a conversation of 100,000 messages: the app in a pty, probed.

Each run is a fresh ``python -m bench.chats_probe`` process (the real GatewayApp on a pty) against
a demo gateway in a process of its own, started with the chat store's knobs.

Chats (``demo-server --chats 10000``): the chats screen reads findChats, findContacts and
findMessages (20,000 messages), then fetchAllGroups, one after the other.
- response bytes → interactive: from the last byte of the findMessages response (the big one)
  to the frame that answers a key (cursor down) typed as soon as the first frame with rows was
  seen: its parse, the group names' round trip, the 10,000 rows and the frames;
- filter keystroke → frame: "/" then a name typed and erased one key at a time;
- floor: json.loads of the same response bodies, in a fresh process with the collector off.

Conversation (``demo-server --big-chat 100000``): the messages screen of that chat.
- first screen: from the last byte of the findMessages response (100,000 messages of that chat,
  plus the instance's others: the file store cannot filter) to the first frame with bubbles;
  the status rows are read alongside and counted in when they come later;
- scroll: page up / page down → the frame that shows the new cursor message;
- peak RSS of the app process;
- floors: json.loads of the same bytes; the bare Textual app's DataTable page key and RSS.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time

import httpx

from bench._proc import (
    KEY_DOWN,
    KEY_PAGE_DOWN,
    KEY_PAGE_UP,
    REPO,
    DemoGatewayProcess,
    ProbeProcess,
    child_env,
)
from bench.report import Figure, Report, Row, at_most_ms
from bench.tables import SETTLE, _bare_run, _keystrokes

CHAT_COUNT = 10_000
BIG_CHAT = 100_000
BIG_CHAT_JID = "4915199990000@s.whatsapp.net"
CHAT_FILTER = "zoe"
SCROLLS_PER_RUN = 8


def ChatsProbe(mode: str, args: list[str], env: dict[str, str]) -> ProbeProcess:  # noqa: N802
    """bench/chats_probe.py on a pty."""
    return ProbeProcess(mode, args, env, module="bench.chats_probe")


def _json_floor(bodies: list[bytes], env: dict[str, str]) -> float:
    files = []
    try:
        for body in bodies:
            file = tempfile.NamedTemporaryFile(suffix=".json", delete=False)
            file.write(body)
            file.close()
            files.append(file.name)
        done = subprocess.run(
            [sys.executable, "-m", "bench.chats_probe", "floor", *files],
            env=env,
            cwd=REPO,
            check=True,
            capture_output=True,
            text=True,
        )
    finally:
        for name in files:
            os.unlink(name)
    return float(done.stdout)


def _bodies(url: str, key: str, instance: str = "sales-eu") -> list[bytes]:
    headers = {"apikey": key}
    with httpx.Client(base_url=url, headers=headers, timeout=120) as client:
        return [
            client.get(f"/chat/findChats/{instance}").content,
            client.post(f"/chat/findContacts/{instance}", json={}).content,
            client.post(f"/chat/findMessages/{instance}", json={}).content,
        ]


def run_chats(report: Report, runs: int) -> None:
    interactive, filters, rss, floors, bare_keys, bare_rss = [], [], [], [], [], []
    with DemoGatewayProcess(8, "--chats", str(CHAT_COUNT)) as demo:
        bodies = _bodies(demo.url, demo.api_key)
        with tempfile.TemporaryDirectory(prefix="bench-chats-") as home:
            env = child_env(home)
            for _ in range(runs):
                keys, peak = _bare_run(env)
                bare_keys += keys
                bare_rss.append(peak)
                args = ["--url", demo.url, "--key", demo.api_key]
                with ChatsProbe("chats", args, env) as probe:
                    shown = probe.wait(
                        "frame", screen="ChatsScreen", test=lambda r: r["rows"] >= CHAT_COUNT
                    )
                    sent = probe.send(KEY_DOWN)
                    answered = probe.wait(
                        "frame",
                        after=sent,
                        screen="ChatsScreen",
                        test=lambda r, s=shown: r["cursor"] != s["cursor"],
                    )
                    # From the big answer (findMessages): its parse, the group names' round
                    # trip, the rows and the frames. findChats and findContacts came (and were
                    # read) before it; their bytes are in the floor.
                    arrived = max(
                        record["t"]
                        for record in probe.records
                        if record["event"] == "bytes"
                        and "findMessages" in record["path"]
                        and record["t"] < shown["t"]
                    )
                    interactive.append((answered["t"] - arrived) * 1000)
                    time.sleep(SETTLE)
                    filters += _keystrokes(probe, CHAT_FILTER, "chats-filter")
                    rss.append(probe.peak_rss_kib() / 1024)
                floors.append(_json_floor(bodies, env))
    size = sum(len(b) for b in bodies) / 1e6
    section = f"7. Chats at {CHAT_COUNT:,} ({size:.1f} MB of responses)"
    floor = Figure("json.loads of the same bytes, GC off", floors)
    report.add(
        Row(
            section,
            Figure("findMessages bytes → interactive (first key answered)", interactive),
            floor,
            target="≤ 250 ms",
            check=at_most_ms(250),
        )
    )
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
            Figure("peak RSS of the app process", rss, unit="MiB"),
            Figure("bare Textual app", bare_rss, unit="MiB"),
        )
    )


def _scrolls(probe: ChatsProbe, count: int) -> list[float]:
    latencies = []
    for index in range(count):
        before = probe.last("frame")["index"]
        key = KEY_PAGE_UP if index % 4 < 3 else KEY_PAGE_DOWN
        sent = probe.send(key)
        frame = probe.wait("frame", after=sent, test=lambda r, b=before: r["index"] != b)
        latencies.append((frame["t"] - sent) * 1000)
        time.sleep(SETTLE)
    return latencies


def run_conversation(report: Report, runs: int) -> None:
    first, opened, scrolls, rss, floors, bare_keys, bare_rss = [], [], [], [], [], [], []
    with DemoGatewayProcess(8, "--big-chat", str(BIG_CHAT)) as demo:
        messages_body = _bodies(demo.url, demo.api_key)[2]
        with tempfile.TemporaryDirectory(prefix="bench-conversation-") as home:
            env = child_env(home)
            for _ in range(runs):
                keys, peak = _bare_run(env)
                bare_keys += keys
                bare_rss.append(peak)
                args = ["--url", demo.url, "--key", demo.api_key, "--jid", BIG_CHAT_JID]
                with ChatsProbe("conversation", args, env) as probe:
                    start = probe.wait("open", timeout=120)
                    shown = probe.wait(
                        "frame",
                        screen="MessagesScreen",
                        timeout=180,
                        test=lambda r: r["messages"] >= BIG_CHAT,
                    )
                    arrived = max(
                        record["t"]
                        for record in probe.records
                        if record["event"] == "bytes"
                        and "findMessages" in record["path"]
                        and record["t"] < shown["t"]
                    )
                    first.append((shown["t"] - arrived) * 1000)
                    opened.append((shown["t"] - start["t"]) * 1000)
                    time.sleep(SETTLE)
                    scrolls += _scrolls(probe, SCROLLS_PER_RUN)
                    rss.append(probe.peak_rss_kib() / 1024)
                floors.append(_json_floor([messages_body], env))
    section = f"8. A conversation of {BIG_CHAT:,} messages ({len(messages_body) / 1e6:.1f} MB)"
    report.add(
        Row(
            section,
            Figure("findMessages bytes → first screen of bubbles", first),
            Figure("json.loads of the same bytes, GC off", floors),
            target="≤ 300 ms",
            check=at_most_ms(300),
        )
    )
    report.add(
        Row(
            section,
            Figure("open (push screen) → first screen", opened),
            note="includes the request and the demo server's own time",
        )
    )
    report.add(
        Row(
            section,
            Figure("page up / down → frame", scrolls),
            Figure("bare DataTable page key", bare_keys),
            target="≤ 50 ms",
            check=at_most_ms(50),
            note=f"{len(scrolls)} pages",
        )
    )
    report.add(
        Row(
            section,
            Figure("peak RSS of the app process", rss, unit="MiB"),
            Figure("bare Textual app", bare_rss, unit="MiB"),
            target="≤ 250 MiB",
            check=lambda value, _floor: value <= 250,
        )
    )
