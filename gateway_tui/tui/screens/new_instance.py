"""New instance (`n` on instances): name, optional phone number, integration, and its own key.

The key is generated here (a real server would make one too, but a half-failed create without a
token can leave the server refusing every later token-less create) and shown once, with copy.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Select, Static

from gateway_tui.core.api.errors import GatewayError, InvalidRequest, NameTaken, Problem
from gateway_tui.core.api.lifecycle import (
    BAILEYS,
    BUSINESS,
    CreatedInstance,
    CreateInstanceRequest,
    new_instance_token,
)
from gateway_tui.core.text.i18n import N_, _
from gateway_tui.tui.display_filter import SecretShown
from gateway_tui.tui.screens.base import GatewayScreen
from gateway_tui.tui.widgets.styled import styled
from gateway_tui.tui.widgets.text_input import TextInput

FIELD_INPUTS = {"instanceName": "#new-name", "number": "#new-number", "token": "#new-token"}


@dataclass(frozen=True)
class NewInstanceResult:
    name: str
    number: str | None
    connect: bool  # the user asked to connect it right away


class NewInstanceScreen(ModalScreen[NewInstanceResult | None], GatewayScreen):
    HELP_TITLE = N_("New instance")
    BINDINGS = [
        Binding("escape", "close", "Close", id="new_instance.close"),
        Binding("ctrl+s", "create", "Create", id="new_instance.create"),
        Binding("ctrl+y", "copy_key", "Copy key", id="new_instance.copy_key"),
        Binding("ctrl+o", "connect", "Connect now", id="new_instance.connect"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self._created: CreatedInstance | None = None
        self._request: CreateInstanceRequest | None = None
        self._busy = False

    def compose(self) -> ComposeResult:
        with Vertical(id="new-instance-dialog", classes="dialog"):
            yield Static(Text(_("New instance"), style="bold"), classes="dialog-title")
            with Vertical(id="new-form"):
                yield Label(_("Name (it becomes a folder on the gateway)"))
                yield TextInput(placeholder=_("e.g. sales-eu-2"), id="new-name", compact=True)
                yield Label(_("Phone number, optional (for a pairing code instead of a QR)"))
                yield TextInput(
                    placeholder=_("e.g. +55 11 99988 7766"), id="new-number", compact=True
                )
                yield Label(_("Integration"))
                yield Select(
                    [
                        (_("WhatsApp (Baileys, QR code)"), BAILEYS),
                        (_("WhatsApp Business API"), BUSINESS),
                    ],
                    value=BAILEYS,
                    allow_blank=False,
                    id="new-integration",
                    compact=True,
                )
                yield Label(_("Instance key (leave empty to generate one)"))
                yield TextInput(
                    placeholder=_("generated when empty"),
                    id="new-token",
                    password=True,
                    compact=True,
                )
                yield Static(id="new-problems", classes="field-error")
                create, close = (
                    self.key_for("new_instance.create"),
                    self.key_for("new_instance.close"),
                )
                yield Static(
                    Text(
                        _("{create} creates · {close} cancels").format(create=create, close=close),
                        style="dim",
                    ),
                    id="new-keys",
                )
            yield SecretShown(id="new-result", classes="dialog-body")  # the key, on purpose

    def on_mount(self) -> None:
        self.query_one("#new-result", Static).display = False
        self.query_one("#new-name", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_create()

    # --- create --------------------------------------------------------------------------------

    def _request_from_form(self) -> CreateInstanceRequest:
        token = self.query_one("#new-token", Input).value.strip() or new_instance_token()
        number = self.query_one("#new-number", Input).value.strip() or None
        integration = self.query_one("#new-integration", Select).value
        return CreateInstanceRequest(
            instanceName=self.query_one("#new-name", Input).value,
            token=token,
            number=number,
            integration=None if integration == BAILEYS else str(integration),
        )

    def action_create(self) -> None:
        if self._created is not None or self._busy:
            return
        request = self._request_from_form()
        if problems := request.problems():
            self._show_problems(problems)
            return
        self._show_problems([])
        self._busy = True
        self._request = request

        def failed(error: GatewayError) -> bool:
            self._busy = False
            if isinstance(error, InvalidRequest):
                self._show_problems(error.problems)
                return True
            if isinstance(error, NameTaken):
                name = request.instance_name
                self._show_problems(
                    [
                        Problem(
                            "instanceName",
                            _("“{name}” is already in use: choose another name").format(name=name),
                        )
                    ]
                )
                return True
            self._show_problems([Problem("", error.summary)])
            return False

        self.call(
            self.actions.lifecycle.create_instance(request),
            what=_("Creating {name}").format(name=request.instance_name),
            on_done=self._done,
            on_error=failed,
        )

    def _show_problems(self, problems: list[Problem]) -> None:
        text = Text()
        for problem in problems:
            text.append(f"✕ {problem}\n", style="red")
        self.query_one("#new-problems", Static).update(text)
        if problems and (selector := FIELD_INPUTS.get(problems[0].field)):
            self.query_one(selector, Input).focus()

    def _done(self, created: CreatedInstance) -> None:
        self._busy = False
        self._created = created
        request = self._request
        assert request is not None
        key = created.token or request.token
        self.query_one("#new-form").display = False
        result = self.query_one("#new-result", Static)
        result.display = True
        text = styled(
            _("✓ Created {name} ({integration})."),
            name=(created.name or request.instance_name, "bold"),
            integration=created.integration or BAILEYS,
        )
        text.style = "green"  # the whole panel's base, as it always was
        text.append("\n\n")
        # Not "shown once": 1.7.1 and 2.x list every instance's key to the global key's holder.
        text.append(
            _(
                "Its own key — keep it somewhere safe (the gateway lists it again to whoever holds"
                " the global key):"
            )
            + "\n"
        )
        text.append(key, style="bold reverse")
        keys = [self.key_for(f"new_instance.{what}") for what in ("copy_key", "connect", "close")]
        text.append(
            "\n\n"
            + _("{copy} copies the key · {connect} connects it now · {close} closes").format(
                copy=keys[0], connect=keys[1], close=keys[2]
            ),
            style="dim",
        )
        result.update(text)
        result.focus()

    # --- after -----------------------------------------------------------------------------------

    def action_copy_key(self) -> None:
        if self._created is None or self._request is None:
            return
        self.app.copy_to_clipboard(self._created.token or self._request.token)
        self.notify(_("Copied the instance key"), markup=False)

    def action_connect(self) -> None:
        if self._created is None or self._request is None:
            return
        self.dismiss(
            NewInstanceResult(self._request.instance_name, self._request.number, connect=True)
        )

    def action_close(self) -> None:
        if self._created is None or self._request is None:
            self.dismiss(None)
            return
        self.dismiss(
            NewInstanceResult(self._request.instance_name, self._request.number, connect=False)
        )
