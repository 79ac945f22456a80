"""The client's transport: one call sent (GETs retried on transport failures), its answer read
whole under the size cap, parsed, or mapped to a typed error; an event per attempt for the
request log. Nothing here knows a path or a line: the resources (api/resources/) do."""

from __future__ import annotations

import asyncio
import json
import ssl
import time
import uuid
from collections.abc import Callable
from datetime import datetime
from typing import Any, TypeVar

import httpx
from pydantic import BaseModel, ValidationError
from pydantic_core import from_json

from gateway_tui.core.api import validation
from gateway_tui.core.api.chat_models import StoreList, read_items
from gateway_tui.core.api.errors import (
    CertificateRejected,
    GatewayError,
    GatewayTimeout,
    GatewayUnreachable,
    InvalidRequest,
    InvalidResponse,
    RefusedIn200,
    TLSHandshakeFailed,
    error_for_response,
)
from gateway_tui.core.api.events import CallEvent, capped_body, redacted_headers
from gateway_tui.core.api.lists import OFF_LOOP_BYTES, ListReader, PartialList
from gateway_tui.core.api.models import GroupSummary, Participant, ParticipantList
from gateway_tui.core.api.paths import is_read
from gateway_tui.core.text.i18n import _, number
from gateway_tui.core.text.sanitize import mask_secrets

CallListener = Callable[[CallEvent], None]
_M = TypeVar("_M", bound=BaseModel)
_T = TypeVar("_T")

DEFAULT_TIMEOUT = 15.0
# Messages per findMessages page on 2.x (its default is 50: a long chat would take thousands).
MESSAGES_PAGE = 1000
# The largest answer read, counted after decompression (a gzip bomb is stopped at this size).
# 10,000 instances take about 7 MB.
DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024
# A real gateway (Node) and the demo (uvicorn) close a keep-alive connection after 5 s idle. A
# request sent on it at that moment fails ("the connection broke"): a write then has an unknown
# outcome, and the state checks every few seconds would meet that moment often. Our side lets
# idle connections go first.
KEEPALIVE_EXPIRY = 4.0
CONNECTION_LIMITS = httpx.Limits(
    max_connections=100, max_keepalive_connections=20, keepalive_expiry=KEEPALIVE_EXPIRY
)
# Backoff before each retry of a GET that failed in transport (never for writes).
GET_RETRY_DELAYS = (0.2, 0.6)
# Transport failures after which a GET is safe to repeat. Timeouts are not among them: a
# stalled server would otherwise hold the user three times as long.
# How a failed read ends its title: nothing changed on the gateway, unlike a write whose
# answer was lost ("outcome unknown, check before retrying").
# Each title says it whole (a sentence per case, for translation).
_RETRYABLE = (httpx.ConnectError, httpx.RemoteProtocolError, httpx.ReadError, httpx.WriteError)


class Transport:
    """Calls to one gateway over one connection pool; the key goes in every request's header
    and nowhere else."""

    def __init__(
        self,
        base_url: str,
        api_key: str,
        *,
        timeout: float = DEFAULT_TIMEOUT,
        retry_delays: tuple[float, ...] = GET_RETRY_DELAYS,
        transport: httpx.AsyncBaseTransport | None = None,
        max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self.max_response_bytes = max_response_bytes
        self._retry_delays = retry_delays
        self._listeners: list[CallListener] = []
        # A pasted key often ends in a newline. Anything else outside printable ASCII cannot go
        # in a header, and httpx / h11 would put the whole key in their error text.
        key = api_key.strip()
        if problems := validation.check_api_key(key):
            raise InvalidRequest(problems)
        self._secret = key
        headers = {"accept": "application/json"}
        if key:  # an empty key sends no header at all (the server's "missing key" case)
            headers["apikey"] = key
        self._http = httpx.AsyncClient(
            base_url=self.base_url,
            headers=headers,
            timeout=httpx.Timeout(timeout, connect=min(timeout, 5.0)),
            limits=CONNECTION_LIMITS,  # a transport given here must bring its own (app.py)
            transport=transport,
        )

    async def aclose(self) -> None:
        await self._http.aclose()

    def subscribe(self, listener: CallListener) -> Callable[[], None]:
        """Call ``listener`` after every call; returns a function that unsubscribes it."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def _emit(self, event: CallEvent) -> None:
        for listener in list(self._listeners):
            try:
                listener(event)
            except Exception:  # noqa: BLE001 - a broken listener must not break the call
                pass

    async def _call(
        self,
        method: str,
        path: str,
        parse: Callable[[httpx.Response], _T],
        *,
        params: dict[str, str] | None = None,
        body: Any = None,
        call_timeout: float | None = None,
        quiet: bool = False,
    ) -> _T:
        """Send once (GETs: retry transport failures); parse a 2xx response or raise.

        One event per attempt, emitted once the outcome is known: an answer that cannot be read
        is a failed call in the log too, not a success. ``quiet``: no event (the client's own
        question for the gateway's line, not a call anyone made).
        """
        emit = (lambda event: None) if quiet else self._emit
        extra: dict[str, Any] = {}
        deadline = self.timeout if call_timeout is None else call_timeout
        if call_timeout is not None:
            extra["timeout"] = httpx.Timeout(call_timeout, connect=min(call_timeout, 5.0))
        # A fresh id per call lets a server (and our tests) tell a repeated write from a new one.
        request = self._http.build_request(
            method,
            path,
            params=params,
            json=body,
            headers={"x-request-id": uuid.uuid4().hex},
            **extra,
        )
        is_write = not is_read(method, path)
        delays = () if method != "GET" else self._retry_delays  # a POST is sent once
        # One deadline for the whole call, retries included: connect to last byte.
        deadline_at = asyncio.get_running_loop().time() + deadline
        attempt = 0
        while True:
            attempt += 1
            started = datetime.now()
            t0 = time.perf_counter()
            try:
                response = await self._receive(request, deadline_at)
            except (httpx.HTTPError, TimeoutError, _TooLarge) as exc:
                error = _transport_error(exc, method, path, is_write, self._secret)
                elapsed = _ms_since(t0)
                emit(_event(request, path, started, elapsed, attempt, body, error=error))
                if attempt <= len(delays) and isinstance(exc, _RETRYABLE):
                    await asyncio.sleep(delays[attempt - 1])
                    continue
                raise error from None
            except asyncio.CancelledError:
                # Given up by the user (or the screen was left): the log says so, and for a
                # write that the outcome is unknown. Nothing is retried.
                given_up = GatewayTimeout(
                    _("Given up — outcome unknown, check before retrying")
                    if is_write
                    else _(
                        "Given up before the answer came — the read failed; nothing was "
                        "changed, safe to try again"
                    ),
                    write=is_write,
                    method=method,
                    path=path,
                )
                elapsed = _ms_since(t0)
                emit(_event(request, path, started, elapsed, attempt, body, error=given_up))
                raise
            elapsed = _ms_since(t0)
            if not response.is_success:
                error = _status_error(response, method, path)
                emit(_event(request, path, started, elapsed, attempt, body, response, error))
                raise error
            try:
                result = parse(response)
                if asyncio.iscoroutine(result):  # a big list, read off the event loop
                    result = await result
            except GatewayError as error:  # unreadable, or a refusal the answer carries
                emit(_event(request, path, started, elapsed, attempt, body, response, error))
                raise
            emit(_event(request, path, started, elapsed, attempt, body, response))
            return result

    async def _receive(self, request: httpx.Request, deadline_at: float) -> httpx.Response:
        """Send and read the whole answer before ``deadline_at`` (the loop's clock), never more
        than ``max_response_bytes`` of it once decompressed."""
        limit = self.max_response_bytes
        async with asyncio.timeout_at(deadline_at):
            response = await self._http.send(request, stream=True)
            try:
                declared = response.headers.get("content-length", "")
                if (
                    declared.isdigit()
                    and int(declared) > limit
                    and not response.headers.get("content-encoding")
                ):
                    raise _TooLarge(limit)
                chunks: list[bytes] = []
                size = 0
                async for chunk in response.aiter_bytes():  # decompressed, piece by piece
                    size += len(chunk)
                    if size > limit:
                        raise _TooLarge(limit)
                    chunks.append(chunk)
                # Joining 200 MB takes the loop 300 ms; in a thread bytes.join lets go of the GIL.
                if size > OFF_LOOP_BYTES:
                    content = await asyncio.to_thread(b"".join, chunks)
                else:
                    content = b"".join(chunks)
            finally:
                await response.aclose()
        response._content = content  # what response.read() would have set
        return response

    async def _model(
        self,
        model: type[_M],
        method: str,
        path: str,
        *,
        refusal: Refusal[_M] | None = None,
        empty_is_default: bool = False,
        **kw: Any,
    ) -> _M:
        """``refusal``: what a read answer says when it says the call was not done (a 2xx
        ``{"send": false}``): raised as RefusedIn200, and logged as a failed call.
        ``empty_is_default``: an empty body is the model's defaults."""

        def parse(response: httpx.Response) -> _M:
            if empty_is_default and not response.content.strip():
                return model()
            result = parse_answer(response, method, path, model.model_validate_json)
            return refused_or(result, refusal, response, method, path)

        return await self._call(method, path, parse, **kw)

    async def _read(self, method: str, path: str, parse: Callable[[bytes], _T], **kw: Any) -> _T:
        """A call whose answer ``parse`` reads from the body's bytes."""
        return await self._call(
            method, path, lambda response: parse_answer(response, method, path, parse), **kw
        )

    async def _optional_model(self, model: type[_M], method: str, path: str, **kw: Any) -> _M:
        """For endpoints the interface documents with an empty body: empty means defaults."""
        return await self._model(model, method, path, empty_is_default=True, **kw)


# --- reading answers, mapping errors -------------------------------------------------------


def store_parser(
    method: str, path: str, reader: Callable[[dict[str, Any]], _T | None]
) -> Callable[[httpx.Response], StoreList[_T]]:
    def parse(response: httpx.Response) -> StoreList[_T]:
        # jiter (pydantic's parser) with its string cache: the 27 MB of a 100,000-message
        # answer parse in less time and half the memory of json.loads (repeated JIDs, names
        # and kinds become one string each).
        return parse_answer(
            response,
            method,
            path,
            lambda content: read_items(from_json(content, cache_strings="all"), reader),
        )

    return parse


def json_object_or_none(content: bytes) -> dict[str, Any] | None:
    """updateMessage: documented as empty; a real server sends the edit object (kept)."""
    if not content.strip():
        return None
    data = json.loads(content)
    if not isinstance(data, dict):
        raise ValueError(_("expected an object, got {kind}").format(kind=type(data).__name__))
    return data


# What a read answer says when it says the call was not done: (title, the server's line), or
# None when it was done.
Refusal = Callable[[_T], "tuple[str, str] | None"]


def refused_or(
    result: _T, refusal: Refusal[_T] | None, response: httpx.Response, method: str, path: str
) -> _T:
    """``result``, unless ``refusal`` finds that the answer refuses the call: then the
    RefusedIn200 it says, with the answer's own status."""
    said = refusal(result) if refusal is not None else None
    if said is None:
        return result
    title, line = said
    raise RefusedIn200(
        title, method=method, path=path, status=response.status_code, messages=[line]
    )


def parse_answer(
    response: httpx.Response, method: str, path: str, parse: Callable[[bytes], _T]
) -> _T:
    try:
        return parse(response.content)
    except ValidationError as exc:
        lines = [_describe(err) for err in exc.errors(include_url=False)[:5]]
        raise InvalidResponse(
            messages=lines, method=method, path=path, status=response.status_code
        ) from None
    except json.JSONDecodeError as exc:
        raise InvalidResponse(
            messages=[f"not JSON: {exc}"], method=method, path=path, status=response.status_code
        ) from None
    except (ValueError, RecursionError) as exc:  # UnicodeDecodeError is a ValueError
        raise InvalidResponse(
            messages=[str(exc) or type(exc).__name__],
            method=method,
            path=path,
            status=response.status_code,
        ) from None


async def parse_list(
    response: httpx.Response, method: str, path: str, reader: ListReader[Any]
) -> PartialList[Any]:
    try:
        items = await reader.read_async(response.content)
    except (ValueError, RecursionError) as exc:  # not a JSON array at all
        items = PartialList(unreadable=[_("not a JSON list: {reason}").format(reason=exc)])
    if not items and items.unreadable:  # nothing could be read: that is the answer's fault
        raise InvalidResponse(
            messages=items.unreadable[:5], method=method, path=path, status=response.status_code
        )
    return items


def participant_list(content: bytes) -> PartialList[Participant]:
    """``{"participants": [...]}``; one unreadable participant is skipped and counted."""
    try:
        return PartialList(ParticipantList.model_validate_json(content).participants)
    except ValidationError as error:
        data = json.loads(content)
        items = data.get("participants") if isinstance(data, dict) else None
        if not isinstance(items, list) or not items:
            raise error from None
        found = _PARTICIPANTS.read_objects(items)
        if not found:
            raise error from None
        return found


def built(build: Callable[[Any], _T], items: list[Any], path: str) -> _T:
    try:
        return build(items)
    except (ValueError, RecursionError) as exc:
        raise InvalidResponse(messages=[str(exc)], method="POST", path=path) from None


class _TooLarge(Exception):
    def __init__(self, limit: int) -> None:
        super().__init__(
            _(
                "the answer is larger than {size} MB (max_response_mb in config.toml); the rest "
                "was not read"
            ).format(size=number(limit // (1024 * 1024)))
        )


def _describe(err: Any) -> str:
    where = ".".join(str(p) for p in err.get("loc", ()))
    return f"{where}: {err.get('msg')}" if where else str(err.get("msg"))


def _status_error(response: httpx.Response, method: str, path: str) -> GatewayError:
    try:
        body = json.loads(response.content) if response.content.strip() else None
        raw = ""
    except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
        body, raw = None, response.text
    return error_for_response(response.status_code, body, method=method, path=path, raw_text=raw)


def _transport_error(
    exc: Exception, method: str, path: str, is_write: bool, secret: str = ""
) -> GatewayError:
    where = {"method": method, "path": path}
    text = str(exc) or type(exc).__name__
    if secret:
        text = text.replace(secret, "***")
    detail = [text]
    if isinstance(exc, _TooLarge):
        return InvalidResponse(_("The gateway's answer is too large"), messages=detail, **where)
    if isinstance(exc, TimeoutError):  # the whole call's deadline, not one read's
        return GatewayTimeout(
            None if is_write else _no_answer_read(),
            write=is_write,
            messages=[_("no complete answer in time")],
            **where,
        )
    if isinstance(exc, httpx.ConnectError | httpx.ConnectTimeout):
        tls = _tls_cause(exc)
        if isinstance(tls, ssl.SSLCertVerificationError):
            return CertificateRejected(messages=detail, **where)
        if tls is not None:
            return TLSHandshakeFailed(messages=detail, **where)
        return GatewayUnreachable(messages=detail, **where)
    if isinstance(exc, httpx.TimeoutException):
        return GatewayTimeout(
            None if is_write else _no_answer_read(),
            write=is_write,
            messages=detail,
            **where,
        )
    if is_write:
        # The request may have reached the server before the connection broke.
        return GatewayUnreachable(
            _("The connection broke — outcome unknown, check before retrying"),
            messages=detail,
            outcome_unknown=True,
            **where,
        )
    return GatewayUnreachable(
        _(
            "The connection to the gateway broke — the read failed; nothing was changed, safe "
            "to try again"
        ),
        messages=detail,
        **where,
    )


def _no_answer_read() -> str:
    return _(
        "The gateway did not answer in time — the read failed; nothing was changed, safe to "
        "try again"
    )


def _tls_cause(exc: BaseException) -> ssl.SSLError | None:
    """The TLS error behind a connect error (httpx wraps httpcore's, which wraps ssl's)."""
    seen: set[int] = set()
    cause: BaseException | None = exc
    while cause is not None and id(cause) not in seen:
        if isinstance(cause, ssl.SSLError):
            return cause
        seen.add(id(cause))
        cause = cause.__cause__ or cause.__context__
    return None


# Body fields that are keys (an instance's own key, sent by create): masked in every event, so
# the request log and its curl export never hold them.
_SECRET_FIELDS = frozenset({"token"})


def _without_secrets(body: Any) -> Any:
    if isinstance(body, dict) and _SECRET_FIELDS & body.keys():
        return {k: ("***" if k in _SECRET_FIELDS else v) for k, v in body.items()}
    return body


def _ms_since(t0: float) -> float:
    return (time.perf_counter() - t0) * 1000


def _event(
    request: httpx.Request,
    path: str,
    started: datetime,
    elapsed_ms: float,
    attempt: int,
    body: Any,
    response: httpx.Response | None = None,
    error: GatewayError | None = None,
) -> CallEvent:
    return CallEvent(
        method=request.method,
        path=path,
        url=mask_secrets(str(request.url)),
        started_at=started,
        elapsed_ms=elapsed_ms,
        status=response.status_code if response is not None else None,
        error=mask_secrets(error.title) if error else None,
        error_lines=tuple(mask_secrets(line) for line in error.messages) if error else (),
        request_body=_without_secrets(body),
        request_id=request.headers.get("x-request-id", ""),
        attempt=attempt,
        request_headers=redacted_headers(request.headers),
        response_headers=redacted_headers(response.headers) if response is not None else (),
        response_body=capped_body(response.content) if response is not None else None,
        response_size=len(response.content) if response is not None else 0,
    )


# One bad item is skipped and counted (see api/lists.py), not the whole list lost.
GROUPS = ListReader(GroupSummary)
_PARTICIPANTS = ListReader(Participant)
