"""Nothing typed is lost, whenever the app dies: kill -9 at random moments, field after field.

``test_drafts_killed.py`` kills a fresh app while the title is typed. Here one home lives
through five kills: each run restores the draft the last one left and types into the next
field, and the process is killed at seeded moments: right after a keystroke, while an autosave
is being written (the moment its temporary file appears), or at any moment in between. After
every kill the draft file is valid JSON and holds the typing up to some point: the field being
typed is what it held before plus a prefix of what was typed, and every other field is as it
was. The app runs with a umask of 0, so the modes checked are the ones it sets itself.

A second test checks the mode of every file the app writes (config, draft, templates, history,
recent groups): 0600 files in 0700 directories, even with a umask of 0.
"""

from __future__ import annotations

import json
import os
import random
import signal
import stat
import sys
import time
from pathlib import Path

import pytest
from textual.widgets import Input

from gateway_tui.core.draft import Draft
from gateway_tui.core.files.drafts import ComposeStore
from gateway_tui.core.files.storage import config_dir, data_dir
from gateway_tui.tui.screens.composer import FIELD_HINTS, ComposerScreen
from gateway_tui.tui.screens.connect import ConnectScreen
from gateway_tui.tui.screens.participants import ParticipantsScreen
from tests.navigation import open_composer_in_terminal
from tests.support import wait_for
from tests.terminal import Terminal, start_app

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")

SEED = 7
INSTANCE = "sales-eu"
RECIPIENT = "4915112340001"
# The fields typed, one per run, in tab order after the recipient: (hint key, Draft attribute).
FIELDS = [
    ("title", "title"),
    ("description", "description"),
    ("button", "button_text"),
    ("footer", "footer"),
    ("title", "title"),  # back to the title, appending to it
]
WORDS = ("Kartoffel", "salat", "mit", "Senf", "und", "Brötchen", "für", "alle", "(heute)", "12€")
END = "\x1b[F"  # the End key: a field selects its text when focused


def sentence(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(4, 8)))


def read_draft(store: ComposeStore) -> Draft | None:
    """The draft on disk: it must always be valid JSON (never a torn or empty file)."""
    try:
        raw = store.draft_path.read_bytes()
    except FileNotFoundError:
        return None
    data = json.loads(raw.decode("utf-8"))  # raises on a corrupt file: the test fails
    assert isinstance(data, dict) and data.get("version") == 1, raw[:200]
    return Draft.from_json(data)


def temp_files(store: ComposeStore) -> list[Path]:
    return list(store.dir.glob(".draft.json.*.tmp")) if store.dir.exists() else []


TAB_ORDER = ["title", "description", "button", "footer"]  # after the recipient


def focus_field(terminal: Terminal, hint_key: str) -> None:
    """Tab from the recipient to a field, waiting for each field's hint (no key races focus)."""
    for key in TAB_ORDER[: TAB_ORDER.index(hint_key) + 1]:
        mark = terminal.seen()
        terminal.type("\t")
        terminal.wait_for_text(FIELD_HINTS[key].split(":")[0] + ":", after=mark)
    terminal.type(END)


def type_until_killed(
    terminal: Terminal, store: ComposeStore, text: str, mode: str, rng, stale: set[Path]
) -> str:
    """Type ``text`` key by key and SIGKILL the app as ``mode`` says; return what was typed."""
    typed = ""
    stop_at = rng.randint(3, len(text)) if mode == "after a keystroke" else len(text)
    for char in text[:stop_at]:
        terminal.type(char)
        typed += char
        time.sleep(rng.uniform(0.005, 0.04))
    if mode == "mid-autosave":
        # Kill the moment an autosave's temporary file appears (or soon after, if none is seen).
        deadline = time.monotonic() + 2.0
        while not set(temp_files(store)) - stale and time.monotonic() < deadline:
            pass
    elif mode == "any moment":
        time.sleep(rng.uniform(0.0, 0.8))
    terminal.kill()
    assert terminal.process.returncode == -signal.SIGKILL
    return typed


def test_drafts_survive_sigkill_at_random_moments(demo_server, tmp_path, capsys):
    rng = random.Random(SEED)
    home = tmp_path / "home"
    store = ComposeStore(demo_server.url, INSTANCE, root=home / "data" / "compose")
    modes = ["after a keystroke", "mid-autosave", "any moment", "mid-autosave", "after a keystroke"]
    rng.shuffle(modes)
    caught_mid_write = 0
    old_umask = os.umask(0)  # the app must set its files' modes itself
    try:
        for run, ((hint_key, attr), mode) in enumerate(zip(FIELDS, modes, strict=True)):
            before = read_draft(store) or Draft()
            stale = set(temp_files(store))
            terminal = start_app(demo_server, home)
            try:
                open_composer_in_terminal(terminal)
                if run == 0:
                    terminal.type(RECIPIENT)
                    terminal.wait_for("the recipient on disk", lambda: recipient_saved(store))
                    before = read_draft(store)
                else:
                    terminal.wait_for_text("draft restored")  # the status line: it lasts
                focus_field(terminal, hint_key)
                start = getattr(before, attr)
                text = (" " if start else "") + sentence(rng)
                done = type_until_killed(terminal, store, text, mode, rng, stale)
            finally:
                terminal.close()
            caught_mid_write += bool(set(temp_files(store)) - stale)
            after = read_draft(store)
            assert after is not None, f"run {run} ({mode}): no draft on disk"
            # The field being typed: what it held, then some prefix of what was typed after it.
            on_disk = getattr(after, attr)
            assert on_disk.startswith(start), (run, mode, start, on_disk)
            assert (start + done).startswith(on_disk), (run, mode, on_disk, start + done)
            # Every other field as it was before this run.
            others = after.to_json() | {FIELD_KEYS[attr]: None}
            assert others == before.to_json() | {FIELD_KEYS[attr]: None}, (run, mode)
            assert_private(home)
    finally:
        os.umask(old_umask)
    with capsys.disabled():
        print(
            f"\ndrafts killed: {len(modes)} SIGKILLs ({', '.join(modes)}); "
            f"{caught_mid_write} of them while an autosave's temporary file existed; "
            "the draft on disk was valid JSON and a prefix of the typing every time"
        )


FIELD_KEYS = {"title": "title", "description": "description", "button_text": "buttonText"}
FIELD_KEYS["footer"] = "footer"


def recipient_saved(store: ComposeStore) -> bool:
    draft = read_draft(store)
    return draft is not None and draft.recipient == RECIPIENT


def assert_private(root: Path) -> None:
    """Every file under ``root`` is 0600 and every directory 0700."""
    checked = 0
    for path in [root, *root.rglob("*")]:
        mode = stat.S_IMODE(path.lstat().st_mode)
        wanted = 0o700 if path.is_dir() else 0o600
        assert mode == wanted, f"{path} is {oct(mode)}, not {oct(wanted)}"
        checked += 1
    assert checked > 1


async def test_every_file_the_app_writes_is_private(app_for, demo_server):
    """Config, draft, template, history and recent groups, written with a umask of 0."""
    old_umask = os.umask(0)
    try:
        app = app_for()
        async with app.run_test(size=(140, 45)) as pilot:
            await wait_for(pilot, lambda: bool(app.state.instances.value))
            # A profile saved from the connect screen (config).
            app.push_screen(ConnectScreen())
            await pilot.pause()
            app.screen.query_one("#api-key", Input).value = demo_server.api_key
            await pilot.press("ctrl+s")
            await pilot.pause()
            app.pop_screen()
            # A group opened (recent groups).
            app.open_instance(INSTANCE)
            await pilot.pause()
            app.open_groups(INSTANCE)
            await wait_for(pilot, lambda: app.state.groups_of(INSTANCE).value is not None)
            await pilot.press("enter")
            await wait_for(pilot, lambda: isinstance(app.screen, ParticipantsScreen))
            await pilot.press("escape", "escape")
            # A draft typed, saved as a template, then sent (history).
            await pilot.press("m")
            composer = app.screen
            assert isinstance(composer, ComposerScreen)
            await pilot.press(*RECIPIENT, "tab", *"Lunch", "tab", *"Pick one", "tab", *"Menu")
            await pilot.press("tab", "tab", "tab", "tab", *"Pizzas", "tab", *"Margherita")
            await wait_for(pilot, lambda: composer.saved_at is not None)
            await pilot.press("f6")
            await pilot.press("enter")  # the template is written in a worker thread
            await wait_for(pilot, lambda: composer.store.templates_path.exists())
            await pilot.press("ctrl+s")
            await wait_for(pilot, lambda: composer.last_result is not None)
            await pilot.press("x")  # a new draft after the send
            await wait_for(pilot, lambda: composer.store.draft_path.exists())
    finally:
        os.umask(old_umask)
    store = ComposeStore(demo_server.url, INSTANCE)
    written = [
        config_dir() / "config.toml",
        store.draft_path,
        store.templates_path,
        store.history_path,
        data_dir() / "recent-groups.json",
    ]
    for path in written:
        assert path.exists(), f"{path} was not written"
    assert_private(config_dir())
    assert_private(data_dir())
