"""The keys speak the operator's language: the footer's words, help's descriptions (ours and
Textual's own) in Portuguese and Spanish, with the app's keys whole at 80×24."""

from __future__ import annotations

import pytest

from gateway_tui.tui.screens.conversation_modals import REACTIONS, ReactionScreen
from gateway_tui.tui.screens.help import HelpScreen
from tests.support import screen_text, wait_for

pytestmark = pytest.mark.in_process


def footer_line(app) -> str:
    return screen_text(app).rstrip("\n").splitlines()[-1]


async def test_the_instance_list_footer_at_80x24_speaks_portuguese(app_for, language):
    language("pt_BR")
    app = app_for()
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        await wait_for(pilot, lambda: "q Sair" in footer_line(app))
        line = footer_line(app)
        # The app's keys, whole, at the right; the screen's own before them.
        assert line.rstrip().endswith("q Sair f1 Teclas f12 Log ▏^p paleta"), line
        assert "⏎ Abrir" in line and "/ Filtrar" in line, line
        for english in ("Quit", "Keys", "palette", "Open", "Filter"):
            assert english not in line, line


async def test_help_lists_spanish_descriptions_ours_and_textuals(app_for, language):
    language("es")
    app = app_for()
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        await pilot.press("f1")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        text = screen_text(app)
        assert "Filtro de estado" in text and "instances.status_filter" in text  # ours
        assert "Status filter" not in text
        # Textual's own keys of the table (a scrolling view), found by their Spanish words.
        await pilot.press(*"izquierda")
        await wait_for(pilot, lambda: "Desplazar a la izquierda" in screen_text(app))
        assert "Scroll Left" not in screen_text(app)


def test_each_reaction_key_names_its_emoji():
    """The reaction keys' descriptions are literals (the extractor reads them): each still
    names the emoji its key sends."""
    chosen = {
        binding.id: binding.description
        for binding in ReactionScreen.BINDINGS
        if binding.id.startswith("reaction.choose_")
    }
    assert chosen == {
        f"reaction.choose_{n}": f"React {emoji}" for n, emoji in enumerate(REACTIONS, start=1)
    }


def test_the_reaction_keys_are_translated(language):
    from gateway_tui.core.text.i18n import _

    language("pt_BR")
    assert [_(f"React {emoji}") for emoji in REACTIONS][:2] == ["Reagir 👍", "Reagir ❤️"]
    language("es")
    assert _("React 🙏") == "Reaccionar 🙏"
