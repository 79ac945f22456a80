"""What the command line writes: every line passes the display boundary (sanitize.py), whether
stdout is a terminal, a pipe or a file, and a closed stdout ends the command quietly.

- tables: each cell printable on one line (a newline in a name never forges a row);
- CSV: the one CSV writer (export.py): formulas defused, controls cleaned;
- JSON: C1, bidi controls and lone surrogates escaped (``\\u009b``), which JSON readers undo;
- messages on stderr: printable, known secrets masked.

``head -1`` closing the pipe is how a reader says "enough": :class:`StdoutClosed` carries that to
the top, where :func:`quiet_exit_on_closed_stdout` ends the command as Unix tools do (status 141,
no traceback), after pointing stdout at /dev/null so Python's own flush at exit cannot complain.
No Textual here.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from gateway_tui.core.text.sanitize import field, json_text, line

# 128 + SIGPIPE: what a shell reports for a writer whose reader went away.
EXIT_PIPE_CLOSED = 141


class StdoutClosed(Exception):
    """The reader of stdout went away (``| head -3``)."""


def write(text: str, out: TextIO | None = None, *, flush: bool = False) -> None:
    """Write ``text`` to stdout; raises StdoutClosed when nobody reads it any more."""
    out = sys.stdout if out is None else out
    try:
        out.write(text)
        if flush:
            out.flush()
    except BrokenPipeError:
        _stdout_to_devnull()
        raise StdoutClosed from None
    except ValueError:  # "I/O operation on closed file"
        if out.closed:
            raise StdoutClosed from None
        raise


def say(message: Any) -> None:
    """A line for people on stdout."""
    write(line(message) + "\n", flush=True)


def warn(message: Any, prefix: str = "gateway-tui: ") -> None:
    """A line on stderr: printable, no secret. A closed stderr is no reason to stop."""
    try:
        print(prefix + line(message), file=sys.stderr, flush=True)
    except (BrokenPipeError, ValueError):
        pass


def json_line(value: Any) -> None:
    """One JSON document on one line (send-list's progress)."""
    write(json_text(value) + "\n", flush=True)


def emit(
    rows: list[dict[str, Any]], columns: Sequence[str], *, as_json: bool, as_csv: bool
) -> None:
    """Rows as a JSON document, CSV with a header row, or a table for people."""
    if as_json:
        write(json_text(rows, indent=2) + "\n")
    elif as_csv:
        from gateway_tui.core.files.export import CsvWriter

        writer = CsvWriter(_Guarded())
        writer.writerow(columns)
        writer.writerows([row.get(column) for column in columns] for row in rows)
    else:
        table = [[field(row.get(column)) for column in columns] for row in rows]
        widths = [
            max([len(column)] + [len(cells[i]) for cells in table])
            for i, column in enumerate(columns)
        ]
        header = "  ".join(c.upper().ljust(w) for c, w in zip(columns, widths, strict=True))
        write(header.rstrip() + "\n")
        for cells in table:
            write("  ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)).rstrip() + "\n")
    flush()


def flush() -> None:
    write("", flush=True)


class _Guarded:
    """A file-like stdout for csv.writer whose writes raise StdoutClosed."""

    def write(self, text: str) -> int:
        write(text)
        return len(text)


def quiet_exit_on_closed_stdout() -> int:
    """After StdoutClosed (or a BrokenPipeError from elsewhere): stdout points at /dev/null;
    the status a shell gives a writer whose reader went away."""
    _stdout_to_devnull()
    return EXIT_PIPE_CLOSED


def _stdout_to_devnull() -> None:
    """Point stdout at /dev/null, as the Python docs advise for SIGPIPE: what is still buffered,
    and the interpreter's own flush at exit, then go nowhere instead of raising again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass
