"""The translation catalogues (core/text/catalogues.py): compiled from their sources, whole,
and every sentence the code marks translated in pt-BR and es with the same placeholders."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import gateway_tui
from gateway_tui.core.text import catalogues

PACKAGE = Path(gateway_tui.__file__).parent
LANGUAGES = catalogues.translated_languages()


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_compiled_catalogue_matches_its_sources(code):
    assert not catalogues.stale(code), (
        f"{code}: run `python -m gateway_tui.core.text.catalogues` and commit the .mo"
    )


@pytest.mark.parametrize("code", LANGUAGES)
def test_no_sentence_is_translated_two_ways(code):
    _catalogue, problems = catalogues.load(code)
    assert problems == []


def _binds_underscore(tree: ast.AST) -> list[int]:
    """Lines that assign the name ``_`` (a throwaway) in a module that translates with it:
    inside that function ``_("…")`` would call the throwaway."""
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id == "_" and isinstance(node.ctx, ast.Store):
            lines.append(node.lineno)
        elif isinstance(node, ast.arg) and node.arg == "_":
            lines.append(node.lineno)
    return lines


def test_no_module_that_translates_uses_underscore_as_a_throwaway():
    found = []
    for path in PACKAGE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        translates = any(
            isinstance(node, ast.ImportFrom)
            and node.module == "gateway_tui.core.text.i18n"
            and any(alias.name == "_" for alias in node.names)
            for node in ast.walk(tree)
        )
        if translates:
            found += [f"{path.relative_to(PACKAGE)}:{line}" for line in _binds_underscore(tree)]
    assert found == []


@pytest.fixture(scope="module")
def marked():
    return catalogues.extract()


def test_every_binding_description_reaches_the_catalogue(marked):
    """The footer, help and palette translate a description at display: one the extractor
    cannot see (a keyword argument, a tuple, an f-string) would stay English."""
    from textual.binding import Binding

    from gateway_tui.tui.binding_table import binding_classes

    unseen = set()
    for cls in binding_classes().values():
        for binding in vars(cls).get("BINDINGS", ()):
            if not isinstance(binding, Binding):
                binding = Binding(*binding)
            for text in (binding.description, binding.tooltip):
                if text and text not in marked:
                    unseen.add(f"{cls.__qualname__}: {text!r}")
    assert sorted(unseen) == []


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_sentence_is_translated_with_its_placeholders(code, marked):
    """Every sentence the code marks has a translation in pt-BR and es, with the same named
    placeholders, and no translation is left for a sentence the code no longer has."""
    problems = catalogues.problems_of(code, marked)
    assert problems == [], "\n".join(problems[:40]) + f"\n({len(problems)} in all)"
