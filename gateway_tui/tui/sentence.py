"""A translated sentence drawn with styles: its words in one style, each value in its own.

A sentence is translated whole, with named placeholders (core/text/i18n.py); where the English
drew a part in bold or a value in colour, ``styled`` fills the placeholders and styles each
part by where it is in the translation, never by gluing translated pieces together. Values are
data: put in as plain text, never read as markup.
"""

from __future__ import annotations

import re

from rich.text import Text

_PLACEHOLDER = re.compile(r"\{(\w+)\}")

Value = str | tuple[str, str]


def styled(sentence: str, style: str = "", lead_style: str | None = None, **values: Value) -> Text:
    """``sentence`` (already translated) with its ``{name}`` placeholders filled in.

    Its own words get ``style``; the words before the first placeholder get ``lead_style``
    when given ("Not ready: " in bold before the reasons); a value is a string (no style of its
    own) or ``(text, style)``. A placeholder with no value is left as it is."""
    pieces: list[tuple[str, str]] = []
    last = 0
    for match in _PLACEHOLDER.finditer(sentence):
        words = sentence[last : match.start()]
        pieces.append((words, lead_style if lead_style is not None and last == 0 else style))
        value = values.get(match.group(1))
        if value is None:
            pieces.append((match.group(), style))
        elif isinstance(value, tuple):
            pieces.append(value)
        else:
            pieces.append((value, ""))
        last = match.end()
    pieces.append((sentence[last:], lead_style if lead_style is not None and last == 0 else style))
    text = Text()
    # Neighbours in one style are one span, as an English f-string in one append was.
    merged: list[tuple[str, str]] = []
    for part, part_style in pieces:
        if merged and merged[-1][1] == part_style:
            merged[-1] = (merged[-1][0] + part, part_style)
        elif part:
            merged.append((part, part_style))
    for part, part_style in merged:
        text.append(part, style=part_style)
    return text


def stress(text: Text, words: str, style: str) -> Text:
    """``text`` with the first ``words`` in it drawn in ``style`` (a heading inside a
    translated sentence: "Send to many" in bold); unchanged when the translation lacks them."""
    start = text.plain.find(words) if words else -1
    if start >= 0:
        text.stylize(style, start, start + len(words))
    return text
