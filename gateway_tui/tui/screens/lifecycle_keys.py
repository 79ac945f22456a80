"""Connect, restart and log out from the instance screen: confirmed, explained in plain words,
and the state followed live afterwards (asked every two seconds for half a minute)."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from rich.text import Text

from gateway_tui.core.api.errors import BadRequest, GatewayError, RefusedIn200
from gateway_tui.core.api.models import ConnectionState, InstanceStatus
from gateway_tui.core.text.i18n import _
from gateway_tui.tui.screens.confirm import ConfirmScreen
from gateway_tui.tui.widgets.styled import styled

if TYPE_CHECKING:
    from gateway_tui.tui.screens.base import GatewayScreen
    from gateway_tui.tui.screens.instance import InstanceScreen

FOLLOW_POLL_SECONDS = 2.0
FOLLOW_FOR_SECONDS = 30.0


def report_reread(screen: GatewayScreen, name: str):
    """What a logout's ``on_done`` does with its result: the logout went through, and the
    instance's new status could not be read (the error is returned, not raised): say it."""

    def said(error: GatewayError | None) -> None:
        if error is not None:
            screen.gateway_app.report_error(
                error, _("Re-reading {name} after the logout").format(name=name)
            )

    return said


def bold_name(sentence: str, name: str) -> Text:
    """``sentence`` with ``{name}`` filled in bold."""
    return styled(sentence, name=(name, "bold"))


def restart_explanation(name: str, answer: ConnectionState, connect_key: str = "C") -> str:
    state = answer.state
    if state is None:
        return _(
            "Restart sent; the gateway reported no state for {name} (an empty answer)."
        ).format(name=name)
    if state == InstanceStatus.OPEN.value:
        return _("Restarted {name}: it reconnects, state now {state}.").format(
            name=name, state=state
        )
    return _(
        "{name} is {state}: a gateway only reconnects an open instance, so nothing was "
        "restarted. {key} connects it."
    ).format(name=name, state=state, key=connect_key)


class InstanceFollower:
    """The instance screen's lifecycle keys and the live follow-up of the state."""

    def __init__(self, screen: InstanceScreen) -> None:
        self.screen = screen
        self.name = screen.instance_name
        self._until = 0.0
        self._logged_out = False  # followed since a logout: a state still reconnecting is said
        screen.set_interval(FOLLOW_POLL_SECONDS, self._tick, name="follow-state")

    def follow(self, *, after_logout: bool = False) -> None:
        self._until = time.monotonic() + FOLLOW_FOR_SECONDS
        self._logged_out = after_logout

    def _seen(self, state: str | None) -> None:
        if self._logged_out and state == InstanceStatus.CONNECTING.value:
            self._logged_out = False  # said once
            self.screen.notify(
                _(
                    "{name} is still reconnecting (connecting) after the logout: a 1.7.1 "
                    "gateway that never connected an instance keeps retrying it while it runs."
                ).format(name=self.name),
                title=_("Log out"),
                severity="warning",
                markup=False,
            )

    def _tick(self) -> None:
        if time.monotonic() > self._until or not self.screen.in_view:
            return

        def failed(_error: GatewayError) -> bool:
            self._until = 0.0  # said once (the app reports it), not every two seconds
            return False

        self.screen.call(
            self.screen.actions.lifecycle.check_state(self.name),
            what=_("Following the state of {name}").format(name=self.name),
            on_done=self._seen,
            on_error=failed,
            group="follow-state",
            exclusive=True,
        )

    def _confirm(self, title: str, question: str, label: str, then) -> None:
        """``question``: a translated sentence with ``{name}``, drawn in bold."""
        body = bold_name(question, self.name)
        self.screen.app.push_screen(
            ConfirmScreen(title, body, confirm_label=label), lambda yes: then() if yes else None
        )

    # --- keys ------------------------------------------------------------------------------------

    def connect(self) -> None:
        instance = self.screen.state.instance(self.name)
        if instance is not None and instance.status_kind == InstanceStatus.OPEN:
            self.screen.notify(
                _("{name} is already open (connected).").format(name=self.name), markup=False
            )
            return
        self.screen.gateway_app.open_pairing(self.name)

    def restart(self) -> None:
        self._confirm(
            _("Restart instance"),
            _("Restart the connection of {name}?"),
            _("Restart"),
            self._restart,
        )

    def _restart(self) -> None:
        def done(answer: ConnectionState) -> None:
            connect = self.screen.key_for("instance.connect")
            self.screen.notify(restart_explanation(self.name, answer, connect), markup=False)
            self.follow()

        def refused(error: GatewayError) -> bool:
            if not isinstance(error, RefusedIn200):
                return False
            self.screen.notify(
                _("Not restarted: {why}. {key} connects it.").format(
                    why="; ".join(error.messages), key=self.screen.key_for("instance.connect")
                ),
                title=_("Restart"),
                severity="warning",
                markup=False,
            )
            self.follow()
            return True

        self.screen.call(
            self.screen.actions.lifecycle.restart_instance(self.name),
            what=_("Restarting {name}").format(name=self.name),
            on_done=done,
            on_error=refused,
        )

    def logout(self) -> None:
        self._confirm(
            _("Log out instance"),
            _("End the WhatsApp session (the phone must scan again to reconnect) of {name}?"),
            _("Log out"),
            self._logout,
        )

    def _logout(self) -> None:
        def refused(error: GatewayError) -> bool:
            if isinstance(error, BadRequest) and "not connected" in " ".join(error.messages):
                self.screen.notify(
                    _(
                        "Not logged out: the gateway says {name} is not connected — there is "
                        "no session to end."
                    ).format(name=self.name),
                    title=_("Log out"),
                    severity="warning",
                    markup=False,
                )
                self.follow()
                return True
            return False

        def logged_out(error: GatewayError | None) -> None:
            report_reread(self.screen, self.name)(error)
            self.follow(after_logout=True)

        self.screen.call(
            self.screen.actions.instances.logout_instance(self.name),
            what=_("Logging out {name}").format(name=self.name),
            # The gateway answers at once and logs out in the background: the follow-up says
            # whether the session really ended.
            done=_(
                "Logged out {name} (the gateway finishes in the background); following its state"
            ).format(name=self.name),
            on_done=logged_out,
            on_error=refused,
        )
