"""A recorded gateway: real Evolution API answers replayed from ``../shared/recordings``.

Each recording is one real exchange (method, path, query, headers, request body, status,
response body) with a real server on loopback. Every folder of ``../shared/recordings`` counts;
what server answered is read from its recordings, never from the folder's name
(``folder_release``: the ``GET /`` answer's version, else an event stream's header).
``RecordedGateway`` answers a request with the recording of the same method and path whose
key, query and request body are closest, and a route it has no recording for with the real
servers' own 404 (``Cannot PUT /x``). Every exchange is logged with the recording that
answered, so a test can say which request shape reached which server ("a 1.7.1-shaped
sendList to a 2.x server: 400 requires "title"").

It runs as an httpx transport (``transport()``), so the client and the app use it unchanged.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import httpx

GLOBAL_KEY = "EVO-LOCAL-GLOBAL-KEY-0001"
EVO_B_TOKEN = "EVO-B-INSTANCE-KEY-0001"


def recordings_dir() -> Path:
    """``../shared/recordings`` beside the repository (override: ``GATEWAY_RECORDINGS``)."""
    override = os.environ.get("GATEWAY_RECORDINGS")
    if override:
        return Path(override)
    return Path(__file__).resolve().parents[3] / "shared" / "recordings"


@dataclass(frozen=True)
class Recording:
    """One recorded exchange. ``id`` names its folder and file: ``v2.3.6/025-sendList-…``."""

    folder: str
    file: str
    seq: int
    name: str
    note: str | None
    method: str
    path: str
    query: dict[str, str]
    request_headers: dict[str, str]
    request_body: Any
    status: int
    content_type: str
    body_is_json: bool
    response_body: Any
    url: str = ""

    @property
    def id(self) -> str:
        return f"{self.folder}/{self.file.removesuffix('.json')}"

    @property
    def stem(self) -> str:
        """The file's name without ``.json``: the same request has the same stem on every
        release of a line (2.3.7's folders replay 2.3.6's, same names)."""
        return self.file.removesuffix(".json")

    @property
    def release(self) -> str:
        """The release of the server that answered: ``1.7.1``, ``2.3.6``, ``2.4.0``…"""
        return folder_release(self.folder)

    @property
    def line(self) -> str:
        """The line: ``1`` or ``2`` (what the client's ``api_version`` pins)."""
        return self.release.split(".")[0]

    @property
    def server_env(self) -> dict[str, str]:
        """What the recorder said the server was started with (``PROMETHEUS_METRICS=true``…),
        from the note's "server started with A=B C=D"."""
        found = re.search(r"server started with ((?:[A-Z_]+=\S+\s*)+)", self.note or "")
        if not found:
            return {}
        return dict(pair.split("=", 1) for pair in found.group(1).split())

    @property
    def api_key(self) -> str | None:
        """The ``apikey`` header the request carried (None: it had none)."""
        for name, value in self.request_headers.items():
            if name.lower() == "apikey":
                return value
        return None

    @property
    def raw_body(self) -> bytes | None:
        """A request body that was not JSON (a malformed-JSON case), as sent."""
        if isinstance(self.request_body, str):
            return self.request_body.encode()
        return None

    @property
    def messages(self) -> Any:
        """The error's ``response.message`` (or the whole body when it has no envelope)."""
        body = self.response_body
        if isinstance(body, dict) and isinstance(body.get("response"), dict):
            return body["response"].get("message")
        if isinstance(body, dict) and body.get("isBoom") is True:  # a Baileys error, whole
            return body.get("output", {}).get("payload", {}).get("message")
        if isinstance(body, dict) and isinstance(body.get("code"), str):  # 2.4's licence
            return body.get("message")
        return body

    def response_bytes(self) -> bytes:
        if self.body_is_json:
            return json.dumps(self.response_body, ensure_ascii=False).encode()
        if self.response_body is None:
            return b""
        return str(self.response_body).encode()


def _read(folder: str, path: Path) -> Recording:
    data = json.loads(path.read_text(encoding="utf-8"))
    return Recording(
        folder=folder,
        file=path.name,
        seq=int(data.get("seq") or 0),
        name=data.get("name") or path.stem,
        note=data.get("note"),
        method=data["method"].upper(),
        path=data["path"],
        query={str(k): str(v) for k, v in (data.get("query") or {}).items()},
        request_headers=dict(data.get("request_headers") or {}),
        request_body=data.get("request_body"),
        status=int(data["status"]),
        content_type=data.get("response_content_type") or "",
        body_is_json=bool(data.get("response_body_is_json", True)),
        response_body=data.get("response_body"),
        url=data.get("url") or "",
    )


@cache
def load_folder(folder: str) -> tuple[Recording, ...]:
    """Every HTTP exchange of one folder (``v1.7.1``, ``v2.3.6-more``…), in file order."""
    base = recordings_dir() / folder
    return tuple(
        _read(folder, path)
        for path in sorted(base.glob("*.json"))
        if not path.name.startswith("events-")
    )


def folders() -> tuple[str, ...]:
    """Every folder of recordings (one with at least one exchange), in name order."""
    base = recordings_dir()
    if not base.is_dir():
        return ()
    return tuple(
        path.name
        for path in sorted(base.iterdir())
        if path.is_dir() and any(not p.name.startswith("events-") for p in path.glob("*.json"))
    )


_SERVER = re.compile(r"Evolution API (\d+\.\d+\.\d+)")


@cache
def folder_release(folder: str) -> str:
    """The release of a folder's server, as its recordings say: the version in its ``GET /``
    answer, else the ``server`` of an event stream's header (``Evolution API 2.3.6``)."""
    for rec in load_folder(folder):
        body = rec.response_body
        if rec.method == "GET" and rec.path == "/" and rec.status == 200:
            if isinstance(body, dict) and isinstance(body.get("version"), str):
                return body["version"]
    for path in sorted((recordings_dir() / folder).glob("events-*.json")):
        header = json.loads(path.read_text(encoding="utf-8")).get("header") or {}
        if found := _SERVER.search(str(header.get("server") or "")):
            return found.group(1)
    raise LookupError(f"{folder}: no recording says its release (a GET / or an event stream)")


@cache
def folder_licence(folder: str) -> str | None:
    """``inactive`` / ``active`` where the folder's server answered ``GET /license/status``."""
    for rec in load_folder(folder):
        if rec.path == "/license/status" and rec.status == 200:
            return (rec.response_body or {}).get("status")
    return None


def releases() -> tuple[str, ...]:
    """Every release recorded, oldest first."""
    found = {folder_release(folder) for folder in folders()}
    return tuple(sorted(found, key=lambda r: tuple(int(p) for p in r.split("."))))


def load(release: str) -> tuple[Recording, ...]:
    """Every HTTP exchange of one release: all its folders."""
    wanted = [folder for folder in folders() if folder_release(folder) == release]
    return tuple(r for folder in wanted for r in load_folder(folder))


def all_recordings() -> tuple[Recording, ...]:
    return tuple(r for folder in folders() for r in load_folder(folder))


# --- closeness: how alike two requests are --------------------------------------------------


def shape(value: Any, prefix: str = "") -> set[str]:
    """A JSON value's shape: every key path with its value's type (list items merged)."""
    if isinstance(value, dict):
        found = {f"{prefix}{{}}"}
        for key, item in value.items():
            found |= shape(item, f"{prefix}.{key}")
        return found
    if isinstance(value, list):
        found = {f"{prefix}[]"}
        for item in value:
            found |= shape(item, f"{prefix}[]")
        return found
    kind = "null" if value is None else type(value).__name__
    return {f"{prefix}:{'number' if kind in ('int', 'float') else kind}"}


def _leaves(value: Any, prefix: str = "") -> set[str]:
    if isinstance(value, dict):
        return {leaf for k, v in value.items() for leaf in _leaves(v, f"{prefix}.{k}")}
    if isinstance(value, list):
        return {leaf for i, v in enumerate(value) for leaf in _leaves(v, f"{prefix}[{i}]")}
    return {f"{prefix}={json.dumps(value)}"}


def _alike(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b) if a | b else 1.0


def closeness(
    recording: Recording, key: str | None, query: dict[str, str], body: Any, raw: bytes | None
) -> tuple[float, ...]:
    """Higher is closer: the same key first (it decides the status), then query and body."""
    same_key = 1.0 if recording.api_key == key else 0.0
    wanted = set(query.items())
    recorded = set(recording.query.items())
    query_score = _alike(wanted, recorded) + _alike(set(query), set(recording.query))
    if raw is not None or recording.raw_body is not None:
        body_score = 2.0 if raw == recording.raw_body else 0.0
    else:
        body_score = 2 * _alike(shape(body), shape(recording.request_body)) + _alike(
            _leaves(body), _leaves(recording.request_body)
        )
    return (same_key, query_score + body_score)


# --- the gateway -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Exchange:
    """One request the recorded gateway answered, and the recording that answered it."""

    method: str
    path: str
    query: dict[str, str]
    body: Any
    api_key: str | None
    recording: Recording | None
    status: int


def cannot(method: str, path: str, raw_query: str = "") -> dict[str, Any]:
    """A real (Express) server's answer to a route it does not have."""
    target = path + (f"?{raw_query}" if raw_query else "")
    return {
        "status": 404,
        "error": "Not Found",
        "response": {"message": [f"Cannot {method} {target}"]},
    }


@dataclass
class RecordedGateway:
    """Answers from ``recordings``; logs every exchange in ``log``."""

    recordings: tuple[Recording, ...]
    log: list[Exchange] = field(default_factory=list)

    @classmethod
    def of(cls, release: str, *, only: Iterable[str] | None = None) -> RecordedGateway:
        """A gateway of one release (``1.7.1``, ``2.3.6``…); ``only``: these file ids alone."""
        recordings = load(release)
        if only is not None:
            wanted = set(only)
            recordings = tuple(r for r in recordings if r.id in wanted or r.name in wanted)
        return cls(recordings)

    def choose(
        self, method: str, path: str, key: str | None, query: dict[str, str], body: Any, raw=None
    ) -> Recording | None:
        candidates = [r for r in self.recordings if r.method == method and r.path == path]
        if not candidates:
            return None
        return max(
            candidates,
            # Ties go to the earliest recording of the first folder: a fixed, readable choice.
            key=lambda r: (*closeness(r, key, query, body, raw), -self.recordings.index(r)),
        )

    def answer(self, request: httpx.Request) -> httpx.Response:
        path = unquote(request.url.path)
        query = {k: v for k, v in request.url.params.multi_items()}
        content = request.content
        raw: bytes | None = None
        body: Any = None
        if content:
            try:
                body = json.loads(content)
            except ValueError:
                raw = content
        key = request.headers.get("apikey")
        chosen = self.choose(request.method, path, key, query, body, raw)
        if chosen is None:
            raw_query = request.url.query.decode() if request.url.query else ""
            status, payload = 404, json.dumps(cannot(request.method, path, raw_query)).encode()
            content_type = "application/json; charset=utf-8"
        else:
            status, payload, content_type = (
                chosen.status,
                chosen.response_bytes(),
                chosen.content_type or "application/json; charset=utf-8",
            )
        self.log.append(Exchange(request.method, path, query, body, key, chosen, status))
        return httpx.Response(status, content=payload, headers={"content-type": content_type})

    def transport(self) -> httpx.MockTransport:
        return httpx.MockTransport(self.answer)

    def answered_by(self) -> list[str | None]:
        """The id of the recording that answered each request so far (None: a 404 of ours)."""
        return [e.recording.id if e.recording else None for e in self.log]
