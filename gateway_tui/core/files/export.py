"""The one CSV writer: every CSV this app writes (``participants --csv``, ``instances --csv``, the
participants export, a campaign's ``report.csv``) goes through it. No Textual here.

Each cell is data, never a command:

- controls, C1 and bidi controls are shown as placeholders and a newline or a tab becomes a
  space (sanitize.field), so a row is one line and nothing in it drives a terminal that ``cat``s
  the file; known secrets are masked;
- a cell a spreadsheet would run as a formula (``=``, ``+``, ``-``, ``@``, also after leading
  spaces) gets a leading ``'``, which keeps it text;
- a file is created 0600 (never world-readable, not even for a moment) and an existing one is
  only replaced when the caller says so.
"""

from __future__ import annotations

import csv
import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, TextIO

from gateway_tui.core.files.storage import PRIVATE_FILE_MODE
from gateway_tui.core.text.sanitize import field

# A spreadsheet runs a cell starting with one of these as a formula (tab and CR too: some
# strip them first).
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: Any) -> str:
    """``value`` as a safe CSV cell: printable, one line, no secret, never a formula."""
    text = field(value)
    if text.lstrip(" \t\r").startswith(FORMULA_START) or text.startswith(FORMULA_START):
        return "'" + text
    return text


class CsvWriter:
    """csv.writer whose every cell goes through :func:`csv_cell`."""

    def __init__(self, out: TextIO) -> None:
        self._writer = csv.writer(out)

    def writerow(self, row: Iterable[Any]) -> None:
        self._writer.writerow([csv_cell(value) for value in row])

    def writerows(self, rows: Iterable[Iterable[Any]]) -> None:
        for row in rows:
            self.writerow(row)


def write_csv(out: TextIO, header: Sequence[str], rows: Iterable[Iterable[Any]]) -> int:
    """Write ``header`` then ``rows`` to ``out``; return how many rows."""
    writer = CsvWriter(out)
    writer.writerow(header)
    count = 0
    for row in rows:
        writer.writerow(row)
        count += 1
    return count


def open_private(path: Path, *, overwrite: bool = False) -> TextIO:
    """``path`` opened for writing text, created 0600.

    Without ``overwrite`` an existing file is never replaced (FileExistsError); with it, the
    file is emptied and made 0600 too.
    """
    flags = os.O_WRONLY | os.O_CREAT | getattr(os, "O_CLOEXEC", 0)
    flags |= os.O_TRUNC if overwrite else os.O_EXCL
    fd = os.open(path, flags, PRIVATE_FILE_MODE)
    try:
        if overwrite and os.name != "nt":
            os.fchmod(fd, PRIVATE_FILE_MODE)
        return os.fdopen(fd, "w", encoding="utf-8", newline="")
    except BaseException:
        os.close(fd)
        raise


def write_csv_file(
    path: Path,
    header: Sequence[str],
    rows: Iterable[Iterable[Any]],
    *,
    overwrite: bool = False,
) -> int:
    """Write a CSV file (see :func:`open_private`); return how many rows."""
    with open_private(path, overwrite=overwrite) as out:
        return write_csv(out, header, rows)
