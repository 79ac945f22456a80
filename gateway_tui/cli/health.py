"""``gateway-tui health``: every instance of every profile's gateway, judged — for cron and
monitoring. No Textual.

One line per instance (``gateway instance verdict: reason``); a gateway that cannot list its
instances (down, licence-gated, key refused) is one line with no instance. ``--json``: one JSON
object per line (``gateway``, ``instance`` — null for a gateway-level row —, ``verdict``,
``reason``, ``evidence``). Gateways are read at once and each is written as soon as it is in:
a slow or dead one delays nobody. ``--watch SECONDS`` reads again every SECONDS until
interrupted (alerts between rounds go to stderr).

Exit status: 0 when every gateway and instance is ``ok``; 1 for bad input; 2 when any is not.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from gateway_tui.core.text.i18n import _, ngettext

if TYPE_CHECKING:  # the parser is built before anything else is imported
    from gateway_tui.core.files.config import ResolvedConfig
    from gateway_tui.core.fleet.fleet import Fleet
    from gateway_tui.core.fleet.probe import GatewayReading

EXIT_OK = 0
EXIT_BAD_INPUT = 1
EXIT_NOT_OK = 2
MIN_WATCH_SECONDS = 1.0


class BadInput(Exception):
    pass


def run(args: argparse.Namespace, config: ResolvedConfig) -> int:
    """The runner (cli/parser.py ``add_health``): the exit status."""
    import asyncio

    from gateway_tui.cli.output import warn

    try:
        watch = _watch_seconds(args.watch)
        fleet = _fleet(config, _names(args, config))
    except BadInput as exc:
        warn(str(exc), "gateway-tui: error: ")
        return EXIT_BAD_INPUT
    try:
        return asyncio.run(_rounds(fleet, as_json=args.json, watch=watch))
    except KeyboardInterrupt:
        return fleet_status(fleet)


def _watch_seconds(text: str | None) -> float | None:
    if text is None:
        return None
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not seconds >= MIN_WATCH_SECONDS or seconds != seconds or seconds == float("inf"):
        raise BadInput(
            _("--watch wants seconds, at least {minimum}: not {text}").format(
                minimum=f"{MIN_WATCH_SECONDS:g}", text=repr(text)
            )
        )
    return seconds


def _names(args: argparse.Namespace, config: ResolvedConfig) -> list[str] | None:
    names = list(args.health_profiles or [])
    if not names and getattr(args, "profile", None) and not getattr(args, "url", None):
        names = [args.profile]
    unknown = [name for name in names if name not in config.profiles]
    if unknown:
        known = ", ".join(sorted(config.profiles)) or _("none")
        raise BadInput(
            ngettext(
                "no profile {names} in {path} (profiles there: {known})",
                "no profiles {names} in {path} (profiles there: {known})",
                len(unknown),
            ).format(names=", ".join(map(repr, unknown)), path=config.path, known=known)
        )
    return names or None


def _fleet(config: ResolvedConfig, names: list[str] | None) -> Fleet:
    """One probe per gateway: the profiles named, else every profile, else --url's gateway."""
    from gateway_tui.cli.output import warn
    from gateway_tui.core.api.errors import GatewayError
    from gateway_tui.core.fleet.fleet import Fleet
    from gateway_tui.core.fleet.monitor import gateways_of
    from gateway_tui.core.fleet.probe import probe_for

    for problem in config.problems:
        warn(problem, "gateway-tui: warning: ")
    if config.url and config.profile is None:  # --url or GATEWAY_URL: that gateway alone
        gateways = [(config.url, config, None)]
    else:
        gateways = gateways_of(config)
    if names:
        gateways = [gateway for gateway in gateways if gateway[0] in names]
    if not gateways:
        raise BadInput(
            _("no gateway: add profiles to the config file, or pass --url (or GATEWAY_URL)")
        )
    probes = []
    for name, resolved, auth in gateways:
        try:
            probes.append(probe_for(name, resolved, metrics_auth=auth))
        except GatewayError as error:  # a key that cannot be sent (a newline in it, say)
            raise BadInput(
                _("{gateway}: the API key cannot be used: {error}").format(
                    gateway=name, error=error.summary
                )
            ) from None
    from gateway_tui.core.fleet.alerts import AlertBook

    return Fleet(probes, AlertBook(unreachable_after=config.unreachable_alert_after))


async def _rounds(fleet: Fleet, *, as_json: bool, watch: float | None) -> int:
    import asyncio

    try:
        while True:
            await fleet.refresh(
                lambda reading, alerts: _write(reading, alerts if watch else [], as_json)
            )
            if watch is None:
                return fleet_status(fleet)
            await asyncio.sleep(watch)
    finally:
        await fleet.aclose()


def fleet_status(fleet: Fleet) -> int:
    readings = fleet.readings.values()
    return EXIT_OK if readings and all(r.ok for r in readings) else EXIT_NOT_OK


def _write(reading: GatewayReading, alerts: list[Any], as_json: bool) -> None:
    from gateway_tui.cli.output import json_line, say, warn
    from gateway_tui.core.fleet.fleet import health_rows

    for row in health_rows(reading, said=not as_json):
        if as_json:
            json_line(row)
        else:
            instance = row["instance"] if row["instance"] is not None else _("(gateway)")
            say(f"{row['gateway']}  {instance}  {row['verdict']}: {row['reason']}")
    for alert in alerts:
        warn(alert.summary(), "gateway-tui: alert: ")
