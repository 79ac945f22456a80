"""Webhook delivery: what the demo emits also goes, as a POST, to the URL an instance's webhook
is set to — as a real server sends it (read in its source, both lines).

- Only while the webhook is enabled, only for the events ticked in it (``MESSAGES_UPSERT`` for
  ``messages.upsert``), only to an ``http(s)://`` URL.
- With ``webhook_by_events`` (1.7.1) / ``byEvents`` (2.x) on, to ``<url>/<event-in-kebab>``
  (``messages.upsert`` → ``<url>/messages-upsert``), else to the URL itself.
- The body: ``{event, instance, data, destination, date_time, sender, server_url, apikey}``
  (``destination`` the webhook's URL, ``sender`` the instance's own JID), plus what an event
  carries at its top level (2.3.7's ``messages.set``: ``isLatest``, ``progress``).
- 2.3.7 and later add the headers ``X-Instance-ID``, ``X-Instance-Name``, ``X-Event-Type`` (the
  event as in the body) and ``X-Timestamp`` (Unix seconds).

Never in the way: each POST runs as a task on the server's loop with a time limit
(``timeout``); at most ``MAX_PENDING`` wait at once (more are counted in ``dropped``); a
receiver that is slow, down or answers an error changes nothing but ``log``. The real server
retries a failed POST; the demo does not.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import httpx

if TYPE_CHECKING:
    from gateway_tui.demo.data import DemoState, Instance

MAX_PENDING = 500
_HTTP_URL = re.compile(r"^https?://", re.IGNORECASE)


@dataclass(frozen=True)
class Delivery:
    """One POST made (or tried): where, which event, and the status (None: no answer)."""

    url: str
    event: str
    status: int | None
    error: str | None = None


def event_constant(event: str) -> str:
    """``messages.upsert`` → ``MESSAGES_UPSERT`` (the name a webhook's ``events`` list uses)."""
    return re.sub(r"[.-]", "_", event).upper()


def event_path(event: str) -> str:
    """``messages.upsert`` → ``messages-upsert`` (the per-event URL's last segment)."""
    return event_constant(event).replace("_", "-").lower()


def target(stored: dict[str, Any] | None, event: str) -> str | None:
    """Where a webhook setting sends ``event``: its URL (per event when asked), or None."""
    if not stored or stored.get("enabled") is not True:
        return None
    url = stored.get("url")
    if not isinstance(url, str) or not _HTTP_URL.match(url):
        return None
    if event_constant(event) not in (stored.get("events") or ()):
        return None
    by_events = stored.get("webhookByEvents", stored.get("webhook_by_events")) is True
    return f"{url.rstrip('/')}/{event_path(event)}" if by_events else url


class WebhookSender:
    """Posts events to the instances' webhooks from the server's loop."""

    def __init__(self, timeout: float = 5.0) -> None:
        self.timeout = timeout
        self.log: deque[Delivery] = deque(maxlen=10_000)
        self.dropped = 0
        self._pending: set[asyncio.Task[None]] = set()
        self._client: httpx.AsyncClient | None = None

    def send(
        self,
        loop: asyncio.AbstractEventLoop,
        state: DemoState,
        instance: Instance,
        envelope: dict[str, Any],
    ) -> None:
        """Post ``envelope`` (the socket.io payload) where this instance's webhook says,
        without waiting: from any thread."""
        from gateway_tui.demo.lifecycle import of
        from gateway_tui.demo.versions import at_least

        stored = of(state).webhooks.get(instance.name)
        url = target(stored, envelope["event"])
        if url is None:
            return
        body = {
            "event": envelope["event"],
            "instance": instance.name,
            "data": envelope["data"],
            "destination": stored["url"],
            "date_time": envelope["date_time"],
            "sender": instance.owner if instance.owner_number else None,
            "server_url": envelope["server_url"],
            "apikey": envelope["apikey"],
        }
        body |= {k: v for k, v in envelope.items() if k not in body}
        headers = {}
        if at_least(state, "2.3.7"):
            headers = {
                "X-Instance-ID": instance.instance_id,
                "X-Instance-Name": instance.name,
                "X-Event-Type": envelope["event"],
                "X-Timestamp": str(int(time.time())),
            }
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            self._start(url, body, headers)
        else:
            loop.call_soon_threadsafe(self._start, url, body, headers)

    def _start(self, url: str, body: dict[str, Any], headers: dict[str, str]) -> None:
        if len(self._pending) >= MAX_PENDING:
            self.dropped += 1
            return
        task = asyncio.get_running_loop().create_task(self._post(url, body, headers))
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def _post(self, url: str, body: dict[str, Any], headers: dict[str, str]) -> None:
        if self._client is None:
            self._client = httpx.AsyncClient(timeout=self.timeout, trust_env=False)
        try:
            response = await self._client.post(url, json=body, headers=headers)
        except httpx.HTTPError as exc:
            self.log.append(Delivery(url, body["event"], None, type(exc).__name__))
            return
        self.log.append(Delivery(url, body["event"], response.status_code))

    async def close(self) -> None:
        """Cancel the POSTs still waiting and close the connections (the server stops)."""
        for task in list(self._pending):
            task.cancel()
        if self._client is not None:
            await self._client.aclose()
            self._client = None

    @property
    def pending(self) -> int:
        return len(self._pending)
