"""Fixtures for the conformance suite against a running gateway (``make conformance``).

One ``LiveGateway`` per test process; each test that changes something gets an instance of
its own (``scratch_instance``), created through the client, never paired. Every instance this
run created is deleted when the session ends, whatever happened (a test process that dies is
the one case left: the names say which run they came from).
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator

import pytest

from gateway_tui.core.api import GatewayClient, GatewayError
from gateway_tui.core.api.lifecycle import CreateInstanceRequest
from tests.real_gateway.live import LiveGateway


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> Iterator[None]:
    """No report of this suite holds the key: a failing assertion's values (`assert key not in
    text` shows both), a repr in a traceback, locals under ``-l``, captured output. Whatever
    shows it, the report is masked before pytest prints it."""
    outcome = yield
    gateway = getattr(item.config, "_live_gateway", None)
    if gateway is None:
        return
    report = outcome.get_result()
    if report.longrepr is not None:
        text = str(report.longrepr)
        if gateway.api_key in text:
            report.longrepr = gateway.mask(text)
    report.sections = [(title, gateway.mask(body)) for title, body in report.sections]


@pytest.fixture(scope="session")
def live_gateway(request: pytest.FixtureRequest) -> Iterator[LiveGateway]:
    gateway = request.config._live_gateway  # type: ignore[attr-defined]
    try:
        yield gateway
    finally:
        left = gateway.clean_up()
        if left:
            pytest.fail(f"instances left behind on the gateway: {sorted(left)}")


@pytest.fixture
async def client(live_gateway: LiveGateway):
    # "auto": the line is told by the gateway's answers, as the app does.
    async with GatewayClient(live_gateway.url, live_gateway.api_key, api_version="auto") as gateway:
        yield gateway


@pytest.fixture
async def scratch_instance(live_gateway: LiveGateway, client: GatewayClient) -> str:
    """A new instance of this run, never paired (deleted at the session's end)."""
    name = live_gateway.new_name()
    request = CreateInstanceRequest(
        instance_name=name,
        token=secrets.token_hex(16),
        qrcode=False,
        integration="WHATSAPP-BAILEYS",
    )
    try:
        created = await client.instances.create(request)
    except GatewayError as error:
        if error.status in (400, 403) and any("already in use" in m for m in error.messages):
            live_gateway.was_taken(name)  # someone else's: the clean-up leaves it alone
        raise
    live_gateway.was_created(name)
    assert created.name == name
    return name
