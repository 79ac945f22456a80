"""Alerts: one per event, flapping coalesced, a gateway unreachable only after a set time, a
log with times."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from gateway_tui.core.fleet.alerts import AlertBook, AlertKind
from gateway_tui.core.fleet.verdict import Verdict

T0 = datetime(2026, 11, 26, 20, 0, tzinfo=UTC)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def test_an_instance_leaving_open_raises_one_alert_and_a_steady_state_none() -> None:
    book = AlertBook()
    assert book.observe_instance("prod", "sales", Verdict.OK, at(0)) == []
    left = book.observe_instance("prod", "sales", Verdict.CLOSED, at(30), "401 logged out")
    assert [alert.kind for alert in left] == [AlertKind.LEFT_OPEN]
    assert "401 logged out" in left[0].summary() and left[0].at == at(30)
    # still closed: the same event, no new alert
    assert book.observe_instance("prod", "sales", Verdict.CLOSED, at(60)) == []
    # first seen closed is no "left open"
    assert book.observe_instance("prod", "other", Verdict.CLOSED, at(0)) == []


def test_flapping_is_coalesced_into_one_alert_that_counts() -> None:
    book = AlertBook(flap_window=300)
    raised = []
    for step in range(4):  # open → close → open → close … within five minutes
        raised += book.observe_instance("prod", "flappy", Verdict.OK, at(step * 40))
        raised += book.observe_instance("prod", "flappy", Verdict.CONNECTING, at(step * 40 + 20))
    assert len(raised) == 1
    assert raised[0].repeats == 3
    assert "4 times in" in raised[0].summary()
    assert book.flapping("prod", "flappy", at(160)) is not None
    assert len(book.log) == 1
    # long after, leaving open is a new event again
    book.observe_instance("prod", "flappy", Verdict.OK, at(2000))
    again = book.observe_instance("prod", "flappy", Verdict.CLOSED, at(2010))
    assert len(again) == 1 and again[0].repeats == 0
    assert book.flapping("prod", "flappy", at(2010)) is None


def test_a_zombie_alerts_once_while_it_lasts() -> None:
    book = AlertBook()
    first = book.observe_instance("prod", "z", Verdict.ZOMBIE, at(0), "listed open, state close")
    assert [a.kind for a in first] == [AlertKind.ZOMBIE]
    for step in range(1, 5):
        assert book.observe_instance("prod", "z", Verdict.ZOMBIE, at(step * 30)) == []


def test_a_gateway_unreachable_alerts_only_after_the_set_time_once() -> None:
    book = AlertBook(unreachable_after=60)
    assert book.observe_gateway("prod", Verdict.UNREACHABLE, at(0), "down") == []
    assert book.observe_gateway("prod", Verdict.UNREACHABLE, at(59), "down") == []
    raised = book.observe_gateway("prod", Verdict.UNREACHABLE, at(61), "down")
    assert [a.kind for a in raised] == [AlertKind.UNREACHABLE]
    assert book.observe_gateway("prod", Verdict.UNREACHABLE, at(200), "down") == []
    # back, then a short outage: nothing
    book.observe_gateway("prod", None, at(300))
    assert book.observe_gateway("prod", Verdict.UNREACHABLE, at(310), "down") == []
    assert book.observe_gateway("prod", None, at(320)) == []


def test_a_licence_turning_inactive_alerts_once() -> None:
    book = AlertBook()
    book.observe_gateway("prod", None, at(0))
    raised = book.observe_gateway("prod", Verdict.LICENCE, at(10), "activate at http://x/manager")
    assert [a.kind for a in raised] == [AlertKind.LICENCE]
    assert "http://x/manager" in raised[0].text
    assert book.observe_gateway("prod", Verdict.LICENCE, at(20)) == []


def test_campaigns_finishing_and_stopping_each_alert_and_the_log_keeps_times() -> None:
    book = AlertBook()
    done = book.campaign_ended("prod", "sales", "Weekly", stopped=False, at=at(0))
    stopped = book.campaign_ended(
        "prod", "sales", "Weekly", stopped=True, at=at(5), detail="3 left"
    )
    assert done[0].kind is AlertKind.CAMPAIGN_FINISHED
    assert stopped[0].kind is AlertKind.CAMPAIGN_STOPPED and "3 left" in stopped[0].text
    assert [(a.kind, a.at) for a in book.log] == [
        (AlertKind.CAMPAIGN_FINISHED, at(0)),
        (AlertKind.CAMPAIGN_STOPPED, at(5)),
    ]


def _config_file(text: str):
    from gateway_tui.core.files.config import config_path, load_config

    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    path.chmod(0o600)
    return load_config()


def test_the_unreachable_delay_is_a_setting_the_fleet_and_health_use() -> None:
    from gateway_tui.cli.health import _fleet as build_fleet
    from gateway_tui.core.fleet.monitor import FleetMonitor

    config = _config_file(
        "unreachable_alert_after = 300\n"
        '[profiles.prod]\nurl = "http://127.0.0.1:9"\napi_key = "SOME-KEY-OF-PROD-1"\n'
    )
    assert config.unreachable_alert_after == 300 and config.warnings == []
    for book in (FleetMonitor.for_profiles(config).fleet.book, build_fleet(config, None).book):
        gone = book.observe_gateway("prod", Verdict.UNREACHABLE, T0, "down")
        gone += book.observe_gateway("prod", Verdict.UNREACHABLE, T0 + timedelta(seconds=290))
        assert gone == []  # the default (60 s) would have alerted
        late = book.observe_gateway("prod", Verdict.UNREACHABLE, T0 + timedelta(seconds=300))
        assert [alert.kind for alert in late] == [AlertKind.UNREACHABLE]


def test_an_unreachable_delay_out_of_bounds_is_brought_in_and_said() -> None:
    from gateway_tui.core.files.config import (
        MAX_UNREACHABLE_ALERT_AFTER,
        MIN_UNREACHABLE_ALERT_AFTER,
    )

    config = _config_file("unreachable_alert_after = 0.5\n")
    assert config.unreachable_alert_after == MIN_UNREACHABLE_ALERT_AFTER
    assert any("unreachable_alert_after" in w and "too short" in w for w in config.warnings)
    config = _config_file("unreachable_alert_after = 1e9\n")
    assert config.unreachable_alert_after == MAX_UNREACHABLE_ALERT_AFTER
    assert any("too long" in w for w in config.warnings)
    config = _config_file('unreachable_alert_after = "soon"\n')
    assert config.problems  # a clear message, not a traceback; the default is kept
    assert config.unreachable_alert_after == 60
