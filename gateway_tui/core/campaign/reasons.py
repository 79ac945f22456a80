"""Why a recipient is where it is, and why a run stopped, as the campaign STORES it: a code with
parameters, never a sentence. It is put into words when shown, in the reader's language, so a
campaign started in one language and resumed in another reads in the second.

What the gateway said (its error line, a number it refused) is data: a parameter, never
translated. A journal written before codes holds English sentences: such a record is a
``Reason`` with ``text`` and no code, shown as it is.

In the journal a reason is ``{"code": "no_answer", "p": {"status": 504, "message": "…"}}``; a
parameter may itself be a reason (a stop "after the same failure" names that failure).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from gateway_tui.core.api.errors import (
    BadRequest,
    CertificateRejected,
    Forbidden,
    GatewayError,
    GatewayTimeout,
    GatewayUnreachable,
    InvalidRequest,
    InvalidResponse,
    LicenseRequired,
    NotFound,
    ServerError,
    TLSHandshakeFailed,
    Unauthorized,
)
from gateway_tui.core.text.i18n import N_, _, ngettext, number
from gateway_tui.core.text.sanitize import mask_secrets

MAX_CODE = 40  # longer is not a code of ours
MAX_DEPTH = 3  # a reason inside a reason inside a reason: no deeper


@dataclass(frozen=True, slots=True)
class Reason:
    code: str = ""
    params: Mapping[str, Any] = field(default_factory=dict)
    text: str = ""  # an old journal's sentence (no code): shown as it is

    def __bool__(self) -> bool:
        return bool(self.code or self.text)

    def __str__(self) -> str:
        return self.render()

    def render(self) -> str:
        """In words, in the current language."""
        if not self.code:
            return self.text
        render = _RENDER.get(self.code)
        if render is None:  # written by a later version: its code and data, never nothing
            return self.code + (" " + _compact(self.params) if self.params else "")
        try:
            return render({key: _shown(value) for key, value in self.params.items()})
        except (KeyError, ValueError, TypeError, IndexError):  # damaged parameters
            return self.code + " " + _compact(self.params)

    def key(self) -> str:
        """What makes two reasons "the same" whatever the language (numbers left out)."""
        return re.sub(r"[0-9]+", "#", self.code + _compact(self.params) + self.text)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"code": self.code}
        if self.params:
            data["p"] = {key: _to_json(value) for key, value in self.params.items()}
        return data

    @classmethod
    def from_json(cls, data: Any) -> Reason:
        """From a journal's ``reason`` (checked by ``problem`` first) or an old ``err`` text."""
        if isinstance(data, str):
            return cls(text=data)
        params = data.get("p") or {}
        return cls(str(data["code"]), {key: _from_json(value) for key, value in params.items()})

    def masked(self) -> Reason:
        """Secrets a gateway echoed (a key in its error line) never reach the disk."""
        params = {
            key: mask_secrets(value)
            if isinstance(value, str)
            else value.masked()
            if isinstance(value, Reason)
            else value
            for key, value in self.params.items()
        }
        return Reason(self.code, params, mask_secrets(self.text))


def problem(data: Any, depth: int = 0) -> str:
    """Why a journal's ``reason`` cannot be used ("" when it can)."""
    if not isinstance(data, dict):
        return _("not a reason")
    code = data.get("code")
    if not isinstance(code, str) or not 0 < len(code) <= MAX_CODE:
        return _("its code is not one")
    params = data.get("p", {})
    if not isinstance(params, dict):
        return _("its parameters are not an object")
    for value in params.values():
        if isinstance(value, dict):
            if depth >= MAX_DEPTH or (why := problem(value, depth + 1)):
                return why or _("reasons nested too deep")
        elif value is not None and not isinstance(value, str | int | float | bool):
            return _("a parameter is neither text nor a number")
    return ""


def _to_json(value: Any) -> Any:
    return value.to_json() if isinstance(value, Reason) else value


def _from_json(value: Any) -> Any:
    return Reason.from_json(value) if isinstance(value, dict) else value


def _shown(value: Any) -> Any:
    if isinstance(value, Reason):
        return value.render()
    return "" if value is None else value


def _compact(params: Mapping[str, Any]) -> str:
    return json.dumps({k: _to_json(v) for k, v in params.items()}, ensure_ascii=False)


# --- what a gateway call's failure is stored as -------------------------------------------------

# The failure's kind (the code), in words; the gateway's own line follows it, as data.
_GATEWAY_TITLES = {
    "refused": N_("Refused by the gateway"),
    "not_on_whatsapp": N_("{number} is not on WhatsApp"),
    "key_refused": N_("The gateway refused the API key"),
    "key_not_allowed": N_("The API key is missing or not allowed here"),
    "not_found": N_("The gateway answered not found"),
    "license": N_("The gateway needs activation (503 LICENSE_REQUIRED)"),
    "server_error": N_("The gateway had an internal error"),
    "certificate": N_("The gateway's TLS certificate was not accepted"),
    "tls": N_("The TLS handshake with the gateway failed"),
    "connection_broke": N_(
        "The connection broke while sending: outcome unknown, check the chat before sending again"
    ),
    "unreachable": N_("The gateway cannot be reached"),
    "no_answer": N_("No answer in time: outcome unknown, check the chat before sending again"),
    "timeout": N_("The gateway did not answer in time"),
    "unreadable_answer": N_("The gateway's answer could not be read"),
    "not_valid": N_("Not sent: the request is not valid"),
    "answered": N_("The gateway answered {status}"),
    "call_failed": N_("The gateway call failed"),
}


def _gateway_code(error: GatewayError) -> str:
    if error.not_on_whatsapp:
        return "not_on_whatsapp"
    kinds: list[tuple[type[GatewayError], str]] = [
        (InvalidRequest, "not_valid"),
        (BadRequest, "refused"),
        (InvalidResponse, "unreadable_answer"),
        (Unauthorized, "key_refused"),
        (LicenseRequired, "license"),
        (ServerError, "server_error"),
        (NotFound, "not_found"),
        (CertificateRejected, "certificate"),
        (TLSHandshakeFailed, "tls"),
    ]
    for cls, code in kinds:
        if isinstance(error, cls):
            return code
    if isinstance(error, Forbidden):  # a name taken is a Forbidden too: no campaign sends one
        return "key_not_allowed"
    if isinstance(error, GatewayUnreachable):
        return "connection_broke" if error.outcome_unknown else "unreachable"
    if isinstance(error, GatewayTimeout):
        return "no_answer" if error.outcome_unknown else "timeout"
    if error.status is not None and type(error) is GatewayError:
        return "answered"
    return "call_failed"


def gateway_reason(error: GatewayError) -> Reason:
    """A failed call, as stored: its kind, the status, the gateway's first line (data)."""
    code = _gateway_code(error)
    params: dict[str, Any] = {}
    if error.status is not None:
        params["status"] = error.status
    if code == "not_on_whatsapp":
        params["number"] = error.not_on_whatsapp[0]
    elif error.messages:
        params["message"] = error.messages[0]
    if error.instance_not_connected:
        params["not_connected"] = True
    return Reason(code, params)


def _gateway(code: str) -> Callable[[Mapping[str, Any]], str]:
    def render(p: Mapping[str, Any]) -> str:
        what = _(_GATEWAY_TITLES[code]).format(status=p.get("status", ""), number=p.get("number"))
        if p.get("message"):
            what = _("{what}: {message}").format(what=what, message=p["message"])
        if p.get("not_connected"):
            what = _(
                "{what} — the instance is probably not connected (its status is not open)"
            ).format(what=what)
        return what

    return render


# --- everything else the campaign stores ---------------------------------------------------------


def _stop_key(p: Mapping[str, Any]) -> str:
    return ngettext(
        "Stopped: the gateway refused the API key on the last call. Nothing more was sent; "
        "fix the key, then resume.",
        "Stopped: the gateway refused the API key on the last {n} calls. Nothing more was "
        "sent; fix the key, then resume.",
        p["calls"],
    ).format(n=number(p["calls"]))


def _stop_not_connected(p: Mapping[str, Any]) -> str:
    return ngettext(
        "Stopped: instance {instance} is not connected (the last call was refused for it). "
        "Connect it, then resume.",
        "Stopped: instance {instance} is not connected (the last {n} calls were refused for "
        "it). Connect it, then resume.",
        p["calls"],
    ).format(instance=p["instance"], n=number(p["calls"]))


def _stop_unreachable(p: Mapping[str, Any]) -> str:
    return ngettext(
        "Stopped: the gateway could not be reached on the last call ({error}). Resume when "
        "it is back.",
        "Stopped: the gateway could not be reached on the last {n} calls ({error}). Resume "
        "when it is back.",
        p["calls"],
    ).format(n=number(p["calls"]), error=p["error"])


def _stop_same_failure(p: Mapping[str, Any]) -> str:
    return _(
        "Stopped: the last {n} recipients were all refused the same way ({error}). Check the "
        "message and the list, then resume."
    ).format(n=number(p["n"]), error=p["error"])


def _stop_no_answer(p: Mapping[str, Any]) -> str:
    return _(
        "Stopped: the gateway gave no answer to the last {n} sends. Those recipients are held "
        "as unknown; check their chats, then resume."
    ).format(n=number(p["n"]))


_RENDER: dict[str, Callable[[Mapping[str, Any]], str]] = {
    **{code: _gateway(code) for code in _GATEWAY_TITLES},
    "no_outcome": lambda p: _("no outcome recorded"),
    "line_unreadable": lambda p: _("journal line {line} unreadable").format(line=number(p["line"])),
    "journal_cannot_tell": lambda p: _("the journal cannot tell"),
    "line_cut": lambda p: _("its journal line was cut short: held"),
    "skipped": lambda p: _("held, then skipped"),
    "interrupted": lambda p: _("interrupted while sending"),
    "cancelled": lambda p: _("cancelled by the user"),
    "output_closed": lambda p: _("stopped: the output was closed (its reader went away)"),
    "stop_key": _stop_key,
    "stop_not_connected": _stop_not_connected,
    "stop_unreachable": _stop_unreachable,
    "stop_same_failure": _stop_same_failure,
    "stop_no_answer": _stop_no_answer,
    "stop_not_tried": lambda p: _(
        "Stopped: some recipients could not be tried (the gateway refused the calls for "
        "everyone). Resume to try them again."
    ),
}

NO_OUTCOME = Reason("no_outcome")
JOURNAL_CANNOT_TELL = Reason("journal_cannot_tell")
LINE_CUT = Reason("line_cut")
SKIPPED = Reason("skipped")
INTERRUPTED = Reason("interrupted")
CANCELLED = Reason("cancelled")
OUTPUT_CLOSED = Reason("output_closed")
