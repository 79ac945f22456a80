"""Several demo gateways at once, of both lines, with the fleet view's cases (``--demo --fleet``).

``start_fleet()`` starts them on free loopback ports and returns a ``DemoFleet`` (a context
manager) whose ``gateways`` say, for each, its name, URL, key, release and what is wrong with
it on purpose: a zombie and a flapping instance on each running line, Prometheus ``/metrics``
(with basic auth on one), a 2.4 without a licence, and one gateway that is not running at all
(its URL refuses connections).
"""

from __future__ import annotations

import socket
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Self

from gateway_tui.demo.server import HOST, DemoServer

METRICS_USER = "prom"
METRICS_PASSWORD = "demo-metrics-pass"


@dataclass(frozen=True)
class FleetGateway:
    """One gateway of the fleet. ``server`` is None for the stopped one."""

    name: str
    url: str
    api_key: str
    api_version: str
    cases: tuple[str, ...]
    metrics_auth: tuple[str, str] | None = None
    server: DemoServer | None = field(default=None, repr=False, compare=False)


# name → DemoServer options; "stopped" is a URL nothing listens on.
FLEET: tuple[tuple[str, dict[str, Any]], ...] = (
    ("demo-1.7.1", {"api_version": "1.7.1", "zombie": ["zombie-a"], "flapping": ["flaky-a"]}),
    (
        "demo-2.3.7",
        {
            "api_version": "2.3.7",
            "zombie": ["zombie-b"],
            "flapping": ["flaky-b"],
            "metrics": True,
            "global_events": True,
        },
    ),
    (
        "demo-2.3.6",
        {"api_version": "2.3.6", "metrics_auth": (METRICS_USER, METRICS_PASSWORD)},
    ),
    ("demo-2.4-licence", {"api_version": "2.4.0", "licence": "inactive", "instances": 0}),
    ("demo-2.4", {"api_version": "2.4.0", "metrics": True}),
    ("demo-stopped", {}),
)


def _cases(options: dict[str, Any]) -> tuple[str, ...]:
    cases = [f"zombie {name}" for name in options.get("zombie", ())]
    cases += [f"flapping {name}" for name in options.get("flapping", ())]
    if options.get("licence") == "inactive":
        cases.append("licence inactive")
    if options.get("metrics_auth"):
        # The password is a secret: FleetGateway.metrics_auth holds it, nothing prints it.
        cases.append(f"metrics with basic auth (user {options['metrics_auth'][0]})")
    elif options.get("metrics"):
        cases.append("metrics")
    return tuple(cases) if options else ("not running",)


def _refused_url() -> str:
    """A loopback URL nothing listens on (a port that was free a moment ago)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((HOST, 0))
        port = probe.getsockname()[1]
    return f"http://{HOST}:{port}"


class DemoFleet:
    """The running gateways; ``stop()`` (or leaving the ``with``) stops them all."""

    def __init__(self, gateways: list[FleetGateway]) -> None:
        self.gateways = gateways

    def stop(self) -> None:
        for gateway in self.gateways:
            if gateway.server is not None:
                gateway.server.stop()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()


def start_fleet(
    count: int | None = None, *, instances: int = 6, flap_seconds: float = 3.0
) -> DemoFleet:
    """Start the fleet's gateways (the first ``count`` of ``FLEET``; all when None), each
    with ``instances`` seeded instances besides its cases. Stops the started ones if one fails."""
    started: list[FleetGateway] = []
    try:
        for name, options in FLEET[:count]:
            if not options:
                started.append(FleetGateway(name, _refused_url(), "", "", _cases(options)))
                continue
            server = DemoServer(
                **({"instances": instances, "flap_seconds": flap_seconds} | options)
            ).start()
            started.append(
                FleetGateway(
                    name,
                    server.url,
                    server.api_key,
                    server.api_version,
                    _cases(options),
                    server.metrics_auth,
                    server,
                )
            )
    except BaseException:
        DemoFleet(started).stop()
        raise
    return DemoFleet(started)
