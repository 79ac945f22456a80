"""What the user has seen of the fleet is kept between runs: new messages count from the count
when the instance was last opened (after a restart too); the alert log keeps the last run's
alerts with their times; alerts after the log was last looked at are new."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from gateway_tui.core.fleet.alerts import AlertKind
from gateway_tui.core.fleet.monitor import FleetMonitor
from gateway_tui.core.fleet.probe import GatewayReading, InstanceRow
from gateway_tui.core.fleet.seen import SeenStore
from gateway_tui.core.fleet.verdict import Fact, InstanceEvidence, judge_instance

T0 = datetime.now(UTC) - timedelta(hours=1)


def reading(count: int, status: str = "open", at: datetime = T0) -> GatewayReading:
    evidence = InstanceEvidence("sales", listed=Fact("fetchInstances", status, at))
    row = InstanceRow(
        "prod", "sales", status, judge_instance(evidence), evidence, message_count=count
    )
    return GatewayReading("prod", "http://prod", at, version="2.3.7", line="2.x", instances=[row])


def monitor(path) -> FleetMonitor:
    return FleetMonitor([], seen=path)


def take(m: FleetMonitor, read: GatewayReading) -> None:
    m._reading_in(read, m.fleet.apply(read))


def test_new_messages_count_from_the_last_look_after_a_restart(tmp_path) -> None:
    path = tmp_path / "fleet-seen.json"
    first = monitor(path)
    take(first, reading(10))
    take(first, reading(14))
    assert first.rows()[0].new_messages == 4
    first.mark_seen("prod", "sales")
    assert first.rows()[0].new_messages == 0
    # The next run: the gateway now says 20; the user last saw 14.
    second = monitor(path)
    take(second, reading(20))
    assert second.rows()[0].new_messages == 6


def test_the_alert_log_and_what_is_new_in_it_survive_a_restart(tmp_path) -> None:
    path = tmp_path / "fleet-seen.json"
    first = monitor(path)
    take(first, reading(1, "open", T0))
    take(first, reading(1, "close", T0 + timedelta(minutes=1)))
    assert [a.kind for a in first.alerts] == [AlertKind.LEFT_OPEN]
    assert first.alerts_unseen == 1
    second = monitor(path)
    (kept,) = second.alerts
    assert kept.kind is AlertKind.LEFT_OPEN and kept.at == T0 + timedelta(minutes=1)
    assert second.alerts_unseen == 1  # never looked at
    second.alerts_looked_at()
    assert monitor(path).alerts_unseen == 0


def test_a_hostile_or_broken_file_is_nothing_seen(tmp_path) -> None:
    path = tmp_path / "fleet-seen.json"
    path.write_text(
        '{"version": 1, "counts": [["a\\u001b[2J", "b", 3], ["x", "y", -1], 7],'
        ' "alerts": [{"kind": "nonsense"}, {"kind": "zombie", "gateway": "g\\u001b]0;",'
        ' "at": "2026-11-26T20:00:00+00:00", "text": "t"}], "alerts_seen_at": 5}'
    )
    store = SeenStore.load(path)
    assert list(store.counts.values()) == [3] and "\x1b" not in next(iter(store.counts))[0]
    (alert,) = store.alerts
    assert "\x1b" not in alert.gateway and store.alerts_seen_at is None
    path.write_text("{not json")
    assert SeenStore.load(path).counts == {}
