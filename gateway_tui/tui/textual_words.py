"""Textual's own key descriptions, marked for the catalogue (ARCHITECTURE: "Language").

Help (screens/help.py, "Moving around and editing") and the footer show the bindings of the
Textual widgets the app uses — a text field's cursor keys, a table's, a menu's, the command
palette's — and translate each description at display with ``_()``. Textual writes them in
English, outside our code, where the extractor cannot find them: they are listed here, each
with ``N_()``, so they reach the catalogue. Nothing imports this module at run time.

``WIDGETS`` are the Textual classes whose bindings the app can show: those our screens and
widgets are built from or on (their bases' bindings count too), and those Textual builds
itself inside them (a Select's menu, the command palette). tests/tui/test_textual_words.py
fails when one of their descriptions (or tooltips) is missing here, as after a Textual upgrade
that adds a key, and when the app starts using a Textual class that is not in ``WIDGETS``.
"""

from __future__ import annotations

from textual.app import App
from textual.command import CommandPalette
from textual.containers import ScrollableContainer
from textual.dom import DOMNode
from textual.screen import Screen
from textual.widgets import (
    Button,
    Checkbox,
    DataTable,
    Input,
    OptionList,
    Select,
    SelectionList,
    TextArea,
)

from gateway_tui.core.text.i18n import N_
from gateway_tui.tui.textual_private import select_overlay_class

WIDGETS: tuple[type[DOMNode], ...] = (
    App,
    Screen,
    ScrollableContainer,
    Button,
    Checkbox,
    DataTable,
    Input,
    TextArea,
    OptionList,
    SelectionList,
    Select,
    select_overlay_class(),
    CommandPalette,
)

DESCRIPTIONS: tuple[str, ...] = (
    # App (the quit key ours replaces) and the command palette's key, which App adds itself.
    N_("Quit"),
    N_("Quit the app and return to the command prompt."),
    N_("palette"),
    N_("Open the command palette"),
    # Screen.
    N_("Focus Next"),
    N_("Focus Previous"),
    N_("Copy selected text"),
    # ScrollableContainer (VerticalScroll, RichLog, every scrolling view).
    N_("Scroll Up"),
    N_("Scroll Down"),
    N_("Scroll Left"),
    N_("Scroll Right"),
    N_("Scroll Home"),
    N_("Scroll End"),
    N_("Page Up"),
    N_("Page Down"),
    N_("Page Left"),
    N_("Page Right"),
    # Button, Checkbox (ToggleButton).
    N_("Press button"),
    N_("Toggle"),
    # DataTable.
    N_("Select"),
    N_("Cursor up"),
    N_("Cursor down"),
    N_("Cursor right"),
    N_("Cursor left"),
    N_("Page up"),
    N_("Page down"),
    N_("Top"),
    N_("Bottom"),
    N_("Home"),
    N_("End"),
    # Input (TextInput, every one-line field).
    N_("Move cursor left"),
    N_("Move cursor left and select"),
    N_("Move cursor left a word"),
    N_("Move cursor left a word and select"),
    N_("Move cursor right or accept the completion suggestion"),
    N_("Move cursor right and select"),
    N_("Move cursor right a word"),
    N_("Move cursor right a word and select"),
    N_("Delete character left"),
    N_("Select all"),
    N_("Go to start"),
    N_("Go to end"),
    N_("Select line start"),
    N_("Select line end"),
    N_("Delete character right"),
    N_("Submit"),
    N_("Delete left to start of word"),
    N_("Delete all to the left"),
    N_("Delete right to start of word"),
    N_("Delete all to the right"),
    N_("Cut selected text"),
    N_("Paste text from the clipboard"),
    # TextArea.
    N_("Cursor word left"),
    N_("Cursor word right"),
    N_("Cursor line start"),
    N_("Cursor line end"),
    N_("Cursor page up"),
    N_("Cursor page down"),
    N_("Cursor left word select"),
    N_("Cursor right word select"),
    N_("Cursor line start select"),
    N_("Cursor line end select"),
    N_("Cursor up select"),
    N_("Cursor down select"),
    N_("Cursor left select"),
    N_("Cursor right select"),
    N_("Select line"),
    N_("Cut"),
    N_("Copy"),
    N_("Paste"),
    N_("Delete to line start"),
    N_("Delete to line end"),
    N_("Delete line"),
    N_("Undo"),
    N_("Redo"),
    # OptionList, SelectionList, Select and its menu.
    N_("Down"),
    N_("Last"),
    N_("First"),
    N_("Up"),
    N_("Toggle option"),
    N_("Show menu"),
    N_("Dismiss menu"),
    # The command palette.
    N_("Go to bottom"),
    N_("Go to top"),
    N_("Next command"),
    N_("Exit the command palette"),
    N_("Next page"),
    N_("Previous page"),
    N_("Previous command"),
)
