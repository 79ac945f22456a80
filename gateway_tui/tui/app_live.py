"""Live events: the app's side of the gateway's socket (``core/live.py``, held by the session).

A mixin of ``GatewayApp``. It follows an instance when a screen opens it, reads (never writes)
that instance's websocket settings and says once what keeps live updates from coming, answers
the screens' questions (live or polled, and why), and takes the events in once per frame.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gateway_tui.core.text.i18n import _

if TYPE_CHECKING:
    from gateway_tui.core.session import GatewaySession


class LiveEvents:
    """The live-updates glue (``GatewayApp`` mixes it in)."""

    session: GatewaySession | None
    _transport: object | None  # the app's stand-in for the network, if any
    _live_told: set[str]  # the reasons already said
    _live_missing: dict[str, set[str]]  # what a websocket's settings lack

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

        what = _("Checking the live-update settings of {instance}").format(instance=instance)

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
            _(
                "{gap} (this app changes no websocket setting by itself). {websocket} on the "
                "instance opens its websocket screen; there {live_events} turns it on with the "
                "events live updates need, {save} writes it."
            ).format(
                gap=live_gap(instance, missing, webhook_on=webhook_on),
                websocket=websocket,
                live_events=live_events,
                save=save,
            ),
            title=_("Live events"),
            severity="warning",
            timeout=20,
            markup=False,
        )

    def live_for(self, instance: str) -> bool:
        """Whether ``instance``'s events come over the socket now (no need to poll them)."""
        return self.session is not None and self.session.live_for(instance)

    def polling_reason(self, instance: str) -> str | None:
        """Why ``instance`` (of the gateway in use) is polled; None when its events come live."""
        from gateway_tui.core.live import OFF

        session = self.session
        if session is None or self.live_for(instance):
            return None
        if not session.follows(instance):
            return _("not opened in this app yet: its events are followed once it is")
        missing = sorted(self._live_missing.get(instance, ()))
        if missing == [OFF]:
            return _("its websocket is off on the gateway")
        if missing:
            return _("its websocket does not send {events}").format(events=", ".join(missing))
        return _("the gateway's socket is not connected (or refused this instance's namespace)")

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
        """An instance a live event says turned open: its row turns open, and a failed read of
        its new profile is said (nobody asked for it: nothing else would say it)."""
        failed = await self.actions.lifecycle.opened(name)
        if failed is not None:
            self.report_error(failed, _("Reading {name} after it connected").format(name=name))

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
            from gateway_tui.core.live import said_why

            self._live_told.add(why)  # said once, plainly
            self.notify(
                _("No live updates: {why}. The screens refresh as before.").format(
                    why=said_why(why)
                ),
                title=_("Live events"),
                severity="warning",
            )
