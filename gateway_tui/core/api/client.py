"""The async gateway client: one method per endpoint; typed models in, models or errors out."""

from __future__ import annotations

import asyncio
import json
import ssl
import time
import uuid
from collections.abc import Callable
from datetime import datetime
from typing import Any, TypeVar
from urllib.parse import quote

import httpx
from pydantic import BaseModel, ValidationError
from pydantic_core import from_json

from gateway_tui.core.api import dialects, lifecycle, validation
from gateway_tui.core.api import message_bodies as bodies
from gateway_tui.core.api.chat_models import (
    ChatMessages,
    Contact,
    StatusRow,
    StoredChat,
    StoredMessage,
    StoreList,
    messages_of_chat,
    newest_per_chat,
    read_items,
)
from gateway_tui.core.api.dialects import Dialect
from gateway_tui.core.api.errors import (
    BadRequest,
    CertificateRejected,
    GatewayError,
    GatewayTimeout,
    GatewayUnreachable,
    InvalidRequest,
    InvalidResponse,
    NotFound,
    Problem,
    TLSHandshakeFailed,
    error_for_response,
)
from gateway_tui.core.api.events import CallEvent, capped_body, curl_command, redacted_headers
from gateway_tui.core.api.lifecycle import (
    ConnectResult,
    CreatedInstance,
    CreateInstanceRequest,
    WebhookSetResult,
    WebhookSettings,
    WebsocketSetResult,
    WebsocketSettings,
    check_webhook_url,
)
from gateway_tui.core.api.lists import OFF_LOOP_BYTES, ListReader, PartialList
from gateway_tui.core.api.message_bodies import MediaFile, MediaUpload, Quote
from gateway_tui.core.api.models import (
    NUMBERS_ON_WHATSAPP,
    ArchiveResult,
    BusinessProfile,
    ConnectionState,
    DeleteResult,
    GroupInviteResult,
    GroupSummary,
    Instance,
    InstanceSettings,
    InviteCode,
    LogoutResult,
    MessageKey,
    NumberOnWhatsApp,
    Participant,
    ParticipantList,
    RevokeResult,
    SendListOptions,
    SendListRequest,
    SentMessage,
    ServerInfo,
    SettingsSetResult,
    SubjectUpdateResult,
)
from gateway_tui.core.text.sanitize import add_secret, mask_secrets

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
_RETRYABLE = (httpx.ConnectError, httpx.RemoteProtocolError, httpx.ReadError, httpx.WriteError)


class GatewayClient:
    """Async client for one gateway. Use ``async with GatewayClient(url, key) as client``."""

    def __init__(
        self,
        base_url: str,
        api_key: str,
        *,
        timeout: float = DEFAULT_TIMEOUT,
        retry_delays: tuple[float, ...] = GET_RETRY_DELAYS,
        transport: httpx.AsyncBaseTransport | None = None,
        max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES,
        api_version: str | None = "1",
    ) -> None:
        """``api_version`` pins the line: "1" (1.7.1, the interface this client was specified
        for) or "2"; None or "auto" lets the gateway's answers tell (the app and the command
        line pass the profile's ``api_version``, "auto" unless pinned)."""
        self.base_url = base_url.rstrip("/")
        self._pinned: Dialect | None = dialects.dialect_named(api_version)
        self._dialect: Dialect | None = self._pinned
        # GET /'s answer, read beside the first fetchInstances (never before it).
        self.server_info: ServerInfo | None = None
        self._root_task: asyncio.Task[None] | None = None
        # Called once GET / has told the gateway's version (the app redraws its bar then).
        self.on_server_info: Callable[[], None] | None = None
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

    async def __aenter__(self) -> GatewayClient:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        if self._root_task is not None and not self._root_task.done():
            self._root_task.cancel()
        await self._http.aclose()

    # --- which line the gateway speaks ----------------------------------------------------------

    @property
    def dialect(self) -> Dialect:
        """The line in use: pinned, else told by the answers so far, else 1.7.1."""
        return self._dialect or dialects.V1

    @property
    def line_known(self) -> bool:
        return self._dialect is not None

    @property
    def server_version(self) -> str | None:
        return self.server_info.version if self.server_info else None

    async def fetch_server_info(self, *, quiet: bool = False) -> ServerInfo:
        """GET /: the gateway's version (and, on 2.x, its client name)."""
        info = await self._model(ServerInfo, "GET", "/", quiet=quiet)
        self.server_info = info
        if self._dialect is None:
            self._dialect = dialects.line_of_version(info.version)
        if self.on_server_info is not None:
            self.on_server_info()
        return info

    def _read_root_beside(self) -> None:
        """Start GET / once, without waiting for it."""
        if self._root_task is None:
            self._root_task = asyncio.get_running_loop().create_task(self._read_root())

    async def _read_root(self) -> None:
        try:
            await self.fetch_server_info(quiet=True)
        except Exception:  # noqa: BLE001 - only a hint: the answers of other calls also tell
            pass

    async def line(self) -> Dialect:
        """The line, for a call whose shape depends on it: asked of GET / when no answer has
        told it yet (a command line run that never listed the instances, say)."""
        if self._dialect is None:
            self._read_root_beside()
            assert self._root_task is not None
            await asyncio.shield(self._root_task)
        return self.dialect

    def __repr__(self) -> str:  # the key stays out of any repr or log line
        return f"GatewayClient({self.base_url!r})"

    # --- listeners ---------------------------------------------------------------------------

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

    # --- transport -----------------------------------------------------------------------------

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
        is_write = method != "GET"
        delays = () if is_write else self._retry_delays
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
                    "Given up — outcome unknown, check before retrying"
                    if is_write
                    else "Given up before the answer came",
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
            except InvalidResponse as error:
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

    async def _model(self, model: type[_M], method: str, path: str, **kw: Any) -> _M:
        def parse(response: httpx.Response) -> _M:
            return _parse(response, method, path, model.model_validate_json)

        return await self._call(method, path, parse, **kw)

    async def _read(self, method: str, path: str, parse: Callable[[bytes], _T], **kw: Any) -> _T:
        """A call whose answer ``parse`` reads from the body's bytes."""
        return await self._call(
            method, path, lambda response: _parse(response, method, path, parse), **kw
        )

    async def _optional_model(self, model: type[_M], method: str, path: str, **kw: Any) -> _M:
        """For endpoints the interface documents with an empty body: empty means defaults."""

        def parse(response: httpx.Response) -> _M:
            if not response.content.strip():
                return model()
            return _parse(response, method, path, model.model_validate_json)

        return await self._call(method, path, parse, **kw)

    # --- instances ----------------------------------------------------------------------------

    async def fetch_instances(self, name: str | None = None) -> list[Instance]:
        """All instances, or the one named (1.7.1 then answers one object, not a list).

        The answer's shape tells the line (1.7.1 rows wrapped in ``instance``, 2.x flat);
        GET / is read beside the first call, for the version.
        """
        params = {"instanceName": name} if name else None
        path = "/instance/fetchInstances"
        if self._pinned is None:
            self._read_root_beside()

        def parse(response: httpx.Response) -> Any:
            line = self._pinned or dialects.sniff_instances(response.content)
            if line is not None:
                self._dialect = line
            line = line or self.dialect
            if response.content.lstrip().startswith(b"{"):
                return [_parse(response, "GET", path, line.read_single_instance)]
            return _parse_list(response, "GET", path, line.instances)

        return await self._call("GET", path, parse, params=params)

    async def delete_instance(self, instance: str) -> DeleteResult:
        path = _instance_path("/instance/delete/", instance, "DELETE")
        return await self._model(DeleteResult, "DELETE", path)

    async def logout_instance(self, instance: str) -> LogoutResult:
        """Optional extra: disconnect an instance (needed before deleting an open one)."""
        path = _instance_path("/instance/logout/", instance, "DELETE")
        return await self._optional_model(LogoutResult, "DELETE", path)

    async def connection_state(self, instance: str) -> ConnectionState:
        """Optional extra."""
        path = _instance_path("/instance/connectionState/", instance, "GET")
        return await self._model(ConnectionState, "GET", path)

    # --- lifecycle: create, connect, restart, webhook, websocket (issue 13) ----------------------

    async def create_instance(self, request: CreateInstanceRequest) -> CreatedInstance:
        """Global key only. 201; a real server keeps a half-made instance when a later step
        fails, so every rule it has is checked here first."""
        path = "/instance/create"
        _require(request.problems(), "POST", path)
        add_secret(request.token)  # the instance's own key: masked in everything written
        line = await self.line()
        # qrcode:true makes the server wait ~5 s for a code: allow for it.
        timeout = self.timeout + (10 if request.qrcode else 0)
        created = await self._model(
            CreatedInstance, "POST", path, body=line.create_body(request), call_timeout=timeout
        )
        add_secret(created.token)
        return created

    async def connect(self, instance: str, number: str | None = None) -> ConnectResult:
        """Ask for a QR code (and a pairing code when ``number`` is given).

        A closed instance makes the server wait ~5 s for WhatsApp before it answers. An empty
        body (the server swallowed an exception) is a result, not an error.
        """
        path = _instance_path("/instance/connect/", instance, "GET")
        params = None
        if number:
            _require(lifecycle.check_pairing_number(number), "GET", path)
            params = {"number": lifecycle.normalise_pairing_number(number)}

        def parse(response: httpx.Response) -> ConnectResult:
            if not response.content.strip():
                return ConnectResult(empty=True)
            return _parse(response, "GET", path, ConnectResult.model_validate_json)

        return await self._call("GET", path, parse, params=params, call_timeout=self.timeout + 10)

    async def restart_instance(self, instance: str) -> ConnectionState:
        """Answers the connection state (an empty body on some instances: no state then; 2.x
        answers ``{"count": 0}`` or ``{"error": true, …}``, no state either)."""
        verb = (await self.line()).verb("restart")
        path = _instance_path("/instance/restart/", instance, verb)
        return await self._optional_model(ConnectionState, verb, path)

    async def find_webhook(self, instance: str) -> WebhookSettings:
        path = _instance_path("/webhook/find/", instance, "GET")
        line = await self.line()
        return await self._read("GET", path, line.read_webhook)

    async def set_webhook(self, instance: str, settings: WebhookSettings) -> WebhookSetResult:
        path = _seg_path("/webhook/set/", instance)
        line = await self.line()
        problems = check_webhook_url(settings.url) + line.check_events(settings.events)
        _require(validation.check_instance_name(instance) + problems, "POST", path)
        body = line.webhook_body(settings)
        return await self._read("POST", path, line.read_webhook_set, body=body)

    async def find_websocket(self, instance: str) -> WebsocketSettings:
        path = _instance_path("/websocket/find/", instance, "GET")
        line = await self.line()
        return await self._read("GET", path, line.read_websocket)

    async def set_websocket(self, instance: str, settings: WebsocketSettings) -> WebsocketSetResult:
        path = _seg_path("/websocket/set/", instance)
        line = await self.line()
        problems = validation.check_instance_name(instance) + line.check_events(settings.events)
        _require(problems, "POST", path)
        body = line.websocket_body(settings)
        return await self._read("POST", path, line.read_websocket_set, body=body)

    async def websocket_channel_served(self) -> bool:
        """Whether the gateway serves its websocket channel (socket.io at /socket.io/). A 1.7.1
        gateway without WEBSOCKET_ENABLED=true answers 404 there: instances' websocket
        settings are stored all the same, and nothing is ever delivered."""
        try:
            await self._call(
                "GET", "/socket.io/", lambda _r: None, params={"EIO": "4", "transport": "polling"}
            )
        except NotFound as error:
            if error.route_missing:
                return False
            raise
        except BadRequest:
            return True  # socket.io itself refusing a handshake it did not like: it is there
        return True

    # --- end of lifecycle -------------------------------------------------------------------------

    # --- settings -----------------------------------------------------------------------------

    async def find_settings(self, instance: str) -> InstanceSettings:
        path = _instance_path("/settings/find/", instance, "GET")
        line = await self.line()
        return await self._read("GET", path, line.read_settings)

    async def set_settings(self, instance: str, settings: InstanceSettings) -> SettingsSetResult:
        """Optional extra: a server without it answers 404 (see ``NotFound.route_missing``)."""
        path = _instance_path("/settings/set/", instance, "POST")
        line = await self.line()
        body = line.settings_body(settings)
        return await self._read("POST", path, line.read_settings_set, body=body)

    # --- groups -------------------------------------------------------------------------------

    async def fetch_all_groups(self, instance: str) -> list[GroupSummary]:
        """Optional extra: a server without it answers 404."""
        path = _instance_path("/group/fetchAllGroups/", instance, "GET")

        def parse(response: httpx.Response) -> Any:
            return _parse_list(response, "GET", path, _GROUPS)

        return await self._call("GET", path, parse, params={"getParticipants": "false"})

    async def group_participants(self, instance: str, group_jid: str) -> list[Participant]:
        path, jid = _group_call("/group/participants/", instance, group_jid, "GET")
        params = {"groupJid": jid}

        def parse(response: httpx.Response) -> PartialList[Participant]:
            return _parse(response, "GET", path, _participant_list)

        return await self._call("GET", path, parse, params=params)

    async def group_invite_code(self, instance: str, group_jid: str) -> InviteCode:
        path, jid = _group_call("/group/inviteCode/", instance, group_jid, "GET")
        return await self._model(InviteCode, "GET", path, params={"groupJid": jid})

    async def revoke_group_invite_code(self, instance: str, group_jid: str) -> RevokeResult:
        verb = (await self.line()).verb("revoke_invite")
        path, jid = _group_call("/group/revokeInviteCode/", instance, group_jid, verb)
        return await self._optional_model(RevokeResult, verb, path, params={"groupJid": jid})

    async def update_group_subject(
        self, instance: str, group_jid: str, subject: str
    ) -> SubjectUpdateResult:
        verb = (await self.line()).verb("update_subject")
        path, jid = _group_call(
            "/group/updateGroupSubject/",
            instance,
            group_jid,
            verb,
            validation.check_subject(subject),
        )
        # The interface calls subject an object; a real server wants a plain string.
        body = {"subject": subject}
        return await self._optional_model(
            SubjectUpdateResult, verb, path, params={"groupJid": jid}, body=body
        )

    async def send_group_invite(
        self, instance: str, group_jid: str, numbers: list[str], description: str
    ) -> GroupInviteResult:
        path, jid = _group_call(
            "/group/sendInvite/",
            instance,
            group_jid,
            "POST",
            validation.check_invite_numbers(numbers)
            + validation.check_invite_description(description),
        )
        body = {
            "groupJid": jid,
            "numbers": validation.normalise_invite_numbers(numbers),
            "description": description,
        }
        return await self._model(GroupInviteResult, "POST", path, body=body)

    # --- messages and chats -------------------------------------------------------------------

    async def send_list(self, instance: str, request: SendListRequest) -> SentMessage:
        path = _seg_path("/message/sendList/", instance)
        line = await self.line()
        check = validation.check_list_message(
            request.list_message,
            footer_required=line.footer_required,
            description_required=line.description_required,
        )
        problems = (
            validation.check_instance_name(instance)
            + validation.check_recipient(request.number)
            + check.errors
            + line.send_list_problems(request)
        )
        _require(problems, "POST", path)
        # The server holds the request open for the whole delay before it answers.
        timeout = self.timeout + request.delay_ms / 1000
        return await self._model(
            SentMessage, "POST", path, body=line.send_list_body(request), call_timeout=timeout
        )

    def send_list_curl(self, instance: str, request: SendListRequest) -> str:
        """The curl command that would send ``request`` (the key read from the environment),
        in the body of the line known so far."""
        path = _seg_path("/message/sendList/", instance)
        url = self._http.build_request("POST", path).url
        return curl_command("POST", str(url), self.dialect.send_list_body(request))

    async def archive_chat(self, instance: str, key: MessageKey, archive: bool) -> ArchiveResult:
        """Archive or unarchive the chat of ``key``. A real server always says archived=true."""
        path = _seg_path("/chat/archiveChat/", instance)
        verb = (await self.line()).verb("archive_chat")
        problems = validation.check_instance_name(instance) + validation.check_message_key(key)
        _require(problems, verb, path)
        # Both lines take this form; 2.3.6's {"chat": jid} form always fails (a Prisma error).
        body = {"lastMessage": {"key": key.to_json()}, "archive": archive}
        return await self._model(ArchiveResult, verb, path, body=body)

    async def update_message(
        self, instance: str, key: MessageKey, text: str, number: str | None = None
    ) -> dict[str, Any] | None:
        """Edit a sent message. ``number`` defaults to the chat of ``key``."""
        path = _seg_path("/chat/updateMessage/", instance)
        line = await self.line()
        verb = line.verb("update_message")
        chat = validation.normalise_number(number or key.remote_jid)
        problems = validation.check_instance_name(instance) + validation.check_message_key(key)
        if not text.strip():
            problems.append(Problem("text", "the new text cannot be empty"))
        if not chat:
            problems.append(Problem("number", "the chat number is missing"))
        else:
            problems += validation.check_recipient(chat)
        _require(problems, verb, path)
        # Declared an integer by the interface text; a real server requires a string.
        body = {"number": line.update_message_number(chat), "text": text, "key": key.to_json()}
        return await self._read(verb, path, _json_object_or_none, body=body)

    async def fetch_profile(self, instance: str, number: str) -> BusinessProfile:
        path = _seg_path("/chat/fetchProfile/", instance)
        problems = validation.check_instance_name(instance) + validation.check_recipient(number)
        _require(problems, "POST", path)
        body = {"number": validation.normalise_number(number)}
        return await self._optional_model(BusinessProfile, "POST", path, body=body)

    # --- the conversation: text, media, reactions, read receipts (issue 24) ---------------------
    # Each body is built by the line's dialect (1.7.1: api/message_bodies.py; 2.x: flat).

    async def send_text(
        self,
        instance: str,
        number: str,
        text: str,
        *,
        options: SendListOptions | None = None,
        quoted: Quote | None = None,
    ) -> SentMessage:
        """A plain text (a reply when ``quoted``); sent once, never retried."""
        path = _seg_path("/message/sendText/", instance)
        problems = validation.check_instance_name(instance) + validation.check_recipient(number)
        if not text.strip():
            problems.append(Problem("text", "the text cannot be empty"))
        _require(problems, "POST", path)
        line = await self.line()
        body = line.send_text_body(validation.normalise_number(number), text, options, quoted)
        timeout = self.timeout + ((options.delay or 0) if options else 0) / 1000
        return await self._model(SentMessage, "POST", path, body=body, call_timeout=timeout)

    async def send_media(
        self,
        instance: str,
        number: str,
        upload: MediaUpload,
        *,
        options: SendListOptions | None = None,
        quoted: Quote | None = None,
    ) -> SentMessage:
        """A photo, video, document or audio file (base64 or a URL), with its caption."""
        path = _seg_path("/message/sendMedia/", instance)
        problems = validation.check_instance_name(instance) + validation.check_recipient(number)
        if upload.mediatype not in bodies.MEDIA_TYPES:
            problems.append(Problem("mediatype", "image, video, document or audio"))
        if not upload.media:
            problems.append(Problem("media", "the file is empty"))
        else:
            limit = bodies.MEDIA_LIMITS.get(upload.mediatype, 0)
            size = len(upload.media) * 3 // 4  # base64: four characters per three bytes
            if limit and size > limit and not upload.media.startswith(("http://", "https://")):
                problems.append(
                    Problem("media", f"larger than WhatsApp takes ({limit // 2**20} MB)")
                )
        _require(problems, "POST", path)
        line = await self.line()
        body = line.send_media_body(validation.normalise_number(number), upload, options, quoted)
        # An upload takes its time: the server answers once WhatsApp has the file.
        timeout = self.timeout * 4 + ((options.delay or 0) if options else 0) / 1000
        return await self._model(SentMessage, "POST", path, body=body, call_timeout=timeout)

    async def send_reaction(self, instance: str, key: MessageKey, reaction: str) -> SentMessage:
        """React to a message with an emoji ("" takes the reaction away)."""
        path = _seg_path("/message/sendReaction/", instance)
        problems = validation.check_instance_name(instance) + validation.check_message_key(key)
        _require(problems, "POST", path)
        body = (await self.line()).send_reaction_body(key, reaction)
        return await self._model(SentMessage, "POST", path, body=body)

    async def mark_read(self, instance: str, keys: list[MessageKey]) -> dict[str, Any] | None:
        """Send read receipts (the contacts see them: the app asks only when told to)."""
        path = _seg_path("/chat/markMessageAsRead/", instance)
        problems = validation.check_instance_name(instance)
        if not keys:
            problems.append(Problem("read_messages", "give at least one message"))
        for key in keys:
            problems += validation.check_message_key(key)
        line = await self.line()
        verb = line.verb("mark_read")
        _require(problems, verb, path)

        def parse(response: httpx.Response) -> dict[str, Any] | None:
            return _parse(response, verb, path, _json_object_or_none)

        return await self._call(verb, path, parse, body=line.mark_read_body(keys))

    async def media_of(self, instance: str, message_id: str) -> MediaFile:
        """A media message's file (getBase64FromMediaMessage), decoded."""
        path = _seg_path("/chat/getBase64FromMediaMessage/", instance)
        problems = validation.check_instance_name(instance)
        if not message_id.strip():
            problems.append(Problem("id", "the message id is missing"))
        _require(problems, "POST", path)

        def read(content: bytes) -> MediaFile:
            media = bodies.MediaFile.read(from_json(content))
            if media is None:
                raise ValueError("the answer holds no base64 content")
            return media

        def parse(response: httpx.Response) -> MediaFile:
            return _parse(response, "POST", path, read)

        body = bodies.media_base64_body(message_id)
        return await self._call("POST", path, parse, body=body, call_timeout=self.timeout * 4)

    # --- is it on WhatsApp (campaign checks, issue 14) -------------------------------------------

    async def whatsapp_numbers(self, instance: str, numbers: list[str]) -> list[NumberOnWhatsApp]:
        """Ask which numbers exist on WhatsApp (an open instance only; a real server answers
        500 for one that is not connected). Send at most a few dozen per call."""
        path = _seg_path("/chat/whatsappNumbers/", instance)
        wanted = [validation.normalise_number(number) for number in numbers]
        problems = validation.check_instance_name(instance)
        if not wanted:
            problems.append(Problem("numbers", "give at least one number"))
        elif len(set(wanted)) != len(wanted):
            problems.append(Problem("numbers", "a number is listed twice"))
        _require(problems, "POST", path)

        def parse(response: httpx.Response) -> list[NumberOnWhatsApp]:
            return _parse(response, "POST", path, NUMBERS_ON_WHATSAPP.validate_json)

        return await self._call("POST", path, parse, body={"numbers": wanted})

    # --- the chat store: chats, messages, contacts, statuses (issue 12) ------------------------
    # A 1.7.1 file store ignores almost every filter and has no paging: the filters are sent
    # (a MongoDB-backed server applies them) and then applied again here, and the order is ours.

    async def find_chats(self, instance: str) -> StoreList[StoredChat]:
        """Every stored chat (``[]`` when the server keeps no store)."""
        line = await self.line()
        verb = line.verb("find_chats")
        path = _instance_path("/chat/findChats/", instance, verb)
        return await self._call(
            verb, path, _store_parser(verb, path, line.read_chat), body=line.find_chats_body()
        )

    async def find_messages(
        self,
        instance: str,
        *,
        remote_jid: str | None = None,
        message_id: str | None = None,
        limit: int | None = None,
    ) -> StoreList[StoredMessage]:
        """Stored messages, oldest first: of one chat, or the one with ``message_id``; the last
        ``limit``. No limit is sent: the file store applies it before its (broken) sort."""
        path = _instance_path("/chat/findMessages/", instance, "POST")
        key: dict[str, str] = {}
        if message_id:
            key["id"] = message_id
        if remote_jid:
            key["remoteJid"] = remote_jid
        body = {"where": {"key": key}} if key else {}
        found = await self._store_messages(path, body, StoredMessage.read)
        chosen = [m for m in found if m.id == message_id] if message_id else found
        result: StoreList[StoredMessage] = StoreList(
            messages_of_chat(chosen, remote_jid, limit=limit)
        )
        result.skipped = found.skipped
        return result

    async def find_chat_messages(
        self, instance: str, jid: str, *, limit: int | None = None
    ) -> ChatMessages:
        """One chat's messages, oldest first, read lazily (``ChatMessages``): for long chats."""
        path = _instance_path("/chat/findMessages/", instance, "POST")
        body = {"where": {"key": {"remoteJid": jid}}}
        return await self._messages(
            path, body, lambda items: ChatMessages.of_chat(items, jid, limit), limit=limit
        )

    async def find_chat_page(self, instance: str, jid: str, page: int = 1) -> ChatMessages:
        """One page of a chat's messages, oldest first, for a conversation read as it scrolls.

        2.x pages newest first: page 1 holds the newest ``MESSAGES_PAGE``; the answer's
        ``older_page`` is the next page to ask for (None when there is none) and ``total`` the
        chat's messages on the gateway. A line without pages (1.7.1) answers the whole chat,
        with no older page.
        """
        line = await self.line()
        if not line.paged_messages:
            return await self.find_chat_messages(instance, jid)
        path = _instance_path("/chat/findMessages/", instance, "POST")
        body = {"where": {"key": {"remoteJid": jid}}, "page": page, "offset": MESSAGES_PAGE}
        records, pages, total = await self._read(
            "POST",
            path,
            lambda content: line.messages_page(from_json(content, cache_strings="all")),
            body=body,
        )
        found = _built(lambda items: ChatMessages.of_chat(items, jid), records, path)
        found.older_page = page + 1 if page < pages and records else None
        found.total = total
        return found

    async def find_last_messages(self, instance: str) -> StoreList[StoredMessage]:
        """The newest stored message of each chat (all are read: the store cannot say)."""
        path = _instance_path("/chat/findMessages/", instance, "POST")
        return await self._messages(path, {}, newest_per_chat)

    async def find_message_json(self, instance: str, message_id: str) -> dict[str, Any] | None:
        """The message with ``message_id`` exactly as the store holds it (None: not stored)."""
        path = _instance_path("/chat/findMessages/", instance, "POST")
        body = {"where": {"key": {"id": message_id}}}

        def pick(items: Any) -> dict[str, Any] | None:
            if not isinstance(items, list):
                raise ValueError(f"expected an array, got {type(items).__name__}")
            return next(
                (
                    item
                    for item in items
                    if isinstance(item, dict)
                    and isinstance(item.get("key"), dict)
                    and item["key"].get("id") == message_id
                ),
                None,
            )

        return await self._messages(path, body, pick, parse=json.loads)

    async def find_contacts(self, instance: str, jid: str | None = None) -> StoreList[Contact]:
        path = _instance_path("/chat/findContacts/", instance, "POST")
        line = await self.line()
        body = line.contacts_body(jid)
        found = await self._call(
            "POST", path, _store_parser("POST", path, line.read_contact), body=body
        )
        if jid:
            # The server applies createJid to a number: "5511…" finds "5511…@s.whatsapp.net".
            found[:] = [c for c in found if jid in (c.id, c.id.split("@", 1)[0])]
        return found

    async def find_status_messages(
        self, instance: str, *, message_id: str | None = None, remote_jid: str | None = None
    ) -> StoreList[StatusRow]:
        """Delivery updates; ``remote_jid`` is applied here only (the store ignores it, and a
        server applying it would drop rows written without it)."""
        path = _instance_path("/chat/findStatusMessage/", instance, "POST")
        body = {"where": {"id": message_id}} if message_id else {}
        line = await self.line()
        found = await self._call(
            "POST", path, _store_parser("POST", path, line.read_status_row), body=body
        )
        if message_id or remote_jid:
            found[:] = [
                row
                for row in found
                if (not message_id or row.message_id == message_id)
                and (not remote_jid or row.remote_jid in (None, remote_jid))
            ]
        return found

    async def _store_messages(
        self, path: str, body: dict[str, Any], reader: Callable[[dict[str, Any]], _T | None]
    ) -> StoreList[_T]:
        return await self._messages(path, body, lambda items: read_items(items, reader))

    async def _messages(
        self,
        path: str,
        body: dict[str, Any],
        build: Callable[[Any], _T],
        *,
        limit: int | None = None,
        parse: Callable[[bytes], Any] | None = None,
    ) -> _T:
        """findMessages, its items handed to ``build`` (in the answer's JSON form).

        1.7.1 answers one array. 2.x answers pages, newest first: they are fetched in turn
        until the last, or until ``limit`` messages are in.
        """
        line = await self.line()
        load = parse or (lambda content: from_json(content, cache_strings="all"))
        if not line.paged_messages:
            return await self._read("POST", path, lambda content: build(load(content)), body=body)
        items: list[Any] = []
        page = 1
        while True:
            paged = {**body, "page": page, "offset": MESSAGES_PAGE}
            records, pages, _total = await self._read(
                "POST", path, lambda content: line.messages_page(load(content)), body=paged
            )
            items.extend(records)
            if page >= pages or not records or (limit is not None and len(items) >= limit):
                break
            page += 1
        return _built(build, items, path)

    # --- end of the chat store block ----------------------------------------------------------


# --- helpers ----------------------------------------------------------------------------------


def _seg(instance: str) -> str:
    """An instance name as one path segment (names may hold spaces or slashes)."""
    segment = quote(instance, safe="")
    if segment in (".", ".."):
        # Left as is, URL normalisation would turn "/settings/find/.." into "/settings/".
        segment = segment.replace(".", "%2E")
    return segment


def _seg_path(prefix: str, instance: str) -> str:
    return prefix + _seg(instance)


def _instance_path(prefix: str, instance: str, method: str) -> str:
    path = _seg_path(prefix, instance)
    _require(validation.check_instance_name(instance), method, path)
    return path


def _require(problems: list[Problem], method: str, path: str) -> None:
    if problems:
        raise InvalidRequest(problems, method=method, path=path)


def _group_call(
    prefix: str,
    instance: str,
    group_jid: str,
    method: str,
    more: list[Problem] | None = None,
) -> tuple[str, str]:
    """Path and group JID of a group call, or every problem of its arguments at once."""
    path = _seg_path(prefix, instance)
    problems = (
        validation.check_instance_name(instance)
        + validation.check_group_jid(group_jid)
        + (more or [])
    )
    _require(problems, method, path)
    return path, validation.group_jid_from(group_jid)


def _store_parser(
    method: str, path: str, reader: Callable[[dict[str, Any]], _T | None]
) -> Callable[[httpx.Response], StoreList[_T]]:
    def parse(response: httpx.Response) -> StoreList[_T]:
        # jiter (pydantic's parser) with its string cache: the 27 MB of a 100,000-message
        # answer parse in less time and half the memory of json.loads (repeated JIDs, names
        # and kinds become one string each).
        return _parse(
            response,
            method,
            path,
            lambda content: read_items(from_json(content, cache_strings="all"), reader),
        )

    return parse


def _json_object_or_none(content: bytes) -> dict[str, Any] | None:
    """updateMessage: documented as empty; a real server sends the edit object (kept)."""
    if not content.strip():
        return None
    data = json.loads(content)
    if not isinstance(data, dict):
        raise ValueError(f"expected an object, got {type(data).__name__}")
    return data


def _parse(response: httpx.Response, method: str, path: str, parse: Callable[[bytes], _T]) -> _T:
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


# One bad item is skipped and counted (see api/lists.py), not the whole list lost.
_GROUPS = ListReader(GroupSummary)


async def _parse_list(
    response: httpx.Response, method: str, path: str, reader: ListReader[Any]
) -> PartialList[Any]:
    try:
        items = await reader.read_async(response.content)
    except (ValueError, RecursionError) as exc:  # not a JSON array at all
        items = PartialList(unreadable=[f"not a JSON list: {exc}"])
    if not items and items.unreadable:  # nothing could be read: that is the answer's fault
        raise InvalidResponse(
            messages=items.unreadable[:5], method=method, path=path, status=response.status_code
        )
    return items


_PARTICIPANTS = ListReader(Participant)


def _participant_list(content: bytes) -> PartialList[Participant]:
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


def _built(build: Callable[[Any], _T], items: list[Any], path: str) -> _T:
    try:
        return build(items)
    except (ValueError, RecursionError) as exc:
        raise InvalidResponse(messages=[str(exc)], method="POST", path=path) from None


class _TooLarge(Exception):
    def __init__(self, limit: int) -> None:
        super().__init__(
            f"the answer is larger than {limit // (1024 * 1024)} MB (max_response_mb in "
            "config.toml); the rest was not read"
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
        return InvalidResponse("The gateway's answer is too large", messages=detail, **where)
    if isinstance(exc, TimeoutError):  # the whole call's deadline, not one read's
        return GatewayTimeout(write=is_write, messages=["no complete answer in time"], **where)
    if isinstance(exc, httpx.ConnectError | httpx.ConnectTimeout):
        tls = _tls_cause(exc)
        if isinstance(tls, ssl.SSLCertVerificationError):
            return CertificateRejected(messages=detail, **where)
        if tls is not None:
            return TLSHandshakeFailed(messages=detail, **where)
        return GatewayUnreachable(messages=detail, **where)
    if isinstance(exc, httpx.TimeoutException):
        return GatewayTimeout(write=is_write, messages=detail, **where)
    if is_write:
        # The request may have reached the server before the connection broke.
        return GatewayUnreachable(
            "The connection broke — outcome unknown, check before retrying",
            messages=detail,
            outcome_unknown=True,
            **where,
        )
    return GatewayUnreachable("The connection to the gateway broke", messages=detail, **where)


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
