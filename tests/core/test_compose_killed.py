"""Nothing typed is lost: the real app in a terminal, killed with SIGKILL, finds its draft.

The app runs as a subprocess (`python -m gateway_tui --url … --api-key …`) on a pseudo-terminal
against a demo gateway started here; keys are written to the terminal like a user types them.
"""

from __future__ import annotations

import signal
import sys

import pytest

from gateway_tui.core.files.drafts import ComposeStore
from tests.navigation import open_composer_in_terminal
from tests.terminal import start_app

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")


def test_a_draft_survives_sigkill(demo_server, tmp_path):
    home = tmp_path / "home"
    store = ComposeStore(demo_server.url, "sales-eu", root=home / "data" / "compose")
    terminal = start_app(demo_server, home)
    try:
        open_composer_in_terminal(terminal)
        terminal.type("4915112340001")
        terminal.wait_for_text("To 4915112340001")  # the preview has it
        # Keys written at once race a focus change; wait for the hint of the title field.
        mark = terminal.seen()
        terminal.type("\t")
        terminal.wait_for_text("Title: the bold first line", after=mark)
        terminal.type("Kartoffelsalat mit Senf")

        def saved() -> bool:
            draft = store.load_draft()
            return draft is not None and draft.title == "Kartoffelsalat mit Senf"

        terminal.wait_for("the draft on disk", saved)
        terminal.kill()
        assert terminal.process.returncode == -signal.SIGKILL
    finally:
        terminal.close()

    again = start_app(demo_server, home)
    try:
        open_composer_in_terminal(again)
        again.wait_for_text("Kartoffelsalat mit Senf")
        again.wait_for_text("draft restored")  # the status line: it lasts
        assert "4915112340001" in again.text()
    finally:
        again.close()
