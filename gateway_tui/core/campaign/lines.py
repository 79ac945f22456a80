"""The journal's lines as read back: each checked for the types it was written with, a torn last
line left out (and cut by the next runner), a huge line never held in memory."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from gateway_tui.core.campaign.model import Status
from gateway_tui.core.campaign.reasons import Reason
from gateway_tui.core.campaign.reasons import problem as reason_problem
from gateway_tui.core.text.i18n import _, number

_KINDS = ("head", "try", "done", "release", "stop")
_STATUS_VALUES = {status.value for status in Status}
_INDEX_IN_LINE = re.compile(rb'"i"\s*:\s*([0-9]{1,9})\s*[,}]')
_LATEST_TIME = 1e11  # a time past the year 5000 is not one this journal wrote


def _is_time(value: Any) -> bool:
    return (
        isinstance(value, int | float)
        and not isinstance(value, bool)
        and 0 <= value < _LATEST_TIME  # also refuses NaN
    )


def _event_problem(event: Any, count: int) -> str:
    """Why an event cannot be used ("" when it can): every field has the type it was written
    with (``"i": true`` is not recipient 1, ``"at": "x"`` not a time)."""
    if not isinstance(event, dict):
        return _("not an event")
    kind = event.get("e")
    if kind not in _KINDS:
        return _("unknown event {kind}").format(kind=repr(str(kind)[:20]))
    if "reason" in event and (why := reason_problem(event["reason"])):
        return _('"reason": {why}').format(why=why)
    if kind in ("head", "stop"):
        return "" if "at" not in event or _is_time(event["at"]) else _('"at" is not a time')
    index = event.get("i")
    if not isinstance(index, int) or isinstance(index, bool):
        return _('"i" is not a recipient number')
    if not 0 <= index < count:
        return _("recipient {index} is not in this campaign (it has {n})").format(
            index=index, n=number(count)
        )
    if not _is_time(event.get("at")):
        return _('"at" is not a time')
    if kind == "done" and event.get("s") not in _STATUS_VALUES:
        return _("unknown status {status}").format(status=repr(str(event.get("s"))[:20]))
    for key in ("id", "err", "mid"):
        if key in event and not isinstance(event[key], str):
            return _('"{key}" is not text').format(key=key)
    return ""


def _index_named(raw: bytes, event: Any, count: int) -> int | None:
    """The recipient an unusable line is about, when it says so unambiguously."""
    if isinstance(event, dict):
        index = event.get("i")
        if isinstance(index, int) and not isinstance(index, bool) and 0 <= index < count:
            return index
        if "i" in event:
            return None  # it names one, but not as a recipient number
    found = {int(match) for match in _INDEX_IN_LINE.findall(raw)}
    if len(found) == 1 and (index := found.pop()) < count:
        return index
    return None


# No line of ours comes near this (an error text is cut far shorter): a longer one is damage.
MAX_LINE = 1 << 20
MAX_PROBLEMS = 1000  # unreadable lines told one by one; the rest are counted


def _lines(path: Path, count: int) -> Iterator[tuple[int, dict[str, Any] | None, str, int | None]]:
    """(line number, event or None, why not, recipient named) of every line of the journal.

    A partial last line is left out: it was cut by a crash or a full disk, so it is a ``try``
    whose send never started, or an outcome (its ``try`` then reads as unknown). Raises
    OSError when the journal cannot be opened (FileNotFoundError when there is none).
    """
    with path.open("rb") as file:
        for line_no, (raw, whole) in enumerate(_raw_lines(file), start=1):
            if not raw.endswith(b"\n"):
                return
            if not whole:  # never one of ours: its start may still name a recipient
                problem = _("longer than {n} MiB").format(n=number(MAX_LINE // (1024 * 1024)))
                yield line_no, None, problem, _index_named(raw, None, count)
                continue
            if not raw.strip():
                continue
            try:
                event = json.loads(raw)
            except ValueError:  # also UnicodeDecodeError
                event, problem = None, _("not JSON")
            else:
                problem = _event_problem(event, count)
            if problem:
                yield line_no, None, problem, _index_named(raw, event, count)
            else:
                yield line_no, event, "", None


def _raw_lines(file: Any) -> Iterator[tuple[bytes, bool]]:
    """(line, whole) of every line, each read at most MAX_LINE bytes at a time: a journal of
    gigabytes without a newline (damage, or a file put there) never sits in memory. A longer
    line is skipped to its end and given as its first MAX_LINE bytes (``whole`` False) with
    its newline; a last line without one as it is."""
    while raw := file.readline(MAX_LINE):
        if raw.endswith(b"\n") or len(raw) < MAX_LINE:
            yield raw, True
            continue
        while rest := file.readline(MAX_LINE):
            if rest.endswith(b"\n"):
                yield raw + b"\n", False
                break
        else:
            yield raw, False  # no newline to its end: a torn last line
            return


def _cut_torn_line(path: Path) -> bytes:
    """Drop a partial last line, so the next event starts on a line of its own; return it."""
    try:
        file = path.open("r+b")
    except OSError:
        return b""  # none, or not a file: the replay says so
    with file:
        end = file.seek(0, os.SEEK_END)
        if end == 0:
            return b""
        file.seek(end - 1)
        if file.read(1) == b"\n":
            return b""
        # Read backwards to the last newline: the journal may be large, the torn line is short.
        position = end
        while position > 0:
            start = max(0, position - 4096)
            file.seek(start)
            newline = file.read(position - start).rfind(b"\n")
            if newline != -1:
                position = start + newline + 1
                break
            position = start
        file.seek(position)
        torn = file.read(end - position)
        file.truncate(position)
        file.flush()
        os.fsync(file.fileno())
        return torn


def reason_of(event: dict[str, Any]) -> Reason:
    """A ``done`` or ``stop`` line's reason: its code, or an old journal's sentence as is."""
    if "reason" in event:
        return Reason.from_json(event["reason"])
    return Reason(text=str(event.get("err") or event.get("why") or ""))
