"""Instances in trouble, as operators meet them on real gateways (the fleet view's cases).

- A **zombie** (``DemoServer(zombie=["name"])``, ``demo-server --zombie NAME``): listed ``open``
  by fetchInstances (the database row) while its session is closed: ``connectionState`` and
  ``/metrics`` say ``close``, and every call that needs the session fails with "Connection
  Closed", as the recorded instance whose socket keeps failing does (v2.3.7/952-962,
  v2.3.7-more/153-161, v1.7.1-more/144-149).
- A **flapping** instance (``flapping=["name"]``, ``--flapping NAME``): goes open → close →
  connecting → open … every ``flap_seconds``, each step announced (connection.update) and, on
  2.x, its disconnection (428, "Connection Closed") kept on its fetchInstances row.
"""

from __future__ import annotations

import asyncio
import threading
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gateway_tui.demo.data import DemoState, Instance

CYCLE = ("open", "close", "connecting")
CONNECTION_CLOSED = "Error: Connection Closed"
# WhatsApp's own reason code for a connection that closed (Baileys' DisconnectReason).
CONNECTION_CLOSED_CODE = 428


def session_state(instance: Instance) -> str:
    """The state the instance's session is in: what connectionState and /metrics answer."""
    return "close" if instance.zombie else instance.status


def ensure(state: DemoState, name: str, *, zombie: bool = False, flapping: bool = False) -> None:
    """Make instance ``name`` (created open when the seed has no such instance) a zombie or a
    flapping one."""
    from gateway_tui.demo.data import new_instance

    instance = state.instances.get(name)
    if instance is None:
        instance = new_instance(state.rng, name, "open")
        state.instances[name] = instance
    instance.status = "open"
    instance.zombie = zombie or instance.zombie
    instance.flapping = flapping or instance.flapping


def disconnect(instance: Instance, code: int, message: str) -> None:
    """Remember a disconnection as 2.x keeps it on the instance's row."""
    instance.disconnection = {
        "code": code,
        "at": time.time(),
        "object": {
            "error": {
                "data": None,
                "isBoom": True,
                "isServer": False,
                "output": {
                    "statusCode": code,
                    "payload": {
                        "statusCode": code,
                        "error": "Precondition Required",
                        "message": message,
                    },
                    "headers": {},
                },
            },
            "date": time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime()),
        },
    }


def step(state: DemoState) -> list[Instance]:
    """Move every flapping instance one step along the cycle; the ones moved."""
    moved = []
    for instance in list(state.instances.values()):
        if not instance.flapping:
            continue
        index = CYCLE.index(instance.status) if instance.status in CYCLE else 0
        instance.status = CYCLE[(index + 1) % len(CYCLE)]
        reason = 200
        if instance.status == "close":
            reason = CONNECTION_CLOSED_CODE
            disconnect(instance, reason, "Connection Closed")
        moved.append(instance)
        if state.events is not None:
            data = {"instance": instance.name, "state": instance.status, "statusReason": reason}
            state.events.emit(instance, "connection.update", data)
    return moved


class Flapper:
    """Steps the flapping instances every ``seconds`` (on the server's loop once it runs)."""

    def __init__(self, state_of: Any, loop_of: Any, seconds: float) -> None:
        self.state_of = state_of
        self.loop_of = loop_of
        self.seconds = seconds
        self.steps = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="demo-flapping", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()

    def _run(self) -> None:
        while not self._stop.wait(self.seconds):
            loop = self.loop_of()
            if loop is None:
                self._step()  # nobody has asked anything yet: no request runs meanwhile
            else:
                asyncio.run_coroutine_threadsafe(self._on_loop(), loop)

    async def _on_loop(self) -> None:
        self._step()

    def _step(self) -> None:
        if step(self.state_of()):
            self.steps += 1
