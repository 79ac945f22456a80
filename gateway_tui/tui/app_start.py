"""Start-up: draw first, import after (see the module doc of ``tui/app.py``).

A mixin of ``GatewayApp``. From the command line the app is given a config loader: on mount it
shows the starting screen (``screens/starting.py``, Textual alone, with the rows the last run
kept), and once that frame is on the terminal (``GatewayApp._display`` tells the screen) it
loads the config, imports the rest and shows home. Nothing here imports httpx, pydantic or
the config at the top.
"""

from __future__ import annotations

import gc
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from gateway_tui.core.files import storage
from gateway_tui.core.text.i18n import _
from gateway_tui.core.text.urls import insecure_url_warning
from gateway_tui.tui.textual_private import on_app_thread

if TYPE_CHECKING:
    from gateway_tui.core.files.config import ResolvedConfig
    from gateway_tui.core.files.instances_head import InstancesHead
    from gateway_tui.core.session import GatewaySession
    from gateway_tui.tui.type_ahead import TypeAhead


class StartUp:
    """The first frame, then the config and home (``GatewayApp`` mixes it in)."""

    session: GatewaySession | None
    type_ahead: TypeAhead
    _config_loader: Callable[[], ResolvedConfig] | None
    _open_on_fleet: bool
    _launch: tuple[str | None, str | None] | None
    _launch_key: str | None
    _kept_instances: InstancesHead | None
    _instances_kept_at: float | None
    _starting_url: str | None
    _storage_problems_off: Callable[[], None]

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
            self.notify(problem, title=_("Configuration"), severity="warning", markup=False)
        self._show_home()
        if self._open_on_fleet and self.config.is_complete:
            self.call_later(self.call_later, self.action_fleet)

    def _stored_file_problem(self, message: str) -> None:
        notify = partial(
            self.notify,
            message,
            title=_("Stored file"),
            severity="warning",
            timeout=15,
            markup=False,
        )
        if on_app_thread(self):
            notify()
        else:
            self.call_from_thread(notify)

    # --- the rows kept for the next same launch's first frame -------------------------------------

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
