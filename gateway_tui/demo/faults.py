"""Fault injection: make chosen requests fail the ways real networks and gateways fail.

Rules are added and cleared from the test thread while the server thread serves, so every
access to the rule list holds a lock. A rule applies to requests whose method and path
prefix match, ``times`` times (or forever) and with a ``probability`` drawn from a seeded RNG.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import threading
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

from gateway_tui.demo.errors import error_body

FAULT_KINDS = frozenset(
    {
        "status",
        "malformed_json",
        "html_error",
        "drop_connection",
        "drop_after_read",  # the request is handled, then the connection closes unanswered
        "stall",
        "unauthorized",
        "missing_route",  # a server without this (optional) endpoint, as Express answers it
    }
)

# A JSON document cut off mid-string, as a broken proxy or a killed worker would leave it.
TRUNCATED_JSON = b'{"instance": {"instanceName": "sales-eu", "status": "op'
# What drop_connection promises in Content-Length before closing the connection early.
_PROMISED_LENGTH = 4096


@dataclass
class FaultRule:
    kind: str
    method: str | None = None  # None: any method
    path_prefix: str = ""
    times: int | None = None  # applications left; None: unlimited
    probability: float = 1.0
    status: int = 500  # for "status" and "html_error"
    html: bool = False  # "status": send an HTML page instead of the JSON error body
    seconds: float = 30.0  # for "stall"
    hits: int = 0

    def matches(self, method: str, path: str) -> bool:
        return (
            (self.times is None or self.times > 0)
            and (self.method is None or self.method.upper() == method.upper())
            and path.startswith(self.path_prefix)
        )


class FaultInjector:
    def __init__(self, seed: int = 0) -> None:
        self._lock = threading.Lock()
        self._rules: list[FaultRule] = []
        self._seed = seed
        self._rng = random.Random(seed)

    def add(
        self,
        kind: str,
        *,
        method: str | None = None,
        path_prefix: str = "",
        times: int | None = None,
        probability: float = 1.0,
        status: int | None = None,
        html: bool = False,
        seconds: float = 30.0,
    ) -> FaultRule:
        """Add a rule; the returned rule's ``hits`` tells how often it fired."""
        if kind not in FAULT_KINDS:
            raise ValueError(f"unknown fault kind {kind!r}; expected one of {sorted(FAULT_KINDS)}")
        default_status = 502 if kind == "html_error" else 500
        rule = FaultRule(
            kind=kind,
            method=method,
            path_prefix=path_prefix,
            times=times,
            probability=probability,
            status=status or default_status,
            html=html or kind == "html_error",
            seconds=seconds,
        )
        with self._lock:
            self._rules.append(rule)
        return rule

    def clear(self) -> None:
        """Remove every rule and restart the RNG, so what follows is reproducible."""
        with self._lock:
            self._rules.clear()
            self._rng.seed(self._seed)

    @property
    def rules(self) -> list[FaultRule]:
        with self._lock:
            return list(self._rules)

    def pick(self, method: str, path: str) -> FaultRule | None:
        """The first matching rule that fires for this request (and count it as used)."""
        with self._lock:
            for rule in self._rules:
                if rule.matches(method, path) and self._rng.random() < rule.probability:
                    rule.hits += 1
                    if rule.times is not None:
                        rule.times -= 1
                    return rule
        return None


class ConnectionDropped(Exception):
    """Raised mid-response on purpose: uvicorn then closes the connection."""


class _HideDroppedConnections(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.exc_info and isinstance(record.exc_info[1], ConnectionDropped))


_hide_filter = _HideDroppedConnections()


def hide_dropped_connection_logs() -> None:
    """Keep uvicorn from logging a traceback for each deliberately dropped connection."""
    logger = logging.getLogger("uvicorn.error")
    if _hide_filter not in logger.filters:
        logger.addFilter(_hide_filter)


def _html_page(status: int) -> bytes:
    title = f"{status} {HTTPStatus(status).phrase}"
    return (
        f"<html><head><title>{title}</title></head><body><center><h1>{title}</h1></center>"
        "<hr><center>nginx</center></body></html>"
    ).encode()


def _json(payload: Any) -> bytes:
    return json.dumps(payload).encode()


def canned_response(rule: FaultRule, method: str, path: str) -> tuple[int, str, bytes]:
    """Status, content type and body of a fault that replaces the answer."""
    if rule.kind == "missing_route":
        return 404, "application/json", _json(error_body(404, [f"Cannot {method} {path}"]))
    if rule.kind in ("status", "html_error"):
        if rule.html:
            return rule.status, "text/html; charset=utf-8", _html_page(rule.status)
        body = error_body(rule.status, f"Injected fault: status {rule.status}")
        return rule.status, "application/json", _json(body)
    if rule.kind == "malformed_json":
        return 200, "application/json", TRUNCATED_JSON
    if rule.kind == "unauthorized":
        return 401, "application/json", _json(error_body(401, "Unauthorized"))
    raise ValueError(f"fault {rule.kind!r} has no canned response")


async def send_response(send: Any, status: int, content_type: str, body: bytes) -> None:
    headers = [
        (b"content-type", content_type.encode()),
        (b"content-length", str(len(body)).encode()),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def drop_connection(send: Any) -> None:
    """Start a response, send part of it, then make the server cut the connection."""
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(_PROMISED_LENGTH).encode()),
    ]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": TRUNCATED_JSON, "more_body": True})
    raise ConnectionDropped


def answer_dropper(send: Any) -> Any:
    """An ASGI ``send`` that cuts the connection where the answer would start."""

    async def dropping_send(message: Any) -> None:
        await drop_connection(send)

    return dropping_send


async def stall(seconds: float, closing: threading.Event) -> None:
    """Sleep, but wake early when the server is shutting down so stop() stays quick."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    # Polling, because ``closing`` is set from another thread (the one calling stop()).
    while not closing.is_set() and (remaining := deadline - loop.time()) > 0:  # noqa: ASYNC110
        await asyncio.sleep(min(remaining, 0.05))
