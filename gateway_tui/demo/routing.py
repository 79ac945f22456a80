"""The demo gateway's guards and routing, shared by its route modules: a request that got past
body parsing (``Call``), the real server's guards in its order (body parsing: malformed JSON
is a 400 before anything else; does the ``{instance}`` exist: 404 even without a key; then the
API key), the registration of a handler, the JSON answer, and a session call refused on an
instance that is not open.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from gateway_tui.demo.conditions import CONNECTION_CLOSED
from gateway_tui.demo.data import DemoState, Instance
from gateway_tui.demo.errors import GatewayError, not_connected_text, unauthorized
from gateway_tui.demo.validation import normalize_group_jid, schema_errors

Reply = tuple[int, Any]


@dataclass
class Call:
    """A request that got past body parsing, with the demo state it acts on."""

    request: Request
    state: DemoState
    body: Any

    def query(self, name: str) -> str | None:
        return self.request.query_params.get(name)

    def validated(self, schema: dict[str, Any]) -> dict[str, Any]:
        """The body, or 400 with ``[["text", ...]]`` as the real server's body validation does."""
        if errors := schema_errors(self.body, schema):
            raise GatewayError(400, [[error.message for error in errors]])
        return self.body

    def validated_group(self, values: Any, schema: dict[str, Any]) -> dict[str, Any]:
        """``values``, or 400 with ``[{"property", "message"}]`` as group endpoints report."""
        if errors := schema_errors(values, schema):
            raise GatewayError(400, [dict(error._asdict()) for error in errors])
        return values

    def group_request(self, schema: dict[str, Any]) -> dict[str, Any]:
        """Body fields plus the group JID, validated for a group endpoint.

        The JID comes from the body, else from the ``groupJid`` query parameter (as the real
        server's groupValidate takes it), with "@g.us" appended when missing.
        """
        body = self.body if isinstance(self.body, dict) else {}
        group_jid = body.get("groupJid") or self.query("groupJid")
        if not group_jid or not isinstance(group_jid, str):
            raise GatewayError(
                400,
                ["The group id needs to be informed in the query", 'ex: "groupJid=120362@g.us"'],
            )
        return self.validated_group({**body, "groupJid": normalize_group_jid(group_jid)}, schema)


# What the 1.7.1 demo answers, filled as its route modules register (demo/app.py imports them
# in order); demo/v2.py builds the 2.x routes from these and its own.
ROUTES_1_7_1: list[Route] = []


async def _read_body(request: Request) -> Any:
    raw = await request.body()
    if not raw.strip() or "json" not in request.headers.get("content-type", ""):
        return {}
    try:
        return json.loads(raw)
    except ValueError as exc:
        text = raw.decode("utf-8", "replace")
        position = getattr(exc, "pos", 0)
        message = (
            f"Unexpected token {text[position]} in JSON at position {position}"
            if position < len(text.rstrip())
            else "Unexpected end of JSON input"
        )
        # Like the real server's body parser: status 400, but "error" says 500's phrase.
        raise GatewayError(400, message, error="Internal Server Error") from None


def _authorize(request: Request, state: DemoState, instance: Instance | None) -> None:
    """Global key: every route. An instance's own key: only that instance's routes."""
    key = request.headers.get("apikey")
    if not key:
        if instance is None and not state.api_version.startswith("2"):  # 2.x: 401 as ever
            raise GatewayError(403, ["Missing global api key", "The global api key must be set"])
        raise unauthorized()
    if key == state.api_key or (instance is not None and key == instance.apikey):
        return
    raise unauthorized()


# A handler's answer that is the JSON literal null (2.x's find before any set); None is an
# empty body.
JSON_NULL: Any = object()


def json_response(status: int, payload: Any) -> Response:
    if payload is None:  # an empty body, as a real server sends when it swallowed an error
        return Response(status_code=status)
    if payload is JSON_NULL:
        return Response(b"null", status_code=status, media_type="application/json")
    return _JSONResponse(payload, status_code=status)


class _JSONResponse(JSONResponse):
    def render(self, content: Any) -> bytes:
        try:
            return super().render(content)
        except UnicodeEncodeError:
            # A lone surrogate (the hostile data set): Node's JSON.stringify writes "\ud800".
            return json.dumps(content, separators=(",", ":")).encode("ascii")


def instance_route(method: str, path: str, into: list[Route] | None = None):
    """Register a handler for a route whose path names an instance (in ``into``: the 1.7.1
    routes unless told)."""

    def register(handler: Callable[[Call, Instance], Awaitable[Reply]]):
        async def endpoint(request: Request) -> Response:
            state: DemoState = request.app.state.demo
            body = await _read_body(request)
            name = unquote(request.path_params["instance"])
            instance = state.instances.get(name)
            if instance is None:
                raise GatewayError(404, [f'The "{name}" instance does not exist'])
            _authorize(request, state, instance)
            return json_response(*await handler(Call(request, state, body), instance))

        (ROUTES_1_7_1 if into is None else into).append(Route(path, endpoint, methods=[method]))
        return handler

    return register


def global_route(method: str, path: str, into: list[Route] | None = None):
    """Register a handler for a route that only the global key may use."""

    def register(handler: Callable[[Call], Awaitable[Reply]]):
        async def endpoint(request: Request) -> Response:
            state: DemoState = request.app.state.demo
            body = await _read_body(request)
            _authorize(request, state, None)
            return json_response(*await handler(Call(request, state, body)))

        (ROUTES_1_7_1 if into is None else into).append(Route(path, endpoint, methods=[method]))
        return handler

    return register


def refuse_unless_open(
    instance: Instance, client_method: str, failure: Callable[[str], GatewayError]
) -> None:
    """A session call fails on an instance that is not open, each route in its own way.

    ``failure`` turns the session's error text into the route's answer, as a real 1.7.1
    wraps it (checked against one by tests/recorded/test_demo_agrees.py). Only a zombie says
    "Connection Closed" here; the newer routes' session.require_open says it for a
    ``connecting`` instance too.
    """
    if instance.zombie:  # listed open, its socket closed (demo/conditions.py)
        raise failure(CONNECTION_CLOSED)
    if instance.status != "open":
        raise failure(not_connected_text(client_method))
