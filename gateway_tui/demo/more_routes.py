"""The routes of group administration, labels, contacts and more kinds of message, per line,
for demo/app.py (1.7.1) and demo/v2.py (2.x) to register."""

from __future__ import annotations

from gateway_tui.demo import contacts, group_admin, interactive, labels, message_kinds
from gateway_tui.demo.interactive import with_message_id

ROUTES_1 = (*group_admin.ROUTES_1, *labels.ROUTES_1, *message_kinds.ROUTES_1)
ROUTES_2 = (
    *group_admin.ROUTES_2,
    *labels.ROUTES_2,
    *contacts.ROUTES_2,
    *(
        (method, path, with_message_id(handler) if path.startswith("/message/") else handler)
        for method, path, handler in message_kinds.ROUTES_2
    ),
    *interactive.ROUTES_2,
)
