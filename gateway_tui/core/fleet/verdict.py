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
from gateway_tui.core.text.i18n import N_, _, clock, date_time
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


@dataclass(frozen=True, slots=True)
class Said:
    """A sentence twice: in English (what ``health --json`` writes, byte for byte in every
    language: scripts read it) and in the current language (what a person reads)."""

    english: str
    text: str


def say(msgid: str, **params: Any) -> Said:
    """``msgid`` (a literal marked ``N_`` by the caller) with its placeholders filled: plain
    values as they are, a :class:`Said` in its English or its translated form."""
    return Said(
        msgid.format(**{k: v.english if isinstance(v, Said) else v for k, v in params.items()}),
        _(msgid).format(**{k: v.text if isinstance(v, Said) else v for k, v in params.items()}),
    )


def _time(moment: datetime) -> Said:
    local = moment.astimezone()
    return Said(f"{local:%H:%M:%S}", clock(local))


def _minute(moment: datetime) -> Said:
    local = moment.astimezone()
    return Said(f"{local:%Y-%m-%d %H:%M}", date_time(local))


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
        return self.said().english

    def said(self) -> Said:
        return say(
            N_("{source} said {status} at {time}"),
            source=self.source,
            status=self.says,
            time=_time(self.at),
        )

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
    flapping_said: str | None = None  # the same in the current language

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
    # ``reason`` in the current language (``reason`` itself stays English: --json writes it).
    said: str = ""

    @property
    def words(self) -> str:
        """The reason as a person reads it, in the current language."""
        return self.said or self.reason

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
            reason = say(
                N_("listed open ({listed}), but {live}"),
                listed=listed.said(),
                live=disagreeing.said(),
            )
            return _with_flapping(_judgement(Verdict.ZOMBIE, reason, facts), evidence)
        failure = evidence.send_failure
        if failure is not None and not any(f.at > failure.at and f.says == OPEN for f in live):
            reason = say(
                N_("listed open ({listed}), but a send at {time} failed: {error}"),
                listed=listed.said(),
                time=_time(failure.at),
                error=failure.says,
            )
            return _with_flapping(_judgement(Verdict.ZOMBIE, reason, facts), evidence)
    # Agreeing sources: the newest live fact, else the list's.
    current = live[0] if live else listed
    if current is None:
        return _judgement(Verdict.CLOSED, say(N_("no source said anything about it")), facts)
    status = current.says
    if status == OPEN:
        judgement = _judgement(Verdict.OK, say(N_("open")), facts)
    elif status == "connecting":
        judgement = _judgement(
            Verdict.CONNECTING,
            say(N_("connecting (a QR code to scan, or WhatsApp to answer)")),
            facts,
        )
    else:
        judgement = _judgement(Verdict.CLOSED, _closed_reason(status, evidence), facts)
    return _with_flapping(judgement, evidence)


def _judgement(
    verdict: Verdict, reason: Said, facts: tuple[Fact, ...] = (), **more: Any
) -> Judgement:
    return Judgement(verdict, reason.english, facts, said=reason.text, **more)


def _closed_reason(status: str, evidence: InstanceEvidence) -> Said:
    last = evidence.disconnection
    if last is None:
        if status == "close":
            return say(N_("the gateway stored no disconnection"))
        return say(N_("status {status!r}; the gateway stored no disconnection"), status=status)
    words = Said(last.words, last.said())
    if last.at is None:
        if status == "close":
            return say(N_("last disconnection {reason}"), reason=words)
        return say(
            N_("status {status!r}; last disconnection {reason}"), status=status, reason=words
        )
    if status == "close":
        return say(N_("last disconnection {reason} at {time}"), reason=words, time=_minute(last.at))
    return say(
        N_("status {status!r}; last disconnection {reason} at {time}"),
        status=status,
        reason=words,
        time=_minute(last.at),
    )


def _with_flapping(judgement: Judgement, evidence: InstanceEvidence) -> Judgement:
    if not evidence.flapping:
        return judgement
    reason = say(
        N_("{reason}; flapping ({changes})"),
        reason=Said(judgement.reason, judgement.words),
        changes=Said(evidence.flapping, evidence.flapping_said or evidence.flapping),
    )
    return Judgement(
        judgement.verdict,
        reason.english,
        judgement.facts,
        judgement.register_url,
        {**judgement.extra, "flapping": evidence.flapping},
        reason.text,
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
        said = _licence_reason(url, licence_status)
        return _judgement(Verdict.LICENCE, said, register_url=url)
    if isinstance(error, Unauthorized | Forbidden):
        return _judgement(
            Verdict.UNAUTHORIZED,
            say(
                N_("the API key was refused ({status}): check the profile's key"),
                status=error.status,
            ),
        )
    if isinstance(error, GatewayUnreachable):
        return _judgement(Verdict.UNREACHABLE, say(N_("down: {error}"), error=error.summary))
    if isinstance(error, GatewayTimeout):
        return _judgement(Verdict.UNREACHABLE, say(N_("no answer in time")))
    if isinstance(error, NotFound) and error.no_gateway_api:
        return _judgement(
            Verdict.UNREACHABLE, say(N_("no gateway API at this URL (404 on fetchInstances)"))
        )
    if isinstance(error, GatewayError):
        return _judgement(
            Verdict.UNREACHABLE, say(N_("cannot list its instances: {error}"), error=error.summary)
        )
    return _judgement(
        Verdict.UNREACHABLE, say(N_("unexpected error: {error}"), error=type(error).__name__)
    )


def _licence_reason(url: str | None, status: str | None) -> Said:
    if status and url:
        return say(
            N_(
                "the gateway is not activated (GET /license/status: {status}); every call "
                "answers 503 LICENSE_REQUIRED: activate it at {url}"
            ),
            status=status,
            url=url,
        )
    if status:
        return say(
            N_(
                "the gateway is not activated (GET /license/status: {status}); every call "
                "answers 503 LICENSE_REQUIRED"
            ),
            status=status,
        )
    if url:
        return say(
            N_(
                "the gateway is not activated; every call answers 503 LICENSE_REQUIRED: "
                "activate it at {url}"
            ),
            url=url,
        )
    return say(N_("the gateway is not activated; every call answers 503 LICENSE_REQUIRED"))
