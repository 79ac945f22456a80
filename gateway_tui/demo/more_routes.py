"""The routes of group administration, labels, contacts and more kinds of message, per line,
for demo/app.py (1.7.1) and demo/v2.py (2.x) to register. Every 2.x send takes 2.4's
caller-chosen ``messageId`` (demo/message_ids.py)."""

from __future__ import annotations

from typing import Any

from gateway_tui.demo import contacts, group_admin, interactive, labels, message_ids, message_kinds


def _once(handler: Any) -> Any:
    """A send: on 2.4 a ``messageId`` sent again makes no second message."""

    async def send(call: Any, instance: Any) -> Any:
        return await message_ids.send_once(call, instance, lambda: handler(call, instance))

    send.__name__ = handler.__name__
    return send


ROUTES_1 = (*group_admin.ROUTES_1, *labels.ROUTES_1, *message_kinds.ROUTES_1)
ROUTES_2 = tuple(
    (method, path, _once(handler) if path.startswith("/message/") else handler)
    for method, path, handler in (
        *group_admin.ROUTES_2,
        *labels.ROUTES_2,
        *contacts.ROUTES_2,
        *message_kinds.ROUTES_2,
        *interactive.ROUTES_2,
    )
)
