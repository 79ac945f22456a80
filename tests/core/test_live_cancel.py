"""A namespace being followed stops when asked, even when the socket.io library loses the
cancellation: Python 3.11's ``asyncio.wait_for`` drops one that comes as the wait it guards
ends, and python-socketio's ``connect`` waits for the namespace with it. The command line's
``events --count 1`` then printed its line and never ended (a busy machine, eight namespaces
connecting at exit: 2 runs in 12 hung)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import socketio

from gateway_tui.core import live
from tests.support import PROCESS_LIMIT


class SwallowingClient:
    """A socket.io client whose connect, cancelled while it waits, carries on and connects
    (what python-socketio does when 3.11's wait_for loses the cancellation)."""

    made: list[SwallowingClient] = []
    connecting: asyncio.Event

    def __init__(self, **_options: Any) -> None:
        self.handlers: dict[str, Any] = {}
        self.closed = False
        self.eio = self
        SwallowingClient.made.append(self)

    def on(self, event: str, handler: Any, namespace: str | None = None) -> None:
        self.handlers[event] = handler

    async def connect(self, *_args: Any, **_kwargs: Any) -> None:
        SwallowingClient.connecting.set()
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            pass  # lost on the way, as the library's wait_for loses it
        self.handlers["connect"]()

    async def disconnect(self, abort: bool = False) -> None:
        self.closed = True


@pytest.fixture
def swallowing(monkeypatch):
    SwallowingClient.made = []
    SwallowingClient.connecting = asyncio.Event()
    monkeypatch.setattr(socketio, "AsyncClient", SwallowingClient)
    return SwallowingClient.made


async def test_a_follow_cancelled_while_it_connects_ends_and_closes_its_socket(swallowing):
    ups: list[bool] = []
    follow = asyncio.create_task(
        live.follow_namespace(
            "http://127.0.0.1:9",
            {},
            "/sales-eu",
            on_event=lambda *_: None,
            on_up=ups.append,
            on_refused=lambda _why: None,
        )
    )
    await SwallowingClient.connecting.wait()
    follow.cancel()
    # A guard against the hang this test is about, not a deadline: it ends at once.
    done, _pending = await asyncio.wait({follow}, timeout=PROCESS_LIMIT)
    assert follow in done, "the follow went on after it was cancelled"
    assert follow.cancelled()
    assert swallowing[0].closed
    assert len(swallowing) == 1  # no new connection was tried after the stop
