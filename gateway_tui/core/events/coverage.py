"""Asked for versus arrived: an instance's websocket and webhook event settings (read, never
written here) beside a count per event seen so far, and what does not add up, said plainly:
an event ticked but never seen, or seen but not ticked.

A few things a real gateway does that this reads in: events ticked on neither list are sent
when the list is empty and the setting is on (a server given no events keeps them all); a 2.x
started with WEBSOCKET_GLOBAL_EVENTS sends every event on "/" whatever the instance ticks, so
what comes that way is not "seen but not ticked"; a 1.7.1 never sends APPLICATION_STARTUP or
NEW_JWT_TOKEN although it takes them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from gateway_tui.core.events.record import GLOBAL, SOCKET, WEBHOOK
from gateway_tui.core.text.i18n import N_, _, ngettext, number

NEVER_SENT = frozenset({"APPLICATION_STARTUP", "NEW_JWT_TOKEN"})


@dataclass(frozen=True, slots=True)
class Asked:
    """One way's settings as read: ``None`` for events means nothing was read."""

    enabled: bool
    events: frozenset[str]  # as ticked; empty with enabled: every event
    configured: bool = True
    where: str = ""  # the webhook's URL (shown through sanitize)
    by_events: bool = False

    @classmethod
    def of(cls, settings: Any) -> Asked | None:
        """From a WebsocketSettings / WebhookSettings (api.lifecycle); None for None."""
        if settings is None:
            return None
        return cls(
            enabled=bool(getattr(settings, "enabled", False)),
            events=frozenset(getattr(settings, "events", None) or ()),
            configured=bool(getattr(settings, "configured", True)),
            where=str(getattr(settings, "url", "") or ""),
            by_events=bool(getattr(settings, "webhook_by_events", False)),
        )

    def ticks(self, setting: str) -> bool:
        return self.configured and self.enabled and (not self.events or setting in self.events)


@dataclass(frozen=True, slots=True)
class CoverageRow:
    setting: str  # MESSAGES_UPSERT
    socket_ticked: bool | None  # None: the websocket settings were not read
    webhook_ticked: bool | None
    socket_seen: int  # on /<instance>
    global_seen: int  # on "/" (2.x global events)
    webhook_seen: int
    verdict: str  # "" when it adds up (English: the problems below, joined)
    problems: tuple[str, ...] = ()  # each N_-marked: said in the reader's language

    def said(self) -> str:
        """The verdict in the current language."""
        return "; ".join(_(problem) for problem in self.problems)


def coverage(
    seen: Counter[tuple[str, str]],
    websocket: Asked | None,
    webhook: Asked | None,
    *,
    event_names: Sequence[str] = (),
    listening: bool = False,
) -> list[CoverageRow]:
    """One row per event ticked on either side or seen. ``seen``: (setting, via) → count (the
    ring's); ``listening``: this app receives the webhook now (else webhook arrivals cannot
    be told, and no verdict is given on them)."""
    names: list[str] = []
    ticked = set()
    for asked in (websocket, webhook):
        if asked is not None and asked.configured and asked.enabled:
            ticked |= set(asked.events or event_names)
    wanted = ticked | {setting for setting, _via in seen}
    names = [name for name in event_names if name in wanted]
    names += sorted(wanted - set(names))
    rows = []
    for name in names:
        on_socket, on_global, by_hook = (seen[(name, via)] for via in (SOCKET, GLOBAL, WEBHOOK))
        socket_ticked = websocket.ticks(name) if websocket else None
        webhook_ticked = webhook.ticks(name) if webhook else None
        problems = []
        if socket_ticked and not on_socket and name not in NEVER_SENT:
            problems.append(N_("ticked for the websocket, none seen yet"))
        if on_socket and socket_ticked is False:
            never_set = websocket is not None and not websocket.configured
            problems.append(
                N_("seen, though the websocket was never set on this instance")
                if never_set
                else N_("seen on the websocket but not ticked")
            )
        if listening and webhook_ticked and not by_hook and name not in NEVER_SENT:
            problems.append(N_("ticked for the webhook, none arrived yet"))
        if by_hook and webhook_ticked is False:
            problems.append(N_("arrived by webhook but not ticked"))
        verdict = "; ".join(problems)
        ticked_on = (socket_ticked, webhook_ticked)
        rows.append(
            CoverageRow(name, *ticked_on, on_socket, on_global, by_hook, verdict, tuple(problems))
        )
    return rows


def headline(websocket: Asked | None, webhook: Asked | None) -> list[str]:
    """The two settings in a line each, in the current language ("websocket" and "webhook"
    are the settings' names: kept)."""
    lines = []
    for label, asked in (("websocket", websocket), ("webhook", webhook)):
        if asked is None:
            lines.append(_("{way}: settings not read").format(way=label))
        elif not asked.configured:
            lines.append(_("{way}: never set on this instance").format(way=label))
        elif not asked.enabled:
            lines.append(_("{way}: off (nothing is sent this way)").format(way=label))
        else:
            n = len(asked.events)
            ticked = (
                ngettext("{n} event ticked", "{n} events ticked", n).format(n=number(n))
                if asked.events
                else _("every event")
            )
            where = f" → {asked.where}" if asked.where else ""
            if asked.by_events:
                said = _("{way}: on, {ticked}{where} (one URL per event)")
            else:
                said = _("{way}: on, {ticked}{where}")
            lines.append(said.format(way=label, ticked=ticked, where=where))
    return lines
