"""The in-process demo (tests/in_process.py) fails the way the demo on a socket does."""

from __future__ import annotations

import pytest

from gateway_tui.core.api import GatewayClient
from gateway_tui.demo.server import DemoServer
from tests.in_process import InProcessDemo
from tests.support import wait_for


async def _outcome(demo: DemoServer, kind: str, **rule) -> tuple[type, int]:
    """The error class a fault gives the client, and how many requests the demo served."""
    demo.faults.add(kind, method="GET", path_prefix="/instance/fetchInstances", **rule)
    transport = demo.transport() if isinstance(demo, InProcessDemo) else None
    # The line pinned: on "auto" the client also asks GET / beside the first call, and
    # whether that request is counted before the fault ends the call depends on timing.
    client = GatewayClient(
        demo.url,
        demo.api_key,
        transport=transport,
        timeout=1.0,
        retry_delays=(),
        api_version="1",
    )
    async with client:
        with pytest.raises(Exception) as caught:
            await client.instances.fetch()
    return type(caught.value), len(demo.requests)


@pytest.mark.parametrize(
    ("kind", "rule"),
    [("drop_connection", {}), ("stall", {"seconds": 5.0}), ("malformed_json", {})],
)
async def test_a_fault_is_the_same_error_in_process_as_on_a_socket(kind, rule):
    with DemoServer() as served:
        on_socket = await _outcome(served, kind, **rule)
    with InProcessDemo() as in_process:
        assert await _outcome(in_process, kind, **rule) == on_socket


@pytest.mark.in_process
async def test_the_app_reads_the_in_process_demo_without_a_port(app_for, demo_server):
    """Marked in_process: the fixture is an InProcessDemo and the app's calls reach it."""
    assert isinstance(demo_server, InProcessDemo) and not demo_server.running
    app = app_for()
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
    assert [r[2] for r in demo_server.requests][:1] == ["/instance/fetchInstances"]
    assert {i.instance_name for i in app.state.instances.value} == set(demo_server.state.instances)
