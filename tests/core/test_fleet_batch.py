"""Acting on many: each call once, a result per row, a failure midway leaves the rest
reported; against the demo gateway, five restarts send five calls."""

from __future__ import annotations

import asyncio

import pytest

from gateway_tui.core.api.errors import GatewayTimeout, NotFound
from gateway_tui.core.fleet.batch import (
    BatchAction,
    Outcome,
    Target,
    call_client,
    confirmation,
    run_batch,
)

TARGETS = [Target("prod", f"i-{n}") for n in range(5)]


async def test_each_target_is_called_once_and_a_failure_midway_leaves_the_rest_reported() -> None:
    calls: list[Target] = []

    async def call(target: Target) -> None:
        calls.append(target)
        if target.instance == "i-1":
            raise NotFound(messages=['The "i-1" instance does not exist'], status=404)
        if target.instance == "i-2":
            raise GatewayTimeout(write=True)
        if target.instance == "i-3":
            raise RuntimeError("a bug")

    seen = []
    results = await run_batch(BatchAction.RESTART, TARGETS, call, on_result=seen.append)
    assert calls == TARGETS  # once each, in order
    assert [r.outcome for r in results] == [
        Outcome.DONE,
        Outcome.FAILED,
        Outcome.UNKNOWN,  # a write with no answer: never retried, said so
        Outcome.FAILED,
        Outcome.DONE,
    ]
    assert "does not exist" in results[1].text
    assert results[3].text == "unexpected error: RuntimeError"
    assert seen == results


async def test_a_batch_given_up_reports_the_rows_it_did_not_reach() -> None:
    started = asyncio.Event()
    calls: list[Target] = []

    async def call(target: Target) -> None:
        calls.append(target)
        if target.instance == "i-2":
            started.set()
            await asyncio.Event().wait()

    seen = []
    task = asyncio.create_task(run_batch(BatchAction.LOGOUT, TARGETS, call, on_result=seen.append))
    await asyncio.wait_for(started.wait(), 30)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert len(calls) == 3
    assert [r.outcome for r in seen] == [
        Outcome.DONE,
        Outcome.DONE,
        Outcome.UNKNOWN,
        Outcome.NOT_DONE,
        Outcome.NOT_DONE,
    ]


def test_the_confirmation_names_them_all() -> None:
    text = confirmation(BatchAction.DELETE, TARGETS)
    assert all(str(target) in text for target in TARGETS)
    assert text.startswith("Delete 5 instances")


@pytest.mark.parametrize("action", list(BatchAction))
async def test_five_instances_get_five_calls_on_the_demo(demo_server, action: BatchAction) -> None:
    from gateway_tui.core.client_factory import client_for
    from gateway_tui.core.files.config import ResolvedConfig

    names = sorted(demo_server.state.instances)[:5]
    config = ResolvedConfig(url=demo_server.url, api_key=None)
    client = client_for(config, api_key=demo_server.api_key)
    sent = []
    unsubscribe = client.subscribe(lambda event: sent.append((event.method, event.path)))
    async with client:
        results = await run_batch(
            action,
            [Target("demo", name) for name in names],
            lambda target: call_client(client, action, target.instance),
        )
    unsubscribe()
    assert len(results) == 5
    writes = [call for call in sent if call[1] != "/"]
    assert len(writes) == 5
    assert sorted(path.rsplit("/", 1)[1] for _, path in writes) == names
