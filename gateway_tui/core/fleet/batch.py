"""Acting on many instances at once: restart, connect, log out or delete each, once.

Each target is called exactly once, in order; nothing is repeated on its own (a call with an
unknown outcome — a timeout on a write — is reported so, never retried). A failure is that
row's result and the batch goes on; a batch given up midway (cancelled) reports the rows it did
not reach as not done. No Textual here.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class BatchAction(StrEnum):
    RESTART = "restart"
    CONNECT = "connect"
    LOGOUT = "logout"
    DELETE = "delete"

    @property
    def words(self) -> str:
        return {"logout": "log out"}.get(self.value, self.value)


@dataclass(frozen=True, slots=True)
class Target:
    gateway: str
    instance: str

    def __str__(self) -> str:
        return f"{self.gateway} / {self.instance}"


class Outcome(StrEnum):
    DONE = "done"
    FAILED = "failed"
    UNKNOWN = "outcome unknown"  # a write with no answer: check before trying again
    NOT_DONE = "not done"  # the batch was given up before this row


@dataclass(frozen=True, slots=True)
class RowResult:
    target: Target
    outcome: Outcome
    text: str

    @property
    def ok(self) -> bool:
        return self.outcome is Outcome.DONE


def confirmation(action: BatchAction, targets: list[Target]) -> str:
    """The one question, naming every target."""
    names = ", ".join(str(target) for target in targets)
    return f"{action.words.capitalize()} {len(targets)} instance(s): {names}?"


def typed_confirmation(targets: list[Target]) -> str:
    """What a delete asks to be typed: the number of instances, so no stray key deletes."""
    return f"delete {len(targets)}"


async def call_client(client: Any, action: BatchAction, instance: str) -> Any:
    """The one client call per action (the fleet's only writes)."""
    instances = client.instances
    if action is BatchAction.RESTART:
        return await instances.restart(instance)
    if action is BatchAction.CONNECT:
        return await instances.connect(instance)
    if action is BatchAction.LOGOUT:
        return await instances.logout(instance)
    return await instances.delete(instance)


async def run_batch(
    action: BatchAction,
    targets: list[Target],
    call: Callable[[Target], Awaitable[Any]],
    *,
    on_result: Callable[[RowResult], None] | None = None,
) -> list[RowResult]:
    """Call ``call`` once per target, in order; one result per target, whatever happens."""
    from gateway_tui.core.api.errors import GatewayError

    results: list[RowResult] = []

    def record(result: RowResult) -> None:
        results.append(result)
        if on_result is not None:
            on_result(result)

    for index, target in enumerate(targets):
        try:
            await call(target)
        except asyncio.CancelledError:
            record(RowResult(target, Outcome.UNKNOWN, "given up during the call: check it"))
            for rest in targets[index + 1 :]:
                record(RowResult(rest, Outcome.NOT_DONE, "not done: the batch was given up"))
            raise
        except GatewayError as error:
            outcome = Outcome.UNKNOWN if error.outcome_unknown else Outcome.FAILED
            record(RowResult(target, outcome, error.summary))
        except Exception as error:  # noqa: BLE001 - one row's bug must not hide the others
            record(RowResult(target, Outcome.FAILED, f"unexpected error: {type(error).__name__}"))
        else:
            record(RowResult(target, Outcome.DONE, f"{action.words}: done"))
    return results
