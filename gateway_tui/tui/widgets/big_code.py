"""A short code (a pairing code) in large letters: a 5×5 font drawn with half blocks."""

from __future__ import annotations

from rich.text import Text

from gateway_tui.tui.widgets.qr import half_block_lines

# 5×5 glyphs, "#" = ink. Enough for WhatsApp pairing codes (digits and capital letters).
_FONT_ROWS = {
    "A": " ### |#   #|#####|#   #|#   #",
    "B": "#### |#   #|#### |#   #|#### ",
    "C": " ####|#    |#    |#    | ####",
    "D": "#### |#   #|#   #|#   #|#### ",
    "E": "#####|#    |#### |#    |#####",
    "F": "#####|#    |#### |#    |#    ",
    "G": " ####|#    |#  ##|#   #| ####",
    "H": "#   #|#   #|#####|#   #|#   #",
    "I": "#####|  #  |  #  |  #  |#####",
    "J": "#####|   # |   # |#  # | ##  ",
    "K": "#   #|#  # |###  |#  # |#   #",
    "L": "#    |#    |#    |#    |#####",
    "M": "#   #|## ##|# # #|#   #|#   #",
    "N": "#   #|##  #|# # #|#  ##|#   #",
    "O": " ### |#   #|#   #|#   #| ### ",
    "P": "#### |#   #|#### |#    |#    ",
    "Q": " ### |#   #|# # #|#  # | ## #",
    "R": "#### |#   #|#### |#  # |#   #",
    "S": " ####|#    | ### |    #|#### ",
    "T": "#####|  #  |  #  |  #  |  #  ",
    "U": "#   #|#   #|#   #|#   #| ### ",
    "V": "#   #|#   #|#   #| # # |  #  ",
    "W": "#   #|#   #|# # #|## ##|#   #",
    "X": "#   #| # # |  #  | # # |#   #",
    "Y": "#   #| # # |  #  |  #  |  #  ",
    "Z": "#####|   # |  #  | #   |#####",
    "0": " ### |#  ##|# # #|##  #| ### ",
    "1": "  #  | ##  |  #  |  #  | ### ",
    "2": " ### |#   #|  ## | #   |#####",
    "3": "#### |    #| ### |    #|#### ",
    "4": "#   #|#   #|#####|    #|    #",
    "5": "#####|#    |#### |    #|#### ",
    "6": " ### |#    |#### |#   #| ### ",
    "7": "#####|    #|   # |  #  |  #  ",
    "8": " ### |#   #| ### |#   #| ### ",
    "9": " ### |#   #| ####|    #| ### ",
    "-": "     |     | ### |     |     ",
}
GLYPH_WIDTH = 6  # 5 columns and a space


def grouped(code: str) -> str:
    """WhatsApp shows a pairing code as two groups of four: ABCD-EFGH."""
    return f"{code[:4]}-{code[4:]}" if len(code) == 8 and "-" not in code else code


def big_width(code: str) -> int:
    return len(grouped(code)) * GLYPH_WIDTH - 1


def big_text(code: str, style: str = "bold") -> Text | None:
    """The code in large letters (3 rows), or None when a character has no glyph."""
    shown = grouped(code.upper())
    if not shown or any(char not in _FONT_ROWS for char in shown):
        return None
    bitmap = [[False] * (len(shown) * GLYPH_WIDTH) for _ in range(5)]
    for index, char in enumerate(shown):
        for y, row in enumerate(_FONT_ROWS[char].split("|")):
            for x, ink in enumerate(row):
                bitmap[y][index * GLYPH_WIDTH + x] = ink == "#"
    lines = [line.rstrip() for line in half_block_lines(bitmap)]
    return Text("\n".join(lines), style=style, no_wrap=True)
