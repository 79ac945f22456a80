"""Alerts: what changed for the worse in the fleet, once per event, flapping coalesced.

An alert is raised when an instance leaves ``open`` (it was ok, now it is not), when an
instance turns zombie, when a gateway has been unreachable longer than ``unreachable_after``
seconds, when a gateway's licence turns inactive, and when a campaign finishes or stops.

*One per event*: a condition that lasts (a zombie refresh after refresh) is one alert, raised
again only after it cleared. *Flapping coalesced*: the same alert for the same instance within
``flap_window`` seconds of the last one is not raised again; the last one counts it instead
("left open 3 times in 5 min"). The log keeps every alert with its time (the newest
``LOG_SIZE``). No Textual, no I/O: the screen and the command line show what it returns.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import StrEnum

from gateway_tui.core.fleet.verdict import Verdict
from gateway_tui.core.text.i18n import N_, _, clock, ngettext, number

LOG_SIZE = 500
DEFAULT_UNREACHABLE_AFTER = 60.0
DEFAULT_FLAP_WINDOW = 300.0
# State changes within the flap window from which an instance is said to flap.
FLAP_CHANGES = 3


class AlertKind(StrEnum):
    LEFT_OPEN = "left open"
    ZOMBIE = "zombie"
    UNREACHABLE = "unreachable"
    LICENCE = "licence inactive"
    CAMPAIGN_FINISHED = "campaign finished"
    CAMPAIGN_STOPPED = "campaign stopped"

    @property
    def label(self) -> str:
        """The kind in the current language (the value is a code: the seen store keeps it)."""
        return _(KIND_LABELS[self])


KIND_LABELS: dict[AlertKind, str] = {
    AlertKind.LEFT_OPEN: N_("left open"),
    AlertKind.ZOMBIE: N_("zombie"),
    AlertKind.UNREACHABLE: N_("unreachable"),
    AlertKind.LICENCE: N_("licence inactive"),
    AlertKind.CAMPAIGN_FINISHED: N_("campaign finished"),
    AlertKind.CAMPAIGN_STOPPED: N_("campaign stopped"),
}


@dataclass
class Alert:
    kind: AlertKind
    gateway: str
    instance: str | None
    text: str
    at: datetime
    # Times the same alert came again within the flap window, coalesced into this one.
    repeats: int = 0
    last_at: datetime | None = None

    def summary(self) -> str:
        """ "gw / lc-2: zombie: …", with how often it came again, in the current language
        (the text itself in the language of the run that raised it)."""
        who = f"{self.gateway} / {self.instance}" if self.instance else self.gateway
        if not self.repeats:
            return _("{who}: {alert}").format(who=who, alert=self.text)
        span = _minutes((self.last_at or self.at) - self.at)
        times = self.repeats + 1
        return ngettext(
            "{who}: {alert} ({n} time in {span})", "{who}: {alert} ({n} times in {span})", times
        ).format(who=who, alert=self.text, n=number(times), span=span)


def _minutes(delta: timedelta) -> str:
    minutes = max(1, round(delta.total_seconds() / 60))
    return ngettext("{n} min", "{n} min", minutes).format(n=number(minutes))


@dataclass
class _Track:
    verdict: Verdict | None = None
    # When each bad condition began (cleared when it ends): one alert per condition.
    raised: set[AlertKind] = field(default_factory=set)
    unreachable_since: datetime | None = None
    changes: deque[datetime] = field(default_factory=lambda: deque(maxlen=32))


class AlertBook:
    def __init__(
        self,
        *,
        unreachable_after: float = DEFAULT_UNREACHABLE_AFTER,
        flap_window: float = DEFAULT_FLAP_WINDOW,
    ) -> None:
        self.unreachable_after = timedelta(seconds=unreachable_after)
        self.flap_window = timedelta(seconds=flap_window)
        self.log: deque[Alert] = deque(maxlen=LOG_SIZE)
        self._tracks: dict[tuple[str, str | None], _Track] = {}
        self._last: dict[tuple[AlertKind, str, str | None], Alert] = {}

    # --- what is observed -------------------------------------------------------------------

    def observe_instance(
        self, gateway: str, instance: str, verdict: Verdict, at: datetime, reason: str = ""
    ) -> list[Alert]:
        track = self._tracks.setdefault((gateway, instance), _Track())
        before, track.verdict = track.verdict, verdict
        if before is not None and before is not verdict:
            track.changes.append(at)
        raised: list[Alert] = []
        if before is Verdict.OK and verdict not in (Verdict.OK, Verdict.ZOMBIE):
            raised += self._raise(
                AlertKind.LEFT_OPEN,
                gateway,
                instance,
                _("left open: {reason}").format(reason=reason or verdict),
                at,
            )
        if verdict is Verdict.ZOMBIE:
            if AlertKind.ZOMBIE not in track.raised:
                track.raised.add(AlertKind.ZOMBIE)
                raised += self._raise(
                    AlertKind.ZOMBIE,
                    gateway,
                    instance,
                    _("zombie: {reason}").format(reason=reason),
                    at,
                )
        else:
            track.raised.discard(AlertKind.ZOMBIE)
        return raised

    def observe_gateway(
        self, gateway: str, verdict: Verdict | None, at: datetime, reason: str = ""
    ) -> list[Alert]:
        """A gateway-level verdict (None: it listed its instances)."""
        track = self._tracks.setdefault((gateway, None), _Track())
        track.verdict = verdict
        raised: list[Alert] = []
        if verdict is Verdict.UNREACHABLE:
            if track.unreachable_since is None:
                track.unreachable_since = at
            long_enough = at - track.unreachable_since >= self.unreachable_after
            if long_enough and AlertKind.UNREACHABLE not in track.raised:
                track.raised.add(AlertKind.UNREACHABLE)
                since = clock(track.unreachable_since.astimezone())
                text = (
                    _("unreachable since {time}: {reason}").format(time=since, reason=reason)
                    if reason
                    else _("unreachable since {time}").format(time=since)
                )
                raised += self._raise(AlertKind.UNREACHABLE, gateway, None, text, at)
        else:
            track.unreachable_since = None
            track.raised.discard(AlertKind.UNREACHABLE)
        if verdict is Verdict.LICENCE:
            if AlertKind.LICENCE not in track.raised:
                track.raised.add(AlertKind.LICENCE)
                raised += self._raise(
                    AlertKind.LICENCE,
                    gateway,
                    None,
                    _("licence inactive: {reason}").format(reason=reason),
                    at,
                )
        else:
            track.raised.discard(AlertKind.LICENCE)
        return raised

    def campaign_ended(
        self,
        gateway: str,
        instance: str,
        campaign: str,
        *,
        stopped: bool,
        at: datetime,
        detail: str = "",
    ) -> list[Alert]:
        kind = AlertKind.CAMPAIGN_STOPPED if stopped else AlertKind.CAMPAIGN_FINISHED
        if stopped:
            text = (
                _("campaign {id!r} stopped: {detail}") if detail else _("campaign {id!r} stopped")
            )
        else:
            text = (
                _("campaign {id!r} finished: {detail}") if detail else _("campaign {id!r} finished")
            )
        said = text.format(id=campaign, detail=detail)
        return self._raise(kind, gateway, instance, said, at, coalesce=False)

    def _changes(self, gateway: str, instance: str, at: datetime) -> int | None:
        track = self._tracks.get((gateway, instance))
        if track is None:
            return None
        recent = [moment for moment in track.changes if at - moment <= self.flap_window]
        return len(recent) if len(recent) >= FLAP_CHANGES else None

    def flapping(self, gateway: str, instance: str, at: datetime) -> str | None:
        """ "4 changes in 5 min" when the instance changed verdict FLAP_CHANGES times or more
        within the flap window; None otherwise. English: ``health --json`` writes it."""
        changes = self._changes(gateway, instance, at)
        if changes is None:
            return None
        minutes = max(1, round(self.flap_window.total_seconds() / 60))
        return f"{changes} changes in {minutes} min"

    def flapping_said(self, gateway: str, instance: str, at: datetime) -> str | None:
        """``flapping`` in the current language."""
        changes = self._changes(gateway, instance, at)
        if changes is None:
            return None
        return ngettext("{n} change in {span}", "{n} changes in {span}", changes).format(
            n=number(changes), span=_minutes(self.flap_window)
        )

    def forget(self, gateway: str, instance: str | None = None) -> None:
        """An instance deleted (or a gateway removed): its history goes."""
        for key in [
            k for k in self._tracks if k[0] == gateway and (instance is None or k[1] == instance)
        ]:
            del self._tracks[key]

    # --- raising ----------------------------------------------------------------------------

    def _raise(
        self,
        kind: AlertKind,
        gateway: str,
        instance: str | None,
        text: str,
        at: datetime,
        *,
        coalesce: bool = True,
    ) -> list[Alert]:
        key = (kind, gateway, instance)
        last = self._last.get(key)
        if coalesce and last is not None and at - (last.last_at or last.at) <= self.flap_window:
            last.repeats += 1
            last.last_at = at
            return []
        alert = Alert(kind, gateway, instance, text, at)
        self._last[key] = alert
        self.log.append(alert)
        return [alert]


def desktop_notification(alert: Alert) -> str:
    """The terminal's desktop notification of ``alert`` (OSC 9 and OSC 777, for the terminals
    that know either): no control character, no separator of the sequences, no secret."""
    from gateway_tui.core.text.sanitize import line

    body = line(alert.summary()).replace(";", ",")[:200]
    title = f"gateway-tui: {alert.kind.label}"
    return f"\x1b]9;{title}: {body}\x07\x1b]777;notify;{title};{body}\x07"
