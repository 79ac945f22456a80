"""A gateway's Prometheus ``/metrics``: every instance's state in one call.

2.3.7 serves it when started with ``PROMETHEUS_METRICS=true`` (404 "Cannot GET /metrics"
otherwise, v2.3.7/900–901), behind HTTP basic auth when ``METRICS_AUTH_REQUIRED=true`` (401
"Authentication required" without credentials or with the API key only, "Invalid credentials"
for a wrong password: 906–908). Its families (903, 909)::

    evolution_environment_info{version="2.3.7",clientName=…,serverUrl=…} 1
    evolution_instances_total 1
    evolution_instance_up{instance="mx-1",integration="WHATSAPP-BAILEYS"} 0
    evolution_instance_state{instance="mx-1",integration=…,state="close"} 1

The text is read by prometheus_client's parser, never by hand. The credentials are secrets like
the key: registered with sanitize (the password and the header made of it), never shown.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass, field

from gateway_tui.core.text.sanitize import add_secret, printable

PATH = "/metrics"
# 500 instances are about 100 kB of metrics; anything far beyond is not a gateway's.
MAX_BYTES = 16 * 1024 * 1024


class MetricsUnreadable(ValueError):
    """The answer is not Prometheus text."""


@dataclass(frozen=True)
class MetricsAuth:
    """Basic-auth credentials of a gateway's /metrics (``METRICS_USER`` / ``METRICS_PASSWORD``)."""

    user: str
    password: str = field(repr=False)

    def __post_init__(self) -> None:
        add_secret(self.password)
        add_secret(self.header_value().split(" ", 1)[1])

    def header_value(self) -> str:
        token = base64.b64encode(f"{self.user}:{self.password}".encode()).decode("ascii")
        return f"Basic {token}"

    def __repr__(self) -> str:  # the password stays out of any repr or log line
        return f"MetricsAuth(user={self.user!r})"


@dataclass
class MetricsReading:
    """What one /metrics answer says."""

    version: str | None = None
    total: int | None = None
    # instance → state ("open", "close", "connecting"), from evolution_instance_state
    states: dict[str, str] = field(default_factory=dict)
    # instance → up, from evolution_instance_up (used when a state sample is missing)
    up: dict[str, bool] = field(default_factory=dict)

    def state_of(self, instance: str) -> str | None:
        if instance in self.states:
            return self.states[instance]
        if instance in self.up:
            return "open" if self.up[instance] else "close"
        return None


def parse_metrics(text: str) -> MetricsReading:
    """Read a /metrics answer. Raises MetricsUnreadable for text that is no exposition format."""
    from prometheus_client.parser import text_string_to_metric_families

    reading = MetricsReading()
    try:
        # The gateway writes the HELP/TYPE lines of instance_up and instance_state before the
        # samples of both: the parser then files the samples under families of their own, so
        # samples are read by their own name, whatever family holds them.
        samples = [s for family in text_string_to_metric_families(text) for s in family.samples]
    except (ValueError, TypeError, IndexError) as exc:
        raise MetricsUnreadable(f"not Prometheus text: {printable(str(exc))[:120]}") from None
    for sample in samples:
        labels = sample.labels
        if sample.name == "evolution_environment_info":
            version = labels.get("version")
            reading.version = printable(version)[:40] if version else None
        elif sample.name == "evolution_instances_total":
            reading.total = int(sample.value)
        elif sample.name == "evolution_instance_state" and sample.value >= 1:
            name, state = labels.get("instance"), labels.get("state")
            if name and state:
                reading.states[name] = state
        elif sample.name == "evolution_instance_up":
            name = labels.get("instance")
            if name:
                reading.up[name] = sample.value >= 1
    return reading
