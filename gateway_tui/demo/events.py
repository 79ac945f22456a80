"""The demo's socket.io server: the events a real 1.7.1 emits, on the same namespaces.

As recorded (../shared/recordings/v1.7.1-more/events-*.json): events go to the instance's own
namespace ``/<instance>`` only (the default namespace accepts connections and gets nothing),
no handshake auth, event names lower-case and dotted, the payload
``{event, instance, data, server_url, date_time, apikey}`` with the instance's own key in
``apikey``. A real server emits only while the instance's websocket is enabled with the event;
the demo emits unless the instance's websocket was set disabled. Difference: a real server's
namespace exists only once it has emitted to it ("Invalid namespace" until then); the demo's
accept connections at once.

``Incoming`` (``demo-server --incoming-every SECONDS``) makes a contact write to each open
instance's most recent chat with a person every SECONDS: "incoming <n>".
"""

from __future__ import annotations

import asyncio
import threading
import time
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import socketio

from gateway_tui.demo import chats as chat_store
from gateway_tui.demo.data import CONTACT_NAMES, Message, number_of

if TYPE_CHECKING:
    from gateway_tui.demo.data import DemoState, Instance


class DemoEvents:
    """A socket.io server in front of the demo's HTTP routes (one ASGI app)."""

    def __init__(self, state_of: Any) -> None:
        self.sio = socketio.AsyncServer(
            async_mode="asgi", namespaces="*", cors_allowed_origins="*", logger=False
        )
        self._state_of = state_of  # a function: the demo's current state (reset replaces it)
        self.loop: asyncio.AbstractEventLoop | None = None
        self.emitted = 0

    def asgi(self, other: Any) -> Any:
        app = socketio.ASGIApp(self.sio, other_asgi_app=other)

        async def capture(scope: dict[str, Any], receive: Any, send: Any) -> None:
            if self.loop is None:
                self.loop = asyncio.get_running_loop()
            await app(scope, receive, send)

        return capture

    def _enabled(self, instance: Instance) -> bool:
        from gateway_tui.demo.lifecycle import of

        stored = of(self._state_of()).websockets.get(instance.name)
        return stored is None or stored.get("enabled") is not False

    def emit(self, instance: Instance, event: str, data: Any) -> None:
        """Emit from any thread; nothing when the server is not running yet."""
        loop = self.loop
        if loop is None or not self._enabled(instance):
            return
        payload = {
            "event": event,
            "instance": instance.name,
            "data": data,
            "server_url": self._state_of().server_url,
            "date_time": datetime.now(UTC)
            .isoformat(timespec="milliseconds")
            .replace("+00:00", "Z"),
            "apikey": instance.apikey,
        }
        self.emitted += 1
        coroutine = self.sio.emit(event, payload, namespace=f"/{instance.name}")
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            loop.create_task(coroutine)
        else:
            asyncio.run_coroutine_threadsafe(coroutine, loop)

    def message_upsert(self, instance: Instance, message: Message) -> None:
        self.emit(instance, "messages.upsert", chat_store.message_json(instance, message))


class Incoming:
    """A contact writes to each open instance's most recent chat every ``seconds``."""

    def __init__(self, events: DemoEvents, state_of: Any, seconds: float) -> None:
        self.events = events
        self.state_of = state_of
        self.seconds = seconds
        self.count = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="demo-incoming", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()

    def _run(self) -> None:
        while not self._stop.wait(self.seconds):
            loop = self.events.loop
            if loop is None:
                continue
            # The state belongs to the server's loop: the messages are added there.
            asyncio.run_coroutine_threadsafe(self._write(), loop)

    async def _write(self) -> None:
        state: DemoState = self.state_of()
        for instance in list(state.instances.values()):
            people = [c for c in instance.chats.values() if not c.jid.endswith("@g.us")]
            if instance.status != "open" or not people:
                continue
            chat = max(people, key=lambda c: c.messages[-1].timestamp if c.messages else 0)
            self.count += 1
            message = Message(
                key={"remoteJid": chat.jid, "fromMe": False, "id": state.new_message_id()},
                text=f"incoming {self.count}",
                timestamp=max(
                    int(time.time()), chat.messages[-1].timestamp if chat.messages else 0
                ),
                push_name=CONTACT_NAMES.get(number_of(chat.jid), ""),
            )
            chat.messages.append(message)
            self.events.message_upsert(instance, message)
