"""The verdict on an instance, or on a whole gateway, from evidence — never from a guess.

Evidence is a set of :class:`Fact`: what one source said, and when. An instance is a *zombie*
when two sources disagree about it: fetchInstances (the gateway's database) lists it ``open``
while ``connectionState`` or ``/metrics`` (the WhatsApp library's live socket) says otherwise,
or while sends through it fail with "Connection Closed" / "not connected". Both facts are kept,
with their times, so the reason shows them side by side.

A gateway that cannot list its instances is judged as a whole: ``licence`` (2.4's 503
LICENSE_REQUIRED, with the register URL), ``unauthorized`` (the key was refused) or
``unreachable`` (down, or not a gateway's API). No Textual here, and no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

from gateway_tui.core.fleet.reasons import Disconnection
from gateway_tui.core.text.sanitize import printable


class Verdict(StrEnum):
    OK = "ok"
    CONNECTING = "connecting"
    CLOSED = "closed"
    ZOMBIE = "zombie"
    LICENCE = "licence"
    UNREACHABLE = "unreachable"
    UNAUTHORIZED = "unauthorized"


# Trouble first: what is broken and hidden, then what is down, then what is merely closed.
SEVERITY: dict[Verdict, int] = {
    Verdict.ZOMBIE: 0,
    Verdict.UNREACHABLE: 1,
    Verdict.UNAUTHORIZED: 2,
    Verdict.LICENCE: 3,
    Verdict.CLOSED: 4,
    Verdict.CONNECTING: 5,
    Verdict.OK: 6,
}

OPEN = "open"
# Sources, as the reason names them.
LISTED = "fetchInstances"
STATE = "connectionState"
METRICS = "/metrics"
SEND = "send"


@dataclass(frozen=True, slots=True)
class Fact:
    """What one source said about an instance, and when we heard it."""

    source: str
    says: str
    at: datetime

    def text(self) -> str:
        return f"{self.source} said {self.says} at {self.at.astimezone():%H:%M:%S}"

    def as_json(self) -> dict[str, Any]:
        return {"source": self.source, "says": self.says, "at": self.at.isoformat()}


@dataclass(slots=True)
class InstanceEvidence:
    """Everything known about one instance at one refresh."""

    name: str
    listed: Fact | None = None  # fetchInstances' status
    state: Fact | None = None  # connectionState, when asked
    metrics: Fact | None = None  # evolution_instance_state, when the gateway exposes it
    send_failure: Fact | None = None  # the last send refused as "not connected" while listed open
    disconnection: Disconnection | None = None
    number: str | None = None
    flapping: str | None = None  # "4 changes in 10 min", from the history of refreshes

    def facts(self) -> tuple[Fact, ...]:
        return tuple(f for f in (self.listed, self.state, self.metrics, self.send_failure) if f)


@dataclass(frozen=True, slots=True)
class Judgement:
    verdict: Verdict
    reason: str
    facts: tuple[Fact, ...] = ()
    # For a licence-gated gateway: where it is activated (its own 503 says).
    register_url: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        """Open and steady: a flapping instance is trouble even while it is open."""
        return self.verdict is Verdict.OK and not self.extra.get("flapping")


def _live_facts(evidence: InstanceEvidence) -> list[Fact]:
    """The sources that read the WhatsApp library's socket, newest first."""
    facts = [f for f in (evidence.state, evidence.metrics) if f is not None]
    return sorted(facts, key=lambda f: f.at, reverse=True)


def judge_instance(evidence: InstanceEvidence) -> Judgement:
    """The verdict on one instance; the reason names the facts it rests on."""
    facts = evidence.facts()
    listed = evidence.listed
    live = _live_facts(evidence)
    if listed is not None and listed.says == OPEN:
        disagreeing = next((f for f in live if f.says != OPEN), None)
        if disagreeing is not None:
            reason = f"listed open ({listed.text()}), but {disagreeing.text()}"
            return _with_flapping(Judgement(Verdict.ZOMBIE, reason, facts), evidence)
        failure = evidence.send_failure
        if failure is not None and not any(f.at > failure.at and f.says == OPEN for f in live):
            when = f"{failure.at.astimezone():%H:%M:%S}"
            reason = f"listed open ({listed.text()}), but a send at {when} failed: {failure.says}"
            return _with_flapping(Judgement(Verdict.ZOMBIE, reason, facts), evidence)
    # Agreeing sources: the newest live fact, else the list's.
    current = live[0] if live else listed
    if current is None:
        return Judgement(Verdict.CLOSED, "no source said anything about it", facts)
    status = current.says
    if status == OPEN:
        judgement = Judgement(Verdict.OK, "open", facts)
    elif status == "connecting":
        judgement = Judgement(
            Verdict.CONNECTING, "connecting (a QR code to scan, or WhatsApp to answer)", facts
        )
    else:
        judgement = Judgement(Verdict.CLOSED, _closed_reason(status, evidence), facts)
    return _with_flapping(judgement, evidence)


def _closed_reason(status: str, evidence: InstanceEvidence) -> str:
    said = "" if status == "close" else f"status {status!r}; "
    last = evidence.disconnection
    if last is None:
        return f"{said}the gateway stored no disconnection"
    when = f" at {last.at.astimezone():%Y-%m-%d %H:%M}" if last.at else ""
    return f"{said}last disconnection {last.words}{when}"


def _with_flapping(judgement: Judgement, evidence: InstanceEvidence) -> Judgement:
    if not evidence.flapping:
        return judgement
    return Judgement(
        judgement.verdict,
        f"{judgement.reason}; flapping ({evidence.flapping})",
        judgement.facts,
        judgement.register_url,
        {**judgement.extra, "flapping": evidence.flapping},
    )


def judge_gateway_error(error: BaseException, *, licence_status: str | None = None) -> Judgement:
    """The verdict on a gateway whose instance list could not be read."""
    from gateway_tui.core.api.errors import (
        Forbidden,
        GatewayError,
        GatewayTimeout,
        GatewayUnreachable,
        LicenseRequired,
        NotFound,
        Unauthorized,
    )

    if isinstance(error, LicenseRequired):
        url = error.register_url and printable(error.register_url)[:300]
        status = f" (GET /license/status: {licence_status})" if licence_status else ""
        where = f": activate it at {url}" if url else ""
        reason = (
            f"the gateway is not activated{status}; every call answers 503 LICENSE_REQUIRED{where}"
        )
        return Judgement(Verdict.LICENCE, reason, register_url=url)
    if isinstance(error, Unauthorized | Forbidden):
        return Judgement(
            Verdict.UNAUTHORIZED,
            f"the API key was refused ({error.status}): check the profile's key",
        )
    if isinstance(error, GatewayUnreachable):
        return Judgement(Verdict.UNREACHABLE, f"down: {error.summary}")
    if isinstance(error, GatewayTimeout):
        return Judgement(Verdict.UNREACHABLE, "no answer in time")
    if isinstance(error, NotFound) and error.no_gateway_api:
        return Judgement(Verdict.UNREACHABLE, "no gateway API at this URL (404 on fetchInstances)")
    if isinstance(error, GatewayError):
        return Judgement(Verdict.UNREACHABLE, f"cannot list its instances: {error.summary}")
    return Judgement(Verdict.UNREACHABLE, f"unexpected error: {type(error).__name__}")
