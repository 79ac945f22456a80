"""2.4's interactive messages written as plain lines (the composer's text areas), read into
``message_kinds.Buttons`` and ``Carousel``.

One button per line, its type first::

    reply: Yes, please = yes            (the text, then = and the id the answer carries)
    url: Our site = https://example.com
    call: Call us = +55 11 4000-0000
    copy: Coupon = SAVE10
    pix: Loja Exemplo | email | pix@example.com   (name | key type | key; currency BRL)

A carousel: one card per paragraph (cards apart by an empty line); a card's first line is its
text, a line ``image: URL`` its picture, ``footer: …`` its footer, the others its buttons.
"""

from __future__ import annotations

from gateway_tui.core.api.errors import Problem
from gateway_tui.core.api.message_kinds import PIX_KEY_TYPES, Button, Card
from gateway_tui.core.text.i18n import _

BUTTON_TYPES = ("reply", "url", "call", "copy", "pix")
_FIELD = {"reply": "id", "url": "url", "call": "phone_number", "copy": "copy_code"}


def parse_button(line: str, where: str) -> tuple[Button | None, Problem | None]:
    kind, sep, rest = line.partition(":")
    kind = kind.strip().lower()
    if not sep or kind not in BUTTON_TYPES:
        return None, Problem(
            where, _("start with a type: {types}").format(types=", ".join(BUTTON_TYPES))
        )
    if kind == "pix":
        parts = [part.strip() for part in rest.split("|")]
        if len(parts) != 3:
            return None, Problem(where, _("pix: name | key type | key"))
        name, key_type, key = parts
        if key_type not in PIX_KEY_TYPES:
            said = _("a PIX key type is one of {types}").format(types=", ".join(PIX_KEY_TYPES))
            return None, Problem(where, said)
        return Button("pix", name=name, key_type=key_type, key=key), None
    text, sep, value = rest.rpartition("=")
    if not sep:
        said = _("{kind}: the text, then = and the {field}").format(kind=kind, field=_FIELD[kind])
        return None, Problem(where, said)
    button = Button(kind, text.strip(), **{_FIELD[kind]: value.strip()})  # type: ignore[arg-type]
    return button, None


def parse_buttons(text: str, where: str | None = None) -> tuple[tuple[Button, ...], list[Problem]]:
    """One button a line; ``where`` names the block in each problem (the buttons by default)."""
    where = _("buttons") if where is None else where
    buttons: list[Button] = []
    problems: list[Problem] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        button, problem = parse_button(line, _("{where}, line {n}").format(where=where, n=number))
        if button is not None:
            buttons.append(button)
        if problem is not None:
            problems.append(problem)
    return tuple(buttons), problems


def parse_cards(text: str) -> tuple[tuple[Card, ...], list[Problem]]:
    cards: list[Card] = []
    problems: list[Problem] = []
    for index, block in enumerate(_paragraphs(text)):
        body, image, footer, button_lines = block[0], "", "", []
        for line in block[1:]:
            head, _colon, value = line.partition(":")
            if head.strip().lower() == "image":
                image = value.strip()
            elif head.strip().lower() == "footer":
                footer = value.strip()
            else:
                button_lines.append(line)
        card = _("card {n}").format(n=index + 1)
        buttons, found = parse_buttons("\n".join(button_lines), card)
        problems += found
        cards.append(Card(body.strip(), buttons, footer=footer, image_url=image))
    return tuple(cards), problems


def _paragraphs(text: str) -> list[list[str]]:
    blocks: list[list[str]] = [[]]
    for line in text.splitlines():
        if line.strip():
            blocks[-1].append(line)
        elif blocks[-1]:
            blocks.append([])
    return [block for block in blocks if block]
