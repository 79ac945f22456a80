"""One instance: its details, its settings, and the ways into groups, compose and chats."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from gateway_tui.core.api.errors import GatewayError, NotFound
from gateway_tui.core.api.lifecycle import integration_shown
from gateway_tui.core.api.models import SETTING_LABELS, Instance, InstanceSettings
from gateway_tui.core.state import Topic
from gateway_tui.core.text.formatting import (
    Phrases,
    clock,
    disconnect_text,
    format_number,
    status_text,
)
from gateway_tui.core.text.i18n import N_, _, ngettext, number
from gateway_tui.core.text.sanitize import printable_text
from gateway_tui.tui.screens.base import GatewayScreen
from gateway_tui.tui.screens.confirm import ConfirmScreen, PromptScreen
from gateway_tui.tui.screens.lifecycle_keys import InstanceFollower
from gateway_tui.tui.widgets.gateway_bar import GatewayBar
from gateway_tui.tui.widgets.status_panel import StatusPanel
from gateway_tui.tui.widgets.styled import styled

if TYPE_CHECKING:
    from gateway_tui.core.services.instances import SettingsWritten

HISTORY_EVERY = 5.0  # seconds between looks at the history sync line (a stall is by the clock)


def details_table(instance: Instance, missing: frozenset[str] = frozenset()) -> Table:
    """The instance's fields as label/value rows. Values are Text: server data is not markup.

    ``missing``: the fields the gateway's line never gives (their rows are left out).
    """
    table = Table.grid(padding=(0, 2))
    table.add_column(style="dim", no_wrap=True)
    table.add_column()
    owner = instance.owner_number
    rows: list[tuple[str, str, Text]] = [
        ("", _("Status"), status_text(instance.status, instance.status_kind)),
        ("", _("Owner"), Text(f"{format_number(owner)}  ({instance.owner})" if owner else "—")),
        ("number", _("Number"), Text(format_number(instance.number) if instance.number else "—")),
        ("", _("Profile name"), Text(instance.profile_name or "—")),
        ("profile_status", _("Profile status"), Text(instance.profile_status or "—")),
        ("", _("Integration"), Text(integration_shown(instance.integration_name))),
        # The gateway's callback for WhatsApp Business (Cloud API) events, not the webhook the
        # gateway posts this instance's events to.
        (
            "wa_business_callback_url",
            _("WA Business callback"),
            Text(instance.wa_business_callback_url or "—"),
        ),
        ("", _("Instance id"), Text(instance.instance_id or "—")),
        ("server_url", _("Server URL"), Text(instance.server_url or "—")),
        (
            "disconnection_at",
            _("Last disconnected"),
            Text(
                disconnect_text(instance.disconnection_reason_code, instance.disconnection_at)
                or "—"
            ),
        ),
        ("message_count", _("Stored"), Text(_stored(instance))),
    ]
    for field, label, value in rows:
        if field not in missing:
            table.add_row(label, printable_text(value))  # measured with its placeholders
    return table


def _stored(instance: Instance) -> str:
    counts = (instance.message_count, instance.contact_count, instance.chat_count)
    if all(count is None for count in counts):
        return "—"
    messages, contacts, chats = (2 if count is None else count for count in counts)
    shown = ["?" if count is None else number(count) for count in counts]
    # An unknown count ("?") reads as a plural.
    return " · ".join(
        (
            ngettext("{n} message", "{n} messages", messages).format(n=shown[0]),
            ngettext("{n} contact", "{n} contacts", contacts).format(n=shown[1]),
            ngettext("{n} chat", "{n} chats", chats).format(n=shown[2]),
        )
    )


def setting_prompt(field: str, settings: InstanceSettings, wire_name: str | None = None) -> Text:
    """``wire_name``: the setting's name as the gateway's line spells it (2.x: rejectCall)."""
    on = bool(getattr(settings, field))
    text = Text()  # the box alone is coloured: the name stays readable on any theme
    text.append("[x] " if on else "[ ] ", style="bold green" if on else "dim")
    text.append(_(SETTING_LABELS[field]))
    text.append(f"  {wire_name or field}", style="dim")
    return text


CALL_REPLY_LABEL = N_("Reply to rejected calls")  # the setting msg_call


class InstanceScreen(GatewayScreen):
    HELP_TITLE = N_("Instance")
    TOPICS = frozenset({Topic.INSTANCES, Topic.SETTINGS})

    BINDINGS = [
        Binding("escape", "back", "Back", id="instance.back"),
        Binding("r", "refresh", "Refresh", id="instance.refresh"),
        Binding("space", "toggle_setting", "Toggle setting", id="instance.toggle_setting"),
        Binding(
            "e", "edit_call_reply", "Edit call reply", id="instance.edit_call_reply", show=False
        ),
        Binding("g", "groups", "Groups", id="instance.groups"),
        Binding("m", "compose", "Compose", id="instance.compose"),
        # 2.4's interactive messages, one composer per kind of button, beside the list's.
        Binding(
            "b",
            "interactive('reply')",
            "Reply buttons",
            tooltip=N_("Compose a message with reply buttons (Evolution API 2.4)"),
            id="instance.reply_buttons",
            show=False,
        ),
        Binding(
            "u",
            "interactive('cta')",
            "URL/call/copy buttons",
            tooltip=N_("Compose a message with URL, call or copy buttons (Evolution API 2.4)"),
            id="instance.cta_buttons",
            show=False,
        ),
        Binding(
            "p",
            "interactive('pix')",
            "PIX button",
            tooltip=N_("Compose a PIX payment message (Evolution API 2.4)"),
            id="instance.pix_button",
            show=False,
        ),
        Binding(
            "K",
            "interactive('carousel')",
            "Carousel",
            tooltip=N_("Compose a carousel of cards (Evolution API 2.4)"),
            id="instance.carousel",
            show=False,
        ),
        Binding("t", "chats", "Chats", id="instance.chats"),
        Binding("k", "contacts", "Contacts", id="instance.contacts"),
        Binding("C", "connect", "Connect", id="instance.connect"),
        # Named in the line under the settings, in help and the palette: the footer stays
        # within 120 columns.
        Binding("R", "restart", "Restart", id="instance.restart", show=False),
        Binding("L", "logout", "Log out", id="instance.logout", show=False),
        Binding("w", "webhook", "Webhook", id="instance.webhook", show=False),
        Binding("W", "websocket", "Websocket", id="instance.websocket", show=False),
        Binding(
            "E",
            "events",
            "Event monitor",
            tooltip=N_("Every event of this instance, live"),
            id="instance.events",
            show=False,
        ),
    ]

    def __init__(self, name: str) -> None:
        super().__init__()
        self.instance_name = name
        self._settings_unsupported = False
        # The settings another client changed between this screen's read and its last write.
        self._changed_elsewhere: list[str] = []

    def compose(self) -> ComposeResult:
        yield GatewayBar()
        with VerticalScroll(id="instance-body"):
            yield Static(
                printable_text(Text(self.instance_name, style="bold")),
                id="instance-title",
                classes="title",
            )
            yield Static(id="instance-details")
            yield Static(id="instance-history", classes="summary")
            yield Static(Text(_("Settings"), style="bold"), classes="section-title")
            yield Static(id="settings-note", classes="summary")
            yield StatusPanel(id="settings-panel")
            yield OptionList(id="settings-list")
            yield Static(id="instance-sections", classes="summary")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#settings-list", OptionList).focus()
        self.actions.instances.select(self.instance_name)
        self._load_settings()
        self._follow = InstanceFollower(self)
        # A sync whose batches stop is said stopped by the clock: the line is looked at again.
        self.set_interval(HISTORY_EVERY, self._draw_history, name="history-line")

    # --- drawing -----------------------------------------------------------------------------

    @property
    def gone(self) -> bool:
        """The gateway's list (read) no longer holds this instance: it does not exist there."""
        return (
            self.state.instances.value is not None
            and self.state.instance(self.instance_name) is None
        )

    def refuse_if_gone(self) -> bool:
        """Say the instance is gone instead of offering what needs it; True when it is."""
        if self.gone:
            self.notify(self._gone_words(), severity="warning", markup=False)
        return self.gone

    def _gone_words(self) -> str:
        return _(
            "{name} does not exist on the gateway (deleted elsewhere, or renamed): nothing "
            "here can be done with it. {key} goes back."
        ).format(name=self.instance_name, key=self.key_for("instance.back"))

    def refresh_from_state(self) -> None:
        instance = self.state.instance(self.instance_name)
        details = self.query_one("#instance-details", Static)
        gone = self.gone
        for selector in ("#settings-note", "#settings-panel", "#settings-list", ".section-title"):
            for widget in self.query(selector):
                widget.display = not gone
        if gone:
            details.update(Text("✕ " + self._gone_words(), style="bold red"))
            self.query_one("#instance-sections", Static).update(
                Text(self.key_hints(("instance.refresh", _("asks again")), ("app.help", _("keys"))))
            )
            return
        if instance is None:
            details.update(Text(_("Reading the instance…"), style="dim"))
        else:
            details.update(details_table(instance, self.gateway_app.instance_fields_missing))
        self._draw_settings()
        self._draw_history()
        sections = self.sections_hint().split("\n")
        self.query_one("#instance-sections", Static).update(
            Group(*(Phrases(line.split(Phrases.SEPARATOR)) for line in sections))
        )

    def _draw_history(self) -> None:
        """The history sync's progress line (from the live events; issue 31), while one was
        seen: "stopped at N %" with what helps when it ends early."""
        line = None if self.gone else self.state.history.line(self.instance_name)
        widget = self.query_one("#instance-history", Static)
        widget.display = line is not None
        if line is not None and getattr(widget, "_line", None) != line:
            widget._line = line  # type: ignore[attr-defined]
            stopped = self.state.history.stopped(self.instance_name)
            widget.update(Text(line, style="yellow" if stopped else ""))

    def sections_hint(self) -> str:
        """The ways in from the instance view, each with the key that runs it here."""
        first = self.key_hints(
            ("instance.groups", _("groups")),
            ("instance.compose", _("compose a list message")),
            ("instance.chats", _("chats")),
            ("instance.refresh", _("refresh")),
            ("instance.back", _("back")),
            ("app.help", _("keys")),
        )
        second = self.key_hints(
            ("instance.connect", _("connect (QR)")),
            ("instance.restart", _("restart")),
            ("instance.logout", _("log out")),
            ("instance.webhook", _("webhook")),
            ("instance.websocket", _("websocket")),
            ("instance.events", _("events")),
        )
        third = self.key_hints(
            ("instance.reply_buttons", _("reply buttons")),
            ("instance.cta_buttons", _("URL/call/copy buttons")),
            ("instance.pix_button", _("PIX")),
            ("instance.carousel", _("carousel (2.4)")),
        )
        return f"{first}\n{second}\n{third}"

    def _draw_settings(self) -> None:
        loadable = self.state.settings_of(self.instance_name)
        options = self.query_one("#settings-list", OptionList)
        panel = self.query_one("#settings-panel", StatusPanel)
        note = self.query_one("#settings-note", Static)
        if loadable.value is None:
            options.display = False
            panel.display = True
            if loadable.error is not None:
                panel.show_error(
                    loadable.error,
                    self.gateway_app.gateway_url,
                    retry_key=self.key_for("instance.refresh"),
                )
            else:
                panel.show_message(_("Loading settings…"))
            note.display = False
            return
        panel.display = False
        options.display = True
        highlighted = options.highlighted
        options.clear_options()
        line = self.gateway_app.gateway_line
        options.add_options(
            Option(setting_prompt(field, loadable.value, line.wire_name(field)), id=field)
            for field in SETTING_LABELS
        )
        options.highlighted = highlighted if highlighted is not None else 0
        parts = [
            _("Reply to rejected calls: {reply} ({key} edits)").format(
                reply=loadable.value.msg_call or "—",
                key=self.key_for("instance.edit_call_reply"),
            ),
            _("read {time}").format(time=clock(loadable.updated_at)),
        ]
        if self._settings_unsupported:
            parts.append(_("editing not supported here (no settings/set on this gateway)"))
        else:
            parts.append(
                _("{key} toggles a setting").format(key=self.key_for("instance.toggle_setting"))
            )
        # Wrapped between phrases, never inside one (a longer language needs two lines).
        lines: list[Phrases | Text] = [Phrases(parts)]
        if self._changed_elsewhere:
            said = _("⚠ changed elsewhere before your write (kept as they were): {names}")
            lines.append(Text(said.format(names=", ".join(self._changed_elsewhere)), "yellow"))
        if loadable.stale and loadable.error is not None:
            # Its own line: it may be long.
            lines.append(Text(_("⚠ stale: {why}").format(why=loadable.error.summary)))
        note.display = True
        note.update(Group(*lines))

    # --- actions -----------------------------------------------------------------------------

    def _load_settings(self) -> None:
        self.call(
            self.actions.instances.load_settings(self.instance_name),
            what=_("Reading settings of {name}").format(name=self.instance_name),
            group="settings",
            exclusive=True,
        )

    def action_refresh(self) -> None:
        self.call(
            self.actions.instances.refresh_instance(self.instance_name),
            what=_("Refreshing {name}").format(name=self.instance_name),
            group="instance",
            exclusive=True,
        )
        self._load_settings()

    def recover(self) -> None:
        quiet = {"on_error": lambda _error: True}  # the panel and the bar say it
        self.call(
            self.actions.instances.refresh_instance(self.instance_name),
            what=_("Refreshing {name}").format(name=self.instance_name),
            group="instance",
            exclusive=True,
            **quiet,
        )
        self.call(
            self.actions.instances.load_settings(self.instance_name),
            what=_("Reading settings of {name}").format(name=self.instance_name),
            group="settings",
            exclusive=True,
            **quiet,
        )

    def data_error(self) -> GatewayError | None:
        return self.state.settings_of(self.instance_name).error

    def action_groups(self) -> None:
        if self.refuse_if_gone():
            return
        self.gateway_app.open_groups(self.instance_name)

    def action_compose(self) -> None:
        if self.refuse_if_gone():
            return
        self.gateway_app.open_composer(self.instance_name)

    def action_interactive(self, kind: str) -> None:
        """A composer of 2.4's interactive messages: "reply", "cta", "pix" or "carousel"."""
        if self.refuse_if_gone():
            return
        from gateway_tui.tui.screens.interactive_composer import InteractiveComposerScreen

        self.app.push_screen(InteractiveComposerScreen(self.instance_name, kind))

    def action_chats(self) -> None:
        if self.refuse_if_gone():
            return
        self.gateway_app.open_chats(self.instance_name)

    def action_contacts(self) -> None:
        from gateway_tui.tui.screens.contacts import ContactsScreen

        self.app.push_screen(ContactsScreen(self.instance_name))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_toggle_setting()

    def action_toggle_setting(self) -> None:
        if self.refuse_if_gone():
            return
        settings = self.state.settings_of(self.instance_name).value
        options = self.query_one("#settings-list", OptionList)
        if settings is None or options.highlighted is None:
            return
        if self._settings_unsupported:
            self.notify(_("This gateway does not support editing settings."), markup=False)
            return
        field = options.get_option_at_index(options.highlighted).id or ""
        new_value = not getattr(settings, field)
        label = _(SETTING_LABELS[field])
        question = (
            _("Set “{setting}” to on for {name}?")
            if new_value
            else _("Set “{setting}” to off for {name}?")
        )
        body = styled(question, setting=label, name=(self.instance_name, "bold"))
        self.app.push_screen(
            ConfirmScreen(_("Change setting"), body, confirm_label=_("Write")),
            lambda yes: self._write_settings({field: new_value}, settings) if yes else None,
        )

    def action_edit_call_reply(self) -> None:
        if self.refuse_if_gone():
            return
        settings = self.state.settings_of(self.instance_name).value
        if settings is None:
            self.notify(_("The settings have not been read yet."), markup=False)
            return
        if self._settings_unsupported:
            self.notify(_("This gateway does not support editing settings."), markup=False)
            return

        def entered(text: str | None) -> None:
            if text is None or text == (settings.msg_call or ""):
                return
            self._write_settings({"msg_call": text}, settings)

        body = Text(
            _(
                "Sent to a caller whose call is rejected (with “Reject incoming calls” on); "
                "empty sends nothing."
            )
        )
        self.app.push_screen(
            PromptScreen(_(CALL_REPLY_LABEL), body, settings.msg_call or "", placeholder=_("none")),
            entered,
        )

    def _write_settings(self, changes: dict[str, object], read: InstanceSettings) -> None:
        def unsupported(error: GatewayError) -> bool:
            if not (isinstance(error, NotFound) and error.route_missing or error.status == 405):
                return False
            self._settings_unsupported = True
            self._draw_settings()
            self.notify(_("Not supported here: this gateway cannot write settings."), markup=False)
            return True

        def written(result: SettingsWritten | None) -> None:
            if result is None:
                return
            self._changed_elsewhere = [
                _(SETTING_LABELS.get(field, CALL_REPLY_LABEL)) for field in result.changed_elsewhere
            ]
            self._draw_settings()
            if self._changed_elsewhere:
                self.notify(
                    _("Written. Changed elsewhere since your read, and kept: {names}").format(
                        names=", ".join(self._changed_elsewhere)
                    ),
                    severity="warning",
                    markup=False,
                )
            else:
                self.notify(_("Settings written and read back"), markup=False)

        self.call(
            self.actions.instances.save_settings(self.instance_name, changes, read),
            what=_("Writing settings"),
            on_done=written,
            on_error=unsupported,
        )

    # --- lifecycle (issue 13): screens/lifecycle_keys.py does the work ----------------------

    def action_connect(self) -> None:
        if self.refuse_if_gone():
            return
        self._follow.connect()

    def action_restart(self) -> None:
        if self.refuse_if_gone():
            return
        self._follow.restart()

    def action_logout(self) -> None:
        if self.refuse_if_gone():
            return
        self._follow.logout()

    def action_webhook(self) -> None:
        if self.refuse_if_gone():
            return
        self.gateway_app.open_hooks(self.instance_name, "webhook")

    def action_websocket(self) -> None:
        if self.refuse_if_gone():
            return
        self.gateway_app.open_hooks(self.instance_name, "websocket")

    def action_events(self) -> None:
        from gateway_tui.tui.screens.event_monitor import EventMonitorScreen

        self.app.push_screen(EventMonitorScreen(self.instance_name))
