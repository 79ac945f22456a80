"""A translated sentence with its data styled inside it, wherever the language puts the data.

A sentence is translated whole, with named placeholders (core/text/i18n.py); where the English
drew a value in bold or its first words as a heading, ``styled`` fills the placeholders after
translation and styles each part by where it is in the translated sentence, never by gluing
translated pieces together. Values are data: appended as text, never read as markup.

``styled(_("To {recipient}"), "dim", recipient=(number, "bold"))``: the words in ``style``, each
value given as ``(value, style)`` in its own style, a value given alone in the sentence's style,
a ``Text`` value as it is drawn.
"""

from __future__ import annotations

from string import Formatter

from rich.text import Text

Value = str | Text | tuple[str, str]


def styled(sentence: str, style: str = "", lead_style: str | None = None, **values: Value) -> Text:
    """``sentence`` (already translated) with its ``{placeholders}`` filled from ``values``.

    Its own words get ``style``; the words before the first placeholder get ``lead_style`` when
    given ("Not ready: " in bold before the reasons). A placeholder with no value is left as it
    is. Neighbours in one style are one span, as an English f-string in one append was."""
    pieces: list[tuple[str, str] | Text] = []
    leading = lead_style is not None
    for literal, field, _spec, conversion in Formatter().parse(sentence):
        pieces.append((literal, lead_style if leading and lead_style is not None else style))
        if field is None:
            continue
        leading = False
        given = values.get(field)
        if given is None:
            pieces.append(("{" + field + "}", style))
        elif isinstance(given, Text):
            pieces.append(given)
        else:
            value, value_style = given if isinstance(given, tuple) else (given, style)
            pieces.append((repr(value) if conversion == "r" else str(value), value_style))
    text = Text()
    run, run_style = "", ""
    for piece in pieces:
        if isinstance(piece, Text):
            if run:
                text.append(run, style=run_style)
            run = ""
            text.append_text(piece)
            continue
        part, part_style = piece
        if not part:
            continue
        if run and part_style != run_style:
            text.append(run, style=run_style)
            run = ""
        run, run_style = run + part, part_style
    if run:
        text.append(run, style=run_style)
    return text


def stress(text: Text, words: str, style: str) -> Text:
    """``text`` with the first ``words`` in it drawn in ``style`` (a heading inside a
    translated sentence: "Send to many" in bold); unchanged when the translation lacks them."""
    start = text.plain.find(words) if words else -1
    if start >= 0:
        text.stylize(style, start, start + len(words))
    return text
