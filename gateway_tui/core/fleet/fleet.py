"""Every gateway at once: their probes read concurrently (a slow or dead one delays nobody:
each reading is handed on as soon as it is in), flapping and alerts applied, rows sorted with
trouble first. Shared by the fleet screen and ``gateway-tui health``."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from functools import cached_property
from typing import Any

from gateway_tui.core.fleet.alerts import Alert, AlertBook
from gateway_tui.core.fleet.probe import GatewayProbe, GatewayReading, InstanceRow
from gateway_tui.core.fleet.verdict import (
    SEVERITY,
    Verdict,
    judge_gateway_error,
    judge_instance,
)
from gateway_tui.core.text.i18n import date_time

OnReading = Callable[[GatewayReading, list[Alert]], None]


class Fleet:
    def __init__(self, probes: Iterable[GatewayProbe], book: AlertBook | None = None) -> None:
        self.probes: dict[str, GatewayProbe] = {probe.gateway: probe for probe in probes}
        self.book = book or AlertBook()
        self.readings: dict[str, GatewayReading] = {}

    async def refresh(self, on_reading: OnReading | None = None) -> list[GatewayReading]:
        """Read every gateway at once; ``on_reading`` gets each as soon as it is in."""
        done: list[GatewayReading] = []

        async def one(probe: GatewayProbe) -> None:
            reading = await self.read_one(probe, on_reading)
            done.append(reading)

        await asyncio.gather(*(one(probe) for probe in self.probes.values()))
        return done

    async def read_one(
        self, probe: GatewayProbe, on_reading: OnReading | None = None
    ) -> GatewayReading:
        """Read one gateway and keep its reading. A bug of ours in one reading is that
        gateway's row (said plainly), never the end of the others'."""
        try:
            reading = await probe.read()
        except asyncio.CancelledError:
            raise
        except Exception as error:  # noqa: BLE001 - one gateway's bug must not hide the rest
            from datetime import UTC

            reading = GatewayReading(
                probe.gateway,
                probe.client.base_url,
                datetime.now(UTC),
                judgement=judge_gateway_error(error),
            )
        alerts = self.apply(reading)
        if on_reading is not None:
            on_reading(reading, alerts)
        return reading

    def apply(self, reading: GatewayReading) -> list[Alert]:
        """Keep ``reading``; mark flapping instances; the alerts it raises."""
        self.readings[reading.gateway] = reading
        book = self.book
        gateway_verdict = reading.judgement.verdict if reading.judgement else None
        reason = reading.judgement.words if reading.judgement else ""
        alerts = book.observe_gateway(reading.gateway, gateway_verdict, reading.at, reason)
        for row in reading.instances:
            alerts += book.observe_instance(
                row.gateway, row.name, row.verdict, reading.at, row.judgement.words
            )
            flapping = book.flapping(row.gateway, row.name, reading.at)
            if flapping:
                row.evidence.flapping = flapping
                row.evidence.flapping_said = book.flapping_said(row.gateway, row.name, reading.at)
                row.judgement = judge_instance(row.evidence)
        return alerts

    async def aclose(self) -> None:
        await asyncio.gather(
            *(probe.aclose() for probe in self.probes.values()), return_exceptions=True
        )


# A flapping instance ranks right after the zombies, whatever its state of the moment.
FLAPPING_SEVERITY = 0.5


def trouble_key(verdict: Verdict, flapping: bool, gateway: str, instance: str | None) -> tuple:
    """Trouble first (zombie, flapping, unreachable, …, ok last), then by name."""
    severity = min(SEVERITY[verdict], FLAPPING_SEVERITY) if flapping else SEVERITY[verdict]
    return (severity, gateway.casefold(), (instance or "").casefold())


def row_key(row: InstanceRow) -> tuple:
    return trouble_key(row.verdict, bool(row.evidence.flapping), row.gateway, row.name)


def health_rows(reading: GatewayReading, *, said: bool = False) -> list[dict[str, Any]]:
    """One object per instance (or one for the gateway when it listed none), as
    ``gateway-tui health --json`` writes them: the reason in English, whatever the language
    (scripts read it). ``said``: the reason in the current language instead (the lines for
    people)."""
    base = {"version": reading.version, "line": reading.line, "at": reading.at.isoformat()}
    if reading.judgement is not None:
        judgement = reading.judgement
        evidence: dict[str, Any] = {**base, "url": reading.url}
        if judgement.register_url:
            evidence["register_url"] = judgement.register_url
        return [
            {
                "gateway": reading.gateway,
                "instance": None,
                "verdict": judgement.verdict.value,
                "reason": judgement.words if said else judgement.reason,
                "evidence": evidence,
            }
        ]
    rows = []
    for row in sorted(reading.instances, key=row_key):
        evidence = {
            **base,
            "source": reading.source,
            "status": row.status,
            "number": row.number,
            "facts": [fact.as_json() for fact in row.judgement.facts],
        }
        if row.disconnection is not None:
            evidence["disconnection"] = {
                "code": row.disconnection.code,
                "words": row.disconnection.words,
                "at": row.disconnection.at.isoformat() if row.disconnection.at else None,
            }
        if row.evidence.flapping:
            evidence["flapping"] = row.evidence.flapping
        if reading.limits:
            evidence["limits"] = [limit.key for limit in reading.limits]
        if reading.notes:
            evidence["notes"] = list(reading.notes)
        rows.append(
            {
                "gateway": reading.gateway,
                "instance": row.name,
                "verdict": row.verdict.value,
                "reason": row.judgement.words if said else row.judgement.reason,
                "evidence": evidence,
            }
        )
    return rows


# --- the fleet table's rows -----------------------------------------------------------------


@dataclass(eq=False)
class FleetRow:
    """One row of the fleet table: an instance, or a gateway that listed none."""

    gateway: str
    instance: str | None
    version: str  # "2.3.6 · 2.x", "" before it is known
    status: str
    number: str
    last_disconnection: str
    new_messages: int | None
    verdict: Verdict
    reason: str
    flapping: bool = False
    at: datetime | None = None
    limits: tuple[str, ...] = ()
    marked: bool = False
    link: str = "polled"
    # Drawn from the rows kept at the last run, before any gateway answered: never current.
    cached: bool = False

    @property
    def key(self) -> str:
        return f"{self.gateway}\x1f{self.instance or ''}"

    @cached_property
    def sort_key(self) -> tuple:
        return trouble_key(self.verdict, self.flapping, self.gateway, self.instance)


def version_text(reading: GatewayReading) -> str:
    """ "2.3.6 · 2.x"; "1.7.1" once (its line's label is its version)."""
    parts = [reading.version, reading.line if reading.line != reading.version else None]
    return " · ".join(part for part in parts if part)


def fleet_rows(
    readings: Iterable[GatewayReading], seen: dict[tuple[str, str], int] | None = None
) -> list[FleetRow]:
    """Every reading's rows, trouble first. ``seen``: the message count of each instance when
    it was last seen (new messages are counted from it)."""
    from gateway_tui.core.text.formatting import format_number

    seen = seen or {}
    rows: list[FleetRow] = []
    for reading in readings:
        version = version_text(reading)
        limits = tuple(limit.key for limit in reading.limits)
        if reading.judgement is not None:
            rows.append(
                FleetRow(
                    reading.gateway,
                    None,
                    version,
                    "—",
                    "",
                    "",
                    None,
                    reading.judgement.verdict,
                    reading.judgement.words,
                    at=reading.at,
                    limits=limits,
                )
            )
            continue
        for row in reading.instances:
            last = row.disconnection
            words = ""
            if last is not None:
                when = f" · {date_time(last.at.astimezone())}" if last.at else ""
                words = f"{last.said()}{when}"
            count = row.message_count
            base = seen.get((row.gateway, row.name))
            new = count - base if count is not None and base is not None else None
            rows.append(
                FleetRow(
                    row.gateway,
                    row.name,
                    version,
                    row.status,
                    format_number(row.number) if row.number else "",
                    words,
                    max(new, 0) if new is not None else None,
                    row.verdict,
                    row.judgement.words,
                    flapping=bool(row.evidence.flapping),
                    at=reading.at,
                    limits=limits,
                )
            )
    rows.sort(key=lambda r: r.sort_key)
    return rows
