"""Connect an instance: the QR code drawn in the terminal, or a pairing code typed on the phone.

The code lives a minute (the first) or 20 s (later ones, as Baileys issues them): a countdown
shows it and a fresh code is fetched when it lapses. The state is asked every two seconds; once
`open`, the profile name and number are shown and the screen goes back by itself.
"""

from __future__ import annotations

import time
from datetime import datetime

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, Input, Label, Static

from gateway_tui.core.api.errors import GatewayError
from gateway_tui.core.api.lifecycle import check_pairing_number, normalise_pairing_number
from gateway_tui.core.api.models import InstanceStatus
from gateway_tui.core.state import Topic
from gateway_tui.core.text.formatting import clock, format_number, status_text
from gateway_tui.core.text.i18n import N_, _, number
from gateway_tui.tui.screens.base import GatewayScreen, key_for
from gateway_tui.tui.widgets.big_code import big_text, big_width, grouped
from gateway_tui.tui.widgets.gateway_bar import GatewayBar
from gateway_tui.tui.widgets.qr import Drawing, QRCode, drawing_size, fitting_drawing, qr_matrix
from gateway_tui.tui.widgets.styled import styled
from gateway_tui.tui.widgets.text_input import TextInput

STATE_POLL_SECONDS = 2.0
# Baileys lets the first code live 60 s and each later one 20 s.
FIRST_CODE_SECONDS = 60.0
NEXT_CODE_SECONDS = 20.0
# How long the "connected" panel stays before the screen goes back.
DONE_PAUSE_SECONDS = 2.5
SIDE_MIN_WIDTH = 40


class PairingNumberScreen(ModalScreen[str | None]):
    """Asks the phone number a pairing code is for (digits with the country code)."""

    BINDINGS = [Binding("escape", "cancel", "Cancel", id="pairing_number.cancel")]

    def compose(self) -> ComposeResult:
        with Vertical(id="pairing-number-dialog", classes="dialog"):
            yield Static(Text(_("Pair with a code"), style="bold"), classes="dialog-title")
            yield Static(
                Text(
                    _(
                        "The gateway makes an 8-letter code for this phone number. On the phone: "
                        "WhatsApp → Linked devices → Link a device → Link with phone number "
                        "instead."
                    )
                ),
                classes="dialog-body",
            )
            yield Label(_("Phone number, with country code"))
            yield TextInput(placeholder=_("e.g. +55 11 99988 7766"), id="pairing-number")
            yield Static(id="pairing-number-note", classes="field-error")
            cancel = key_for(self, "pairing_number.cancel")
            said = _("{enter} asks for the code · {key} cancels").format(enter="enter", key=cancel)
            yield Static(Text(said, style="dim"))

    def on_mount(self) -> None:
        self.query_one("#pairing-number", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        value = event.value.strip()
        problems = check_pairing_number(value) if value else []
        if not value or problems:
            message = problems[0].message if problems else _("enter the phone's number")
            self.query_one("#pairing-number-note", Static).update(Text(f"✕ {message}", "red"))
            return
        self.dismiss(normalise_pairing_number(value))

    def action_cancel(self) -> None:
        self.dismiss(None)


class PairingScreen(GatewayScreen):
    HELP_TITLE = N_("Connect instance")
    TOPICS = frozenset({Topic.INSTANCES, Topic.LIFECYCLE})

    BINDINGS = [
        Binding("escape", "back", "Back", id="pairing.back"),
        Binding("r", "new_code", "New code now", id="pairing.new_code"),
        Binding("p", "pair_by_number", "Pairing code", id="pairing.pair_by_number"),
        Binding("c", "copy_code", "Copy pairing code", id="pairing.copy_code"),
        Binding("v", "toggle_qr", "QR code / pairing code", id="pairing.toggle_qr"),
    ]

    def __init__(self, name: str, number: str | None = None) -> None:
        super().__init__()
        self.instance_name = name
        self.number = number
        # With a number the pairing code is what the user needs: the screen opens on it, and
        # the QR (the gateway sends both) is a key away.
        self._qr_shown = number is None
        # When the code on screen arrived: the app's clock (fixed in screenshots).
        self._code_since = datetime.now()
        self._connected_at: float | None = None
        self._drawing: Drawing | None = None  # how the QR fits this window
        self._check_error: str | None = None  # why the last state check failed
        self._asking = False
        self._shown_code: str | None = None

    def compose(self) -> ComposeResult:
        yield GatewayBar()
        with Horizontal(id="pairing-body"):
            yield QRCode(id="pairing-qr", pair_key=self.key_for("pairing.pair_by_number"))
            with Vertical(id="pairing-side"):
                yield Static(id="pairing-title", classes="title")
                yield Static(id="pairing-state", classes="summary")
                yield Static(id="pairing-countdown", classes="summary")
                yield Static(id="pairing-code", classes="pairing-code")
                yield Static(id="pairing-note", classes="summary")
        yield Footer()

    def on_mount(self) -> None:
        self.actions.lifecycle.forget_pairing(self.instance_name)
        self.query_one("#pairing-title", Static).update(
            Text(_("Connect {name}").format(name=self.instance_name), style="bold")
        )
        self._ask_code()
        # New codes and the state come over the socket too (qrcode.updated, connection.update).
        self.gateway_app.follow_live(self.instance_name)
        self.set_interval(1.0, self._tick, name="pairing-countdown")
        self.set_interval(STATE_POLL_SECONDS, self._poll_state, name="pairing-state-poll")

    def on_resize(self) -> None:
        # The QR's drawing and the side panel's width follow the window.
        self.refresh_from_state()

    # --- calls -------------------------------------------------------------------------------

    def _ask_code(self) -> None:
        self._asking = True
        self._code_since = self.state.now()
        what = _("Asking for a pairing code") if self.number else _("Asking for a QR code")

        def finished(_result: object = None) -> None:
            self._asking = False
            self._code_since = self.state.now()
            self.refresh_from_state()

        def failed(error: GatewayError) -> bool:
            finished()
            return False

        self.call(
            self.actions.lifecycle.connect(self.instance_name, self.number),
            what=what,
            on_done=finished,
            on_error=failed,
            group="pairing-connect",
            exclusive=True,
        )

    def _poll_state(self) -> None:
        if self._connected_at is not None or not self.in_view:
            return

        def checked(_state: object) -> None:
            self._check_error = None

        def failed(error: GatewayError) -> bool:
            # Shown in place: a toast every 2 s would not help.
            self._check_error = error.summary
            self.refresh_from_state()
            return True

        self.call(
            self.actions.lifecycle.check_state(self.instance_name),
            what=_("Checking the state of {name}").format(name=self.instance_name),
            on_done=checked,
            on_error=failed,
            group="pairing-state",
            exclusive=True,
        )

    def _tick(self) -> None:
        if self._connected_at is not None:
            if time.monotonic() - self._connected_at >= DONE_PAUSE_SECONDS and self.in_view:
                self._connected_at = float("inf")  # once
                self.app.pop_screen()
            return
        if not self._asking and self._seconds_left() <= 0:
            self._ask_code()
        self._draw_countdown()

    def _lifetime(self) -> float:
        result = self.actions.lifecycle.pairing_of(self.instance_name).value
        count = result.count if result is not None and result.count else 1
        return FIRST_CODE_SECONDS if count <= 1 else NEXT_CODE_SECONDS

    def _seconds_left(self) -> float:
        return self._lifetime() - (self.state.now() - self._code_since).total_seconds()

    # --- drawing -------------------------------------------------------------------------------

    def refresh_from_state(self) -> None:
        instance = self.state.instance(self.instance_name)
        loadable = self.actions.lifecycle.pairing_of(self.instance_name)
        result = loadable.value
        qr = self.query_one(QRCode)
        note = self.query_one("#pairing-note", Static)
        state_line = self.query_one("#pairing-state", Static)
        checked = self.state.lifecycle.checked_at.get(self.instance_name)
        if instance is not None:
            status = status_text(instance.status, instance.status_kind)
        else:
            status = Text(_("not listed"), style="yellow")
        line = styled(
            _("State: {status} · checked {time} (every {seconds} s)"),
            status=status,
            time=clock(checked),
            seconds=number(round(STATE_POLL_SECONDS)),
        )
        if self._check_error:
            line.append(
                "\n" + _("⚠ the last check failed: {why}").format(why=self._check_error),
                style="yellow",
            )
        state_line.update(line)
        if instance is not None and instance.status_kind == InstanceStatus.OPEN:
            self._show_connected(instance.profile_name, instance.owner_number)
            return
        qr.display = True  # hidden below only while a pairing code is shown alone
        if loadable.error is not None and result is None:
            again = self.key_for("pairing.new_code")
            qr.show_message(
                _("No code: {why}\n\n{key} asks again.").format(
                    why=loadable.error.summary, key=again
                )
            )
        elif result is None:
            qr.show_message(_("Asking the gateway for a code… (a closed instance takes ~5 s)"))
        elif result.code:
            if result.code != self._shown_code:
                self._shown_code = result.code
                self._code_since = self.state.now()  # a new code: asked, or pushed live
            qr.show_code(result.code)
            if self._qr_shown or not result.pairing_code:
                self._layout(result.code)
            else:
                qr.display = False  # the pairing code alone, on the whole width
                self._drawing = None
        else:
            self._drawing = None
            qr.show_message(result.explanation)
        self._draw_pairing_code(result.pairing_code if result else None)
        note.update(self._note(result))
        self._draw_countdown()

    def _note(self, result) -> Text:
        text = Text()
        code_alone = bool(self.number and result and result.pairing_code and not self._qr_shown)
        if result is not None and result.has_code and not code_alone:  # says how to scan
            text.append(result.explanation + "\n")
            if result.count:
                text.append(
                    _("Code {n} from the gateway.").format(n=number(result.count)) + "\n",
                    style="dim",
                )
        toggle = self.key_for("pairing.toggle_qr")
        if not self.number:
            pair = self.key_for("pairing.pair_by_number")
            text.append(
                _("No QR scanner at hand? {key} pairs with a code typed on the phone.").format(
                    key=pair
                )
                + "\n"
            )
        elif code_alone:
            text.append(
                _(
                    "On the phone: WhatsApp → Linked devices → Link a device → Link with phone "
                    "number instead, and type this code. {key} shows the QR code instead."
                ).format(key=toggle)
                + "\n"
            )
        elif result is not None and result.pairing_code:
            text.append(_("{key} shows the pairing code alone.").format(key=toggle) + "\n")
        if self._drawing == Drawing.SEXTANT:
            text.append(
                _(
                    "Compact drawing (sextant characters) to fit this window: if it shows boxes, "
                    "the font lacks them — enlarge the window, or press {key}."
                ).format(key=self.key_for("pairing.pair_by_number"))
                + "\n",
                style="dim",
            )
        return text

    def _layout(self, code: str) -> None:
        """Give the QR the width of its largest drawing that fits; the side panel the rest."""
        matrix = qr_matrix(code)
        width, height = self.size.width, max(0, self.size.height - 2)
        drawing = self._drawing = fitting_drawing(matrix, width - SIDE_MIN_WIDTH, height)
        columns = drawing_size(matrix, drawing)[0] if drawing else width // 2
        self.query_one(QRCode).styles.width = columns + 2

    def _draw_pairing_code(self, code: str | None) -> None:
        widget = self.query_one("#pairing-code", Static)
        widget.display = bool(code)
        if not code:
            return
        side = self.query_one("#pairing-side").content_size.width
        big = big_text(code) if big_width(code) <= side else None
        shown = styled(
            _("Pairing code for {number} ({key} copies):"),
            number=(format_number(self.number or ""), "bold"),
            key=self.key_for("pairing.copy_code"),
        )
        shown.append("\n")
        shown.append_text(big if big is not None else Text(" ".join(grouped(code)), "bold"))
        if big is not None:
            # Also as text: block letters cannot be selected and pasted.
            shown.append("\n")
            shown.append(grouped(code), style="bold")
        widget.update(shown)

    def _draw_countdown(self) -> None:
        widget = self.query_one("#pairing-countdown", Static)
        result = self.actions.lifecycle.pairing_of(self.instance_name).value
        if self._connected_at is not None:
            widget.update(Text())
        elif self._asking:
            widget.update(Text(_("Asking the gateway…"), style="dim"))
        elif result is not None and result.has_code:
            left = max(0, round(self._seconds_left()))
            now = self.key_for("pairing.new_code")
            said = _("New code in {seconds} s ({key}: now)").format(seconds=number(left), key=now)
            widget.update(Text(said))
        else:
            left = max(0, round(self._seconds_left()))
            now = self.key_for("pairing.new_code")
            said = _("Asking again in {seconds} s ({key}: now)").format(
                seconds=number(left), key=now
            )
            widget.update(Text(said, style="dim"))

    def _show_connected(self, profile: str | None, number: str) -> None:
        qr = self.query_one(QRCode)
        who = profile or _("(no profile name)")
        where = format_number(number) if number else _("number not reported")
        qr.display = True  # hidden while the pairing code was shown alone
        qr.show_message(_("✓ Connected\n\n{who}\n{number}").format(who=who, number=where))
        self.query_one("#pairing-code", Static).display = False
        self.query_one("#pairing-countdown", Static).update(Text())
        self.query_one("#pairing-note", Static).update(Text(_("Going back…"), style="dim"))
        if self._connected_at is None:
            self._connected_at = time.monotonic()
            self.notify(
                _("{name} is open: {who}, {number}").format(
                    name=self.instance_name, who=who, number=where
                ),
                markup=False,
            )

    # --- keys -----------------------------------------------------------------------------------

    def action_new_code(self) -> None:
        if not self._asking:
            self._ask_code()

    def action_pair_by_number(self) -> None:
        def chosen(number: str | None) -> None:
            if number:
                self.number = number
                self._qr_shown = False  # the code asked for is what is shown
                self._ask_code()

        self.app.push_screen(PairingNumberScreen(), chosen)

    def action_toggle_qr(self) -> None:
        if not self.number:
            self.action_pair_by_number()  # no number, no pairing code: ask for one
            return
        self._qr_shown = not self._qr_shown
        self.refresh_from_state()

    def action_copy_code(self) -> None:
        result = self.actions.lifecycle.pairing_of(self.instance_name).value
        if result is None or not result.pairing_code:
            ask = self.key_for("pairing.pair_by_number")
            self.notify(
                _("No pairing code to copy: {key} asks for one.").format(key=ask), markup=False
            )
            return
        self.app.copy_to_clipboard(result.pairing_code)
        self.notify(
            _("Copied pairing code {code}").format(code=grouped(result.pairing_code)),
            markup=False,
        )
