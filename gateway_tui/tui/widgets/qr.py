"""A QR code drawn with block characters, for a phone camera to read off the terminal.

segno makes the code; this module only draws its modules, in the largest drawing that fits:
- full blocks (██): one module = 2 cells across, 1 down — a big code for a big window;
- half blocks (▀ ▄ █): one cell = 1×2 modules, square modules — what every terminal font has;
- sextants (🬀…🬻, Unicode 13): one cell = 2×3 modules — a third fewer rows, for 80×24 where a
  WhatsApp code (version 10, 65 modules with its quiet zone) needs 33 rows in half blocks.
The four-module quiet zone is always kept. Dark modules are drawn black on white, whatever the
theme: a phone reads dark-on-light. Pure text: works over SSH and in tmux.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from enum import StrEnum

import segno
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.widget import Widget

from gateway_tui.core.text.i18n import _

QUIET_ZONE = 4
QR_STYLE = Style(color="#000000", bgcolor="#ffffff")
Matrix = list[list[bool]]


class Drawing(StrEnum):
    FULL = "full blocks"  # 2 cells a module: for a big window, a big code
    HALF = "half blocks"
    SEXTANT = "sextants"


def qr_matrix(code: str) -> Matrix:
    """The modules of ``code`` (True = dark), quiet zone included. Lowest error level: the
    smallest code, and a screen is not a crumpled label."""
    qr = segno.make(code, error="L", boost_error=False, micro=False)
    return [[bool(module) for module in row] for row in qr.matrix_iter(border=QUIET_ZONE)]


_HALF = {(False, False): " ", (True, False): "▀", (False, True): "▄", (True, True): "█"}


def _sextant_chars() -> dict[tuple[bool, ...], str]:
    """(top-left, top-right, mid-left, mid-right, bottom-left, bottom-right) → character."""
    chars: dict[tuple[bool, ...], str] = {
        (False,) * 6: " ",
        (True,) * 6: "█",
        (True, False, True, False, True, False): "▌",
        (False, True, False, True, False, True): "▐",
    }
    for code_point in range(0x1FB00, 0x1FB3C):
        # "BLOCK SEXTANT-1235": the cells that are set, numbered 1-6 row by row.
        cells = unicodedata.name(chr(code_point)).removeprefix("BLOCK SEXTANT-")
        chars[tuple(str(n) in cells for n in range(1, 7))] = chr(code_point)
    return chars


SEXTANTS = _sextant_chars()
HALF_PIXELS = {char: bits for bits, char in _HALF.items()}
SEXTANT_PIXELS = {char: bits for bits, char in SEXTANTS.items()}


def _module(matrix: Matrix, y: int, x: int) -> bool:
    """Beyond the matrix is quiet zone (light)."""
    return y < len(matrix) and x < len(matrix[y]) and matrix[y][x]


def half_block_lines(matrix: Matrix) -> list[str]:
    width = len(matrix[0]) if matrix else 0
    return [
        "".join(_HALF[(_module(matrix, y, x), _module(matrix, y + 1, x))] for x in range(width))
        for y in range(0, len(matrix), 2)
    ]


def sextant_lines(matrix: Matrix) -> list[str]:
    width = len(matrix[0]) if matrix else 0
    return [
        "".join(
            SEXTANTS[tuple(_module(matrix, y + dy, x + dx) for dy in range(3) for dx in range(2))]
            for x in range(0, width, 2)
        )
        for y in range(0, len(matrix), 3)
    ]


def full_block_lines(matrix: Matrix) -> list[str]:
    return ["".join("██" if dark else "  " for dark in row) for row in matrix]


def drawing_size(matrix: Matrix, drawing: Drawing) -> tuple[int, int]:
    """(columns, rows) the drawing takes."""
    modules = len(matrix)
    if drawing == Drawing.FULL:
        return 2 * modules, modules
    if drawing == Drawing.HALF:
        return modules, -(-modules // 2)
    return -(-modules // 2), -(-modules // 3)


def fitting_drawing(matrix: Matrix, width: int, height: int) -> Drawing | None:
    """The largest drawing that fits ``width`` × ``height`` cells."""
    for drawing in Drawing:
        columns, rows = drawing_size(matrix, drawing)
        if columns <= width and rows <= height:
            return drawing
    return None


def draw(matrix: Matrix, drawing: Drawing) -> list[str]:
    if drawing == Drawing.FULL:
        return full_block_lines(matrix)
    return half_block_lines(matrix) if drawing == Drawing.HALF else sextant_lines(matrix)


def pixels(lines: Iterable[str], drawing: Drawing) -> Matrix:
    """The modules back from drawn lines (for tests that decode what the screen shows).
    Any character that is not part of the drawing counts as light."""
    if drawing == Drawing.FULL:
        lines = list(lines)
        # A module is two cells: read them in the pairs they were drawn in (the drawing may
        # start on an odd column), the pairing where no module is half dark.
        start = 0 if all(_whole_modules(line, 0) for line in lines) else 1
        return [[line[x : x + 2] == "██" for x in range(start, len(line) - 1, 2)] for line in lines]
    table, (across, down) = (
        (HALF_PIXELS, (1, 2)) if drawing == Drawing.HALF else (SEXTANT_PIXELS, (2, 3))
    )
    light = (False,) * (across * down)
    rows: Matrix = []
    for line in lines:
        block = [[False] * (len(line) * across) for _row in range(down)]
        for x, char in enumerate(line):
            bits = table.get(char, light)
            for index, dark in enumerate(bits):
                block[index // across][x * across + index % across] = dark
        rows.extend(block)
    return rows


def _whole_modules(line: str, start: int) -> bool:
    """Each pair of cells from ``start`` is all dark or all light."""
    return all((line[x] == "█") == (line[x + 1] == "█") for x in range(start, len(line) - 1, 2))


class QRCode(Widget):
    """Draws ``code`` as large as the widget allows; says plainly when it cannot fit."""

    DEFAULT_CSS = """
    QRCode {
        width: 1fr;
        height: 1fr;
        content-align: center middle;
    }
    """

    def __init__(self, *, id: str | None = None, pair_key: str | None = None) -> None:
        """``pair_key``: the key that pairs with a code instead (the screen asks its bindings);
        None: the hint names no key."""
        super().__init__(id=id)
        self.pair_key = pair_key
        self._code: str | None = None
        self._matrix: Matrix = []
        self._message = _("Asking the gateway for a code…")
        self.drawing: Drawing | None = None

    def show_code(self, code: str) -> None:
        if code != self._code:
            self._code = code
            self._matrix = qr_matrix(code)
        self.refresh(layout=True)

    def show_message(self, message: str) -> None:
        self._code, self._matrix, self._message = None, [], message
        self.refresh(layout=True)

    @property
    def needed(self) -> tuple[int, int] | None:
        """The smallest (columns, rows) the code fits in, or None with no code."""
        return drawing_size(self._matrix, Drawing.SEXTANT) if self._matrix else None

    def render(self) -> Text | DrawnCode:
        width, height = self.content_size
        self.drawing = None
        if not self._matrix:
            return Text(self._message, justify="center")
        drawing = fitting_drawing(self._matrix, width, height)
        if drawing is None:
            columns, rows = drawing_size(self._matrix, Drawing.SEXTANT)
            if self.pair_key:
                said = _(
                    "Too small for the QR code: it needs {columns}×{rows} characters, this "
                    "space is {width}×{height}. Enlarge the window or zoom out ({zoom}), "
                    "or press {key} to pair with a code typed on the phone instead."
                )
            else:
                said = _(
                    "Too small for the QR code: it needs {columns}×{rows} characters, this "
                    "space is {width}×{height}. Enlarge the window or zoom out ({zoom}), "
                    "or pair with a code typed on the phone instead."
                )
            return Text(
                said.format(
                    columns=columns,
                    rows=rows,
                    width=width,
                    height=height,
                    zoom="ctrl -",
                    key=self.pair_key,
                ),
                style="yellow",
                justify="center",
            )
        self.drawing = drawing
        return DrawnCode(draw(self._matrix, drawing))


class DrawnCode:
    """The drawn lines exactly as they are: no wrapping, no justifying (which would strip the
    quiet zone's spaces and shift lines)."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.width = max((len(line) for line in lines), default=0)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for line in self.lines:
            yield Segment(line.ljust(self.width), QR_STYLE)
            yield Segment.line()

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(self.width, self.width)
