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
    text = Text()
    last = 0
    for match in _PLACEHOLDER.finditer(sentence):
        words = sentence[last : match.start()]
        text.append(words, style=lead_style if lead_style is not None and last == 0 else style)
        value = values.get(match.group(1))
        if value is None:
            text.append(match.group(), style=style)
        elif isinstance(value, tuple):
            text.append(value[0], style=value[1])
        else:
            text.append(value)
        last = match.end()
    tail = sentence[last:]
    text.append(tail, style=lead_style if lead_style is not None and last == 0 else style)
    return text


def stress(text: Text, words: str, style: str) -> Text:
    """``text`` with the first ``words`` in it drawn in ``style`` (a heading inside a
    translated sentence: "Send to many" in bold); unchanged when the translation lacks them."""
    start = text.plain.find(words) if words else -1
    if start >= 0:
        text.stylize(style, start, start + len(words))
    return text
