"""Reading one gateway for the fleet: its instances, their evidence and their verdicts.

One refresh costs one fetchInstances (and GET / the first time, for the version), one /metrics
where the gateway serves it, and ``connectionState`` only for instances listed ``open`` when
there is no /metrics to tell a zombie by — at most ``state_checks`` of them a refresh, in turn,
never every instance every second. A gateway that cannot list its instances is one reading with
a gateway-level judgement (licence, unauthorized, unreachable).

Every call to the gateway client is in this module (and batch.py): the client is reached
through these few methods only.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from gateway_tui.core.api.capabilities import Limit, limits_for
from gateway_tui.core.fleet.metrics import (
    MAX_BYTES,
    MetricsAuth,
    MetricsReading,
    MetricsUnreadable,
    parse_metrics,
)
from gateway_tui.core.fleet.metrics import PATH as METRICS_PATH
from gateway_tui.core.fleet.reasons import Disconnection
from gateway_tui.core.fleet.verdict import (
    LISTED,
    METRICS,
    SEND,
    STATE,
    Fact,
    InstanceEvidence,
    Judgement,
    Verdict,
    judge_gateway_error,
    judge_instance,
)
from gateway_tui.core.text.sanitize import printable

if TYPE_CHECKING:
    import httpx

    from gateway_tui.core.api.client import GatewayClient

# connectionState calls at once, per gateway.
STATE_CONCURRENCY = 8


def utcnow() -> datetime:
    return datetime.now(UTC)


@dataclass
class InstanceRow:
    """One instance of one gateway, judged."""

    gateway: str
    name: str
    status: str  # as fetchInstances listed it
    judgement: Judgement
    evidence: InstanceEvidence
    number: str | None = None
    message_count: int | None = None
    disconnection: Disconnection | None = None

    @property
    def verdict(self) -> Verdict:
        return self.judgement.verdict


@dataclass
class GatewayReading:
    """One refresh of one gateway."""

    gateway: str
    url: str
    at: datetime
    version: str | None = None
    line: str | None = None  # "1.7.1", "2.x"
    # Set when the gateway could not list its instances: it is then one row.
    judgement: Judgement | None = None
    instances: list[InstanceRow] = field(default_factory=list)
    # How the states were read: "/metrics", "/metrics refused: …", "connectionState", "list only"
    source: str = "list only"
    limits: list[Limit] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.judgement is None and all(row.judgement.ok for row in self.instances)


class GatewayProbe:
    """Reads one gateway, refresh after refresh; owns what it learnt between them (whether
    /metrics exists, which open instances were checked last)."""

    def __init__(
        self,
        gateway: str,
        client: GatewayClient,
        extras: httpx.AsyncClient,
        *,
        metrics_auth: MetricsAuth | None = None,
        state_checks: int | None = None,
        clock: Callable[[], datetime] = utcnow,
    ) -> None:
        self.gateway = gateway
        self.client = client
        self._extras = extras
        self.metrics_auth = metrics_auth
        self.state_checks = state_checks
        self._clock = clock
        # None: not tried yet; False: the gateway has none (404), or refused our credentials.
        self._metrics_served: bool | None = None
        self._metrics_note: str | None = None
        self._rotation = 0
        self._version_read = False
        # instance → the last send refused as "not connected" (cleared by a send that went).
        self.send_failures: dict[str, Fact] = {}

    def note_send(self, instance: str, error: BaseException | None, at: datetime) -> None:
        """A send through ``instance`` went (``error`` None) or failed: a failure saying the
        instance is not connected ("Connection Closed", "not connected") is evidence."""
        from gateway_tui.core.api.errors import GatewayError

        if error is None:
            self.send_failures.pop(instance, None)
        elif isinstance(error, GatewayError) and error.instance_not_connected:
            said = next((line for line in error.messages), error.title)
            self.send_failures[instance] = Fact(SEND, printable(said)[:120], at)

    async def aclose(self) -> None:
        await self.client.aclose()
        await self._extras.aclose()

    async def read(self) -> GatewayReading:
        from gateway_tui.core.api.errors import GatewayError, LicenseRequired

        at = self._clock()
        reading = GatewayReading(self.gateway, self.client.base_url, at)
        root = self._read_version() if not self._version_read else None
        try:
            if root is not None:
                # GET / first: when the line is not pinned, it is the very read the client
                # would start beside fetchInstances (one GET /, not two).
                _, instances = await asyncio.gather(root, self.client.instances.fetch())
            else:
                instances = await self.client.instances.fetch()
        except GatewayError as error:
            self._version_read = False  # read it again once it is back (an upgrade, say)
            status = await self._licence_status() if isinstance(error, LicenseRequired) else None
            reading.judgement = judge_gateway_error(error, licence_status=status)
            self._describe(reading)
            return reading
        metrics = await self._read_metrics() if self._metrics_served is not False else None
        if metrics is not None:
            reading.source = METRICS
            if metrics.version and not self.client.server_version:
                reading.version = metrics.version
        elif self._metrics_note:
            reading.notes.append(self._metrics_note)
        evidence = [self._evidence(instance, metrics, at) for instance in instances]
        if metrics is None:
            checked = await self._check_states(evidence)
            if checked:
                reading.source = STATE
        reading.instances = [
            self._row(instance, ev) for instance, ev in zip(instances, evidence, strict=True)
        ]
        self._describe(reading)
        return reading

    def _describe(self, reading: GatewayReading) -> None:
        reading.version = self.client.server_version or reading.version
        reading.line = self.client.dialect.label if self.client.line_known else None
        reading.limits = limits_for(reading.version)

    async def _read_version(self) -> None:
        """GET / once: beside the first fetchInstances (the client's own reading of it when the
        line is not pinned), or asked here when it is."""
        self._version_read = True
        try:
            if self.client.line_known:
                await self.client.fetch_server_info(quiet=True)
            else:
                await self.client.line()
        except Exception:  # noqa: BLE001 - the version is a hint; the list is the reading
            return

    def _evidence(self, instance: Any, metrics: MetricsReading | None, at: datetime) -> Any:
        name = instance.instance_name
        evidence = InstanceEvidence(
            name=name,
            listed=Fact(LISTED, str(instance.status), at),
            disconnection=Disconnection.of(
                instance.disconnection_reason_code,
                instance.disconnection_at,
                getattr(instance, "disconnection_object", None),
            ),
            number=instance.number or instance.owner_number or None,
        )
        if metrics is not None and (state := metrics.state_of(name)) is not None:
            evidence.metrics = Fact(METRICS, printable(state)[:40], at)
        evidence.send_failure = self.send_failures.get(name)
        return evidence

    def _row(self, instance: Any, evidence: InstanceEvidence) -> InstanceRow:
        return InstanceRow(
            gateway=self.gateway,
            name=instance.instance_name,
            status=str(instance.status),
            judgement=judge_instance(evidence),
            evidence=evidence,
            number=evidence.number,
            message_count=instance.message_count,
            disconnection=evidence.disconnection,
        )

    async def _check_states(self, evidence: list[InstanceEvidence]) -> bool:
        """connectionState of the instances listed open (a zombie is listed open), in turn."""
        listed_open = [e for e in evidence if e.listed is not None and e.listed.says == "open"]
        if not listed_open:
            return False
        count = len(listed_open) if self.state_checks is None else self.state_checks
        if count <= 0:
            return False
        start = self._rotation % len(listed_open)
        chosen = (listed_open[start:] + listed_open[:start])[: min(count, len(listed_open))]
        self._rotation = start + len(chosen)
        gate = asyncio.Semaphore(STATE_CONCURRENCY)

        async def check(ev: InstanceEvidence) -> None:
            from gateway_tui.core.api.errors import GatewayError

            async with gate:
                try:
                    state = await self.client.instances.connection_state(ev.name)
                except GatewayError:
                    return  # no fact: the list's word stands
                if state.state:
                    ev.state = Fact(STATE, printable(str(state.state))[:40], self._clock())

        await asyncio.gather(*(check(ev) for ev in chosen))
        return True

    async def _read_metrics(self) -> MetricsReading | None:
        import httpx

        headers = {"authorization": self.metrics_auth.header_value()} if self.metrics_auth else {}
        try:
            async with self._extras.stream("GET", METRICS_PATH, headers=headers) as response:
                if response.status_code == 404:
                    self._metrics_served = False
                    self._metrics_note = None
                    return None
                if response.status_code in (401, 403):
                    self._metrics_served = False
                    said = printable((await _capped(response))[:80].strip())
                    self._metrics_note = (
                        f"/metrics refused {'the credentials' if self.metrics_auth else 'us'} "
                        f"({response.status_code} {said}): set the profile's metrics_user and "
                        "metrics_password"
                    )
                    return None
                if not response.is_success:
                    self._metrics_note = f"/metrics answered {response.status_code}"
                    return None
                text = await _capped(response)
        except (httpx.HTTPError, _TooLarge) as exc:
            self._metrics_note = f"/metrics could not be read: {type(exc).__name__}"
            return None
        try:
            reading = parse_metrics(text)
        except MetricsUnreadable as exc:
            self._metrics_served = False
            self._metrics_note = f"/metrics is not Prometheus text ({exc})"
            return None
        self._metrics_served = True
        self._metrics_note = None
        return reading

    async def _licence_status(self) -> str | None:
        """2.4's GET /license/status (no key needed): "inactive", say; None when unreadable."""
        import httpx

        try:
            response = await self._extras.get("/license/status")
            data = response.json() if response.is_success else None
        except (httpx.HTTPError, ValueError):
            return None
        status = data.get("status") if isinstance(data, dict) else None
        return printable(status)[:40] if isinstance(status, str) else None


class _TooLarge(Exception):
    pass


async def _capped(response: httpx.Response) -> str:
    body = bytearray()
    async for chunk in response.aiter_bytes():
        body.extend(chunk)
        if len(body) > MAX_BYTES:
            raise _TooLarge
    return body.decode("utf-8", errors="replace")


def probe_for(
    gateway: str,
    config: Any,
    *,
    transport: httpx.AsyncBaseTransport | None = None,
    metrics_auth: MetricsAuth | None = None,
    state_checks: int | None = None,
) -> GatewayProbe:
    """A probe for a profile's resolved config (the one client factory builds its client).
    ``transport`` is given to both its clients (tests, the in-process demo)."""
    import httpx

    from gateway_tui.core.client_factory import client_for, transport_for

    client = client_for(config, transport=transport)
    timeout = float(getattr(config, "request_timeout", 15.0))
    extras = httpx.AsyncClient(
        base_url=client.base_url,
        timeout=httpx.Timeout(timeout, connect=min(timeout, 5.0)),
        transport=transport or transport_for(client.base_url),
        follow_redirects=False,
    )
    return GatewayProbe(
        gateway, client, extras, metrics_auth=metrics_auth, state_checks=state_checks
    )
