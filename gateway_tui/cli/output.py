"""What the command line writes: every line passes the display boundary (sanitize.py), whether
stdout is a terminal, a pipe or a file, and a closed stdout ends the command quietly.

- tables: each cell printable on one line (a newline in a name never forges a row);
- CSV: the one CSV writer (export.py): formulas defused, controls cleaned;
- JSON: C1, bidi controls and lone surrogates escaped (``\\u009b``), which JSON readers undo;
- messages on stderr: printable, known secrets masked.

``head -1`` closing the pipe is how a reader says "enough": :class:`StdoutClosed` carries that to
the top, where :func:`quiet_exit_on_closed_stdout` ends the command as Unix tools do (status 141,
no traceback), after pointing stdout at /dev/null so Python's own flush at exit cannot complain.
Colour: only on a terminal, only in tables for people (an instance's state) and the
"error:"/"warning:" prefixes, never in JSON or CSV; never when ``NO_COLOR`` is set (no-color.org)
or ``TERM=dumb``; ``--color always|never`` overrides (:func:`set_color`). Every coloured cell
also says its state in words: colour is never the only sign.
No Textual here.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from gateway_tui.core.text.i18n import N_, _
from gateway_tui.core.text.sanitize import field, json_text, line

# 128 + SIGPIPE: what a shell reports for a writer whose reader went away.
EXIT_PIPE_CLOSED = 141

COLOR_CHOICES = ("auto", "always", "never")
_color_mode = "auto"

# SGR colours of the states a table names (the word is printed too).
_STATE_COLORS = {
    "open": "32",  # green
    "connecting": "33",  # yellow
    "close": "31",  # red
    "closed": "31",
    "refused": "31",
    "failed": "31",
    "unknown": "33",
    "error:": "1;31",
    "warning:": "33",
}


# The word before a message on stderr, in the run's language (its colour goes by the English
# word: _STATE_COLORS).
_KIND_WORDS = {
    "error:": N_("error:"),
    "warning:": N_("warning:"),
    "alert:": N_("alert:"),
}

# A table's headers for people, in the run's language; the English header is the column's
# name in capitals, as before. JSON keys and CSV columns stay the column names (programs read
# them). A column not listed here is shown as its name in capitals.
HEADERS = {
    "name": N_("NAME"),
    "status": N_("STATUS"),
    "owner": N_("OWNER"),
    "number": N_("NUMBER"),
    "profile_name": N_("PROFILE_NAME"),
    "integration": N_("INTEGRATION"),
    "id": N_("ID"),
    "jid": N_("JID"),
    "last_at": N_("LAST_AT"),
    "from_me": N_("FROM_ME"),
    "archived": N_("ARCHIVED"),
    "in_gateway": N_("IN_GATEWAY"),
    "sent_here": N_("SENT_HERE"),
    "last_message": N_("LAST_MESSAGE"),
    "messages": N_("MESSAGES"),
    "last_status": N_("LAST_STATUS"),
    "instance": N_("INSTANCE"),
    "created": N_("CREATED"),
    "sent": N_("SENT"),
    "failed": N_("FAILED"),
    "unknown": N_("UNKNOWN"),
    "skipped": N_("SKIPPED"),
    "pending": N_("PENDING"),
    "running": N_("RUNNING"),
    "problem": N_("PROBLEM"),
    "colour": N_("COLOUR"),
    "hex": N_("HEX"),
    "lid": N_("LID"),
    "shown_as": N_("SHOWN_AS"),
    "subject": N_("SUBJECT"),
    "size": N_("SIZE"),
    "role": N_("ROLE"),
    "done": N_("DONE"),
    "result": N_("RESULT"),
    "promoted": N_("PROMOTED"),
    "field": N_("FIELD"),
    "value": N_("VALUE"),
    "setting": N_("SETTING"),
    "source": N_("SOURCE"),
}


# A yes/no cell in a table for people (JSON keeps true/false, CSV True/False).
_BOOLEANS = {True: N_("True"), False: N_("False")}


def cell(value: Any) -> str:
    """One cell of a table for people: a yes/no in the run's language, else the value."""
    return _(_BOOLEANS[value]) if isinstance(value, bool) else field(value)


def header(column: str) -> str:
    """``column``'s header in a table for people."""
    return _(HEADERS[column]) if column in HEADERS else column.upper()


def set_color(mode: str) -> None:
    """``--color``: "auto" (a terminal without NO_COLOR), "always" or "never"."""
    global _color_mode
    if mode not in COLOR_CHOICES:
        raise ValueError(_("--color is one of {choices}").format(choices=", ".join(COLOR_CHOICES)))
    _color_mode = mode


def color_on(out: TextIO | None = None) -> bool:
    """Whether to colour what goes to ``out`` (stdout by default)."""
    if _color_mode != "auto":
        return _color_mode == "always"
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    out = sys.stdout if out is None else out
    try:
        return out.isatty()
    except (AttributeError, ValueError):
        return False


def _paint(text: str, word: str, on: bool) -> str:
    """``text`` in the colour of ``word`` (a state), when colour is on and it has one."""
    code = _STATE_COLORS.get(word.strip().lower())
    return f"\x1b[{code}m{text}\x1b[0m" if on and code else text


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
    head, _space, kind = prefix.rstrip().rpartition(" ")
    if head:  # "gateway-tui: error: ": the kind in the run's language, in colour
        word = _(_KIND_WORDS[kind]) if kind in _KIND_WORDS else kind
        prefix = f"{head} {_paint(word, kind, color_on(sys.stderr))} "
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
        table = [[cell(row.get(column)) for column in columns] for row in rows]
        headers = [header(column) for column in columns]
        widths = [
            max([len(title)] + [len(cells[i]) for cells in table])
            for i, title in enumerate(headers)
        ]
        top = "  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True))
        write(top.rstrip() + "\n")
        painted = [i for i, column in enumerate(columns) if column in ("status", "state")]
        on = color_on()
        for cells in table:
            padded = [cell.ljust(width) for cell, width in zip(cells, widths, strict=True)]
            for i in painted:  # the padding stays outside the colour
                padded[i] = _paint(cells[i], cells[i], on) + padded[i][len(cells[i]) :]
            write("  ".join(padded).rstrip() + "\n")
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
