"""A 2.x restart of an instance that is not open answers 200 {"error": true, "message":
"[object Object]"} (recorded): read as the refusal it is, not as "no state" (issue 29, item 8)."""

from __future__ import annotations

import json

import httpx
import pytest

from gateway_tui.core.api.client import GatewayClient
from gateway_tui.core.api.errors import RefusedIn200, refusal_in_body
from tests.support import RECORDINGS

RECORDED = RECORDINGS / "v2.3.6-more/016-restart-lc3-never-connected.json"


async def test_the_recorded_200_error_is_a_refusal_saying_not_connected() -> None:
    rec = json.loads(RECORDED.read_text())

    def answer(request: httpx.Request) -> httpx.Response:
        assert (request.method, request.url.path) == (rec["method"], rec["path"])
        return httpx.Response(rec["status"], json=rec["response_body"])

    transport = httpx.MockTransport(answer)
    async with GatewayClient(
        "http://gateway.test", "k", transport=transport, retry_delays=(), api_version="2"
    ) as client:
        events: list = []
        client.subscribe(events.append)
        with pytest.raises(RefusedIn200) as info:
            await client.instances.restart("lc-3")
    error = info.value
    # The request log says it failed too (it said "200 ok" beside the app's "Not restarted").
    assert len(events) == 1 and not events[0].ok and events[0].error == error.title
    assert isinstance(error, RefusedIn200)
    assert error.status == 200 and error.instance_not_connected
    assert "[object Object]" not in error.summary
    assert "lc-3 is not connected" in error.summary


def test_a_200_without_error_is_no_refusal_and_a_real_message_is_kept() -> None:
    assert refusal_in_body({"count": 0}, lost_message="x") is None
    said = refusal_in_body({"error": True, "message": "Connection Closed"}, lost_message="x")
    assert said is not None and said[1] == "Connection Closed"
    lost = refusal_in_body({"error": True, "message": "[object Object]"}, lost_message="x")
    assert lost is not None and lost[1] == "x"


async def test_the_instance_screen_says_not_restarted_on_2x() -> None:
    from gateway_tui.demo.server import DemoServer
    from gateway_tui.tui.screens.confirm import ConfirmScreen
    from gateway_tui.tui.screens.instance import InstanceScreen
    from tests.support import make_app, make_config, wait_for

    with DemoServer(api_version="2.3.6") as server:
        app = make_app(make_config(server))
        said: list[str] = []  # every notice, kept (a toast expires)
        shown = app.notify
        app.notify = lambda message, *a, **kw: (
            said.append(str(message)),
            shown(message, *a, **kw),
        )[1]
        async with app.run_test(size=(120, 36)) as pilot:
            await wait_for(pilot, lambda: bool(app.state.instances.value))
            app.open_instance("onboarding")  # closed: never paired
            await wait_for(pilot, lambda: isinstance(app.screen, InstanceScreen))
            await pilot.press("R")
            await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
            await pilot.press("y")
            await wait_for(pilot, lambda: any("Not restarted" in n for n in said))
            assert not any("empty answer" in n for n in said)
