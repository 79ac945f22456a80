"""Paths of the gateway's routes: an instance name as one path segment, and every problem of
a call's arguments raised at once, before anything is sent."""

from __future__ import annotations

from urllib.parse import quote

from gateway_tui.core.api import validation
from gateway_tui.core.api.errors import InvalidRequest, Problem

# Routes that read, though sent as POST (their filter travels in the body): a failure there
# changed nothing on the gateway, so it is said as a failed read, safe to try again.
READS_BY_POST = (
    "/chat/findChats/",
    "/chat/findMessages/",
    "/chat/findContacts/",
    "/chat/findStatusMessage/",
    "/chat/fetchProfile/",
    "/chat/whatsappNumbers/",
)


def is_read(method: str, path: str) -> bool:
    """True for a call that changes nothing on the gateway: a GET, or a read sent as POST."""
    return method == "GET" or (method == "POST" and path.startswith(READS_BY_POST))


def segment(instance: str) -> str:
    """An instance name as one path segment (names may hold spaces or slashes)."""
    segment = quote(instance, safe="")
    if segment in (".", ".."):
        # Left as is, URL normalisation would turn "/settings/find/.." into "/settings/".
        segment = segment.replace(".", "%2E")
    return segment


def seg_path(prefix: str, instance: str) -> str:
    return prefix + segment(instance)


def instance_path(prefix: str, instance: str, method: str) -> str:
    path = seg_path(prefix, instance)
    require(validation.check_instance_name(instance), method, path)
    return path


def require(problems: list[Problem], method: str, path: str) -> None:
    if problems:
        raise InvalidRequest(problems, method=method, path=path)


def group_call(
    prefix: str,
    instance: str,
    group_jid: str,
    method: str,
    more: list[Problem] | None = None,
) -> tuple[str, str]:
    """Path and group JID of a group call, or every problem of its arguments at once."""
    path = seg_path(prefix, instance)
    problems = (
        validation.check_instance_name(instance)
        + validation.check_group_jid(group_jid)
        + (more or [])
    )
    require(problems, method, path)
    return path, validation.group_jid_from(group_jid)
