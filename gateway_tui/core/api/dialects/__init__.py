"""What differs between the two lines of Evolution API, one module per line.

``v1.LINE`` speaks interface 1.7.1, ``v2.LINE`` the 2.x line (2.3.6 as recorded). A ``Dialect``
holds every difference the client meets: verbs, request bodies and the readers of answers whose
shape changed. ``GatewayClient`` asks its dialect and never tests for a version itself.

Which line a gateway speaks is told by its answers: ``sniff_instances`` reads the shape of a
fetchInstances answer (1.7.1 wraps each row in ``{"instance": …}``, 2.x sends flat rows), and
``line_of_version`` reads GET /'s ``version``.
"""

from __future__ import annotations

import re

from gateway_tui.core.api.dialects.base import Dialect
from gateway_tui.core.api.dialects.v1 import LINE as V1
from gateway_tui.core.api.dialects.v2 import LINE as V2
from gateway_tui.core.text.i18n import _

__all__ = [
    "V1",
    "V2",
    "Dialect",
    "dialect_named",
    "line_of_version",
    "list_message_notes",
    "list_message_warning",
    "sniff_instances",
]


def _list_messages_unshown() -> str:
    """The capabilities table's sentence (core/api/capabilities.py: versions and issues)."""
    from gateway_tui.core.api.capabilities import limit_named

    return limit_named("list_messages_unshown").sentence()


def list_message_warning(version: str | None) -> str | None:
    """What to tell a user about to send a list message through a gateway of ``version``."""
    from gateway_tui.core.api.capabilities import limits_for

    if any(limit.key == "list_messages_unshown" for limit in limits_for(version)):
        return _("This gateway is {version}: {limit}.").format(
            version=version.strip(), limit=_list_messages_unshown()
        )
    return None


def list_message_notes(line: Dialect, version: str | None) -> list[str]:
    """What a user sending list messages through a gateway of this line (and ``version``, when
    known) must know: the composer and every campaign, in the app or on the command line."""
    if line.line != "2":
        return []
    notes = [
        _(
            "Evolution API 2.x: the footer is required, the description optional; presence is "
            "not sent (the gateway always shows typing during the delay)."
        )
    ]
    from gateway_tui.core.api.capabilities import version_note

    if note := version_note(version):  # newer than the capabilities table knows
        notes.append(f"{note}.")
    warning = list_message_warning(version)
    if warning:
        notes.append(warning)
    elif version is None:
        notes.append(
            _("If this gateway is 2.3.0–2.3.7: {limit}.").format(limit=_list_messages_unshown())
        )
    return notes


_V1_ROW = re.compile(rb'^\s*\[\s*\{\s*"instance"\s*:')
_V2_ROW = re.compile(rb'^\s*\[\s*\{\s*"(id|name|connectionStatus)"\s*:')
_V2_FIELD = re.compile(rb'"connectionStatus"\s*:')
_V1_FIELD = re.compile(rb'"instanceName"\s*:')


def sniff_instances(content: bytes) -> Dialect | None:
    """The line a fetchInstances answer comes from, by its shape; None when it cannot tell
    (an empty list, or not a list of objects at all)."""
    head = content[:4096]
    if head.lstrip().startswith(b"{"):
        return V1  # 1.7.1 answers a single object when asked by name; 2.x always a list
    if _V1_ROW.match(head):
        return V1
    if _V2_ROW.match(head):
        return V2
    if _V2_FIELD.search(head):
        return V2
    if _V1_FIELD.search(head):
        return V1
    return None


def line_of_version(version: object) -> Dialect | None:
    """The line of a version string from GET / ("2.3.6" → 2.x); None when it is not one."""
    if not isinstance(version, str):
        return None
    match = re.match(r"\s*v?(\d+)\.", version)
    if not match:
        return None
    return V2 if int(match.group(1)) >= 2 else V1


def dialect_named(name: str | None) -> Dialect | None:
    """A pinned line from the config (``api_version = "2"``, "1", "1.7.1", "2.3.6", "auto")."""
    if name is None or not str(name).strip() or str(name).strip().lower() == "auto":
        return None
    text = str(name).strip()
    found = line_of_version(text if "." in text else text + ".0")
    if found is None:
        raise ValueError(
            _("api_version must be 1, 2 or auto, not {value}").format(value=repr(text))
        )
    return found
