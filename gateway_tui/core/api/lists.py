"""Reading the gateway's big lists: one bad item is skipped and counted, and a huge answer is
validated in small batches off the event loop, so the screen keeps drawing.

A JSON array is read as a whole by pydantic when it is small and every item is good (the fast
path). Otherwise it is split into items with the standard library's ``raw_decode`` (the text of
each item, in order) and the items are validated in batches: a batch that fails is validated item
by item, and the items that fail are skipped with the reason. A lone surrogate ("\\ud800") or a
wrong type in one instance then costs that instance, not the list.
"""

from __future__ import annotations

import asyncio
import codecs
import gc
import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Generic, TypeVar

from pydantic import TypeAdapter, ValidationError

from gateway_tui.core.text.i18n import _

T = TypeVar("T")
Item = TypeVar("Item")

# Answers larger than this are validated in a worker thread, in batches (a 10,000-instance answer
# of 1.7.1 is about 4.4 MB; the fast path reads it in tens of milliseconds). What counts is the
# number of items: a line whose items carry more bytes the reader skips passes its own limit.
OFF_LOOP_BYTES = 8 * 1024 * 1024
BATCH = 200
_PIECE = 1024 * 1024
_WHITESPACE = " \t\n\r"


class PartialList(list[T], Generic[T]):
    """The items that could be read, and why each of the others could not (in order), with
    what names each of those (``unreadable_names``: its own name where the raw item has one,
    else "row N")."""

    unreadable: list[str]
    unreadable_names: list[str]

    def __init__(
        self,
        items: Any = (),
        unreadable: list[str] | None = None,
        unreadable_names: list[str] | None = None,
    ) -> None:
        super().__init__(items)
        self.unreadable = unreadable or []
        self.unreadable_names = unreadable_names or []


def unreadable_of(value: object) -> list[str]:
    """The reasons items were skipped, for any list (empty for a plain one)."""
    return list(getattr(value, "unreadable", ()) or ())


def unreadable_names_of(value: object) -> list[str]:
    """What names each skipped item (its raw name, else "row N"), for any list."""
    return list(getattr(value, "unreadable_names", ()) or ())


def _raw_name(text: str, name_of: Callable[[Any], Any] | None) -> str | None:
    """The name a raw item gives itself, where it has one that is a string (server data:
    shown through the display boundary like any other)."""
    if name_of is None:
        return None
    try:
        name = name_of(json.loads(text))
    except (ValueError, TypeError, AttributeError, KeyError):
        return None
    return name if isinstance(name, str) and name.strip() else None


class ListReader(Generic[Item]):
    """Reads a JSON array of ``item`` into a PartialList, converting each with ``convert``."""

    def __init__(
        self,
        item: type[Item] | Any,
        convert: Callable[[Any], T] | None = None,
        *,
        off_loop_bytes: int | None = None,
        name_of: Callable[[Any], Any] | None = None,
    ) -> None:
        self._name_of = name_of  # a raw item's own name, to say which one was skipped
        self._many = TypeAdapter(list[item])
        self._one = TypeAdapter(item)
        self._convert = convert or (lambda value: value)
        self.off_loop_bytes = off_loop_bytes  # None: OFF_LOOP_BYTES

    def read(self, content: bytes) -> PartialList[Any]:
        """Fast path for a clean answer; item by item otherwise. Raises ValueError for a body
        that is not a JSON array at all."""
        try:
            items = self._many.validate_json(content)
        except ValidationError:
            return self._read_items(content)
        return PartialList(self._convert(item) for item in items)

    async def read_async(self, content: bytes) -> PartialList[Any]:
        """``read``, off the event loop in batches when ``content`` is big."""
        limit = OFF_LOOP_BYTES if self.off_loop_bytes is None else self.off_loop_bytes
        if len(content) <= limit:
            return self.read(content)
        with _collector_paused():
            result = await asyncio.to_thread(self._read_items, content)
            # Before the collector is back: a million new objects would otherwise be scanned by
            # the next collections, on the loop. They hold no cycles and are freed by reference
            # counting when the list is replaced.
            gc.freeze()
        return result

    def read_objects(self, items: list[Any]) -> PartialList[Any]:
        """Items already parsed by the standard library (a list inside an object), one by one.

        Each goes back through JSON, so what pydantic's reader refuses (a lone surrogate) is
        refused here too.
        """
        texts = [json.dumps(item) for item in items]
        result: PartialList[Any] = PartialList()
        self._validate_batch(texts, 0, result)
        return result

    def _read_items(self, content: bytes) -> PartialList[Any]:
        result: PartialList[Any] = PartialList()
        batch: list[str] = []
        position = 0
        for position, text in enumerate(item_texts(content)):
            batch.append(text)
            if len(batch) >= BATCH:
                self._validate_batch(batch, position - len(batch) + 1, result)
                batch = []
        if batch:
            self._validate_batch(batch, position - len(batch) + 1, result)
        return result

    def _validate_batch(self, texts: list[str], first: int, into: PartialList[Any]) -> None:
        try:
            items = self._many.validate_json("[" + ",".join(texts) + "]")
        except ValidationError:
            for offset, text in enumerate(texts):
                try:
                    item = self._one.validate_json(text)
                except ValidationError as error:
                    row = first + offset + 1
                    name = _raw_name(text, self._name_of)
                    label = _("row {n}").format(n=row) if name is None else name
                    if name is None:
                        shown = _("item {n}: {problem}")
                    else:
                        shown = _("item {n} ({name}): {problem}")
                    problem = _first_problem(error)
                    into.unreadable.append(shown.format(n=row, name=name, problem=problem))
                    into.unreadable_names.append(label)
                    continue
                into.append(self._convert(item))
            return
        into.extend(self._convert(item) for item in items)


_paused_reads = 0
_collector_was_enabled = True


@contextmanager
def _collector_paused() -> Iterator[None]:
    """No cyclic garbage collection while a big list is built: each full collection would scan
    every object made so far, holding the interpreter (and so the screen) for hundreds of ms."""
    global _paused_reads, _collector_was_enabled
    if _paused_reads == 0:
        _collector_was_enabled = gc.isenabled()
        gc.disable()
    _paused_reads += 1
    try:
        yield
    finally:
        _paused_reads -= 1
        if _paused_reads == 0 and _collector_was_enabled:
            gc.enable()


def _first_problem(error: ValidationError) -> str:
    detail = error.errors(include_url=False)[0]
    where = ".".join(str(part) for part in detail.get("loc", ()))
    message = str(detail.get("msg", "invalid"))
    if "hex escape" in message or "surrogate" in message:
        message = _("a text holds a broken character (a lone UTF-16 surrogate)")
    return f"{where}: {message}" if where else message


def item_texts(content: bytes) -> Iterator[str]:
    """The JSON text of each item of the array in ``content``, decoded a piece at a time.

    Raises ValueError when ``content`` is not a JSON array.
    """
    decoder = codecs.getincrementaldecoder("utf-8")()
    scan = json.JSONDecoder().raw_decode
    buffer, position, started = "", 0, False
    total = len(content)
    for start in range(0, max(total, 1), _PIECE):
        last = start + _PIECE >= total
        buffer = buffer[position:] + decoder.decode(content[start : start + _PIECE], final=last)
        position = 0
        if not started:
            position = _skip(buffer, position, _WHITESPACE)
            if position == len(buffer) and not last:
                continue
            if not buffer.startswith("[", position):
                raise ValueError(_("expected a JSON array"))
            position, started = position + 1, True
        while True:
            position = _skip(buffer, position, _WHITESPACE + ",")
            if position == len(buffer):
                break
            if buffer[position] == "]":
                return
            try:
                _start, end = scan(buffer, position)
            except json.JSONDecodeError:
                if last:
                    raise
                break  # the item continues in the next piece
            yield buffer[position:end]
            position = end
    raise ValueError(_("the JSON array is not closed"))


def _skip(text: str, position: int, characters: str) -> int:
    while position < len(text) and text[position] in characters:
        position += 1
    return position
