"""First run, or no gateway configured: ask for the URL and key, test them, save a profile."""

from __future__ import annotations

import os
import re
from functools import partial

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Button, Checkbox, Footer, Input, Label, Static

from gateway_tui.core.api.errors import GatewayError
from gateway_tui.core.api.validation import check_api_key
from gateway_tui.core.files.config import Profile, insecure_url_warning, validate_gateway_url
from gateway_tui.core.files.config_writer import save_profile
from gateway_tui.core.services.connect import probe_gateway
from gateway_tui.core.text.i18n import N_, _, ngettext, number
from gateway_tui.tui.screens.base import GatewayScreen
from gateway_tui.tui.widgets.status_panel import error_advice
from gateway_tui.tui.widgets.text_input import TextInput

_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class ConnectScreen(GatewayScreen):
    HELP_TITLE = N_("Connect")

    BINDINGS = [
        Binding("ctrl+r", "test", "Test connection", id="connect.test", priority=True),
        Binding("ctrl+s", "save", "Save as profile", id="connect.save", priority=True),
        Binding("ctrl+o", "connect", "Connect", id="connect.connect", priority=True),
        Binding("escape", "back", "Back", id="connect.back"),
    ]

    def compose(self) -> ComposeResult:
        config = self.gateway_app.config
        with VerticalScroll(id="connect-body", classes="form"):
            yield Static(Text(_("Connect to a gateway"), style="bold"), classes="title")
            yield Static(
                Text(
                    _(
                        "Enter the gateway's base URL and its global API key. "
                        "Nothing is sent until you test or connect."
                    )
                ),
                classes="summary",
            )
            if config.problems:
                yield Static(
                    Text("\n".join(config.problems), style="yellow"), id="connect-problems"
                )
            yield Label(_("Gateway URL"))
            yield TextInput(
                value=config.url or "", placeholder="https://gateway.example.com", id="url"
            )
            yield Static(id="url-error", classes="field-error")
            yield Label(_("API key"))
            yield TextInput(password=True, placeholder=_("global API key"), id="api-key")
            yield Static(id="key-error", classes="field-error")
            yield Label(_("…or the environment variable that holds it (saved instead of the key)"))
            yield TextInput(
                placeholder=_("e.g. {variable} (optional)").format(variable="GATEWAY_API_KEY"),
                id="api-key-env",
            )
            yield Static(id="env-error", classes="field-error")
            # Offered once a keychain is found (on_mount asks off the loop: it can be slow).
            yield Checkbox(_("Keep the key in the OS keychain (not in the file)"), id="keychain")
            yield Static(Text(_("Looking for the OS keychain…")), id="keychain-note")
            yield Label(_("Profile name (to save this gateway)"))
            yield TextInput(value=config.profile or "default", id="profile-name")
            with Horizontal(classes="buttons"):
                test, save = self.key_for("connect.test"), self.key_for("connect.save")
                connect = self.key_for("connect.connect")
                yield Button(_("Test connection ({key})").format(key=test), id="test")
                yield Button(_("Save as profile ({key})").format(key=save), id="save")
                yield Button(
                    _("Connect ({key})").format(key=connect), variant="primary", id="connect"
                )
            yield Static(id="connect-result", classes="result")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#url", Input).focus()
        self.query_one("#keychain", Checkbox).display = False
        self.run_worker(self._find_keychain, thread=True, group="keychain", exit_on_error=False)

    def _find_keychain(self) -> None:
        from gateway_tui.core.files.keychain import unavailable

        reason = unavailable()
        self.app.call_from_thread(self._show_keychain, reason)

    # Whether the keychain has been looked for (the note or the box shows the outcome).
    keychain_known = False

    def _show_keychain(self, reason: str | None) -> None:
        self.keychain_known = True
        note = self.query_one("#keychain-note", Static)
        if reason:
            note.update(Text(_("Keychain: {reason}.").format(reason=reason), style="dim"))
            return
        note.display = False
        self.query_one("#keychain", Checkbox).display = True

    def _read_form(self) -> tuple[str, str] | None:
        """The URL and key, or None after showing the reason next to each bad field."""
        url_error = self.query_one("#url-error", Static)
        key_error = self.query_one("#key-error", Static)
        url_error.update("")
        key_error.update("")
        url = None
        try:
            url = validate_gateway_url(self.query_one("#url", Input).value)
        except ValueError as problem:
            url_error.update(Text(str(problem), style="red"))
        env_error = self.query_one("#env-error", Static)
        env_error.update("")
        key = self.query_one("#api-key", Input).value.strip()
        env_name = self.key_env_name()
        if env_name and not _ENV_NAME.fullmatch(env_name):
            env_error.update(Text(_("A variable name: letters, digits and _ only."), style="red"))
            return None
        if env_name and not key:
            key = os.environ.get(env_name, "").strip()
            if not key:
                said = _("${variable} is not set here: type the key too.").format(variable=env_name)
                env_error.update(Text(said, "red"))
                return None
        if not key:
            key_error.update(Text(_("Enter the API key."), style="red"))
        elif problems := check_api_key(key):
            said = _("The key cannot be sent: {why}.").format(why=problems[0].message)
            key_error.update(Text(said, style="red"))
            key = ""
        if url and (warning := insecure_url_warning(url)):
            url_error.update(Text(warning, style="yellow"))
        return (url, key) if url and key else None

    def _say(self, text: str, style: str = "") -> None:
        self.query_one("#connect-result", Static).update(Text(text, style=style))

    @on(Button.Pressed, "#test")
    def action_test(self) -> None:
        form = self._read_form()
        if form is None:
            return
        self._say(_("Testing…"))
        self.run_worker(self._test(*form), group="probe", exclusive=True, exit_on_error=False)

    async def _test(self, url: str, key: str) -> None:
        try:
            count = await probe_gateway(url, key, config=self.app.config)
        except GatewayError as error:
            title, advice = error_advice(error, url, retry_key=self.key_for("connect.test"))
            self._say(_("✕ {title}. {advice}").format(title=title, advice=advice), "red")
            return
        said = ngettext(
            "✓ Connected: the gateway lists {n} instance.",
            "✓ Connected: the gateway lists {n} instances.",
            count,
        ).format(n=number(count))
        self._say(said, "green")

    @on(Button.Pressed, "#save")
    def action_save(self) -> None:
        form = self._read_form()
        if form is None:
            return
        name = self.query_one("#profile-name", Input).value.strip() or "default"
        url, key = form
        env_name = self.key_env_name()
        keychain = self.query_one("#keychain", Checkbox)
        if keychain.display and keychain.value and not env_name:
            self._say(_("Saving the key in the OS keychain…"))
            self.run_worker(
                partial(self._save_in_keychain, name, url, key),
                thread=True,  # the keychain may ask the user, or take its time
                group="keychain",
                exit_on_error=False,
            )
            return
        # With a variable named, only its name is written: the key itself stays off the disk.
        profile = (
            Profile(url=url, api_key_env=env_name) if env_name else Profile(url=url, api_key=key)
        )
        try:
            save_profile(name, profile, make_default=True)
        except (OSError, ValueError) as problem:  # ValueError: a corrupt config file
            self._say(_("✕ Could not save the profile: {why}").format(why=problem), "red")
            return
        path = self.gateway_app.config.path
        if env_name:
            self._say(
                _(
                    "✓ Saved profile “{name}” in {path}, with the key read from ${variable} "
                    "(the key itself is not in the file)"
                ).format(name=name, path=path, variable=env_name),
                "green",
            )
        else:
            said = _("✓ Saved profile “{name}” in {path}, with the key in the file")
            self._say(said.format(name=name, path=path), "green")

    def _save_in_keychain(self, name: str, url: str, key: str) -> None:
        from gateway_tui.core.files.keychain import KeychainError, set_key

        try:
            set_key(name, key)
            save_profile(name, Profile(url=url, keychain=True), make_default=True)
        except (KeychainError, OSError, ValueError) as problem:
            said = _("✕ Could not save the profile: {why}").format(why=problem)
            self.app.call_from_thread(self._say, said, "red")
            return
        said = _(
            "✓ Saved profile “{name}” in {path}, with the key in the "
            "OS keychain (the key itself is not in the file)"
        ).format(name=name, path=self.gateway_app.config.path)
        self.app.call_from_thread(self._say, said, "green")

    def key_env_name(self) -> str:
        return self.query_one("#api-key-env", Input).value.strip().lstrip("$")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # "Back" exists only when opened from the palette over another screen, not as the home.
        if action == "back":
            return len(self.app.screen_stack) > 2
        return True

    @on(Button.Pressed, "#connect")
    def action_connect(self) -> None:
        form = self._read_form()
        if form is not None:
            self.gateway_app.connect(*form)
