"""A translated sentence with its data styled inside it, wherever the language puts the data.

``styled(_("To {recipient}"), "dim", recipient=(number, "bold"))``: the words in ``style``, each
value given as ``(value, style)`` in its own style, a value given alone in the sentence's style.
Values are data: appended as text, never read as markup.
"""

from __future__ import annotations

from string import Formatter

from rich.text import Text


def styled(sentence: str, style: str = "", **values: str | Text | tuple[str, str]) -> Text:
    """``sentence`` (already translated) with its ``{placeholders}`` filled from ``values``."""
    text = Text()
    for literal, field, _spec, conversion in Formatter().parse(sentence):
        if literal:
            text.append(literal, style=style)
        if field is None:
            continue
        given = values[field]
        if isinstance(given, Text):
            text.append_text(given)
            continue
        value, value_style = given if isinstance(given, tuple) else (given, style)
        text.append(repr(value) if conversion == "r" else str(value), style=value_style)
    return text
