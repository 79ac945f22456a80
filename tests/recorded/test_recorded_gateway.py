"""The recorded gateway chooses the closest recording, and answers other routes as a real one."""

from __future__ import annotations

import httpx
import pytest

from gateway_tui.core.api import GatewayClient, ListMessage, ListRow, ListSection, SendListRequest
from gateway_tui.core.api.errors import BadRequest, GatewayError
from gateway_tui.core.api.models import SendListOptions
from tests.recorded.gateway import (
    GLOBAL_KEY,
    RecordedGateway,
    cannot,
    folder_licence,
    folder_release,
    folders,
    load,
)

# Every release recorded whose routes answer (a 2.4 without a licence answers 503 to all) and
# whose folders hold the basic set these tests choose from (the 12 operations' folder: an
# unknown route, a wrong key, an unknown instance name, the 1.7.1-shaped sendList).
_GATED = {folder_release(f) for f in folders() if folder_licence(f) == "inactive"}
_NEEDED = {"unknown-route", "fetchInstances-wrong-apikey", "fetchInstances-by-instanceName-unknown"}
OPEN_RELEASES = sorted(
    release
    for release in {folder_release(f) for f in folders()} - _GATED
    if _NEEDED <= {r.name for r in load(release)}
)
pytestmark = pytest.mark.parametrize("version", OPEN_RELEASES)


def _get(gateway: RecordedGateway, path: str, key: str | None = GLOBAL_KEY, **kw) -> httpx.Response:
    headers = {"apikey": key} if key else {}
    with httpx.Client(transport=gateway.transport(), base_url="http://gw.test") as client:
        return client.request(kw.pop("method", "GET"), path, headers=headers, **kw)


def test_an_unknown_route_gets_the_real_servers_own_404(version: str) -> None:
    recorded = next(r for r in load(version) if r.name == "unknown-route")
    gateway = RecordedGateway.of(version)
    answer = _get(gateway, "/not/recorded")
    assert answer.status_code == 404
    assert gateway.answered_by() == [None]
    # The same envelope and wording as the real server's answer to its unknown route.
    expected = recorded.response_body
    assert answer.json() == expected | {"response": {"message": ["Cannot GET /not/recorded"]}}
    assert cannot("PUT", "/x", "a=b")["response"]["message"] == ["Cannot PUT /x?a=b"]


def test_the_key_decides_first(version: str) -> None:
    gateway = RecordedGateway.of(version)
    assert _get(gateway, "/instance/fetchInstances").status_code == 200
    wrong = next(r for r in load(version) if r.name == "fetchInstances-wrong-apikey")
    assert _get(gateway, "/instance/fetchInstances", key=wrong.api_key).status_code == 401
    assert gateway.answered_by()[1] == wrong.id


def test_the_query_decides_among_the_same_route(version: str) -> None:
    unknown = next(r for r in load(version) if r.name == "fetchInstances-by-instanceName-unknown")
    gateway = RecordedGateway.of(version)
    answer = _get(gateway, "/instance/fetchInstances", params=unknown.query)
    assert answer.status_code == 404
    assert gateway.answered_by() == [unknown.id]


def test_a_verb_the_line_does_not_have_is_a_404(version: str) -> None:
    gateway = RecordedGateway.of(version)
    other = "POST" if version.startswith("1.") else "PUT"
    answer = _get(gateway, "/group/revokeInviteCode/evo-a", method=other)
    assert answer.status_code == 404
    assert answer.json()["response"]["message"][0].startswith(f"Cannot {other} ")


def _list_request() -> SendListRequest:
    rows = [ListRow(title="Row 1", description="d1", row_id="r1")]
    message = ListMessage(
        title="List title",
        description="List description",
        button_text="Open",
        footer_text="footer",
        sections=[ListSection(title="Section 1", rows=rows)],
    )
    options = SendListOptions(delay=1200, presence="composing")
    return SendListRequest(number="5511999999999", list_message=message, options=options)


async def test_the_log_says_which_shape_reached_which_server(version: str) -> None:
    """A 1.7.1-only client's sendList on each release: on 2.x the body is the 1.7.1 shape, which
    a real 2.x refuses (400 requires "title"); on 1.7.1 the valid one (not connected)."""
    gateway = RecordedGateway.of(version)
    async with GatewayClient(
        "http://gw.test",
        GLOBAL_KEY,
        transport=gateway.transport(),
        retry_delays=(),
        api_version="1",  # a client that speaks 1.7.1 only, as before the 2.x issue
    ) as client:
        with pytest.raises(GatewayError) as info:
            await client.messages.send_list("evo-a", _list_request())
    (answered,) = gateway.log
    assert answered.recording is not None
    if version.startswith("2."):
        assert answered.recording.name in ("sendList-1.7.1-shape", "sendList-1.7.1-nested-shape")
        assert isinstance(info.value, BadRequest)
        assert 'instance requires property "title"' in " ".join(info.value.messages)
    else:
        assert answered.recording.name == "sendList-valid-disconnected"
        assert info.value.instance_not_connected
