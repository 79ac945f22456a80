"""The application shell: the current gateway session, the screens and the keys.

Start-up draws first and imports after: from the command line the app is given a config
*loader*; its first frame (``screens/starting.py``) needs Textual alone, and the config, the
HTTP stack and pydantic are imported once that frame is on screen. Given a config (tests, the
demo), it starts at once. So this module, and the mixins it is made of, import neither httpx
nor pydantic at the top.

``GatewayApp`` is this module's session, navigation, type-ahead and reporting, with a mixin
for each of the rest: app_start.py (the first frame, then the config and home), app_live.py
(live events), app_fleet.py (the fleet monitor and its alerts), app_palette.py (the palette).
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from textual import events
from textual.app import App
from textual.binding import Binding
from textual.screen import Screen
from textual.signal import Signal

from gateway_tui.core.text.i18n import N_, _
from gateway_tui.core.text.sanitize import clipboard_text, printable
from gateway_tui.core.text.urls import insecure_url_warning
from gateway_tui.tui.app_fleet import FleetGlue
from gateway_tui.tui.app_live import LiveEvents
from gateway_tui.tui.app_palette import InstanceCommands, PaletteCommands
from gateway_tui.tui.app_start import StartUp
from gateway_tui.tui.crash import crash_report, describe, scrub
from gateway_tui.tui.display_filter import ControlCharacterFilter, SecretFilter
from gateway_tui.tui.textual_private import exit_with, in_update_batch
from gateway_tui.tui.type_ahead import TypeAhead

if TYPE_CHECKING:
    import httpx

    from gateway_tui.core.api.client import GatewayClient
    from gateway_tui.core.api.dialects import Dialect
    from gateway_tui.core.api.errors import GatewayError
    from gateway_tui.core.files.config import ResolvedConfig
    from gateway_tui.core.files.instances_head import InstancesHead
    from gateway_tui.core.fleet.monitor import FleetMonitor
    from gateway_tui.core.services import Actions
    from gateway_tui.core.session import GatewaySession
    from gateway_tui.core.state import AppState, Topic

DARK_THEME = "textual-dark"
LIGHT_THEME = "textual-light"


class GatewayApp(StartUp, LiveEvents, FleetGlue, PaletteCommands, App[int]):
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
        session.on_live_error = partial(self.report_unexpected, what=_("Live events"))
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
            self.notify(
                warning, title=_("Insecure URL"), severity="warning", timeout=10, markup=False
            )
        # The config's own warnings (a key file others can read, an interval raised): said.
        for other in self.config.warnings:
            if other != warning:
                self.notify(other, title=_("Config"), severity="warning", timeout=10, markup=False)

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

    # --- navigation -------------------------------------------------------------------------------

    def open_instance(self, name: str) -> None:
        from gateway_tui.tui.screens.instance import InstanceScreen

        self.actions.instances.select(name)
        self.push_screen(InstanceScreen(name))

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
            self.report_error(error, _("Refreshing instances"))

    # --- reporting --------------------------------------------------------------------------------

    def report_error(self, error: GatewayError, what: str) -> None:
        """Tell the user a call failed, in plain words; server text is never markup.
        ``what``: the call, already in the reader's language ("Refreshing instances")."""
        lines = [error.summary]
        if error.hint:
            lines.append(error.hint)
        title = _("{what} failed").format(what=what)
        self.notify("\n".join(lines), title=title, severity="error", timeout=8, markup=False)

    def report_unexpected(self, error: BaseException, what: str | None) -> None:
        """A bug of ours: say it without a traceback or locals, and keep running. ``what``:
        where, in the reader's language."""
        title = _("Unexpected error in {what}").format(what=what) if what else None
        self.notify(
            describe(error, self.secrets()),
            title=title or _("Unexpected error"),
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
            self.report_unexpected(error, _("the action {action}").format(action=action))
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


def run_app(
    config: ResolvedConfig | Callable[[], ResolvedConfig],
    *,
    starting_url: str | None = None,
    fleet: bool = False,
    launch: tuple[str | None, str | None] | None = None,
) -> int:
    GatewayApp(config, starting_url=starting_url, fleet=fleet, launch=launch).run()
    return 0
