"""4. Client overhead: a GatewayClient call → model, against a bare httpx GET of the same URL.

All three clients talk to the same demo gateway (a process of its own) over kept-alive loopback
connections, one request at a time, interleaved (so drifting load hits all alike), after a
warm-up:

- GatewayClient: the app's call, from the method to the validated model (request id, call
  event, status check and pydantic validation included);
- httpx: one shared ``httpx.AsyncClient``, ``await client.get(url)`` and the body read;
- raw socket (the floor): a hand-written HTTP/1.1 request on a blocking socket and the body
  read by Content-Length.
"""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import Awaitable, Callable
from urllib.parse import urlsplit

import httpx

from bench.report import Figure, Report, Row, at_most_ratio, median, percentile

CALLS = 400
WARM_UP = 30


class RawClient:
    """HTTP/1.1 GETs on one kept-alive socket; just enough for the demo gateway's answers."""

    def __init__(self, url: str, api_key: str) -> None:
        parts = urlsplit(url)
        self._host = f"{parts.hostname}:{parts.port}"
        self._address = (parts.hostname, parts.port)
        self._key = api_key
        self._sock = socket.create_connection(self._address)
        self._sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._buffer = b""

    def get(self, path: str) -> bytes:
        request = (
            f"GET {path} HTTP/1.1\r\nHost: {self._host}\r\napikey: {self._key}\r\n"
            "accept: application/json\r\n\r\n"
        ).encode()
        self._sock.sendall(request)
        while b"\r\n\r\n" not in self._buffer:
            self._buffer += self._recv()
        head, self._buffer = self._buffer.split(b"\r\n\r\n", 1)
        length = 0
        for line in head.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        while len(self._buffer) < length:
            self._buffer += self._recv()
        body, self._buffer = self._buffer[:length], self._buffer[length:]
        return body

    def _recv(self) -> bytes:
        chunk = self._sock.recv(1 << 16)
        if not chunk:
            raise ConnectionError("the server closed the connection")
        return chunk

    def close(self) -> None:
        self._sock.close()


async def _measure(url: str, key: str, path: str, call_model: Callable) -> dict[str, list[float]]:
    from gateway_tui.core.api.client import GatewayClient

    raw = RawClient(url, key)
    samples: dict[str, list[float]] = {"gateway": [], "httpx": [], "raw": []}
    async with (
        GatewayClient(url, key) as gateway,
        httpx.AsyncClient(headers={"apikey": key, "accept": "application/json"}) as bare,
    ):
        full_url = url + path

        async def via_gateway() -> None:
            await call_model(gateway)

        async def via_httpx() -> None:
            response = await bare.get(full_url)
            response.raise_for_status()
            _ = response.content

        async def via_raw() -> None:
            raw.get(path)

        calls: dict[str, Callable[[], Awaitable[None]]] = {
            "gateway": via_gateway,
            "httpx": via_httpx,
            "raw": via_raw,
        }
        order = list(calls)
        for index in range(WARM_UP + CALLS):
            order = order[1:] + order[:1]  # rotate who goes first
            for name in order:
                started = time.perf_counter()
                await calls[name]()
                elapsed = (time.perf_counter() - started) * 1000
                if index >= WARM_UP:
                    samples[name].append(elapsed)
    raw.close()
    return samples


def run(report: Report, url: str, key: str) -> None:
    endpoints = [
        (
            "connectionState (small object)",
            "/instance/connectionState/sales-eu",
            lambda client: client.instances.connection_state("sales-eu"),
        ),
        (
            "fetchInstances (100 instances)",
            "/instance/fetchInstances",
            lambda client: client.instances.fetch(),
        ),
    ]
    section = f"4. Client overhead ({CALLS} calls each, loopback, kept-alive)"
    for name, path, call_model in endpoints:
        samples = asyncio.run(_measure(url, key, path, call_model))
        for label, summary in (("p50", median), ("p99", _p99)):
            gateway = Figure(
                f"{name}: GatewayClient → model, {label}", samples["gateway"], summary=summary
            )
            bare = Figure(f"bare httpx {label}", samples["httpx"], summary=summary)
            raw = Figure(f"raw socket {label}", samples["raw"], summary=summary)
            report.add(
                Row(
                    section,
                    gateway,
                    bare,
                    target="≤ 1.15× httpx" if label == "p50" else "",
                    check=at_most_ratio(1.15) if label == "p50" else None,
                )
            )
            bare_call = Figure(
                f"{name}: bare httpx GET, {label}", samples["httpx"], summary=summary
            )
            report.add(Row(section, bare_call, raw))


def _p99(values) -> float:
    return percentile(values, 0.99)
