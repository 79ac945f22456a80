"""The last line of the display boundary (see sanitize.py): Textual line filters through which
every painted line passes. Whatever still holds a control character there is shown with the
placeholders of sanitize.printable, so no escape sequence reaches the terminal driver, whichever
widget drew it; and a known secret (the key, an instance's token) a gateway echoed in a name, a
title or a message is masked there, whichever widget drew it.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.segment import Segment
from textual.color import Color
from textual.filter import LineFilter
from textual.widgets import Static

from gateway_tui.core.text.sanitize import MASK, SINGLE_LINE, UNSAFE, is_safe, known_secrets


class ControlCharacterFilter(LineFilter):
    """Replaces control characters in every painted line, keeping the line's width.

    Rich measures a control character as zero cells wide, so a layout made with one in it has no
    room for a placeholder: each placeholder takes a cell of the line's trailing blank space, and
    where there is none left the character is dropped instead. Either way it is never written.
    """

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        if is_safe("".join([segment.text for segment in segments])):  # nearly every line
            return segments
        spare = _trailing_blank_cells(segments)
        cleaned: list[Segment] = []
        used = 0
        for text, style, control in segments:
            if is_safe(text):
                cleaned.append(Segment(text, style, control))
                continue
            pieces: list[str] = []
            for character in text:
                if not UNSAFE.match(character):
                    pieces.append(character)
                    continue
                shown = SINGLE_LINE.get(ord(character))
                if not shown:
                    continue
                if cell_len(character) == 0:  # Rich gave it no cell: take one of the blanks
                    if used >= spare:
                        continue
                    used += 1
                pieces.append(shown)
            cleaned.append(Segment("".join(pieces), style, control))
        return _trim_trailing_blanks(cleaned, used)


class SecretFilter(LineFilter):
    """Masks every known secret (sanitize.add_secret) in a painted line, keeping its width: the
    secret's first cells show the mask ("••••"), the rest are blank. Cells of a table are
    masked before they are cut (RecordTable), so a cut never leaves part of a key for this."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        secrets = known_secrets()
        if not secrets:
            return segments
        line = "".join([segment.text for segment in segments])
        hidden = _secret_spans(line, secrets)
        if not hidden:  # nearly every line
            return segments
        masked: list[Segment] = []
        offset = 0
        for text, style, control in segments:
            pieces: list[str] = []
            for index, character in enumerate(text, offset):
                start = hidden.get(index)
                if start is None:
                    pieces.append(character)
                else:  # the mask on the secret's first cells, blanks on the rest
                    cell = MASK[index - start] if index - start < len(MASK) else " "
                    pieces.append(cell * cell_len(character))
            offset += len(text)
            masked.append(Segment("".join(pieces), style, control))
        return masked


class SecretShown(Static):
    """A Static that shows a secret on purpose (a created instance's own key, once): every
    line filter but the secret one."""

    def get_line_filters(self) -> list[LineFilter]:  # type: ignore[override]
        return [f for f in super().get_line_filters() if not isinstance(f, SecretFilter)]


def _secret_spans(line: str, secrets: tuple[str, ...]) -> dict[int, int]:
    """Each index of ``line`` inside a secret, mapped to where that secret starts."""
    hidden: dict[int, int] = {}
    for secret in secrets:  # longest first: a shorter one inside it is already covered
        start = line.find(secret)
        while start != -1:
            for index in range(start, start + len(secret)):
                hidden.setdefault(index, start)
            start = line.find(secret, start + len(secret))
    return hidden


def _trailing_blank_cells(segments: list[Segment]) -> int:
    blanks = 0
    for segment in reversed(segments):
        text = segment.text
        stripped = text.rstrip(" ")
        blanks += len(text) - len(stripped)
        if stripped:
            break
    return blanks


def _trim_trailing_blanks(segments: list[Segment], cells: int) -> list[Segment]:
    """Take ``cells`` spaces off the end of the line (they were counted as spare)."""
    index = len(segments) - 1
    while cells > 0 and index >= 0:
        text, style, control = segments[index]
        stripped = text.rstrip(" ")
        removable = min(cells, len(text) - len(stripped))
        if removable:
            segments[index] = Segment(text[: len(text) - removable], style, control)
            cells -= removable
        if stripped:
            break
        index -= 1
    return segments
