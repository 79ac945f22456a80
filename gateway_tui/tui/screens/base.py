"""The pattern every screen follows: read the state, run calls in workers, report errors."""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import datetime
from functools import lru_cache
from typing import TYPE_CHECKING, Any, ClassVar

from textual.binding import Binding
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer
from textual.worker import Worker, WorkerState

from gateway_tui.core.api.errors import (
    Forbidden,
    GatewayError,
    GatewayTimeout,
    GatewayUnreachable,
    Unauthorized,
)
from gateway_tui.core.state import Health, Topic
from gateway_tui.core.text.i18n import _
from gateway_tui.tui.textual_private import bindings_of, keymap_of
from gateway_tui.tui.widgets.footer import GatewayFooter

if TYPE_CHECKING:
    from textual.app import App

    from gateway_tui.core.services import Actions
    from gateway_tui.core.state import AppState
    from gateway_tui.tui.host import AppHost


# How much of a copied value the notification repeats (a JSON body can be long).
COPY_SHOWN_CHARS = 160
# While the gateway cannot be reached, a screen that shows its data asks again this often
# (or at the configured refresh interval, when that is shorter; never when it is 0).
RECOVERY_SECONDS = 5.0
# A redraw that costs the app's thread more CPU than this (a chats list of 100,000 during a
# history sync) is paced: the next one a state change asks for waits REDRAW_SPACING times that
# cost after it, so keys are answered between redraws rather than behind a queue of them. CPU
# time, not the clock's: a busy machine's other processes make no small redraw "costly".
REDRAW_BUDGET = 0.05
REDRAW_SPACING = 3.0


@lru_cache(maxsize=1)
def tmux_passes_clipboard() -> bool:
    """Whether the tmux around the app passes a copy on (its set-clipboard is on); asked once.
    Unknown (no tmux command, no answer) counts as no: the advice is then given."""
    try:
        answer = subprocess.run(
            ["tmux", "show-options", "-gv", "set-clipboard"],
            capture_output=True,
            text=True,
            timeout=2,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return False
    return answer.returncode == 0 and answer.stdout.strip() == "on"


def key_for(screen: Screen, binding_id: str) -> str | None:
    """The key that runs binding ``binding_id`` on ``screen`` now (remaps included), as the
    footer shows it; None when no binding of the screen or the app has that id. Every hint
    that names a key asks this (or ``key_on``), so it names the key that really works."""
    for node in (screen, screen.app):
        for bindings in bindings_of(node).key_to_bindings.values():
            for binding in bindings:
                if binding.id == binding_id:
                    return shown_key(screen.app, binding)
    return None


def key_on(app: App, screen: type[Screen], binding_id: str) -> str | None:
    """The key that runs binding ``binding_id`` on another screen (remaps included), for a
    hint that sends the user there; None when that screen has no such binding."""
    for binding in screen.BINDINGS:
        if isinstance(binding, Binding) and binding.id == binding_id:
            return shown_key(app, binding)
    return None


def shown_key(app: App, binding: Binding) -> str:
    """The key as the footer shows it; a remap in ``[keys]`` wins (Textual applies it to
    copies of the bindings, so a screen's own may still hold the default)."""
    if keys := keymap_of(app).get(binding.id or ""):
        binding = replace(binding, key=keys.split(",")[0].strip(), key_display=None)
    return app.get_key_display(binding)


def key_hints(screen: Screen, *hints: tuple[str, str]) -> str:
    """ "g groups · m compose": each (binding id, words) after the key that runs it on
    ``screen``; a hint whose binding is gone is left out."""
    return " · ".join(
        f"{key} {words}" for binding_id, words in hints if (key := key_for(screen, binding_id))
    )


class GatewayScreen(Screen):
    """A screen that observes the app state and talks to the gateway only through actions."""

    # Which state changes make this screen redraw.
    TOPICS: ClassVar[frozenset[Topic]] = frozenset()
    _refusal_told = False  # a read of its own met a refused key, and it was told
    _redraw_cost = 0.0  # CPU seconds the last redraw a state change asked for took
    _redrawn_at = 0.0  # when it ended (time.monotonic)
    _redraw_due: Any = None  # the timer of a paced redraw, while one waits

    @property
    def gateway_app(self) -> AppHost:
        return self.app  # type: ignore[return-value]

    @property
    def state(self) -> AppState:
        return self.gateway_app.state

    @property
    def actions(self) -> Actions:
        return self.gateway_app.actions

    @property
    def in_view(self) -> bool:
        """Whether the user sees this screen: on top, or under dialogs that show it through.
        (Textual's ``is_current`` also holds for the screen right under any other screen, so
        the instance list kept checking states under the chats.)"""
        for screen in reversed(self.app.screen_stack):
            if screen is self:
                return True
            if screen.styles.background.a == 1:
                return False
        return False

    def key_for(self, binding_id: str) -> str | None:
        """The key that runs binding ``binding_id`` here now (see ``key_for``)."""
        return key_for(self, binding_id)

    def key_on(self, screen: type[Screen], binding_id: str) -> str | None:
        """The key that runs binding ``binding_id`` on another screen (see ``key_on``)."""
        return key_on(self.app, screen, binding_id)

    def key_hints(self, *hints: tuple[str, str]) -> str:
        """ "g groups · m compose": each (binding id, words) with the key that runs it."""
        return key_hints(self, *hints)

    def copy(self, text: str, what: str) -> None:
        """Put ``text`` on the clipboard, saying honestly how: the terminal gets it (OSC 52),
        and not every terminal passes that on — tmux by default does not."""
        self.app.copy_to_clipboard(text)
        if os.environ.get("TMUX") and not tmux_passes_clipboard():
            how = _(
                "Sent to the terminal's clipboard (OSC 52); tmux passes it on only with "
                "`{command}`."
            ).format(command="set -g set-clipboard on")
        else:
            how = _("Sent to the terminal's clipboard (OSC 52).")
        shown = text if len(text) <= COPY_SHOWN_CHARS else text[: COPY_SHOWN_CHARS - 1] + "…"
        copied = _("{what}: {value}").format(what=what, value=shown)
        self.notify(f"{copied}\n{how}", title=_("Clipboard"), markup=False)

    async def mount_composed_widgets(self, widgets: list[Widget]) -> None:
        # Every screen yields Textual's Footer; ours keeps the app's keys in sight when narrow.
        footers = [GatewayFooter() if type(w) is Footer else w for w in widgets]
        await super().mount_composed_widgets(footers)

    def on_mount(self) -> None:
        # Textual calls this after a subclass's own on_mount (handlers run for each class in
        # the MRO), so subclasses must not call super().on_mount() again.
        for footer in self.query(Footer):
            footer.compact = True  # more keys fit before the footer cuts the last one
        self.gateway_app.state_changed.subscribe(self, self._state_changed)
        self.refresh_from_state()
        interval = self.gateway_app.config.refresh_interval
        if interval and interval > 0:
            self.set_interval(min(interval, RECOVERY_SECONDS), self._recover_if_down)

    def recover(self) -> None:
        """Read the screen's data again, quietly, once the gateway may be back. Screens that
        show server data override this (and ``data_error``); the base calls it while the
        gateway is unreachable or the screen's data could not be read for want of it. A
        screen with no data of its own asks for the instance list: the bar then tells the
        truth about the gateway (it was back, and nothing asked)."""
        if self.state.instances.loading:
            return

        async def probe() -> None:
            await self.read_by_itself(
                self.actions.instances.refresh_instances(), _("Reading the instances again")
            )

        self.run_worker(probe(), group="recover", exclusive=True, exit_on_error=False)

    async def read_by_itself(self, read: Awaitable[Any], what: str) -> None:
        """A read the screen makes by itself (a timed refresh, a recovery probe). A failure
        stays said where it lasts (the list's stale banner, the bar's dot and the request
        log), not in a notice at every tick; a refused key is told at once too, once until
        such a read succeeds again."""
        try:
            await read
        except GatewayError as error:
            refused = isinstance(error, Unauthorized | Forbidden)
            if refused and not self._refusal_told:
                self.gateway_app.report_error(error, what)
            self._refusal_told = refused
        else:
            self._refusal_told = False

    def data_error(self) -> GatewayError | None:
        """Why the screen's data could not be read last time (None: it was read)."""
        return None

    def live_instance(self) -> str | None:
        """The instance whose live events keep this screen current (None: none do); while
        they do not come, the screen reads again at the refresh interval (polls)."""
        return None

    def _recover_if_down(self) -> None:
        # Only on top: Textual's is_current also holds for the screen just under this one.
        if self.app.screen is not self:
            return
        down = isinstance(self.data_error(), GatewayUnreachable | GatewayTimeout)
        quiet = self._gateway_quiet()
        if down or self.state.health is Health.UNREACHABLE:
            self._polled_at = time.monotonic()
            self.recover()
            if quiet:
                self._probe_gateway()  # the dot turns ok with the first answer, whatever the screen
            return
        if quiet and self.state.live is not True:
            # No socket tells when the gateway goes: without a call, the dot would say ok
            # until something asked. A tick with no call of the screen's own asks GET /.
            self._probe_gateway()
        instance = self.live_instance()
        if instance is None or self.gateway_app.live_messages_for(instance):
            return  # its messages come live (a socket without them is polled, as none)
        now = time.monotonic()
        if now - getattr(self, "_polled_at", now) >= self.gateway_app.config.refresh_interval:
            self._polled_at = now
            self.recover()  # not live: poll, as the screens did before live events
        elif not hasattr(self, "_polled_at"):
            self._polled_at = now

    def _gateway_quiet(self) -> bool:
        """Whether no call started for half a recovery tick: the dot would then say what the
        last call left, however long ago that was."""
        if not self.state.calls:
            return True
        tick = min(self.gateway_app.config.refresh_interval, RECOVERY_SECONDS)
        return (datetime.now() - self.state.calls[-1].started_at).total_seconds() >= tick / 2

    def _probe_gateway(self) -> None:
        async def probe() -> None:
            await self.read_by_itself(
                self.actions.instances.probe_gateway(), _("Asking whether the gateway is back")
            )

        self.run_worker(probe(), group="health-probe", exclusive=True, exit_on_error=False)

    def on_screen_resume(self) -> None:
        self.refresh_from_state()

    def _state_changed(self, topic: Topic) -> None:
        if topic in self.TOPICS and self.is_attached:
            self._paced_redraw()

    def _paced_redraw(self) -> None:
        """Redraw for a state change: at once, unless the last such redraw was costly (see
        REDRAW_BUDGET); then once, later, reading the state as it is by then."""
        if self._redraw_due is not None:
            return  # a redraw is due: it reads every change made until then
        wait = self._redraw_cost * REDRAW_SPACING - (time.monotonic() - self._redrawn_at)
        if self._redraw_cost < REDRAW_BUDGET or wait <= 0:
            self._costed_redraw()
        else:
            self._redraw_due = self.set_timer(wait, self._due_redraw)

    def _due_redraw(self) -> None:
        self._redraw_due = None
        if self.is_attached:
            self._costed_redraw()

    def _costed_redraw(self) -> None:
        started = time.thread_time()
        self.refresh_from_state()
        self._redraw_cost = time.thread_time() - started
        self._redrawn_at = time.monotonic()

    def refresh_from_state(self) -> None:
        """Redraw from the state. Screens override this."""

    # --- back (escape on every screen) ---------------------------------------------------------

    def action_back(self) -> None:
        """Close what is open over the screen's content first (a filter, a detail pane), and
        only then leave the screen. Screens bind their back key (escape) to this action."""
        if not self.close_layer():
            self.leave()

    def close_layer(self) -> bool:
        """Close the innermost thing open on the screen; False when nothing was open."""
        return False

    def leave(self) -> None:
        """Go back to the screen under this one."""
        self.app.pop_screen()

    def call(
        self,
        work: Awaitable[Any],
        *,
        what: str,
        done: str | None = None,
        on_done: Callable[[Any], None] | None = None,
        on_error: Callable[[GatewayError], bool | None] | None = None,
        group: str = "call",
        exclusive: bool = False,
    ) -> Worker:
        """Run a gateway call in a worker; announce success, and any failure, in plain words.

        ``on_error`` may return True to say it told the user itself; otherwise the app reports.
        """

        async def run() -> Any:
            try:
                result = await work
            except GatewayError as error:
                handled = on_error(error) if on_error is not None else False
                if not handled:
                    self.gateway_app.report_error(error, what)
                return None
            if done:
                self.notify(done, markup=False)
            if on_done is not None:
                on_done(result)
            return result

        return self.run_worker(
            run(), name=what, group=group, exclusive=exclusive, exit_on_error=False
        )

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        # Anything that is not a GatewayError is a bug of ours: say so, keep the app running.
        if event.state == WorkerState.ERROR and event.worker.error is not None:
            self.gateway_app.report_unexpected(event.worker.error, event.worker.name)
