"""One error hierarchy for everything that can go wrong talking to a gateway.

Every error carries the method and path of the call (never the key) and ``messages``: the
server's ``response.message`` flattened into readable lines, whatever shape it came in.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from gateway_tui.core.text.i18n import N_, _

# Every form in which a real 1.7.1 gateway reports an instance that is not connected, in one
# place. Its instance objects fail in two flavours: created since the server started (no
# socket): "TypeError: Cannot read properties of undefined (reading 'groupMetadata')", or the
# same without "TypeError: " (sendList, fetchProfile); reloaded at start (a socket that never
# opens): "Error: Connection Closed" or bare "Connection Closed", and archiveChat's
# "Error: App state key not present!" (a session that never synced). logout says it plainly:
# 'The "x" instance is not connected'. Not a bare "disconnected": deleting an *open* instance
# answers that it "needs to be disconnected", which is the opposite case.
_NOT_CONNECTED = re.compile(
    r"cannot read propert(y|ies)\b"
    r"|\bconnection closed\b"
    r"|\bnot connected\b"
    r"|\bapp state key not present\b"
    r"|(?<!to be )(?<!must be )\bdisconnected\b",
    re.IGNORECASE,
)
# Deeper than this, a `response.message` is shown as one compact line instead of being walked.
_MAX_DEPTH = 8
NOT_CONNECTED_HINT = N_("The instance is probably not connected (its status is not open).")


@dataclass(frozen=True, slots=True)
class Problem:
    """One reason a request is refused, tied to the field it is about ("" when general)."""

    field: str
    message: str

    def __str__(self) -> str:
        return f"{self.field}: {self.message}" if self.field else self.message


def _flatten(message: Any, depth: int = 0) -> Iterable[str]:
    """Yield readable lines from each `response.message` shape the behaviour spec lists."""
    if message is None:
        return
    if depth > _MAX_DEPTH:
        yield _compact(message)
        return
    if isinstance(message, str):
        if message.strip():
            yield message
        return
    if isinstance(message, list):
        for item in message:
            yield from _flatten(item, depth + 1)
        return
    if isinstance(message, dict):
        if message.get("exists") is False:  # sendList / fetchProfile to a number not on WhatsApp
            who = message.get("number") or message.get("jid")
            if who:
                yield _("{number} is not on WhatsApp").format(number=_text(who))
            else:
                yield _("the number is not on WhatsApp")
            return
        if "property" in message:  # group endpoint validation
            text = message.get("message")
            lines = list(_flatten(text, depth + 1)) or [_("is invalid")]
            for line in lines:
                yield f"{_text(message['property'])}: {line}"
            return
        if "message" in message:  # archiveChat failure: {"archived": false, "message": [...]}
            yield from _flatten(message["message"], depth + 1)
            return
    # Anything else is shown as compact JSON rather than dropped.
    yield _compact(message)


def _text(value: Any) -> str:
    return value if isinstance(value, str) else _compact(value)


def _compact(value: Any, limit: int = 500) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ": "))
    except (TypeError, ValueError, RecursionError):
        text = _("({kind} too deep to show)").format(kind=type(value).__name__)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def normalise_messages(message: Any) -> list[str]:
    """Turn any `response.message` value into a list of human-readable lines."""
    return list(_flatten(message))


def field_problems(message: Any) -> list[Problem]:
    """Field-tied problems from the property-shaped validation errors of group endpoints."""
    if not isinstance(message, list):
        return []
    return [
        Problem(
            _text(item["property"]), "; ".join(_flatten(item.get("message"))) or _("is invalid")
        )
        for item in message
        if isinstance(item, dict) and "property" in item
    ]


def numbers_not_on_whatsapp(message: Any) -> list[str]:
    """The numbers a sendList / fetchProfile error says are not on WhatsApp."""
    if not isinstance(message, list):
        return []
    return [
        _text(item.get("number") or item.get("jid") or "")
        for item in message
        if isinstance(item, dict) and item.get("exists") is False
    ]


class GatewayError(Exception):
    """Base of every error the client raises."""

    default_title = N_("The gateway call failed")

    def __init__(
        self,
        title: str | None = None,
        *,
        method: str = "",
        path: str = "",
        status: int | None = None,
        reason: str | None = None,
        messages: list[str] | None = None,
        problems: list[Problem] | None = None,
        not_on_whatsapp: list[str] | None = None,
        outcome_unknown: bool = False,
    ) -> None:
        # Titles are English msgids on the class; said in the language of the moment it failed.
        self.title = title or _(self.default_title)
        self.method = method
        self.path = path
        self.status = status
        self.reason = reason
        self.messages = messages or []
        self.problems = problems or []
        self.not_on_whatsapp = not_on_whatsapp or []
        # True for a write whose fate is unknown (timeout, broken connection): never retry blindly.
        self.outcome_unknown = outcome_unknown
        super().__init__(self.summary)

    @property
    def instance_not_connected(self) -> bool:
        """The server's text shows an instance that is not connected.

        Only for an answer from the server: a transport error such as "Server disconnected"
        is about the gateway, not about the instance.
        """
        if self.status is None:
            return False
        return any(_NOT_CONNECTED.search(line) for line in self.messages)

    @property
    def hint(self) -> str | None:
        """One plain-words sentence on what to do, when there is one to say."""
        if self.instance_not_connected:
            return _(NOT_CONNECTED_HINT)
        return None

    @property
    def where(self) -> str:
        return f"{self.method} {self.path}".strip()

    @property
    def summary(self) -> str:
        """The title and the server's first line, for a notification."""
        first = self.messages[0] if self.messages else None
        return f"{self.title}: {first}" if first else self.title

    def details(self) -> list[str]:
        """Everything known, line by line, for a "show the server's lines" panel."""
        lines = [self.title]
        if self.where:
            status = f" → {self.status}" if self.status is not None else ""
            lines.append(f"{self.where}{status}")
        lines.extend(self.messages)
        if self.hint:
            lines.append(self.hint)
        return lines


class BadRequest(GatewayError):
    default_title = N_("The gateway refused the request")


class Unauthorized(GatewayError):
    default_title = N_("The API key was not accepted — check your API key")


class Forbidden(GatewayError):
    default_title = N_("The API key is missing or not allowed here — check your API key")


class NameTaken(GatewayError):
    """A create refused because the instance name is taken: a real gateway answers it 403
    ``This name "x" is already in use.`` (recorded on 1.7.1 and 2.3.6) — nothing to do with
    the API key."""

    default_title = N_("That instance name is already in use on this gateway — choose another name")


_NAME_TAKEN = re.compile(r"\bname\b.*\balready in use\b", re.IGNORECASE)


class NotFound(GatewayError):
    default_title = N_("Not found")

    @property
    def route_missing(self) -> bool:
        """True when the server does not have this route at all (an optional endpoint)."""
        return says_route_missing(self.messages)

    @property
    def no_gateway_api(self) -> bool:
        """The server has no instance list here: the URL does not lead to a gateway's API."""
        return self.route_missing and self.path.startswith(GATEWAY_WIDE_PATHS)


# Calls about the gateway as a whole; every other path names one instance.
GATEWAY_WIDE_PATHS = ("/instance/fetchInstances", "/instance/create")


def says_route_missing(lines: Iterable[str]) -> bool:
    """A 404's lines say the server has no such route ("Cannot GET /x"), not "no such thing"."""
    return any(line.startswith("Cannot ") for line in lines)


class ServerError(GatewayError):
    default_title = N_("The gateway had an internal error")


class LicenseRequired(ServerError):
    """2.4 answers every business call with 503 LICENSE_REQUIRED until it is activated."""

    default_title = N_(
        "The gateway needs activation: Evolution API 2.4 refuses calls (503 LICENSE_REQUIRED) "
        "until its server is activated with a license — ask whoever runs it"
    )
    # Where it is activated: the 503's own ``register_url`` (v2.4.0-rc2/004), when it gave one.
    register_url: str | None = None


class GatewayUnreachable(GatewayError):
    default_title = N_("The gateway cannot be reached")


class CertificateRejected(GatewayUnreachable):
    """The gateway's certificate is not trusted here (self-signed, expired, another name)."""

    default_title = N_("The gateway's TLS certificate was not accepted")


class TLSHandshakeFailed(GatewayUnreachable):
    """TLS failed before any certificate was judged: https:// to a plain http port, say."""

    default_title = N_("The TLS handshake with the gateway failed")


class GatewayTimeout(GatewayError):
    default_title = N_("The gateway did not answer in time")

    def __init__(self, title: str | None = None, *, write: bool = False, **kwargs: Any) -> None:
        if write and title is None:
            # A write may have happened on the server: the user must look before trying again.
            title = _("No answer in time — outcome unknown, check before retrying")
        super().__init__(title, outcome_unknown=write, **kwargs)


class RefusedIn200(BadRequest):
    """A refusal in a 2xx answer, with that answer's status: 2.x's 200 ``{"error": true,
    "message": …}`` (a restart of an instance that is not connected: its own error swallowed
    into "[object Object]"), ``{"revoked": false}``, ``{"send": false}``, a label not put on.
    A resource's ``refusal`` finds it; the transport raises it (transport.refused_or)."""

    default_title = N_("The gateway refused it (in a 200 answer)")


def refusal_in_body(
    body: dict[str, Any], *, lost_message: str, title: str | None = None
) -> tuple[str, str] | None:
    """The refusal a 2xx answer's body carries (``"error": true``) as (title, the server's
    line), else None; the transport raises it as RefusedIn200. A message the server lost
    ("[object Object]") is replaced by ``lost_message``: what it means there."""
    if body.get("error") is not True:
        return None
    message = body.get("message")
    if not isinstance(message, str) or not message.strip() or message == "[object Object]":
        message = lost_message
    return title or _(RefusedIn200.default_title), message


class InvalidResponse(GatewayError):
    default_title = N_("The gateway sent an answer that could not be read")


class InvalidRequest(GatewayError):
    """Refused before sending: the server is known to reject this request."""

    default_title = N_("Not sent: the request is not valid")

    def __init__(self, problems: list[Problem], **kwargs: Any) -> None:
        # "Not sent" reads as "the message was not sent": a read says what did not happen.
        if kwargs.get("method") == "GET":
            self.not_done = _("The gateway was not asked")
            kwargs.setdefault("title", _("The gateway was not asked: the request is not valid"))
        else:
            self.not_done = _("Not sent")
            kwargs.setdefault("title", _("Not sent: the request is not valid"))
        super().__init__(problems=problems, messages=[str(p) for p in problems], **kwargs)


_ERROR_BY_STATUS: dict[int, type[GatewayError]] = {
    400: BadRequest,
    401: Unauthorized,
    403: Forbidden,
    404: NotFound,
}


def error_for_response(
    status: int, body: Any, *, method: str, path: str, raw_text: str = ""
) -> GatewayError:
    """Build the typed error for an HTTP error status and its (already decoded) body."""
    cls = _ERROR_BY_STATUS.get(status) or (ServerError if status >= 500 else GatewayError)
    reason = None
    message: Any = None
    if isinstance(body, dict) and isinstance(boom := _boom_payload(body), dict):
        # A Baileys error passed through whole (2.x whatsappNumbers on a closed instance):
        # {"isBoom": true, "output": {"payload": {"error": …, "message": "Connection Closed"}}}
        reason = boom.get("error") if isinstance(boom.get("error"), str) else None
        message = boom.get("message")
    elif isinstance(body, dict):
        reason = body.get("error") if isinstance(body.get("error"), str) else None
        response = body.get("response")
        message = response.get("message") if isinstance(response, dict) else body.get("message")
    elif body is None and raw_text:
        # Not JSON: an HTML error page from a proxy, say. Show its first meaningful line only.
        message = _first_text_line(raw_text)
    elif body is not None:
        message = body
    title = None
    if status == 503 and _mentions(body if body is not None else raw_text, "LICENSE_REQUIRED"):
        cls = LicenseRequired
    if cls is Forbidden and any(_NAME_TAKEN.search(line) for line in normalise_messages(message)):
        cls = NameTaken
    if cls is GatewayError:
        if reason:
            title = _("The gateway answered {status} {reason}").format(status=status, reason=reason)
        else:
            title = _("The gateway answered {status}").format(status=status)
    error = cls(
        title,
        method=method,
        path=path,
        status=status,
        reason=reason,
        messages=normalise_messages(message),
        problems=field_problems(message),
        not_on_whatsapp=numbers_not_on_whatsapp(message),
    )
    if isinstance(error, LicenseRequired) and isinstance(body, dict):
        url = body.get("register_url")
        error.register_url = url if isinstance(url, str) and url.startswith("http") else None
    return error


def _mentions(value: Any, word: str, depth: int = 0) -> bool:
    """``word`` appears in any string of ``value`` (a decoded JSON body, or text)."""
    if isinstance(value, str):
        return word in value
    if depth > 5:
        return False
    if isinstance(value, dict):
        return any(_mentions(v, word, depth + 1) for v in (*value.keys(), *value.values()))
    if isinstance(value, list):
        return any(_mentions(v, word, depth + 1) for v in value[:50])
    return False


def _boom_payload(body: dict[str, Any]) -> Any:
    if body.get("isBoom") is not True or not isinstance(body.get("output"), dict):
        return None
    return body["output"].get("payload")


def _first_text_line(raw: str, limit: int = 200) -> str:
    """The one line worth showing from a page that is not JSON (an HTML error page, say)."""
    # A proxy's error page names the error in its title or first heading.
    for tag in ("title", "h1"):
        match = re.search(rf"<{tag}[^>]*>(.*?)</{tag}\s*>", raw, re.IGNORECASE | re.DOTALL)
        if match and (text := _plain(match.group(1))):
            return text[:limit]
    text = re.sub(r"<(script|style)\b.*?</\1\s*>", " ", raw, flags=re.IGNORECASE | re.DOTALL)
    text = re.sub(r"<[^>]+>", " ", text)
    for line in text.splitlines():
        if line := _plain(line):
            return line[:limit]
    return ""


def _plain(fragment: str) -> str:
    """Text of an HTML fragment on one line: tags dropped, entities decoded, spaces collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())
