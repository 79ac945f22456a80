"""The demo's socket.io server: the events a real 1.7.1 emits, on the same namespaces.

As recorded (../shared/recordings/v1.7.1-more/events-*.json): events go to the instance's own
namespace ``/<instance>`` only (the default namespace accepts connections and gets nothing),
no handshake auth, event names lower-case and dotted, the payload
``{event, instance, data, server_url, date_time, apikey}`` with the instance's own key in
``apikey``. A real server emits only while the instance's websocket is enabled with the event;
the demo emits unless the instance's websocket was set disabled. A real server's namespace
exists only once it has emitted to it ("Invalid namespace" until then); the demo's accept
connections at once unless started with ``strict_namespaces``.

``Incoming`` (``demo-server --incoming-every SECONDS``) makes a contact write to each open
instance's most recent chat with a person every SECONDS: "incoming <n>". ``DemoEvents.flood``
emits a given number of events a second into one chat (delivery marks, its messages sent again,
connection updates, and now and then a new message): the benchmarks' and the flood test's load.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import socketio

from gateway_tui.demo import chats as chat_store
from gateway_tui.demo.data import CONTACT_NAMES, Chat, Message, number_of
from gateway_tui.demo.webhooks import WebhookSender

if TYPE_CHECKING:
    from gateway_tui.demo.data import DemoState, Instance


# Seconds between the batches of a history sync.
HISTORY_STEP_SECONDS = 0.2


class _Server(socketio.AsyncServer):
    """With ``strict``, a namespace exists only once something was emitted to it, as on a
    real server: connecting earlier gets ``Invalid namespace`` (node socket.io's words)."""

    strict = False

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.emitted_to: set[str] = set()
        self.refused = 0

    async def _handle_connect(self, eio_sid: Any, namespace: str | None, data: Any) -> None:
        namespace = namespace or "/"
        if self.strict and namespace != "/" and namespace not in self.emitted_to:
            self.refused += 1
            error = {"message": "Invalid namespace"}
            packet = self.packet_class(
                socketio.packet.CONNECT_ERROR, data=error, namespace=namespace
            )
            await self._send_packet(eio_sid, packet)
            return
        await super()._handle_connect(eio_sid, namespace, data)


class DemoEvents:
    """A socket.io server in front of the demo's HTTP routes (one ASGI app)."""

    def __init__(
        self,
        state_of: Any,
        strict_namespaces: bool = False,
        global_events: bool = False,
        webhook_timeout: float = 5.0,
    ) -> None:
        self.global_events = global_events
        self.sio = _Server(
            async_mode="asgi", namespaces="*", cors_allowed_origins="*", logger=False
        )
        self.sio.strict = strict_namespaces
        self._state_of = state_of  # a function: the demo's current state (reset replaces it)
        self.loop: asyncio.AbstractEventLoop | None = None
        self.emitted = 0
        self.webhooks = WebhookSender(webhook_timeout)

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

    def emit(
        self, instance: Instance, event: str, data: Any, extra: dict[str, Any] | None = None
    ) -> None:
        """Emit from any thread; nothing when the server is not running yet. On the instance's
        namespace while its websocket is enabled; with ``global_events`` (a 2.x started with
        WEBSOCKET_GLOBAL_EVENTS=true, recorded in v2.3.6-more/events-001) on ``/`` too,
        whatever the instance's own setting. To the instance's webhook too, where it is set
        for this event (demo/webhooks.py). ``extra``: fields at the payload's top level
        (2.3.7's ``messages.set``: ``isLatest``, ``progress``)."""
        loop = self.loop
        if loop is None:
            return
        state = self._state_of()
        namespaces = []
        if self._enabled(instance):
            namespaces.append(f"/{instance.name}")
        if self.global_events and state.api_version.startswith("2"):
            namespaces.append("/")
        payload = {
            "event": event,
            "instance": instance.name,
            "data": data,
            "server_url": state.server_url,
            "date_time": datetime.now(UTC)
            .isoformat(timespec="milliseconds")
            .replace("+00:00", "Z"),
            "apikey": instance.apikey,
            **(extra or {}),
        }
        self.webhooks.send(loop, state, instance, payload)
        if not namespaces:
            return
        self.emitted += 1
        self.sio.emitted_to.update(namespaces)
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        for namespace in namespaces:
            coroutine = self.sio.emit(event, payload, namespace=namespace)
            if running is loop:
                loop.create_task(coroutine)
            else:
                asyncio.run_coroutine_threadsafe(coroutine, loop)

    def history_sync(
        self, instance: Instance, *, batches: int = 4, stop_at: int | None = None
    ) -> int:
        """The history a phone sends after pairing, in ``batches`` spaced
        ``HISTORY_STEP_SECONDS`` apart (progress 25, 50, 75, 100 for 4): each batch a
        ``chats.set`` and a ``messages.set`` of its share of the chats; 2.3.7 adds ``isLatest``
        and ``progress`` at the payload's top level; 2.4 adds a ``messaging-history.set`` with
        the batch's ``messageCount``, ``chatCount``, ``contactCount``, ``progress`` and
        ``isLatest``. ``stop_at``: the sync stops early after the batch that reaches this
        percentage (no batch says isLatest). Returns the number of batches that will come."""
        loop = self.loop
        if loop is None:
            return 0
        chats = sorted(instance.chats.values(), key=lambda chat: chat.jid)
        size = max(1, -(-len(chats) // batches))
        sent = 0
        for index in range(batches):
            progress = round((index + 1) * 100 / batches)
            part = chats[index * size : (index + 1) * size]
            latest = index == batches - 1
            delay = index * HISTORY_STEP_SECONDS
            loop.call_soon_threadsafe(
                loop.call_later, delay, self._history_batch, instance, part, progress, latest
            )
            sent += 1
            if stop_at is not None and progress >= stop_at:
                break
        return sent

    def _history_batch(
        self, instance: Instance, chats: list[Any], progress: int, latest: bool
    ) -> None:
        from gateway_tui.demo.versions import at_least

        state = self._state_of()
        if instance.name not in state.instances:
            return
        messages = [message for chat in chats for message in chat.messages]
        if state.api_version.startswith("2"):
            from gateway_tui.demo.v2 import message_row

            chat_rows = [
                {"remoteJid": chat.jid, "instanceId": instance.instance_id, "name": None}
                for chat in chats
            ]
            rows = [message_row(instance, message) for message in messages]
        else:
            chat_rows = [{"id": chat.jid, "owner": instance.name} for chat in chats]
            rows = [chat_store.message_json(instance, message) for message in messages]
        self.emit(instance, "chats.set", chat_rows)
        extra = {"isLatest": latest, "progress": progress} if at_least(state, "2.3.7") else None
        self.emit(instance, "messages.set", rows, extra)
        if at_least(state, "2.4.0"):
            contacts = {chat.jid for chat in chats if not chat.jid.endswith("@g.us")}
            counts = {
                "messageCount": len(messages),
                "chatCount": len(chats),
                "contactCount": len(contacts),
                "progress": progress,
                "isLatest": latest,
            }
            self.emit(instance, "messaging-history.set", counts)

    def instance_created(self, instance: Instance) -> None:
        """2.x: ``instance.create`` with the instance's name and id (as recorded)."""
        ids = {"instanceName": instance.name, "instanceId": instance.instance_id}
        self.emit(instance, "instance.create", ids)

    def instance_deleted(self, instance: Instance, *, logged_out: bool) -> None:
        """2.x on a delete, as recorded: with ``logged_out`` first status.instance (closed,
        401 "Log out instance"), logout.instance and connection.update close 401; then
        instance.delete and remove.instance."""
        if logged_out:
            at = datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
            payload = {"statusCode": 401, "error": "Unauthorized"}
            payload["message"] = f"Log out instance: {instance.name}"
            error = {"data": None, "isBoom": True, "isServer": False}
            error["output"] = {"statusCode": 401, "payload": payload, "headers": {}}
            status = {"instance": instance.name, "status": "closed", "disconnectionAt": at}
            status["disconnectionReasonCode"] = 401
            status["disconnectionObject"] = json.dumps({"error": error, "date": at})
            self.emit(instance, "status.instance", status)
            self.emit(instance, "logout.instance", None)
            closed = {"instance": instance.name, "state": "close", "statusReason": 401}
            self.emit(instance, "connection.update", closed)
        ids = {"instanceName": instance.name, "instanceId": instance.instance_id}
        self.emit(instance, "instance.delete", ids)
        self.emit(instance, "remove.instance", None)

    def message_upsert(self, instance: Instance, message: Message) -> None:
        self.emit(instance, "messages.upsert", chat_store.message_json(instance, message))

    def write(
        self, instance: Instance, jid: str, text: str, timestamp: int | None = None
    ) -> Message:
        """A contact writes ``text`` into ``jid``'s chat: stored, then emitted (on the
        server's loop). ``timestamp``: the message's time (now, when not given)."""
        state: DemoState = self._state_of()
        chat = instance.chats[jid]
        if timestamp is None:
            timestamp = max(int(time.time()), chat.messages[-1].timestamp if chat.messages else 0)
        message = Message(
            key={"remoteJid": jid, "fromMe": False, "id": state.new_message_id()},
            text=text,
            timestamp=timestamp,
            push_name=CONTACT_NAMES.get(number_of(jid), ""),
        )
        chat.messages.append(message)
        self.message_upsert(instance, message)
        return message

    def mark(self, instance: Instance, message: Message, status: str) -> None:
        """A delivery mark (messages.update) in the line's shape: 1.7.1 sends the store's row
        (the key's fields, status, datetime, owner), 2.x names the id ``keyId``."""
        key = message.key
        if self._state_of().api_version.startswith("2"):
            data: dict[str, Any] = {"keyId": key["id"], "remoteJid": key["remoteJid"]}
            data.update(fromMe=key["fromMe"], status=status, instanceId=instance.instance_id)
        else:
            data = {**key, "status": status, "datetime": int(time.time() * 1000)}
            data["owner"] = instance.name
        self.emit(instance, "messages.update", data)

    def marks_after_send(self, instance: Instance, message: Message) -> None:
        """The delivery marks of a sent message, each when its status is reached
        (chats.STATUS_STEPS: what findStatusMessage answers at that time too)."""
        loop = self.loop
        if loop is None:
            return
        for at, status in chat_store.STATUS_STEPS[1:]:
            loop.call_soon_threadsafe(loop.call_later, at, self.mark, instance, message, status)

    async def flood(self, name: str, jid: str, rate: int, count: int) -> list[str]:
        """``count`` events at ``rate`` a second into ``jid``'s chat of instance ``name``, on the
        server's loop: per 100, 50 delivery marks on its last 50 messages, 40 of them sent
        again (messages.upsert of known ids), 9 connection updates and one new message (whose
        ids are returned, the last one last: when it shows, all came)."""
        state: DemoState = self._state_of()
        instance = state.instances[name]
        recent = instance.chats[jid].messages[-50:]
        written: list[str] = []
        tick = 0.01
        per_tick = max(1, round(rate * tick))
        began = time.monotonic()
        for number in range(count):
            step = number % 100
            if step == 99 or number == count - 1:
                written.append(self.write(instance, jid, f"flood {number}").key["id"])
            elif step < 50:
                status = ("DELIVERY_ACK", "READ")[(number // 100) % 2]
                self.mark(instance, recent[step % len(recent)], status)
            elif step < 90:
                self.message_upsert(instance, recent[step % len(recent)])
            else:
                data = {"instance": name, "state": "open", "statusReason": 200}
                self.emit(instance, "connection.update", data)
            if number % per_tick == per_tick - 1:
                await asyncio.sleep(max(0.0, began + (number + 1) / rate - time.monotonic()))
        return written

    async def flood_chats(self, name: str, rate: int, count: int, first: int = 0) -> int:
        """``count`` messages.upsert at ``rate`` a second, each from a new contact into a new
        chat of instance ``name`` (stored, as a history sync after pairing brings them): the
        chats numbered ``first`` on. Returns how many were emitted."""
        instance = self._state_of().instances[name]
        tick = 0.01
        per_tick = max(1, round(rate * tick))
        began = time.monotonic()
        for number in range(count):
            jid = f"{5519900000000 + first + number}@s.whatsapp.net"
            instance.chats.setdefault(jid, Chat(jid))
            self.write(instance, jid, f"flood chat {first + number}")
            if number % per_tick == per_tick - 1:
                await asyncio.sleep(max(0.0, began + (number + 1) / rate - time.monotonic()))
        return count


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
            self.events.write(instance, chat.jid, f"incoming {self.count}")
