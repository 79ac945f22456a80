"""Recorded answers of real gateways replayed through an httpx MockTransport, for the fleet's
tests: a route table of (method, path) → recording (or a made-up answer derived from one), and
every request counted."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from typing import Any

import httpx

from tests.recorded.gateway import Recording, load_folder

Answer = Recording | httpx.Response | Callable[[httpx.Request], httpx.Response]


def recording(folder: str, name: str) -> Recording:
    """The recording of ``folder`` whose name is ``name`` (``fetchInstances-all``)."""
    return next(r for r in load_folder(folder) if r.name == name)


def replayed(rec: Recording) -> httpx.Response:
    return httpx.Response(
        rec.status,
        content=rec.response_bytes(),
        headers={"content-type": rec.content_type or "application/json"},
    )


def json_answer(status: int, body: Any) -> httpx.Response:
    return httpx.Response(
        status, content=json.dumps(body).encode(), headers={"content-type": "application/json"}
    )


class Replay:
    """A MockTransport answering ``routes``; anything else is a 404 "Cannot GET" as a real
    server's. ``calls`` counts (method, path); ``requests`` keeps them all."""

    def __init__(self, routes: dict[tuple[str, str], Answer], *, default: Answer | None = None):
        self.routes = dict(routes)
        self.default = default
        self.calls: Counter[tuple[str, str]] = Counter()
        self.requests: list[httpx.Request] = []
        self.transport = httpx.MockTransport(self._handle)

    def _handle(self, request: httpx.Request) -> httpx.Response:
        key = (request.method, request.url.path)
        self.calls[key] += 1
        self.requests.append(request)
        answer = self.routes.get(key, self.default)
        if answer is None:
            return json_answer(
                404,
                {
                    "status": 404,
                    "error": "Not Found",
                    "response": {"message": [f"Cannot {key[0]} {key[1]}"]},
                },
            )
        if isinstance(answer, Recording):
            return replayed(answer)
        if isinstance(answer, httpx.Response):
            return httpx.Response(
                answer.status_code, content=answer.content, headers=answer.headers
            )
        return answer(request)
