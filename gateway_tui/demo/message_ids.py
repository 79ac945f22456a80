"""2.4's caller-chosen message ids (``messageId`` on a send): the message is stored under the
id; a send with an id the instance already sent, or is sending, makes no second message.

(2.4's source could not be read here: this follows what issue 33 says of 2.4; the demo
answers such a resend with the first send's 201, which a resend after an unknown outcome
needs.)
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from gateway_tui.demo import chats as chat_store
from gateway_tui.demo import versions
from gateway_tui.demo.data import CHOSEN_MESSAGE_ID, Instance
from gateway_tui.demo.errors import GatewayError

if TYPE_CHECKING:
    from gateway_tui.demo.app import Call

Reply = tuple[int, Any]


def chosen_id(call: Call) -> str | None:
    """The ``messageId`` a 2.4 caller chose for this send (None before 2.4 or when none)."""
    if not versions.at_least(call.state, "2.4.0"):
        return None
    body = call.body if isinstance(call.body, dict) else {}
    chosen = body.get("messageId")
    if chosen is not None and (not isinstance(chosen, str) or not chosen.strip()):
        raise GatewayError(400, [["messageId is not of a type(s) string"]])
    return chosen


def sent_answer_of(instance: Instance, chosen: str) -> Reply | None:
    for chat in instance.chats.values():
        found = chat.find(chosen)
        if found is not None and found.key["fromMe"]:
            data = chat_store.message_json(instance, found)
            return 201, {
                "key": found.key,
                "message": data["message"],
                "messageTimestamp": str(found.timestamp),
                "status": found.status,
            }
    return None


async def send_once(call: Call, instance: Instance, send: Callable[[], Awaitable[Reply]]) -> Reply:
    """2.4 lets the caller choose a send's ``messageId``: the message is stored under it, and
    a send with an id this instance already sent (or is sending) makes no second message: the
    demo answers the first one's 201 again (a resend after an unknown outcome)."""
    chosen = chosen_id(call)
    if chosen is None:
        return await send()
    key = (instance.name, chosen)
    while (first := call.state.sending.get(key)) is not None:
        await first.wait()  # the same id's first send is still under way
    if again := sent_answer_of(instance, chosen):
        return again
    done = call.state.sending[key] = asyncio.Event()
    CHOSEN_MESSAGE_ID.set(chosen)
    try:
        return await send()
    finally:
        del call.state.sending[key]
        done.set()
