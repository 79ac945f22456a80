"""What the newer demo routes share: how a call that needs the WhatsApp session fails on an
instance that is not open, which line the demo speaks, and the per-server bag they keep.

A real server has two "not connected" flavours (../shared/recordings/README.md): an instance
created since the server started has no socket at all, so the session call fails as
``TypeError: Cannot read properties of undefined (reading '<method>')``; one whose socket keeps
trying (created with ``qrcode: true`` and no internet; the demo's ``connecting``, or a zombie:
demo/conditions.py) fails as ``Error: Connection Closed``. Each route wraps that text its own
way (a bare string, a list, a labelled list), as recorded.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from gateway_tui.demo import versions
from gateway_tui.demo.conditions import CONNECTION_CLOSED
from gateway_tui.demo.data import DemoState, Instance
from gateway_tui.demo.errors import GatewayError

if TYPE_CHECKING:
    from gateway_tui.demo.app import Call

Reply = tuple[int, Any]
Handler = Callable[["Call", Instance], Any]


def failure_text(instance: Instance, client_method: str) -> str:
    """The session's error, ``TypeError: …`` or ``Error: Connection Closed``."""
    if instance.status == "connecting" or instance.zombie:
        return CONNECTION_CLOSED
    return f"TypeError: Cannot read properties of undefined (reading '{client_method}')"


def bare(text: str) -> str:
    """The error's message without its class, as routes that answer a string show it."""
    return text.removeprefix("TypeError: ").removeprefix("Error: ")


def require_open(
    instance: Instance, client_method: str, failure: Callable[[str], GatewayError]
) -> None:
    if instance.status != "open" or instance.zombie:
        raise failure(failure_text(instance, client_method))


def plain_500(text: str) -> GatewayError:
    """sendPoll, sendLocation, … answer the bare message: 500 "Connection Closed"."""
    return GatewayError(500, bare(text))


def labelled(status: int, label: str) -> Callable[[str], GatewayError]:
    return lambda text: GatewayError(status, [label, text])


def is_v2(state: DemoState) -> bool:
    return state.api_version.startswith("2")


def is_v24(state: DemoState) -> bool:
    """2.4 (``--api-version 2.4.0``): buttons' new rules, carousels, …"""
    return versions.at_least(state, "2.4.0")


def unknown_route(call: Call) -> GatewayError:
    """The Express 404 of a route this line does not have."""
    request = call.request
    target = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    return GatewayError(404, [f"Cannot {request.method} {target}"])


def only_on_24(handler: Handler) -> Handler:
    """A 2.4 route: older 2.x lines answer their 404 ``Cannot POST …``."""

    async def guarded(call: Call, instance: Instance) -> Reply:
        if not is_v24(call.state):
            raise unknown_route(call)
        return await handler(call, instance)

    guarded.__name__ = handler.__name__
    return guarded


@dataclass
class Extras:
    """Per server: presences shown (chat JID, presence), played receipts, poll votes."""

    presences: list[tuple[str, str]] = field(default_factory=list)
    played: list[str] = field(default_factory=list)
    # poll message id → {voter JID: [option names]}
    poll_votes: dict[str, dict[str, list[str]]] = field(default_factory=dict)


def extras(state: DemoState) -> Extras:
    if state.extras is None:
        state.extras = Extras()
    return state.extras


def body_of(call: Call) -> dict[str, Any]:
    return call.body if isinstance(call.body, dict) else {}
