"""Textual's own key descriptions that help and the footer show are all marked for the
catalogue (gateway_tui/tui/textual_words.py), so they are translated like ours."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

from textual.app import App
from textual.binding import Binding
from textual.dom import DOMNode

import gateway_tui
from gateway_tui.core.text import catalogues
from gateway_tui.core.text.i18n import _
from gateway_tui.tui import textual_words
from gateway_tui.tui.textual_private import bindings_of


def _shown_texts(cls: type) -> dict[str, str]:
    """What help or the footer can say of ``cls``'s own bindings (those with a description):
    text -> where it comes from."""
    texts = {}
    for binding in vars(cls).get("BINDINGS", ()):
        if not isinstance(binding, Binding):
            binding = Binding(*binding)
        if binding.description:
            for text in (binding.description, binding.tooltip):
                if text:
                    texts[text] = f"{cls.__module__}.{cls.__qualname__} {binding.key}"
    return texts


def _textual_texts() -> dict[str, str]:
    found: dict[str, str] = {}
    for widget in textual_words.WIDGETS:
        for cls in widget.__mro__:
            found.update(_shown_texts(cls))
    # The command palette's key: App adds it itself, when the app names none of its own.
    for binding in bindings_of(App()).key_to_bindings[App.COMMAND_PALETTE_BINDING]:
        found[binding.description] = "App.COMMAND_PALETTE_BINDING"
        found[binding.tooltip] = "App.COMMAND_PALETTE_BINDING"
    return found


def test_every_shown_textual_description_is_listed():
    """A Textual upgrade that adds (or rewords) a key of a widget the app uses fails here."""
    missing = {
        text: where
        for text, where in _textual_texts().items()
        if text not in textual_words.DESCRIPTIONS
    }
    assert missing == {}


def test_nothing_is_listed_that_textual_no_longer_says():
    assert set(textual_words.DESCRIPTIONS) == set(_textual_texts())


def _textual_classes_the_app_uses() -> set[type[DOMNode]]:
    """The Textual classes behind every class the app's tui modules name (imported or built
    on): their bindings are the ones help can show."""
    used: set[type[DOMNode]] = set()
    for info in pkgutil.walk_packages(gateway_tui.__path__, "gateway_tui."):
        if not info.name.startswith("gateway_tui.tui"):
            continue
        for value in vars(importlib.import_module(info.name)).values():
            if inspect.isclass(value) and issubclass(value, DOMNode):
                used |= {cls for cls in value.__mro__ if cls.__module__.startswith("textual")}
    return used


def test_every_textual_class_the_app_uses_is_in_the_widget_list():
    """A Textual widget the app starts using (a Tree, a Switch) with keys of its own must be
    added to WIDGETS, and its descriptions to the list."""
    covered = {cls for widget in textual_words.WIDGETS for cls in widget.__mro__}
    with_keys = {cls for cls in _textual_classes_the_app_uses() if _shown_texts(cls)}
    assert sorted(cls.__qualname__ for cls in with_keys - covered) == []


def test_every_listed_description_reaches_the_catalogue():
    marked = catalogues.extract([inspect.getsourcefile(textual_words)])
    assert set(textual_words.DESCRIPTIONS) <= set(marked)


def test_textual_descriptions_are_translated(language):
    language("pt_BR")
    assert _("Move cursor left") == "Mover o cursor para a esquerda"
    assert _("palette") == "paleta"
    language("es")
    assert _("Move cursor left") == "Mover el cursor a la izquierda"
    assert _("Dismiss menu") == "Cerrar el menú"
