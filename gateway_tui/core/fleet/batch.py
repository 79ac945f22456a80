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

from gateway_tui.core.text.i18n import N_, _, ngettext, number


class BatchAction(StrEnum):
    RESTART = "restart"
    CONNECT = "connect"
    LOGOUT = "logout"
    DELETE = "delete"

    @property
    def words(self) -> str:
        """The action as a verb in the current language ("log out")."""
        return _(ACTION_WORDS[self])


ACTION_WORDS: dict[BatchAction, str] = {
    BatchAction.RESTART: N_("restart"),
    BatchAction.CONNECT: N_("connect"),
    BatchAction.LOGOUT: N_("log out"),
    BatchAction.DELETE: N_("delete"),
}


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

    @property
    def label(self) -> str:
        return _(OUTCOME_WORDS[self])


OUTCOME_WORDS: dict[Outcome, str] = {
    Outcome.DONE: N_("done"),
    Outcome.FAILED: N_("failed"),
    Outcome.UNKNOWN: N_("outcome unknown"),
    Outcome.NOT_DONE: N_("not done"),
}


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
    n = len(targets)
    said = {
        BatchAction.RESTART: ngettext(
            "Restart {n} instance: {names}?", "Restart {n} instances: {names}?", n
        ),
        BatchAction.CONNECT: ngettext(
            "Connect {n} instance: {names}?", "Connect {n} instances: {names}?", n
        ),
        BatchAction.LOGOUT: ngettext(
            "Log out {n} instance: {names}?", "Log out {n} instances: {names}?", n
        ),
        BatchAction.DELETE: ngettext(
            "Delete {n} instance: {names}?", "Delete {n} instances: {names}?", n
        ),
    }[action]
    return said.format(n=number(n), names=names)


def typed_confirmation(targets: list[Target]) -> str:
    """What a delete asks to be typed: the number of instances, so no stray key deletes."""
    return _("delete {n}").format(n=len(targets))


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
            record(RowResult(target, Outcome.UNKNOWN, _("given up during the call: check it")))
            for rest in targets[index + 1 :]:
                record(RowResult(rest, Outcome.NOT_DONE, _("not done: the batch was given up")))
            raise
        except GatewayError as error:
            outcome = Outcome.UNKNOWN if error.outcome_unknown else Outcome.FAILED
            record(RowResult(target, outcome, error.summary))
        except Exception as error:  # noqa: BLE001 - one row's bug must not hide the others
            record(
                RowResult(
                    target,
                    Outcome.FAILED,
                    _("unexpected error: {error}").format(error=type(error).__name__),
                )
            )
        else:
            record(RowResult(target, Outcome.DONE, _("{action}: done").format(action=action.words)))
    return results
