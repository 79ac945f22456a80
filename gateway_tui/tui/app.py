"""The application shell: the current gateway session, the screens, the palette and the keys.

Start-up draws first and imports after: from the command line the app is given a config
*loader*; its first frame (``screens/starting.py``) needs Textual alone, and the config, the
HTTP stack and pydantic are imported once that frame is on screen. Given a config (tests, the
demo), it starts at once. So this module imports neither httpx nor pydantic at the top.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import sys
from collections.abc import Callable, Iterable
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from textual import events
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.command import Hit, Hits, Provider
from textual.screen import Screen
from textual.signal import Signal

from gateway_tui.core.files import storage
from gateway_tui.core.text.i18n import N_
from gateway_tui.core.text.sanitize import clipboard_text, printable
from gateway_tui.core.text.urls import insecure_url_warning
from gateway_tui.tui.crash import crash_report, describe, scrub
from gateway_tui.tui.display_filter import ControlCharacterFilter, SecretFilter
from gateway_tui.tui.textual_private import exit_with, in_update_batch, on_app_thread
from gateway_tui.tui.type_ahead import TypeAhead

if TYPE_CHECKING:
    import httpx

    from gateway_tui.core.api.client import GatewayClient
    from gateway_tui.core.api.dialects import Dialect
    from gateway_tui.core.api.errors import GatewayError
    from gateway_tui.core.files.config import ResolvedConfig
    from gateway_tui.core.files.instances_head import InstancesHead
    from gateway_tui.core.fleet.alerts import Alert
    from gateway_tui.core.fleet.monitor import FleetMonitor
    from gateway_tui.core.services import Actions
    from gateway_tui.core.session import GatewaySession
    from gateway_tui.core.state import AppState, Topic

DARK_THEME = "textual-dark"
LIGHT_THEME = "textual-light"


class InstanceCommands(Provider):
    """Palette: "open instance <name>" for every instance the state knows."""

    async def search(self, query: str) -> Hits:
        app: GatewayApp = self.app  # type: ignore[assignment]
        matcher = self.matcher(query)
        for instance in app.state.instances.value or ():
            name = instance.instance_name
            label = f"Open instance {name}"
            score = matcher.match(label)
            if score > 0:
                yield Hit(score, matcher.highlight(label), partial(app.open_instance, name))

    async def discover(self) -> Hits:
        app: GatewayApp = self.app  # type: ignore[assignment]
        for instance in (app.state.instances.value or [])[:20]:
            name = instance.instance_name
            yield Hit(1, f"Open instance {name}", partial(app.open_instance, name))


class GatewayApp(App[int]):
    TITLE = "gateway-tui"
    # Absolute, so subclasses in other modules (tests, benchmarks) find it too.
    CSS_PATH = Path(__file__).parent / "app.tcss"
    COMMANDS = App.COMMANDS | {InstanceCommands}

    BINDINGS = [
        Binding("q", "quit", "Quit", id="app.quit"),
        Binding("ctrl+q", "quit", "Quit", id="app.quit_now", show=False, priority=True),
        # f1 works everywhere, in a text field too (where ? is a character): the footer names it.
        Binding("f1", "help", "Keys", id="app.help_f1"),
        Binding("question_mark", "help", "Keys", id="app.help", show=False),
        # One word: the app's keys stay in every footer, at 80 columns too (widgets/footer.py).
        Binding("f12", "request_log", "Log", tooltip=N_("Request log"), id="app.request_log"),
        Binding("ctrl+t", "toggle_theme", "Dark / light theme", id="app.toggle_theme", show=False),
        Binding(
            "f11",
            "event_monitor",
            "Event monitor",
            tooltip=N_("Every event of the gateway, live"),
            id="app.events",
            show=False,
        ),
        # Every instance of every profile's gateway (screens/fleet.py), from any screen.
        Binding("ctrl+g", "fleet", "Fleet", id="app.fleet", show=False),
    ]

    # A transport given to the app is a test's stand-in, with no socket.io behind it; the
    # benchmarks' probe gives one that times a real server's answers, and says so here.
    _live_beside_transport = False
    _live_url: str | None = None

    @property
    def live_beside_transport(self) -> bool:
        """Live events over a real socket although the calls go through a test transport."""
        return self._live_beside_transport

    @live_beside_transport.setter
    def live_beside_transport(self, value: bool) -> None:
        # Set after construction (screenshots): the session opened in __init__ takes it too.
        self._live_beside_transport = value
        session = getattr(self, "session", None)
        if session is not None:
            session.live_allowed = self._transport is None or value

    @property
    def live_url(self) -> str | None:
        """The socket's URL where it is not the config's (screenshots)."""
        return self._live_url

    @live_url.setter
    def live_url(self, value: str | None) -> None:
        self._live_url = value
        session = getattr(self, "session", None)
        if session is not None:
            session.live_url = value

    def __init__(
        self,
        config: ResolvedConfig | Callable[[], ResolvedConfig],
        *,
        transport: httpx.AsyncBaseTransport
        | Callable[[ResolvedConfig], httpx.AsyncBaseTransport]
        | None = None,
        clock: Callable[[], datetime] = datetime.now,
        starting_url: str | None = None,
        fleet: bool = False,
        fleet_transport: Callable[[ResolvedConfig], httpx.AsyncBaseTransport | None] | None = None,
        launch: tuple[str | None, str | None] | None = None,
    ) -> None:
        """``config``, or a function that loads it after the first frame (see the module doc);
        ``starting_url`` is shown in that first frame when known. ``transport``: a stand-in
        for the network (tests), or a function of the config giving each session its own.
        ``fleet``: open on the fleet screen; ``fleet_transport``: each fleet gateway's
        transport (tests). ``launch``: the command line's --url and --profile: the instance
        rows a launch the same as this one kept are drawn in the first frame (dimmed, aged)."""
        super().__init__()
        self._launch = launch
        self._launch_key: str | None = None
        self._kept_instances: InstancesHead | None = None  # drawn until the gateway answers
        self._instances_kept_at: float | None = None
        self._open_on_fleet = fleet
        self._fleet_transport = fleet_transport
        self._fleet: FleetMonitor | None = None
        self._transport = transport
        self._clock = clock
        self._starting_url = starting_url
        self.state_changed: Signal[Topic] = Signal(self, "state-changed")
        self.type_ahead = TypeAhead(self, self._deliver_key)
        self._storage_problems_off: Callable[[], None] = lambda: None
        self.session: GatewaySession | None = None
        self._sessions_closing: set[asyncio.Task[None]] = set()  # sessions left, closing
        self._live_told: set[str] = set()
        self._live_missing: dict[str, set[str]] = {}  # what a websocket's settings lack
        self._config_loader: Callable[[], ResolvedConfig] | None = None
        if callable(config):
            self._config_loader = config
        else:
            self._start(config)

    def _start(self, config: ResolvedConfig) -> None:
        """Everything that needs the config: the first gateway session."""
        self._open_session(config)

    @property
    def started(self) -> bool:
        """False while the first frame is up and the config not loaded yet."""
        return self._config_loader is None

    # --- gateway ----------------------------------------------------------------------------------

    def _open_session(self, config: ResolvedConfig) -> GatewaySession:
        """Open ``config``'s session and make it the current one (the screens reach its
        config, client, state and actions through the app)."""
        from gateway_tui.core.session import GatewaySession

        transport = self._transport
        if transport is not None and not hasattr(transport, "handle_async_request"):
            transport = transport(config)  # a factory: each session its own transport
        session = GatewaySession.open(
            config, transport=transport, clock=self._clock, live_url=self.live_url
        )
        session.live_allowed = self._transport is None or self.live_beside_transport
        session.state.subscribe(self.state_changed.publish)
        session.client.on_server_info = partial(self._server_info_known, session)
        session.on_live_arrival = self._live_arrival
        session.on_live_status = self._live_status
        session.on_live_error = partial(self.report_unexpected, what="Live events")
        self.session = session
        self._live_missing = {}
        return session

    @property
    def config(self) -> ResolvedConfig:
        assert self.session is not None, "no session before the config is loaded"
        return self.session.config

    @property
    def state(self) -> AppState:
        assert self.session is not None, "no session before the config is loaded"
        return self.session.state

    @property
    def client(self) -> GatewayClient:
        assert self.session is not None, "no session before the config is loaded"
        return self.session.client

    @property
    def actions(self) -> Actions:
        assert self.session is not None, "no session before the config is loaded"
        return self.session.actions

    def _server_info_known(self, session: GatewaySession) -> None:
        from gateway_tui.core.state import Topic

        session.state.notify(Topic.CALLS)  # the gateway bar shows the version

    @property
    def gateway_url(self) -> str | None:
        return self.config.url

    @property
    def gateway_identity(self) -> str | None:
        """What drafts, history and templates of this gateway are filed under."""
        return self.config.gateway_identity

    @property
    def gateway_version(self) -> str | None:
        """What the gateway says it is ("2.3.6"), else its line once known ("2.x")."""
        client = self.client
        if client.server_version:
            return client.server_version
        return client.dialect.label if client.line_known else None

    @property
    def gateway_line(self) -> Dialect:
        """The gateway's line as known so far (1.7.1 until an answer tells)."""
        return self.client.dialect

    def list_message_notes(self) -> list[str]:
        """What a user sending list messages through this gateway must know about its line."""
        from gateway_tui.core.api.dialects import list_message_notes

        client = self.client
        if not client.line_known:
            return []
        return list_message_notes(client.dialect, client.server_version)

    @property
    def instance_fields_missing(self) -> frozenset[str]:
        """Instance fields the gateway's line never gives (none known before its line is)."""
        client = self.client
        return client.dialect.instance_fields_missing if client.line_known else frozenset()

    @property
    def masked_key(self) -> str:
        from gateway_tui.core.files.config import mask_key

        return mask_key(self.config.api_key)

    def connect(self, url: str, api_key: str) -> None:
        """Point the app at another gateway (from the connect screen)."""
        self._switch(self.config.with_gateway(url, api_key))

    def switch_profile(self, name: str) -> None:
        self._switch(self.config.switch_profile(name))

    def _switch(self, config: ResolvedConfig) -> None:
        """Open the new gateway's session, then close the old one (client, socket, tasks)."""
        old = self.session
        self._open_session(config)
        self._fleet_hears(self.client)
        if old is not None:
            self._close_later(old)
        self._show_home()

    def _close_later(self, session: GatewaySession) -> None:
        # A task, not a worker: the screens' workers are cancelled by the switch, this is not.
        task = asyncio.get_running_loop().create_task(session.aclose())
        self._sessions_closing.add(task)
        task.add_done_callback(self._sessions_closing.discard)

    def _show_home(self) -> None:
        from gateway_tui.tui.screens.connect import ConnectScreen
        from gateway_tui.tui.screens.instances import InstancesScreen

        home: Screen = InstancesScreen() if self.config.is_complete else ConnectScreen()
        # Back to Textual's default screen, then the home of the gateway now in use on top.
        while len(self.screen_stack) > 1:
            self.pop_screen()
        # The warning is queued first, so it is shown before the home screen makes a call.
        self._warn_insecure()
        self.call_later(self.push_screen, home)

    def _warn_insecure(self) -> None:
        warning = insecure_url_warning(self.config.url) if self.config.url else None
        if warning:
            self.notify(warning, title="Insecure URL", severity="warning", timeout=10, markup=False)
        # The config's own warnings (a key file others can read, an interval raised): said.
        for other in self.config.warnings:
            if other != warning:
                self.notify(other, title="Config", severity="warning", timeout=10, markup=False)

    # --- lifecycle --------------------------------------------------------------------------------

    def on_load(self) -> None:
        if self.started:
            _freeze_startup_heap()
            self._ask_for_instances()

    def _ask_for_instances(self) -> None:
        # Ask for the instances before the home screen is built: the answer travels while
        # Textual composes and paints, and the first frame often has the rows already. The
        # instances screen sees the load under way and does not start another.
        # Not for plain http to another host: the user is warned before the first call.
        if self.config.is_complete and not insecure_url_warning(self.config.url):
            self.action_refresh_instances()

    def on_mount(self) -> None:
        # A stored file that cannot be read is reported where the user looks: here.
        self._storage_problems_off = storage.on_problem(self._stored_file_problem)
        if not self.started:
            from gateway_tui.tui.screens.starting import StartingScreen

            # Keys typed before the home screen exists wait for it (no safety release: the
            # imports may take long on a busy machine, and the keys are meant for home).
            token = self.type_ahead.hold(safety=False)
            head = instances = None
            if self._open_on_fleet:  # the fleet's rows kept at the last run, a small file
                from gateway_tui.core.fleet.head import head_path, load_head

                head = load_head(head_path(storage.data_dir()))
            elif self._launch is not None:  # the instance rows this same launch kept
                from gateway_tui.core.files import instances_head

                self._launch_key = instances_head.launch_key(
                    *self._launch, storage.config_dir() / "config.toml"
                )
                path = instances_head.head_path(storage.data_dir())
                instances = instances_head.load_head(path, self._launch_key)
                self._kept_instances = instances
            self.push_screen(
                StartingScreen(
                    self._starting_url,
                    on_shown=partial(self._finish_start, token),
                    head=head,
                    instances=instances,
                )
            )
            return
        self._show_first_home()

    def _finish_start(self, token: int) -> None:
        """The first frame is on screen: load the config, import the rest, show home."""
        loader, self._config_loader = self._config_loader, None
        assert loader is not None
        # The imports build tens of thousands of long-lived objects: collecting among them
        # now is wasted time (they are frozen out of the collector's sight right after). The
        # command line has had the collector off since before Textual was imported.
        gc.disable()
        try:
            self._start(loader())
            import gateway_tui.tui.screens.instances  # noqa: F401 - the home screen, next
        finally:
            _freeze_startup_heap()
            gc.enable()
        self._ask_for_instances()
        self._show_first_home()
        # After the home screen's push (queued by _show_home), which holds keys itself.
        self.call_later(self.type_ahead.release, token)

    def _show_first_home(self) -> None:
        from gateway_tui.tui.preferences import apply_preferences

        apply_preferences(self)  # themes, the instance names kept for shell completion
        if self.config.keys:
            self.set_keymap(self.config.keys)
        for problem in self.config.problems:
            self.notify(problem, title="Configuration", severity="warning", markup=False)
        self._show_home()
        if self._open_on_fleet and self.config.is_complete:
            self.call_later(self.call_later, self.action_fleet)

    async def on_unmount(self) -> None:
        self._storage_problems_off()
        if self._fleet is not None:
            await self._fleet.aclose()
        if self.session is not None:
            await self.session.aclose()
        if self._sessions_closing:
            await asyncio.gather(*self._sessions_closing, return_exceptions=True)

    def _display(self, screen: Screen, renderable) -> None:  # type: ignore[override]
        # Textual's one place where a frame goes to the terminal: the starting screen learns
        # here that it has been drawn, and only then does the slow part of start-up begin.
        super()._display(screen, renderable)
        if renderable is not None and not in_update_batch(self) and not self.started:
            from gateway_tui.tui.screens.starting import StartingScreen

            if isinstance(screen, StartingScreen):
                screen.frame_drawn()

    # --- type-ahead (gateway_tui/tui/type_ahead.py) -----------------------------------------------

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key) and not event.is_forwarded:
            await self.type_ahead.admit(event)
            return
        await super().on_event(event)

    async def _deliver_key(self, event: events.Key) -> None:
        await super().on_event(event)

    def push_screen(self, screen, callback=None, wait_for_dismiss=False, *, mode=None):  # type: ignore[override]
        result = super().push_screen(screen, callback, wait_for_dismiss, mode=mode)
        self.type_ahead.hold_for_screen(self.screen)
        return result

    def pop_screen(self):  # type: ignore[override]
        result = super().pop_screen()
        self.type_ahead.hold_for_screen(self.screen)
        return result

    def switch_screen(self, screen):  # type: ignore[override]
        result = super().switch_screen(screen)
        self.type_ahead.hold_for_screen(self.screen)
        return result

    def _stored_file_problem(self, message: str) -> None:
        notify = partial(
            self.notify, message, title="Stored file", severity="warning", timeout=15, markup=False
        )
        if on_app_thread(self):
            notify()
        else:
            self.call_from_thread(notify)

    # --- live events (gateway_tui/core/live.py) ---------------------------------------------------

    def follow_live(self, instance: str) -> None:
        """Receive ``instance``'s events over the gateway's socket.io (made on first use, after
        the first frame); where none can be had, the screens poll as before."""
        session = self.session
        if session is None:
            return
        new = not session.follows(instance)
        if session.follow_live(instance) and new:
            self._check_live_settings(instance)

    def _check_live_settings(self, instance: str) -> None:
        """Read (never write) the instance's websocket settings: where they keep live updates
        from coming, say so once, and where to turn them on."""

        from gateway_tui.core.api.errors import GatewayError
        from gateway_tui.core.live import OFF
        from gateway_tui.core.state import Topic

        what = f"Checking the live-update settings of {instance}"

        async def check() -> None:
            try:
                missing = await self.actions.lifecycle.live_events_missing(instance)
            except GatewayError as error:
                # Said, not swallowed: without them nobody knows whether live updates can come.
                self.report_error(error, what)
                return
            self._live_missing[instance] = set(missing)
            self.state.notify(Topic.LIVE)  # the bar says "partial" where it is
            webhook_on = False
            if missing == [OFF]:  # only the webhook on? Say so: this app does not listen there
                try:
                    webhook_on = (await self.client.hooks.find_webhook(instance)).enabled
                except GatewayError as error:
                    self.report_error(error, what)
            if missing:
                self._tell_live_missing(instance, missing, webhook_on)

        self.run_worker(check(), group="live-settings", exit_on_error=False)

    def _tell_live_missing(self, instance: str, missing: list[str], webhook_on: bool) -> None:
        from gateway_tui.core.live import live_gap
        from gateway_tui.tui.screens.instance import InstanceScreen
        from gateway_tui.tui.screens.webhook import HookSettingsScreen

        screen = self.screen
        key_on = getattr(screen, "key_on", None)
        if key_on is None:
            return
        websocket = key_on(InstanceScreen, "instance.websocket")
        live_events = key_on(HookSettingsScreen, "hooks.live_events")
        save = key_on(HookSettingsScreen, "hooks.save")
        self.notify(
            f"{live_gap(instance, missing, webhook_on=webhook_on)} (this app changes no "
            f"websocket setting by itself). {websocket} on the instance opens its websocket "
            f"screen; there {live_events} turns it on with the events live updates need, "
            f"{save} writes it.",
            title="Live events",
            severity="warning",
            timeout=20,
            markup=False,
        )

    def live_for(self, instance: str) -> bool:
        """Whether ``instance``'s events come over the socket now (no need to poll them)."""
        return self.session is not None and self.session.live_for(instance)

    @property
    def kept_instances(self) -> InstancesHead | None:
        """The instance rows this launch kept at the last run, when they are of the gateway in
        use (the home screen shows them, dimmed, until the gateway answers)."""
        kept = self._kept_instances
        if kept is None or self.session is None:
            return None
        return kept if kept.label == (self.config.profile or self.config.url) else None

    def keep_instance_rows(self, rows: list[tuple[str, ...]]) -> None:
        """The instance rows shown (display strings), kept for the next same launch's first
        frame; at most once a minute, and only when launched from the command line."""
        import time

        from gateway_tui.core.files import instances_head

        moment = time.monotonic()
        if self._launch_key is None or (
            self._instances_kept_at is not None and moment - self._instances_kept_at < 60
        ):
            return
        self._instances_kept_at = moment
        label = self.config.profile or self.config.url or "the gateway"
        path = instances_head.head_path(storage.data_dir())
        try:
            instances_head.save_head(path, self._launch_key, label, rows, instances_head.now())
        except OSError:
            pass  # only a head start for the next run

    def polling_reason(self, instance: str) -> str | None:
        """Why ``instance`` (of the gateway in use) is polled; None when its events come live."""
        from gateway_tui.core.live import OFF

        session = self.session
        if session is None or self.live_for(instance):
            return None
        if not session.follows(instance):
            return "not opened in this app yet: its events are followed once it is"
        missing = sorted(self._live_missing.get(instance, ()))
        if missing == [OFF]:
            return "its websocket is off on the gateway"
        if missing:
            return "its websocket does not send " + ", ".join(missing)
        return "the gateway's socket is not connected (or refused this instance's namespace)"

    def live_messages_for(self, instance: str) -> bool:
        """Whether ``instance``'s new messages come over the socket now: its websocket may be
        live yet not send them (then the chats and the conversation poll)."""
        return self.live_for(instance) and not (
            self._live_missing.get(instance, set()) & {"ENABLED", "MESSAGES_UPSERT"}
        )

    def live_partial_for(self, instance: str) -> bool:
        """Whether ``instance``'s socket is live but its websocket leaves out events live
        updates need (the notice says "partial"; the bar says so too)."""
        return self.live_for(instance) and bool(self._live_missing.get(instance))

    def live_marks_for(self, instance: str) -> bool:
        """Whether ``instance``'s delivery marks come over the socket now."""
        return self.live_for(instance) and not (
            self._live_missing.get(instance, set()) & {"ENABLED", "MESSAGES_UPDATE"}
        )

    def _live_arrival(self, session: GatewaySession) -> None:
        # Coalesced: whatever arrives until the next frame is applied in one go.
        self.call_after_refresh(self._apply_live, session)

    def _apply_live(self, session: GatewaySession) -> None:
        if session is not self.session:
            return  # a gateway switched away from: its events go nowhere
        events = session.take_live()
        if events:
            for name in session.actions.chats.apply_live(events):
                self.run_worker(self._opened(name), group="live-opened", exit_on_error=False)

    async def _opened(self, name: str) -> None:
        from gateway_tui.core.api.errors import GatewayError

        with contextlib.suppress(GatewayError):  # the row keeps its state: the next read tells
            await self.actions.lifecycle.opened(name)

    def _live_status(self, session: GatewaySession, live: bool, why: str | None) -> None:
        from gateway_tui.core.state import Topic

        if session is not self.session:
            return
        was = self.state.live
        self.state.live, self.state.live_why = live, why
        self.state.notify(Topic.LIVE)
        if was is not None and was != live:
            # Dropped: ask the gateway how it is (the dot follows at once). Back: what came
            # while it was down was missed, so the screen reads again.
            recover = getattr(self.screen, "recover", None)
            if callable(recover):
                recover()
        if not live and why and why not in self._live_told:
            self._live_told.add(why)  # said once, plainly
            self.notify(
                f"No live updates: {why}. The screens refresh as before.",
                title="Live events",
                severity="warning",
            )

    # --- navigation -------------------------------------------------------------------------------

    def open_instance(self, name: str) -> None:
        from gateway_tui.tui.screens.instance import InstanceScreen

        self.actions.instances.select(name)
        self.push_screen(InstanceScreen(name))

    def open_fleet_instance(self, gateway: str, instance: str) -> None:
        """Open ``instance`` on its own gateway: the gateway in use, or the profile named
        ``gateway`` (switched to first, as the palette's "Switch profile" does)."""
        self.on_fleet_gateway(gateway, lambda: self.open_instance(instance))

    def on_fleet_gateway(self, gateway: str, then: Callable[[], object]) -> None:
        """Call ``then`` on the fleet's ``gateway``: at once when it is the one in use, else
        once the profile of that name is switched to."""
        if gateway == self._fleet_name_in_use():
            then()
            return
        if gateway not in self.config.profiles:
            self.notify(f"{gateway} is not a profile any more.", severity="warning", markup=False)
            return
        self.switch_profile(gateway)
        # After the new gateway's home screen (queued by the switch) is on.
        self.call_later(self.call_later, then)

    def _fleet_name_in_use(self) -> str | None:
        from gateway_tui.core.fleet.monitor import gateways_of

        if self.config.profile is not None:
            return self.config.profile
        names = [name for name, _, _ in gateways_of(self.config)]
        return names[0] if len(names) == 1 and not self.config.profiles else None

    @property
    def fleet(self) -> FleetMonitor:
        """Every profile's gateway, read at once every refresh interval (made on first use;
        it runs on while other screens are shown, so alerts reach them)."""
        if self._fleet is None:
            from gateway_tui.core.fleet.monitor import FleetMonitor, cache_path
            from gateway_tui.core.fleet.seen import seen_path

            self._fleet = FleetMonitor.for_profiles(
                self.config, transport=self._fleet_transport, cache=cache_path(), seen=seen_path()
            )
            self._fleet.on_alert(self._fleet_alert)
            self._fleet_hears(self.client)
        return self._fleet

    def _fleet_hears(self, client: GatewayClient) -> None:
        """The fleet hears of the sends made through ``client`` (a send that fails "Connection
        Closed" while the instance is listed open makes it a zombie)."""
        fleet, gateway = self._fleet, self._fleet_name_in_use()
        if fleet is not None:
            client.subscribe(lambda event: fleet.note_call(gateway, event))

    def _fleet_alert(self, alert: Alert) -> None:
        """A notice, the bell, and (opt-in) the terminal's desktop notification."""
        from gateway_tui.core.fleet.alerts import desktop_notification
        from gateway_tui.tui.textual_private import write_to_terminal

        text = alert.summary()
        self.notify(text, title=f"Fleet: {alert.kind.value}", severity="warning", markup=False)
        self.bell()
        if self.config.desktop_notifications:
            write_to_terminal(self, desktop_notification(alert))

    def campaign_ended(
        self, instance: str, campaign: str, *, stopped: bool, detail: str = ""
    ) -> None:
        """A campaign of this gateway finished or stopped: an alert, as the fleet's."""
        gateway = self._fleet_name_in_use() or self.config.url or "gateway"
        self.fleet.campaign_ended(gateway, instance, campaign, stopped=stopped, detail=detail)

    def action_fleet(self) -> None:
        from gateway_tui.tui.screens.fleet import FleetScreen

        if not self.started:
            return
        if not isinstance(self.screen, FleetScreen):
            self.push_screen(FleetScreen())

    def open_groups(self, instance: str) -> None:
        from gateway_tui.tui.screens.groups import GroupPickerScreen

        self.push_screen(GroupPickerScreen(instance))

    def open_pairing(self, instance: str, number: str | None = None) -> None:
        from gateway_tui.tui.screens.pairing import PairingScreen

        self.push_screen(PairingScreen(instance, number))

    def open_hooks(self, instance: str, kind: str) -> None:
        from gateway_tui.tui.screens.webhook import HookSettingsScreen

        self.push_screen(HookSettingsScreen(instance, kind))  # type: ignore[arg-type]

    def open_composer(self, instance: str) -> None:
        from gateway_tui.tui.screens.composer import ComposerScreen

        self.push_screen(ComposerScreen(instance))

    def open_chats(self, instance: str) -> None:
        from gateway_tui.tui.screens.chats import ChatsScreen

        self.push_screen(ChatsScreen(instance))

    def action_request_log(self) -> None:
        from gateway_tui.tui.screens.request_log import RequestLogScreen

        if not isinstance(self.screen, RequestLogScreen):
            self.push_screen(RequestLogScreen())

    def action_event_monitor(self) -> None:
        from gateway_tui.tui.screens.event_monitor import EventMonitorScreen

        if not isinstance(self.screen, EventMonitorScreen):
            self.push_screen(EventMonitorScreen())

    async def action_quit(self) -> None:
        """q and ctrl+q (and the palette's Quit): a running campaign is asked about first —
        quitting pauses it, and its journal resumes it (campaign_run.confirm_quit)."""
        from gateway_tui.tui.screens.campaign_run import QUIT_QUESTION_ID, CampaignRunScreen

        if self.screen.id == QUIT_QUESTION_ID:
            return  # already asking: a second ctrl+q does not quit behind the question
        running = [s for s in self.screen_stack if isinstance(s, CampaignRunScreen) and s.running]
        if running:
            running[-1].confirm_quit()
            return
        self.exit()

    def action_help(self) -> None:
        from gateway_tui.tui.screens.help import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(self.screen))

    def action_toggle_theme(self) -> None:
        self.theme = LIGHT_THEME if self.current_theme.dark else DARK_THEME

    def action_refresh_instances(self) -> None:
        self.run_worker(self._refresh_all(), group="instances", exit_on_error=False)

    async def _refresh_all(self) -> None:
        from gateway_tui.core.api.errors import GatewayError

        try:
            await self.actions.instances.refresh_instances()
        except GatewayError as error:
            self.report_error(error, "Refreshing instances")

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        """The palette: every action of ``screen`` (its bindings), then the app's, once each."""
        from gateway_tui.tui.screens.help import APP, SCREEN, key_rows

        rows = key_rows(screen)
        titles: set[str] = set()

        def once(command: SystemCommand) -> Iterable[SystemCommand]:
            if command.title not in titles:
                titles.add(command.title)
                yield command

        for group, namespace in ((SCREEN, screen), (APP, self)):
            # One command per action: "Quit" is q and ctrl+q, "Keys" is ? and f1.
            by_title: dict[str, list] = {}
            for row in rows:
                if row.group == group and row.action != "command_palette":
                    by_title.setdefault(row.description, []).append(row)
            for title, same in by_title.items():
                run = partial(self._run_from_palette, namespace, same[0].action)
                yield from once(SystemCommand(title, _palette_help(same), run))
        yield from once(
            SystemCommand(
                "Refresh instances", "Fetch the instance list again", self.action_refresh_instances
            )
        )
        yield from once(SystemCommand("Change theme", "Pick any theme", self.action_change_theme))
        yield from once(
            SystemCommand("Screenshot", "Save an SVG of the screen", self.deliver_screenshot)
        )
        for name in sorted(self.config.profiles):
            if name != self.config.profile:
                yield from once(
                    SystemCommand(
                        f"Switch profile: {name}",
                        f"Use the gateway of profile {name}",
                        partial(self.switch_profile, name),
                    )
                )
        yield from once(
            SystemCommand("Connect to another gateway", "Enter a URL and key", self._open_connect)
        )

    def _run_from_palette(self, namespace, action: str) -> None:
        # After the palette has closed, so the action sees its own screen on top.
        self.call_later(self.run_action, action, namespace)

    def _open_connect(self) -> None:
        from gateway_tui.tui.screens.connect import ConnectScreen

        self.push_screen(ConnectScreen())

    # --- reporting --------------------------------------------------------------------------------

    def report_error(self, error: GatewayError, what: str) -> None:
        """Tell the user a call failed, in plain words; server text is never markup."""
        lines = [error.summary]
        if error.hint:
            lines.append(error.hint)
        self.notify(
            "\n".join(lines), title=f"{what} failed", severity="error", timeout=8, markup=False
        )

    def report_unexpected(self, error: BaseException, what: str | None) -> None:
        """A bug of ours: say it without a traceback or locals, and keep running."""
        self.notify(
            describe(error, self.secrets()),
            title=f"Unexpected error{f' in {what}' if what else ''}",
            severity="error",
            timeout=10,
            markup=False,
        )

    # --- the display boundary and the crash path (see sanitize.py, crash.py) ----------------------

    def secrets(self) -> list[str]:
        """Every key this app knows: masked in anything it reports."""
        from gateway_tui.core.text.sanitize import known_secrets

        if not self.started:
            return list(known_secrets())  # the config is not loaded yet: no key is known
        keys = [self.config.api_key] + [p.resolve_key() for p in self.config.profiles.values()]
        return [key.get_secret_value() for key in keys if key is not None] + list(known_secrets())

    def notify(self, message: str, *, title: str = "", **kwargs) -> None:  # type: ignore[override]
        # Notifications quote server and file text: placeholders instead of controls, no key.
        secrets = self.secrets()
        message = printable(scrub(message, secrets), multiline=True)
        super().notify(message, title=printable(scrub(title, secrets)), **kwargs)

    def copy_to_clipboard(self, text: str) -> None:
        super().copy_to_clipboard(clipboard_text(text))

    async def run_action(self, action, default_namespace=None, namespaces=None) -> bool:  # type: ignore[no-untyped-def]
        # Every key binding and palette action runs through here: a bug in one is reported
        # (no traceback, no locals, no key) and the app keeps running.
        try:
            return await super().run_action(action, default_namespace, namespaces)
        except Exception as error:  # noqa: BLE001 - anything unexpected, by design
            self.report_unexpected(error, f"the action {action}")
            return True

    def get_line_filters(self) -> list:  # type: ignore[override]
        return [*super().get_line_filters(), _SECRET_FILTER, _CONTROL_FILTER]

    def _handle_exception(self, error: Exception) -> None:
        self._crash_error = error  # for _fatal_error, which Textual calls without it
        super()._handle_exception(error)

    def _fatal_error(self) -> None:
        # Textual's report shows every frame's locals, the key among them: ours shows none.
        error = getattr(self, "_crash_error", None) or sys.exc_info()[1] or RuntimeError("?")
        self.bell()
        exit_with(self, crash_report(error, self.secrets()))


_CONTROL_FILTER = ControlCharacterFilter()
_SECRET_FILTER = SecretFilter()


def _palette_help(rows: list) -> str:
    """The palette's second line for an action: its keys and binding ids (for `[keys]`)."""
    keys = " / ".join(row.keys for row in rows)
    return f"{keys} · {', '.join(row.binding_id for row in rows)}"


_startup_heap_frozen = False


def _freeze_startup_heap() -> None:
    """Take what the imports built out of the garbage collector's sight, once per process.

    A full collection scans every tracked object, and the tens of thousands the imported modules
    made live as long as the process: each collection scanned them again, 50-90 ms pauses while
    10,000 instances or 1,024 participants were loading. Frozen, they are never scanned again
    (cyclic garbage among them would never be freed; at this point there is next to none).
    """
    global _startup_heap_frozen
    if not _startup_heap_frozen:
        _startup_heap_frozen = True
        gc.freeze()


def run_app(
    config: ResolvedConfig | Callable[[], ResolvedConfig],
    *,
    starting_url: str | None = None,
    fleet: bool = False,
    launch: tuple[str | None, str | None] | None = None,
) -> int:
    GatewayApp(config, starting_url=starting_url, fleet=fleet, launch=launch).run()
    return 0
