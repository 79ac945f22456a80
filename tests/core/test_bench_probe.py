"""The benchmarks' probe still sees what the app paints (it leans on Textual's App._display).

Checks what the probe reports, never how fast: speed is measured in bench/, not in the suite.
"""

from __future__ import annotations

import tempfile

from bench._proc import KEY_PAGE_DOWN, ProbeProcess, child_env


def test_the_probe_reports_frames_and_keys_of_the_bare_app():
    with tempfile.TemporaryDirectory() as home:
        with ProbeProcess("bare", ["--rows", "100"], child_env(home)) as probe:
            first = probe.wait("frame", visible=100)
            sent = probe.send(KEY_PAGE_DOWN)
            moved = probe.wait("frame", after=sent, test=lambda r: r["cursor"] != first["cursor"])
            assert moved["cursor"] > first["cursor"]


def test_the_probe_reports_the_response_and_the_instances_on_screen(demo_server):
    args = ["--url", demo_server.url, "--key", demo_server.api_key]
    with tempfile.TemporaryDirectory() as home:
        with ProbeProcess("instances", args, child_env(home)) as probe:
            shown = probe.wait("frame", screen="InstancesScreen", test=lambda r: r["visible"])
            arrived = probe.wait("bytes", test=lambda r: r["path"] == "/instance/fetchInstances")
            assert arrived["t"] < shown["t"]
            assert shown["rows"] == len(demo_server.state.instances)
            assert shown["focus"] == "instances-table"


def test_the_flood_floor_measures_what_a_chat_keeps():
    """The flood's memory floor is what the chats keep: more chats keep more in all, about the
    same each (a floor that measured nothing, or the whole process, would fail here)."""
    from bench.flood import kept_per_chat

    few, many = kept_per_chat(500), kept_per_chat(5000)
    assert 200 < few < 4096 and 200 < many < 4096  # bytes per chat: a message and a row
    assert many * 5000 > few * 500 * 5  # the total grows with the chats
