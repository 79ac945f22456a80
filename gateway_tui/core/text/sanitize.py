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

- :func:`field` (one table or CSV cell: printable, one line, no known secret) and
  :func:`json_text` (C1, bidi controls and lone surrogates escaped) are what the command line
  writes through (cli_output.py, export.py), whether stdout is a terminal, a pipe or a file.
- The known secrets (:func:`add_secret`: each client's key, a created instance's token) are
  masked by :func:`mask_secrets` in everything the app and the command line write.

No Textual (and no Rich at import) here: the command line uses this module.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the command line needs no Rich
    from rich.text import Text

# Visible stand-ins: the Unicode "control pictures" for C0 (␀…␟) and DEL (␡); "�" for C1 controls
# (no pictures exist for them) and for lone surrogates (which cannot even be encoded for output).
REPLACEMENT = "\ufffd"
# Embeddings and overrides (U+202A–202E), isolates (U+2066–2069) and the marks (LRM, RLM, ALM):
# each reorders what a terminal shows after it.
_BIDI_CONTROLS = (*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F, 0x061C)

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
UNSAFE = re.compile(
    "[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]"
)
# What JSON leaves raw (it escapes C0 itself) that a terminal or a parser would act on.
_JSON_UNSAFE = re.compile(
    "[\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]"
)


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


# --- every output: fields, JSON, known secrets ------------------------------------------------

MASK = "••••"
# A secret shorter than this cannot be told from ordinary text (and masking it would garble it).
MIN_SECRET_LENGTH = 4
_secrets: set[str] = set()
_secrets_by_length: tuple[str, ...] = ()


def add_secret(secret: str | None) -> None:
    """Remember ``secret`` (an API key, an instance token): masked in everything written after."""
    global _secrets_by_length
    if secret and len(secret) >= MIN_SECRET_LENGTH and secret not in _secrets:
        _secrets.add(secret)
        _secrets_by_length = tuple(sorted(_secrets, key=len, reverse=True))


def known_secrets() -> tuple[str, ...]:
    """Every secret this process was told of, longest first."""
    return _secrets_by_length


def forget_secrets() -> None:
    """Forget every known secret (tests)."""
    global _secrets_by_length
    _secrets.clear()
    _secrets_by_length = ()


def mask_secrets(text: str, secrets: Iterable[str] = ()) -> str:
    """``text`` with every known secret (and each of ``secrets``) replaced by a mask."""
    extra = [s for s in secrets if len(s) >= MIN_SECRET_LENGTH and s not in _secrets]
    ordered = sorted(extra, key=len, reverse=True) + list(_secrets_by_length) if extra else None
    for secret in ordered if ordered is not None else _secrets_by_length:
        if secret in text:
            text = text.replace(secret, MASK)
    return text


def field(value: Any) -> str:
    """A value from outside as one cell of a table or a CSV row: printable (a newline or a tab
    never splits the row), no known secret; None is empty."""
    if value is None:
        return ""
    return printable(mask_secrets(encodable(str(value))))


def line(text: Any) -> str:
    """A message for a terminal or a log line: printable on one line, no known secret."""
    return field(text)


def json_text(value: Any, **options: Any) -> str:
    """``value`` as JSON that a terminal cannot act on: JSON escapes C0 itself; C1, DEL, bidi
    controls, line separators and lone surrogates are written escaped (``\\u009b``) too, which
    every JSON reader turns back into the same text. Known secrets are masked."""
    text = json.dumps(value, ensure_ascii=False, **options)
    if _secrets_by_length:
        text = mask_secrets(text)
    return _JSON_UNSAFE.sub(lambda match: f"\\u{ord(match[0]):04x}", text)
