"""What the client tells its listeners after every call (the request log is built on it)."""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from gateway_tui.core.text.i18n import ngettext, number
from gateway_tui.core.text.sanitize import mask_secrets

KEY_PLACEHOLDER = "$GATEWAY_API_KEY"
# Headers whose value is a secret: the log keeps their name only.
SECRET_HEADERS = frozenset(
    {"apikey", "authorization", "cookie", "set-cookie", "proxy-authorization"}
)
REDACTED = "•••• (redacted)"
# How much of a response body the log keeps (the log holds hundreds of calls).
BODY_CAP_BYTES = 16_384

Headers = tuple[tuple[str, str], ...]


def redacted_headers(headers: Any) -> Headers:
    """``headers`` (name, value pairs) with every secret value replaced."""
    return tuple(
        (name, REDACTED if name.lower() in SECRET_HEADERS else value)
        for name, value in headers.items()
    )


# Fields of a body that hold a key: an instance's own key comes back in fetchInstances
# ("apikey", "token") and in create ("hash": {"apikey": …}).
_SECRET_NAME = re.compile(r'"(?:apikey|token|hash)"\s*:', re.IGNORECASE)
# The string value written as an unrolled loop: the same match as (?:[^"\\]|\\.)*, in half the
# time (this runs on every call's body).
_SECRET_VALUE = re.compile(
    r'("(?:apikey|token|hash)"\s*:\s*)"[^"\\]*(?:\\.[^"\\]*)*"', re.IGNORECASE
)


def capped_body(content: bytes) -> str:
    """A response body as text for the log: cut at ``BODY_CAP_BYTES`` (with a note of what was
    left out), every secret field's value redacted. Done on the kept text only, by pattern, so
    a 4.6 MB list costs no parse; a secret whose value the cut splits is cut off before it."""
    text = mask_secrets(content[:BODY_CAP_BYTES].decode("utf-8", errors="replace"))
    text = _SECRET_VALUE.sub(lambda match: f'{match[1]}"{REDACTED}"', text)
    last = None
    for last in _SECRET_NAME.finditer(text):  # noqa: B007 - the last one is wanted
        pass
    if last is not None and not text[last.end() :].lstrip().startswith((f'"{REDACTED}"', "{")):
        text = text[: last.start()]
    if len(content) > BODY_CAP_BYTES:
        left = len(content) - len(text.encode())
        text += "\n… " + ngettext("{n} more byte not kept", "{n} more bytes not kept", left).format(
            n=number(left)
        )
    return text


@dataclass(frozen=True, slots=True)
class CallEvent:
    """One finished call. Holds no secret: the key lives only in the client's headers."""

    method: str
    path: str
    url: str
    started_at: datetime
    elapsed_ms: float
    status: int | None = None
    error: str | None = None
    error_lines: tuple[str, ...] = ()
    request_body: Any = field(default=None, repr=False)
    request_id: str = ""
    attempt: int = 1
    request_headers: Headers = field(default=(), repr=False)
    response_headers: Headers = field(default=(), repr=False)
    response_body: str | None = field(default=None, repr=False)  # capped_body()
    response_size: int = 0

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def unreachable(self) -> bool:
        return self.status is None and self.error is not None

    def as_curl(self) -> str:
        """The call as a curl command that reads the key from the environment."""
        return curl_command(self.method, self.url, self.request_body)


def curl_command(method: str, url: str, body: Any = None) -> str:
    """A curl command for a call; the key is read from ``$GATEWAY_API_KEY``, never written."""
    parts = ["curl", "-sS", "-X", method, shlex.quote(url)]
    # Double quotes so the shell expands the variable; the key itself is never written here.
    parts += ["-H", f'"apikey: {KEY_PLACEHOLDER}"']
    if body is not None:
        parts += ["-H", shlex.quote("Content-Type: application/json")]
        parts += ["--data", shlex.quote(json.dumps(body, ensure_ascii=False))]
    return " ".join(parts)
