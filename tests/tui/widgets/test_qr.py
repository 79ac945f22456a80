"""The QR drawing: modules survive the round trip through characters, the quiet zone is kept,
the largest drawing that fits is chosen, and the pairing code's large letters."""

from __future__ import annotations

import pytest

from gateway_tui.tui.widgets.big_code import big_text, big_width, grouped
from gateway_tui.tui.widgets.qr import (
    QUIET_ZONE,
    SEXTANTS,
    Drawing,
    draw,
    drawing_size,
    fitting_drawing,
    pixels,
    qr_matrix,
)

CODE = "2@" + "A" * 86 + ",noise=,identity=,adv="


def test_all_64_sextant_patterns_have_a_character():
    assert len(SEXTANTS) == 64
    assert len(set(SEXTANTS.values())) == 64


@pytest.mark.parametrize("drawing", list(Drawing))
def test_modules_survive_the_drawing(drawing):
    matrix = qr_matrix(CODE)
    back = pixels(draw(matrix, drawing), drawing)
    assert [row[: len(matrix)] for row in back[: len(matrix)]] == matrix
    # Whatever the drawing pads with is light.
    assert not any(any(row[len(matrix) :]) for row in back)
    assert not any(any(row) for row in back[len(matrix) :])


def test_quiet_zone_is_kept():
    matrix = qr_matrix(CODE)
    for row in matrix[:QUIET_ZONE] + matrix[-QUIET_ZONE:]:
        assert not any(row)
    for row in matrix:
        assert not any(row[:QUIET_ZONE]) and not any(row[-QUIET_ZONE:])


def test_the_largest_drawing_that_fits_is_chosen():
    matrix = qr_matrix(CODE)
    half = drawing_size(matrix, Drawing.HALF)
    sextant = drawing_size(matrix, Drawing.SEXTANT)
    assert fitting_drawing(matrix, *half) == Drawing.HALF
    assert fitting_drawing(matrix, half[0], half[1] - 1) == Drawing.SEXTANT
    assert fitting_drawing(matrix, *sextant) == Drawing.SEXTANT
    assert fitting_drawing(matrix, sextant[0] - 1, sextant[1]) is None


def test_a_whatsapp_sized_code_fits_80x24_in_sextants_only():
    matrix = qr_matrix("2@" + "x" * 90 + "," + "y" * 44 + "," + "z" * 44 + "," + "w" * 44)
    # 80×24 less the header and the footer, and a 40-column side panel.
    assert fitting_drawing(matrix, 40, 22) == Drawing.SEXTANT


def test_pairing_code_in_large_letters():
    assert grouped("WZYEH1YY") == "WZYE-H1YY"
    text = big_text("wzyeh1yy")
    assert text is not None
    lines = text.plain.split("\n")
    assert len(lines) == 3
    assert max(len(line) for line in lines) <= big_width("WZYEH1YY")
    assert big_text("AB*D") is None  # no glyph: the caller shows plain text
