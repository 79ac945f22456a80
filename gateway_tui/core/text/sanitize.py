"""The display boundary: text from outside is shown, never obeyed by the terminal.

Instance names, group subjects, business profiles, error texts, local files and the clipboard may
hold control characters. Written to a terminal, ``ESC ] 52 ; c ; … BEL`` sets the clipboard,
``ESC ] 2 ;`` the window title and ``ESC [ 2 J`` wipes the screen. Rich and Textual keep markup
out but pass these through, so:

- :func:`printable` turns every C0/C1 control character into a visible placeholder (``ESC`` → ␛,
  C1 and lone surrogates → �) and drops bidi embeddings/overrides/isolates, which would reorder
  the rest of the terminal line. Screens, the record table, notifications and copy-to-clipboard
  use it.
- ``display_filter.ControlCharacterFilter`` is the last line: a Textual line filter through
  which every painted line passes, with the same placeholders.

No Textual here: the command line's headless commands print server text through this module.
"""

from __future__ import annotations

import re

from rich.text import Text

# Visible stand-ins: the Unicode "control pictures" for C0 (␀…␟) and DEL (␡); "�" for C1 controls
# (no pictures exist for them) and for lone surrogates (which cannot even be encoded for output).
REPLACEMENT = "\ufffd"
_BIDI_CONTROLS = (*range(0x202A, 0x202F), *range(0x2066, 0x206A))

SINGLE_LINE: dict[int, str | None] = {
    **{code: chr(0x2400 + code) for code in range(0x00, 0x20)},
    0x7F: "\u2421",
    **{code: REPLACEMENT for code in (*range(0x80, 0xA0), *range(0xD800, 0xE000))},
    # Line and paragraph separators would break a line in some terminals.
    **{ord(character): " " for character in "\t\n\v\f\r\u2028\u2029"},
    **{code: None for code in _BIDI_CONTROLS},
}
_MULTI_LINE: dict[int, str | None] = {**SINGLE_LINE, ord("\n"): "\n"}

# Anything a terminal could act on: C0 and C1 controls, DEL, bidi controls and lone surrogates.
UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def printable(text: str, *, multiline: bool = False) -> str:
    """``text`` safe to show: controls as visible placeholders, bidi controls dropped.

    Single-line (the default): tabs and line breaks become spaces. ``multiline`` keeps "\\n".
    """
    if text.isprintable() and not UNSAFE.search(text):
        return text
    return text.translate(_MULTI_LINE if multiline else SINGLE_LINE)


def printable_text(text: Text) -> Text:
    """A Rich Text safe to show (see printable); styles kept, line breaks kept."""
    if is_safe(text.plain):
        return text
    shown = text.copy()
    shown.plain = printable(text.plain, multiline=True)  # same length keeps the spans
    return shown


def is_safe(text: str) -> bool:
    """True when ``text`` holds nothing a terminal would act on."""
    return UNSAFE.search(text) is None


def clipboard_text(text: str) -> str:
    """What copy-to-clipboard puts there: placeholders instead of controls, lines kept."""
    return printable(text, multiline=True)


def encodable(text: str) -> str:
    """``text`` with lone surrogates replaced, so it can be written as UTF-8 (files, logs)."""
    return text.encode("utf-8", "replace").decode("utf-8") if _has_surrogate(text) else text


def _has_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False
