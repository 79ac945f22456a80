"""Type-ahead: a key typed while the app is still acting on the last one goes where it was aimed.

Textual hands each key to the focused widget at once, while the effect of the key before it (a
binding that adds a row and focuses it, ``tab``, ``enter`` opening a screen) is still travelling
through the widgets' message queues. A fast typist's next letter then lands in the old field, or
on a screen that is about to be covered. So the app treats every key that is not plain text into
a text field as a step: keys that arrive after it wait (in order) until its effect has settled —
every queue it could have gone through is empty — and until a screen being opened has mounted
and focused its first field. Then they are delivered one by one, each waiting again if it starts
another step. Plain typing into a field takes the fast path: nothing waits for it.

No key is ever dropped: if a step cannot settle (a widget was removed mid-way), a safety release
delivers the held keys after ``SAFETY_RELEASE_SECONDS``.
"""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from textual import events

from gateway_tui.tui.textual_private import parent_of, queue_busy

if TYPE_CHECKING:
    from textual.app import App
    from textual.message_pump import MessagePump
    from textual.timer import Timer

SAFETY_RELEASE_SECONDS = 5.0
# How often one queue is waited on before the step moves on regardless (a queue that never
# empties: someone typing without pause into it).
MAX_WAITS_PER_QUEUE = 50
MAX_ROUNDS = 20
_TEXT_FIELDS = frozenset({"Input", "TextArea"})


def types_text(widget: object | None) -> bool:
    """Whether ``widget`` takes printable keys as text (an Input, a TextArea)."""
    return widget is not None and any(c.__name__ in _TEXT_FIELDS for c in type(widget).__mro__)


def _busy(node: MessagePump) -> bool:
    """Whether ``node`` has messages (keys, their effects) still waiting in its queue."""
    return queue_busy(node)


class TypeAhead:
    """The app's key gate. ``App.on_event`` asks ``admit`` about every key from the terminal."""

    def __init__(self, app: App, deliver: Callable[[events.Key], Awaitable[None]]) -> None:
        self._app = app
        self._deliver = deliver  # hands a key to Textual as if it had just arrived
        self._holds: dict[int, Timer | None] = {}
        self._held: deque[events.Key] = deque()
        self._tokens = itertools.count(1)
        self._delivering = False
        self._waited: set[int] = set()  # steps that already waited for the keys before them

    @property
    def holding(self) -> bool:
        return bool(self._holds)

    @property
    def held(self) -> int:
        return len(self._held)

    def hold(self, *, safety: bool = True) -> int:
        """Keys wait from now until ``release(token)`` (or the safety release, if ``safety``)."""
        token = next(self._tokens)
        self._holds[token] = (
            self._app.set_timer(SAFETY_RELEASE_SECONDS, lambda: self._release_soon(token))
            if safety
            else None
        )
        return token

    def _release_soon(self, token: int) -> None:
        if token in self._holds:
            self._app.call_later(self.release, token)

    async def release(self, token: int) -> None:
        timer = self._holds.pop(token, None)
        if timer is not None:
            timer.stop()
        if self._delivering:
            return  # the loop below goes on once this step's key has been handed over
        self._delivering = True
        try:
            while self._held and not self._holds:
                await self._step(self._held.popleft())
        finally:
            self._delivering = False

    async def admit(self, event: events.Key) -> bool:
        """Handle a key from the terminal; False when the caller should deliver it as usual."""
        if self._holds or self._held:
            self._held.append(event)
            return True
        await self._step(event)
        return True

    async def _step(self, event: events.Key) -> None:
        target = self._app.focused or self._app.screen
        if event.is_printable and types_text(self._app.focused):
            await self._deliver(event)  # plain typing: nothing to wait for
            return
        if id(event) not in self._waited and _busy(target):
            # Letters typed just before are still in the field's queue: a step waits for them
            # (a priority binding such as ctrl+s would otherwise read the form without them).
            self._waited.add(id(event))
            self._held.appendleft(event)
            self.settle(target, self.hold())
            return
        self._waited.discard(id(event))
        token = self.hold()
        await self._deliver(event)
        self.settle(target, token)

    def settle(self, node: MessagePump, token: int) -> None:
        """Release ``token`` once ``node`` and every node above it have emptied their queues.

        Each hop is queued behind what the node already holds (the key, the messages it
        posted), so by the time it reaches the app the key's effects have been handled. A
        binding runs only once the key has bubbled up to the app, and what it posts goes to the
        queues below again: so the walk starts over until it finds the whole way up quiet.
        """
        chain = [node, *node.ancestors] if hasattr(node, "ancestors") else [node]
        waits = rounds = 0

        def hop(here: MessagePump) -> None:
            nonlocal waits, rounds
            if _busy(here) and waits < MAX_WAITS_PER_QUEUE:
                waits += 1
                if here.call_later(hop, here):
                    return
            waits = 0
            parent = parent_of(here) if here is not self._app else None
            while parent is not None:
                if parent.call_later(hop, parent):
                    return
                parent = parent_of(parent)  # closed (removed): go on from its parent
            rounds += 1
            if rounds < MAX_ROUNDS and any(_busy(n) for n in chain) and node.call_later(hop, node):
                return
            self._app.call_later(self.release, token)

        if not node.call_later(hop, node):
            self._app.call_later(self.release, token)

    def hold_for_screen(self, screen: MessagePump) -> None:
        """Keys wait while a screen opens (or is uncovered) until it has focused its field."""
        self.settle(screen, self.hold())
