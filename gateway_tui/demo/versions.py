"""The releases the demo speaks, and what tells them apart (as recorded, or read in the source).

- ``1.7.1``: demo/app.py.
- ``2.3.6``: demo/v2.py (the recordings ``v2.3.6*``).
- ``2.3.7``: 2.3.6 plus the three real differences of ``v2.3.7-vs-2.3.6.md``: ``GET /`` has
  ``manager``; right after a connect with WhatsApp out of reach ``connectionState`` says
  ``close`` (demo/lifecycle.py); findContacts filters on ``where.id`` (the contact row's id) and
  ``where.pushName`` (demo/v2.py).
- ``2.4.0``: 2.3.7 plus the licence (``/license/status``, ``/license/activate``). Not activated
  (``DemoServer(licence="inactive")``) it answers as the recorded 2.4.0-rc2 without a licence
  key: ``GET /``, ``/license/*`` and ``/health`` answer; every other request, known route or not,
  with a key or without, answers ``503 LICENSE_REQUIRED`` before its key is looked at; a body that
  is not JSON is refused (400) before that; a CORS preflight gets its 204.

Prometheus ``/metrics`` (2.x, ``PROMETHEUS_METRICS=true``; recorded in v2.3.7/900-909, 942) is
here too: the text format of the real server, with optional basic auth.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

if TYPE_CHECKING:
    from gateway_tui.demo.data import DemoState

# What DemoServer(api_version=...) accepts → the release imitated.
RELEASES = {
    "1": "1.7.1",
    "1.7.1": "1.7.1",
    "2": "2.3.6",
    "2.3.6": "2.3.6",
    "2.3.7": "2.3.7",
    "2.4": "2.4.0",
    "2.4.0": "2.4.0",
    "2.4.0-rc2": "2.4.0",
}
LICENCES = ("active", "inactive")
CLIENT_NAME = "evolution_exchange"
WHATSAPP_WEB_VERSION = "2.3000.1027934701"
DOCS_URL = "https://docs.evolutionfoundation.com.br/licensing"


def release(api_version: str) -> str:
    """The release imitated for a requested version, or ValueError naming the ones known."""
    found = RELEASES.get(api_version.strip())
    if found is None:
        known = ", ".join(sorted(set(RELEASES.values())))
        raise ValueError(f"unknown Evolution API version {api_version!r} (known: {known})")
    return found


def _parts(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("-")[0].split("."))


def at_least(state: DemoState, version: str) -> bool:
    """The demo's release is ``version`` or newer."""
    return _parts(state.api_version) >= _parts(version)


def gated(state: DemoState) -> bool:
    """A 2.4 without an activated licence."""
    return at_least(state, "2.4.0") and state.licence == "inactive"


def root_body(state: DemoState) -> dict[str, Any]:
    """``GET /`` of a 2.x release (2.3.7 added ``manager``)."""
    body: dict[str, Any] = {
        "status": 200,
        "message": "Welcome to the Evolution API, it is working!",
        "version": state.api_version,
        "clientName": CLIENT_NAME,
    }
    if at_least(state, "2.3.7"):
        body["manager"] = f"{state.server_url}/manager"
    body |= {
        "documentation": "https://doc.evolution-api.com",
        "whatsappWebVersion": WHATSAPP_WEB_VERSION,
    }
    return body


# ---------------------------------------------------------------- the licence (2.4)


def _licence_instance_id(state: DemoState) -> str:
    """A stable id, shaped as the real one (a UUID derived from the machine; here the URL)."""
    digest = hashlib.sha256(state.server_url.encode()).hexdigest()
    return f"{digest[:8]}-{digest[8:12]}-4{digest[13:16]}-8{digest[17:20]}-{digest[20:32]}"


def licence_required(state: DemoState) -> dict[str, Any]:
    """The 503 body of a business route on a 2.4 without a licence (v2.4.0-rc2/004-010)."""
    register = f"{state.server_url}/manager/login"
    return {
        "error": "service not activated",
        "code": "LICENSE_REQUIRED",
        "register_url": register,
        "instance_id": _licence_instance_id(state),
        "docs_url": DOCS_URL,
        "message": (
            f"This Evolution API instance is not activated. Open {register} to activate, or set "
            "AUTHENTICATION_API_KEY in your .env with a valid licensing key. Docs: " + DOCS_URL
        ),
    }


# Paths a licence-gated 2.4 still answers (recorded: /, /license/status, /license/activate,
# /health's own 404). /manager too: the register URL the 503 points at lives there.
_UNGATED_PREFIXES = ("/license/", "/manager")
_UNGATED = frozenset({"/", "/health"})


def ungated(path: str) -> bool:
    return path in _UNGATED or path.startswith(_UNGATED_PREFIXES)


async def licence_status(request: Request) -> Response:
    state: DemoState = request.app.state.demo
    body = {"status": state.licence or "active", "instance_id": _licence_instance_id(state)}
    return _json(200, body)


async def licence_activate(request: Request) -> Response:
    """No code: the recorded 400. With one, the demo activates at once (a real server asks its
    licensing server, which the recordings never reached)."""
    state: DemoState = request.app.state.demo
    if not request.query_params.get("code"):
        return _json(
            400,
            {
                "error": "Missing code parameter",
                "message": "Provide ?code=AUTHORIZATION_CODE from the registration callback.",
            },
        )
    state.licence = "active"
    return _json(200, {"status": "active", "instance_id": _licence_instance_id(state)})


LICENCE_ROUTES = [
    Route("/license/status", licence_status, methods=["GET"]),
    Route("/license/activate", licence_activate, methods=["GET"]),
]


def _json(status: int, body: Any) -> Response:
    return Response(
        json.dumps(body, separators=(",", ":")).encode(),
        status_code=status,
        media_type="application/json; charset=utf-8",
    )


async def gate(state: DemoState, scope: dict[str, Any], receive: Any, send: Any) -> bool:
    """Answer a request a licence-gated 2.4 refuses (True), or let it through (False)."""
    if not gated(state) or ungated(scope["path"]):
        return False
    headers = {key.lower(): value for key, value in scope["headers"]}
    if scope["method"] == "OPTIONS" and b"access-control-request-method" in headers:
        await _send(send, 204, b"", None)  # the CORS preflight, as recorded (014)
        return True
    raw = b""
    while True:
        message = await receive()
        raw += message.get("body", b"")
        if not message.get("more_body"):
            break
    if raw.strip() and b"json" in headers.get(b"content-type", b""):
        try:
            json.loads(raw)
        except ValueError:
            # The body parser runs before the licence check (recorded 013).
            body = {
                "status": 400,
                "error": "Internal Server Error",
                "response": {"message": "Unexpected end of JSON input"},
            }
            await _send(send, 400, json.dumps(body).encode(), "application/json; charset=utf-8")
            return True
    body = json.dumps(licence_required(state)).encode()
    await _send(send, 503, body, "application/json; charset=utf-8")
    return True


async def _send(send: Any, status: int, body: bytes, content_type: str | None) -> None:
    headers = [(b"content-length", str(len(body)).encode())]
    if content_type:
        headers.append((b"content-type", content_type.encode()))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


# ---------------------------------------------------------------- Prometheus /metrics


def _label(value: Any) -> str:
    return str(value if value is not None else "").replace("\\", "\\\\").replace("\n", "\\n")


def _escaped(value: Any) -> str:
    return _label(value).replace('"', '\\"')


def metrics_text(state: DemoState) -> str:
    """The real server's exposition: environment, instance count, each instance's state as
    its session has it (a zombie's ``close``, where fetchInstances still says ``open``)."""
    from gateway_tui.demo.conditions import session_state

    lines = [
        "# HELP evolution_environment_info Environment information",
        "# TYPE evolution_environment_info gauge",
        f'evolution_environment_info{{version="{_escaped(state.api_version)}",'
        f'clientName="{CLIENT_NAME}",serverUrl="{_escaped(state.server_url)}"}} 1',
        "# HELP evolution_instances_total Total number of instances",
        "# TYPE evolution_instances_total gauge",
        f"evolution_instances_total {len(state.instances)}",
        "# HELP evolution_instance_up 1 if instance state is open, else 0",
        "# TYPE evolution_instance_up gauge",
        "# HELP evolution_instance_state Instance state as a labelled metric",
        "# TYPE evolution_instance_state gauge",
    ]
    for name, instance in list(state.instances.items()):
        now = session_state(instance)
        labels = f'instance="{_escaped(name)}",integration="WHATSAPP-BAILEYS"'
        lines.append(f"evolution_instance_up{{{labels}}} {1 if now == 'open' else 0}")
        lines.append(f'evolution_instance_state{{{labels},state="{_escaped(now)}"}} 1')
    return "\n".join(lines) + "\n"


def _plain(status: int, text: str, **headers: str) -> Response:
    return Response(text, status_code=status, media_type="text/html", headers=headers or None)


async def metrics(request: Request) -> Response:
    """``/metrics`` when the demo serves it (``DemoServer(metrics=True)``), as recorded."""
    state: DemoState = request.app.state.demo
    if not state.metrics:
        from starlette.exceptions import HTTPException

        raise HTTPException(404)  # "Cannot GET /metrics", as a server without PROMETHEUS_METRICS
    if state.metrics_auth is not None:
        auth = request.headers.get("authorization", "")
        if not auth.startswith("Basic "):
            realm = 'Basic realm="Evolution API Metrics"'
            return _plain(401, "Authentication required", **{"WWW-Authenticate": realm})
        try:
            user, _, password = base64.b64decode(auth[6:]).decode().partition(":")
        except (binascii.Error, UnicodeDecodeError):
            user = password = ""
        if (user, password) != state.metrics_auth:
            return _plain(401, "Invalid credentials")
    return Response(
        metrics_text(state),
        media_type="text/plain; charset=utf-8; version=0.0.4",
        headers={"Cache-Control": "no-cache, no-store, must-revalidate"},
    )


METRICS_ROUTES = [Route("/metrics", metrics, methods=["GET"])]
