"""The fleet, seen from the app: every profile's gateway read at once (``core/fleet``).

A mixin of ``GatewayApp``. The monitor is made on first use and runs on while other screens are
shown, so its alerts (and a campaign's end) reach them; a fleet row of another gateway opens
once that profile is switched to.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from gateway_tui.core.text.i18n import _

if TYPE_CHECKING:
    import httpx

    from gateway_tui.core.api.client import GatewayClient
    from gateway_tui.core.files.config import ResolvedConfig
    from gateway_tui.core.fleet.alerts import Alert
    from gateway_tui.core.fleet.monitor import FleetMonitor


class FleetGlue:
    """The fleet's monitor, alerts and ways in (``GatewayApp`` mixes it in)."""

    _fleet: FleetMonitor | None
    _fleet_transport: Callable[[ResolvedConfig], httpx.AsyncBaseTransport | None] | None

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
            self.notify(
                _("{gateway} is not a profile any more.").format(gateway=gateway),
                severity="warning",
                markup=False,
            )
            return
        self.switch_profile(gateway)
        # After the new gateway's home screen (queued by the switch) is on.
        self.call_later(self.call_later, then)

    def _fleet_name_in_use(self) -> str | None:
        from gateway_tui.core.fleet.monitor import gateways_of

        if self.config.profile is not None:
            return self.config.profile
        names = [name for name, _config, _key in gateways_of(self.config)]
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
        from gateway_tui.core.text.i18n import _
        from gateway_tui.tui.textual_private import write_to_terminal

        text = alert.summary()
        title = _("Fleet: {alert}").format(alert=alert.kind.label)
        self.notify(text, title=title, severity="warning", markup=False)
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
