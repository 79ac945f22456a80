"""Drafts survive kill -9 at any moment: never a corrupt file, always a prefix of what was typed.

The real app runs on a pseudo-terminal (helpers from tests/core/test_compose_killed.py); keys are
typed in bursts and the process is SIGKILLed at seeded random moments — right after a keystroke,
while the 0.5 s autosave is pending, or just after it wrote.
"""

from __future__ import annotations

import json
import os
import random
import stat
import time
from pathlib import Path

from gateway_tui.core.files.drafts import ComposeStore
from tests.navigation import open_composer_in_terminal
from tests.terminal import start_app

SEED = 20261121
ROUNDS = 5
TITLE = "Kartoffelsalat mit Senf und Gurken"


def type_until_killed(server, home: Path, rng: random.Random) -> str:
    """Type the title in random bursts and kill the app at a random moment; return what
    had been typed when it died."""
    terminal = start_app(server, home)
    typed = ""
    try:
        open_composer_in_terminal(terminal)
        terminal.type("4915112340001")
        terminal.wait_for_text("To 4915112340001")
        mark = terminal.seen()
        terminal.type("\t")
        terminal.wait_for_text("Title: the bold first line", after=mark)
        stop_after = rng.randint(3, len(TITLE))
        while len(typed) < stop_after:
            burst = TITLE[len(typed) : len(typed) + rng.randint(1, 6)]
            terminal.type(burst)
            typed += burst
            time.sleep(rng.choice((0.0, 0.05, 0.3, 0.7)))  # around the 0.5 s autosave
        time.sleep(rng.uniform(0.0, 0.8))
        terminal.kill()
    finally:
        terminal.close()
    return typed


def assert_private(home: Path) -> None:
    """Everything the app made under its home: files 0600, folders 0700."""
    for path in home.rglob("*"):
        mode = stat.S_IMODE(os.stat(path).st_mode)
        expected = 0o700 if path.is_dir() else 0o600
        assert mode == expected, f"{path.relative_to(home)} is {oct(mode)}"


def test_a_draft_is_never_corrupt_whenever_the_app_is_killed(demo_server, tmp_path):
    rng = random.Random(SEED)
    found = []
    for round_no in range(ROUNDS):
        home = tmp_path / f"home-{round_no}"
        home.mkdir(mode=0o700)
        typed = type_until_killed(demo_server, home, rng)
        store = ComposeStore(demo_server.url, "sales-eu", root=home / "data" / "compose")
        if store.draft_path.exists():
            raw = store.draft_path.read_text(encoding="utf-8")
            json.loads(raw)  # never a half-written file
            draft = store.load_draft()
            assert draft is not None
            assert typed.startswith(draft.title), (draft.title, typed)
            found.append(len(draft.title))
        assert_private(home)
    # The check above is not vacuous: most rounds left a draft with some of the title in it.
    assert sum(1 for length in found if length > 0) >= 3, found
