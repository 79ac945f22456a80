"""The fleet kept current: every profile's gateway read every ``interval`` seconds, at once;
alerts raised as they happen; batches of actions run on the gateways' own clients. The fleet
screen shows it; it runs on while the user is elsewhere (alerts reach every screen). No Textual.

At rest it costs, per gateway per refresh, one fetchInstances, one /metrics where served, and
connectionState for at most ``state_checks`` instances listed open (in turn) where there is no
/metrics to tell a zombie by.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from gateway_tui.core.fleet.alerts import Alert, AlertBook
from gateway_tui.core.fleet.batch import BatchAction, RowResult, Target, call_client, run_batch
from gateway_tui.core.fleet.fleet import Fleet, FleetRow, fleet_rows

if TYPE_CHECKING:
    import httpx

    from gateway_tui.core.files.config import ResolvedConfig
    from gateway_tui.core.fleet.probe import GatewayProbe, GatewayReading
    from gateway_tui.core.fleet.seen import SeenStore

DEFAULT_INTERVAL = 30.0
# connectionState checks per gateway per refresh where /metrics is not served.
DEFAULT_STATE_CHECKS = 5
# The calls whose failure tells of an instance's session: every send (text, media, list…).
SEND_PATHS = ("/message/send",)
# Seconds between two writes of the rows kept for the next start.
CACHE_EVERY = 300.0


class FleetMonitor:
    def __init__(
        self,
        probes: Iterable[GatewayProbe],
        *,
        interval: float = DEFAULT_INTERVAL,
        book: AlertBook | None = None,
        cache: Any = None,
        seen: Any = None,
    ) -> None:
        """``cache``: where the rows last seen are kept for the next start; ``seen``: where
        what the user has seen is kept (seen.py) (None: nowhere)."""
        self.fleet = Fleet(probes, book)
        self.cache = cache
        self._seen_path = seen
        self._seen_store: SeenStore | None = None
        self._saved_at: float | None = None
        self.interval = interval
        # The gateways being read now: each is read on its own schedule (a slow or dead one
        # holds back nobody's next refresh), and never twice at once.
        self._reading: set[str] = set()
        self._listeners: list[Callable[[], None]] = []
        self._alert_listeners: list[Callable[[Alert], None]] = []
        self._tasks: list[asyncio.Task[None]] = []
        self._after: set[asyncio.Task[None]] = set()  # the refresh after a batch
        self._stopped = False

    @classmethod
    def for_profiles(
        cls,
        config: ResolvedConfig,
        *,
        transport: Callable[[ResolvedConfig], httpx.AsyncBaseTransport | None] | None = None,
        interval: float | None = None,
        state_checks: int | None = DEFAULT_STATE_CHECKS,
        cache: Any = None,
        seen: Any = None,
    ) -> FleetMonitor:
        """One probe per profile of ``config`` (or the gateway in use, when it has none)."""
        from gateway_tui.core.fleet.probe import probe_for

        probes = []
        for name, resolved, auth in gateways_of(config):
            given = transport(resolved) if transport is not None else None
            try:
                probes.append(
                    probe_for(
                        name,
                        resolved,
                        transport=given,
                        metrics_auth=auth,
                        state_checks=state_checks,
                    )
                )
            except Exception:  # noqa: BLE001 - a key that cannot be sent: that profile is left out
                continue
        every = interval if interval is not None else (config.refresh_interval or DEFAULT_INTERVAL)
        book = AlertBook(unreachable_after=config.unreachable_alert_after)
        return cls(probes, interval=every, book=book, cache=cache, seen=seen)

    # --- what the user has seen (kept between runs) -----------------------------------------

    @property
    def seen_store(self) -> SeenStore:
        """Read once, when first needed (after the first frame): the alerts of the last run
        join the log, with their times."""
        if self._seen_store is None:
            from gateway_tui.core.fleet.seen import SeenStore

            self._seen_store = SeenStore.load(self._seen_path)
            log = self.fleet.book.log
            joined = [a for a in self._seen_store.alerts if a not in log] + list(log)
            log.clear()
            log.extend(joined)  # the oldest fall out first when it is full
        return self._seen_store

    @property
    def seen(self) -> dict[tuple[str, str], int]:
        """(gateway, instance) → the message count when last seen: new messages count from it."""
        return self.seen_store.counts

    @property
    def alerts_unseen(self) -> int:
        """The alerts raised since the alert log was last looked at (this run or an earlier)."""
        return self.seen_store.unseen(self.fleet.book.log)

    def alerts_looked_at(self) -> None:
        self.seen_store.alerts_seen_at = datetime.now(UTC)
        self._keep_seen()
        self._changed()

    def _keep_seen(self) -> None:
        if self._seen_path is not None:
            self.seen_store.save(self.fleet.book.log)

    # --- listening -------------------------------------------------------------------------

    def subscribe(self, listener: Callable[[], None]) -> Callable[[], None]:
        """Told after each gateway's reading (and after a batch row)."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def on_alert(self, listener: Callable[[Alert], None]) -> None:
        self._alert_listeners.append(listener)

    def _changed(self) -> None:
        for listener in list(self._listeners):
            listener()

    # --- reading ---------------------------------------------------------------------------

    @property
    def readings(self) -> dict[str, GatewayReading]:
        return self.fleet.readings

    @property
    def gateways(self) -> list[str]:
        return list(self.fleet.probes)

    def rows(self) -> list[FleetRow]:
        return fleet_rows(self.fleet.readings.values(), self.seen)

    @property
    def alerts(self) -> list[Alert]:
        """This run's alerts, after the last runs' (kept: seen.py)."""
        self.seen_store  # noqa: B018 - read first: the last runs' alerts join the log
        return list(self.fleet.book.log)

    @property
    def refreshing(self) -> bool:
        return bool(self._reading)

    @property
    def refreshed_at(self) -> datetime | None:
        """When the gateway read longest ago was read, once every gateway has been."""
        readings = self.fleet.readings
        if not readings or len(readings) < len(self.fleet.probes):
            return None
        return min(reading.at for reading in readings.values())

    def start(self) -> None:
        """Read every gateway now, then each every ``interval`` seconds, each on its own
        schedule (in the running loop) until closed."""
        if self._tasks or self._stopped:
            return
        self.seen_store  # noqa: B018 - read before the first reading counts from it
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._run(probe)) for probe in self.fleet.probes.values()]

    async def _run(self, probe: GatewayProbe) -> None:
        while not self._stopped:
            await self._read(probe)
            await asyncio.sleep(self.interval)

    async def refresh(self) -> None:
        """Read every gateway now (those being read already are not asked twice)."""
        await asyncio.gather(*(self._read(probe) for probe in self.fleet.probes.values()))

    async def _read(self, probe: GatewayProbe) -> None:
        if probe.gateway in self._reading or self._stopped:
            return
        self._reading.add(probe.gateway)
        self._changed()
        try:
            await self.fleet.read_one(probe, self._reading_in)
        finally:
            self._reading.discard(probe.gateway)
            self._changed()
        if self.refreshed_at is not None:
            self._keep_rows()

    def _keep_rows(self, *, now: bool = False) -> None:
        """The rows for the next start: once every gateway was read, then every few minutes."""
        import time

        if self.cache is None or not self.fleet.readings:
            return
        moment = time.monotonic()
        if not now and self._saved_at is not None and moment - self._saved_at < CACHE_EVERY:
            return
        self._saved_at = moment
        try:
            save_rows(self.rows(), self.cache)
        except OSError:
            pass  # only a head start for the next run: the fleet itself is unaffected
        self._keep_seen()

    def cached_rows(self) -> list[FleetRow]:
        """The rows kept at the last run, of the gateways not read yet in this one."""
        if self.cache is None:
            return []
        read = set(self.fleet.readings)
        return [row for row in load_rows(self.cache) if row.gateway not in read]

    def _reading_in(self, reading: GatewayReading, alerts: list[Alert]) -> None:
        for row in reading.instances:  # the first count seen is the baseline
            if row.message_count is not None:
                self.seen.setdefault((row.gateway, row.name), row.message_count)
        for alert in alerts:
            for listener in list(self._alert_listeners):
                listener(alert)
        if alerts:
            self._keep_seen()  # an alert of this run is in the next run's log
        self._changed()

    def mark_seen(self, gateway: str, instance: str) -> None:
        """The user opened the instance: its new messages count from now (kept)."""
        reading = self.fleet.readings.get(gateway)
        for row in reading.instances if reading else ():
            if row.name == instance and row.message_count is not None:
                self.seen[(gateway, instance)] = row.message_count
        self._keep_seen()
        self._changed()

    def note_send(self, gateway: str, instance: str, error: BaseException | None) -> None:
        probe = self.fleet.probes.get(gateway)
        if probe is not None:
            probe.note_send(instance, error, datetime.now(UTC))

    def note_call(self, gateway: str | None, event: Any) -> None:
        """A call the app made through ``gateway`` (a CallEvent of its client): a send that
        failed as "not connected" is evidence for its instance's verdict; one that went
        clears it."""
        from urllib.parse import unquote

        from gateway_tui.core.api.errors import GatewayError

        if gateway is None or event.method != "POST" or not event.path.startswith(SEND_PATHS):
            return
        instance = unquote(event.path.rstrip("/").rsplit("/", 1)[-1])
        if event.ok:
            self.note_send(gateway, instance, None)
        elif event.status is not None:  # an answer: the gateway's own words about it
            error = GatewayError(status=event.status, messages=list(event.error_lines))
            self.note_send(gateway, instance, error)

    def campaign_ended(self, gateway: str, instance: str, campaign: str, **kw: Any) -> None:
        for alert in self.fleet.book.campaign_ended(
            gateway, instance, campaign, at=datetime.now(UTC), **kw
        ):
            for listener in list(self._alert_listeners):
                listener(alert)
        self._keep_seen()

    # --- acting on many --------------------------------------------------------------------

    async def run_batch(
        self,
        action: BatchAction,
        targets: list[Target],
        on_result: Callable[[RowResult], None] | None = None,
    ) -> list[RowResult]:
        """Each target once, on its own gateway's client; then a refresh shows the outcome."""

        async def call(target: Target) -> Any:
            probe = self.fleet.probes[target.gateway]
            return await call_client(probe.client, action, target.instance)

        try:
            return await run_batch(action, targets, call, on_result=on_result)
        finally:
            if not self._stopped:
                task = asyncio.get_running_loop().create_task(self.refresh())
                self._after.add(task)
                task.add_done_callback(self._after.discard)

    async def aclose(self) -> None:
        self._keep_rows(now=True)
        if self._seen_store is not None:
            self._keep_seen()
        self._stopped = True
        tasks = [*self._tasks, *self._after]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.fleet.aclose()


def gateways_of(config: ResolvedConfig) -> list[tuple[str, ResolvedConfig, Any]]:
    """(name, resolved config, /metrics credentials) of every profile; the gateway in use when
    there are none."""
    from gateway_tui.core.fleet.metrics import MetricsAuth

    found = []
    for name in sorted(config.profiles):
        profile = config.profiles[name]
        password = profile.resolve_metrics_password()
        auth = None
        if profile.metrics_user and password is not None:
            auth = MetricsAuth(profile.metrics_user, password.get_secret_value())
        found.append((name, config.switch_profile(name), auth))
    if not found and config.url:
        found.append((config.profile or config.gateway_identity or config.url, config, None))
    return found


# --- the last rows seen, for the first frame ---------------------------------------------------

CACHE_FILE = "fleet-rows.json"
CACHE_VERSION = 2
# 20 gateways × 500 instances and some room; a bigger file is not ours.
CACHE_MAX_ROWS = 50_000
CACHE_MAX_BYTES = 64 * 1024 * 1024
# A row as kept: its fields in this order (the gateway's own are kept once per gateway).
_CACHED_FIELDS = ("instance", "status", "number", "last_disconnection", "verdict", "reason")


def cache_path() -> Any:
    from gateway_tui.core.files import storage

    return storage.data_dir() / CACHE_FILE


def save_rows(rows: list[FleetRow], path: Any = None) -> None:
    """Keep the rows last seen (no secret is in them: names, states, reasons), so the next
    start draws them at once, marked with their age. One entry per gateway (its version and
    when it was read), its rows as lists: 10,000 rows read back in a few tens of ms."""
    from gateway_tui.core.files import storage
    from gateway_tui.core.text.sanitize import printable

    gateways: dict[str, dict[str, Any]] = {}
    for row in rows[:CACHE_MAX_ROWS]:
        entry = gateways.setdefault(
            printable(row.gateway),
            {"at": row.at.isoformat() if row.at else None, "version": row.version, "rows": []},
        )
        values = [getattr(row, name) for name in _CACHED_FIELDS]
        values = [printable(v) if isinstance(v, str) else v for v in values]
        values[_CACHED_FIELDS.index("verdict")] = row.verdict.value
        entry["rows"].append([*values, row.flapping])
    import json

    target = path or cache_path()
    storage.ensure_private_dir(target.parent)
    # Compact: read back at start-up, where every millisecond counts (indented, it was 2.5×).
    text = json.dumps(
        {"version": CACHE_VERSION, "gateways": gateways}, ensure_ascii=False, separators=(",", ":")
    )
    storage.atomic_write_text(target, storage_safe(text))
    # The few rows the next start's first frame draws, before anything else is read (head.py).
    from gateway_tui.core.fleet.head import head_path, head_text

    storage.atomic_write_text(head_path(target.parent), head_text(rows))


def storage_safe(text: str) -> str:
    """Lone surrogates (from a server) have no UTF-8 form: replaced, as encodable() does."""
    from gateway_tui.core.text.sanitize import encodable

    return encodable(text)


def load_rows(path: Any = None) -> list[FleetRow]:
    """The rows kept by ``save_rows``, each with ``cached`` set; [] when none can be read.
    (Read directly, not through storage.read_json: this file is ours, and a scan of its 2 MB
    for nesting, char by char, took a second of the first frame; json's own recursion limit
    guards the parse.)"""
    import json

    from gateway_tui.core.fleet.verdict import Verdict
    from gateway_tui.core.text.sanitize import is_safe, printable

    target = path or cache_path()
    try:
        with open(target, "rb") as file:
            raw = file.read(CACHE_MAX_BYTES + 1)
        if len(raw) > CACHE_MAX_BYTES:
            return []
        text = raw.decode("utf-8")
        data = json.loads(text)
    except (OSError, UnicodeDecodeError, ValueError, RecursionError):
        return []
    if not isinstance(data, dict) or data.get("version") != CACHE_VERSION:
        return []
    # JSON writes C0 controls escaped (\u001b): a file with no escape and nothing else a
    # terminal acts on needs no cleaning, field by field.
    clean = is_safe(text) and "\\u" not in text

    def shown(value: Any) -> str:
        value = "" if value is None else str(value)
        return value if clean else printable(value)

    rows: list[FleetRow] = []
    gateways = data.get("gateways")
    for gateway, entry in gateways.items() if isinstance(gateways, dict) else ():
        try:
            at = datetime.fromisoformat(entry["at"]) if entry.get("at") else None
            version = shown(entry.get("version"))
            items = list(entry.get("rows") or ())
        except (AttributeError, TypeError, ValueError):
            continue
        at = at if at is not None and at.tzinfo else None
        for item in items:
            try:
                instance, status, number, last, verdict, reason, flapping = item
                rows.append(
                    FleetRow(
                        shown(gateway),
                        shown(instance) if instance else None,
                        version,
                        shown(status),
                        shown(number),
                        shown(last),
                        None,
                        Verdict(verdict),
                        shown(reason),
                        flapping=bool(flapping),
                        at=at,
                        cached=True,
                    )
                )
            except (TypeError, ValueError):
                continue
            if len(rows) >= CACHE_MAX_ROWS:
                break
    rows.sort(key=lambda r: r.sort_key)
    return rows
