"""An instance's webhook or websocket settings: read with find, written with set, read back.

A real gateway keeps some things differently from what was sent (no events → all of its line's;
a disabled 1.7.1 webhook keeps no URL and no events; a disabled websocket keeps all events on
1.7.1, none on 2.x): after each write the screen reads the settings back and says what differs.
The events offered are those of the gateway's line.
"""

from __future__ import annotations

from typing import Literal

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Checkbox, Footer, Input, Label, SelectionList, Static

from gateway_tui.core.api.capabilities import EVENTS, notes_for
from gateway_tui.core.api.dialects import Dialect
from gateway_tui.core.api.errors import Forbidden, GatewayError, InvalidRequest, Unauthorized
from gateway_tui.core.api.lifecycle import (
    WebhookSettings,
    WebsocketSettings,
)
from gateway_tui.core.state import Topic
from gateway_tui.core.text.formatting import clock
from gateway_tui.core.text.i18n import N_, _, ngettext, number
from gateway_tui.core.text.sanitize import printable
from gateway_tui.tui.screens.base import GatewayScreen
from gateway_tui.tui.widgets.gateway_bar import GatewayBar
from gateway_tui.tui.widgets.text_input import TextInput
from gateway_tui.tui.widgets.tick_box import TickBox, TickList

Kind = Literal["webhook", "websocket"]


def _event_label(name: str, line: Dialect) -> Text:
    label = Text(name)
    if name in line.events_never_sent:
        said = _("(accepted, never sent by {gateway})").format(gateway=line.label)
        label.append(f"  {said}", style="dim")
    return label


class HookSettingsScreen(GatewayScreen):
    HELP_TITLE = N_("Webhook / websocket")
    TOPICS = frozenset({Topic.LIFECYCLE})

    BINDINGS = [
        Binding("escape", "back", "Back", id="hooks.back"),
        Binding("ctrl+s", "save", "Write and read back", id="hooks.save"),
        Binding("ctrl+r", "reload", "Read again", id="hooks.reload"),
        Binding("ctrl+e", "all_events", "Tick all events", id="hooks.all_events"),
        Binding("ctrl+n", "no_events", "Untick all events", id="hooks.no_events"),
        Binding(
            "ctrl+l",
            "live_events",
            "Live updates",
            tooltip=N_(
                "Enable, with the events this app's live updates need ticked (not written "
                "until you write it)"
            ),
            id="hooks.live_events",
        ),
        Binding(
            "ctrl+o",
            "listen_here",
            "Listen here",
            tooltip=N_(
                "Receive this webhook in the app's event monitor: pointed here and put back "
                "afterwards, each asked first"
            ),
            id="hooks.listen_here",
        ),
    ]

    def __init__(self, name: str, kind: Kind) -> None:
        super().__init__()
        self.instance_name = name
        self.kind: Kind = kind
        self._filled = False

    def compose(self) -> ComposeResult:
        yield GatewayBar()
        with VerticalScroll(id="hooks-body"):
            title = _("Webhook of {name}") if self.kind == "webhook" else _("Websocket of {name}")
            yield Static(Text(title.format(name=self.instance_name), style="bold"), classes="title")
            yield Static(id="hooks-read", classes="summary")
            yield Static(id="hooks-written", classes="summary")
            if self.kind == "webhook":
                yield Label(_("URL the gateway posts events to (needed even when off)"))
                yield TextInput(
                    placeholder="https://example.com/hook", id="hooks-url", compact=True
                )
                # Its problem right under it (not at the form's end, a screen below).
                yield Static(id="hooks-url-problem", classes="field-error")
            yield TickBox(_("Enabled"), id="hooks-enabled", compact=True)
            line = self.gateway_app.gateway_line
            if self.kind == "webhook":
                by_events, base64 = (
                    line.wire_name(field) for field in ("webhook_by_events", "webhook_base64")
                )
                yield TickBox(
                    _("One URL per event ({setting}: url/<event-name>)").format(setting=by_events),
                    id="hooks-by-events",
                    compact=True,
                )
                yield TickBox(
                    _("Media as base64 in the body ({setting})").format(setting=base64),
                    id="hooks-base64",
                    compact=True,
                )
            yield Label(self._events_label(0), id="hooks-events-label")
            yield TickList[str](
                *((_event_label(name, line), name) for name in line.event_names),
                id="hooks-events",
                compact=True,
            )
            # What this gateway's version refuses in an event list (core/api/capabilities.py).
            version = self.gateway_app.gateway_version
            if notes := notes_for(version, EVENTS):
                lines = (printable(f"{version}: {note}") for note in notes)
                said = Text("\n".join(lines), style="yellow")
                yield Static(said, id="hooks-capabilities", classes="summary")
            yield Static(id="hooks-problems", classes="field-error")
        yield Footer()

    def _events_label(self, ticked: int) -> str:
        every = len(self.gateway_app.gateway_line.event_names)
        if not ticked:
            return _("Events (none ticked: the gateway subscribes to all {n})").format(
                n=number(every)
            )
        return ngettext(
            "Events ({ticked} of {n} ticked: the gateway sends only that one)",
            "Events ({ticked} of {n} ticked: the gateway sends only those)",
            ticked,
        ).format(ticked=number(ticked), n=number(every))

    def on_selection_list_selected_changed(self, event: SelectionList.SelectedChanged) -> None:
        label = self.query_one("#hooks-events-label", Label)
        label.update(self._events_label(len(event.selection_list.selected)))

    def on_mount(self) -> None:
        first = "#hooks-url" if self.kind == "webhook" else "#hooks-enabled"
        self.query_one(first).focus()
        self.action_reload()

    # --- state -----------------------------------------------------------------------------------

    def _loadable(self):
        if self.kind == "webhook":
            return self.actions.lifecycle.webhook_of(self.instance_name)
        return self.actions.lifecycle.websocket_of(self.instance_name)

    def refresh_from_state(self) -> None:
        loadable = self._loadable()
        read = self.query_one("#hooks-read", Static)
        value = loadable.value
        if value is None:
            said = (
                Text(_("Could not read: {why}").format(why=loadable.error.summary), style="red")
                if loadable.error is not None
                else Text(_("Reading…"))
            )
        else:
            said = self._describe(value, loadable.updated_at)
            if not self._filled:
                self._fill(value)
        unserved = self.kind == "websocket" and self.state.lifecycle.websocket_channel is False
        if unserved:
            said.append(
                "\n"
                + _(
                    "⚠ this gateway serves no websocket channel (/socket.io/ answers 404: its "
                    "WEBSOCKET_ENABLED is not true): these settings are kept, nothing is delivered"
                ),
                style="yellow",
            )
        if self.kind == "websocket" and (failed := self.state.lifecycle.websocket_channel_error):
            unchecked = _(
                "⚠ could not check whether this gateway serves its websocket channel "
                "(/socket.io/): {why}"
            ).format(why=failed.title)
            said.append("\n" + unchecked, style="yellow")
        read.update(said)
        written = self.state.lifecycle.written.get((self.instance_name, self.kind))
        note = self.query_one("#hooks-written", Static)
        if written is None:
            save = self.key_for("hooks.save")
            said = _("{key} writes with set, then reads back with find").format(key=save)
            note.update(Text(said, style="dim"))
        elif not written.differences:
            done = _("Written {time}; read back the same").format(time=clock(written.at))
            note.update(
                Text(f"⚠ {done}" if unserved else f"✓ {done}", "yellow" if unserved else "green")
            )
        else:
            text = Text(
                _("Written {time}; the gateway keeps it differently:").format(
                    time=clock(written.at)
                )
                + "\n"
            )
            for line in written.differences:
                text.append(f"  • {line}\n", style="yellow")
            note.update(text)

    def _describe(self, value, at) -> Text:
        if not value.configured:
            return Text(
                _("Never set on this instance (find answers nothing) · read {time}").format(
                    time=clock(at)
                )
            )
        parts = [_("on") if value.enabled else _("off")]
        if self.kind == "webhook":
            parts.append(value.url or _("no URL"))
        count = len(value.events)
        every = len(self.gateway_app.gateway_line.event_names)
        if count == every:
            parts.append(_("all {n} events").format(n=number(every)))
        else:
            parts.append(ngettext("{n} event", "{n} events", count).format(n=number(count)))
        return Text(
            _("On the gateway: {settings} · read {time}").format(
                settings=" · ".join(parts), time=clock(at)
            )
        )

    def _fill(self, value) -> None:
        self._filled = True
        self.query_one("#hooks-enabled", Checkbox).value = value.enabled
        if self.kind == "webhook":
            url = self.query_one("#hooks-url", Input)
            # A disabled webhook comes back without its URL: keep the one typed.
            if value.url or not url.value:
                url.value = value.url
            self.query_one("#hooks-by-events", Checkbox).value = bool(value.webhook_by_events)
            self.query_one("#hooks-base64", Checkbox).value = bool(value.webhook_base64)
        events = self.query_one("#hooks-events", SelectionList)
        events.deselect_all()
        # All of them is what "none ticked" gives: show it as none, the simpler choice.
        names = self.gateway_app.gateway_line.event_names
        if len(set(value.events)) < len(names):
            for name in value.events:
                if name in names:
                    events.select(name)

    def _form(self) -> WebhookSettings | WebsocketSettings:
        enabled = self.query_one("#hooks-enabled", Checkbox).value
        events = list(self.query_one("#hooks-events", SelectionList).selected)
        if self.kind == "websocket":
            return WebsocketSettings(enabled=enabled, events=events)
        return WebhookSettings(
            url=self.query_one("#hooks-url", Input).value,
            enabled=enabled,
            events=events,
            webhook_by_events=self.query_one("#hooks-by-events", Checkbox).value,
            webhook_base64=self.query_one("#hooks-base64", Checkbox).value,
        )

    # --- keys ------------------------------------------------------------------------------------

    def action_reload(self) -> None:
        self._filled = False
        load = (
            self.actions.lifecycle.load_webhook(self.instance_name)
            if self.kind == "webhook"
            else self.actions.lifecycle.load_websocket(self.instance_name)
        )
        what = _("Reading the webhook") if self.kind == "webhook" else _("Reading the websocket")
        self.call(
            load,
            what=what,
            on_done=lambda _found: self._channel_refused(),
            group="hooks-read",
            exclusive=True,
        )

    def _channel_refused(self) -> None:
        """A refused key at the websocket channel's check is told at once, not only in place."""
        failed = self.state.lifecycle.websocket_channel_error
        if self.kind == "websocket" and isinstance(failed, Unauthorized | Forbidden):
            self.gateway_app.report_error(failed, _("Checking the gateway's websocket channel"))

    def action_save(self) -> None:
        settings = self._form()
        problems_widget = self.query_one("#hooks-problems", Static)
        problems = settings.problems()
        at_url = [p for p in problems if p.field == "url"]
        if self.kind == "webhook":
            said = Text("\n".join(f"✕ {p.message}" for p in at_url), style="red")
            self.query_one("#hooks-url-problem", Static).update(said)
        rest = [p for p in problems if p not in at_url]
        problems_widget.update(Text("\n".join(f"✕ {p}" for p in rest), style="red"))
        if at_url and self.kind == "webhook":
            self.query_one("#hooks-url", TextInput).focus()  # scrolled to, its problem under it
        if problems:
            return

        def refused(error: GatewayError) -> bool:
            if isinstance(error, InvalidRequest):
                problems_widget.update(Text(f"✕ {error.summary}", style="red"))
                return True
            return False

        def written(_differences: list[str]) -> None:
            # The form now shows what the gateway keeps.
            self._filled = False
            self.refresh_from_state()

        work = (
            self.actions.lifecycle.save_webhook(self.instance_name, settings)
            if isinstance(settings, WebhookSettings)
            else self.actions.lifecycle.save_websocket(self.instance_name, settings)
        )
        webhook = self.kind == "webhook"
        self.call(
            work,
            what=_("Writing the webhook") if webhook else _("Writing the websocket"),
            done=_("Webhook written and read back")
            if webhook
            else _("Websocket written and read back"),
            on_done=written,
            on_error=refused,
            group="hooks-write",
        )

    def action_all_events(self) -> None:
        self.query_one("#hooks-events", SelectionList).select_all()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "live_events":
            return self.kind == "websocket"
        if action == "listen_here":
            return self.kind == "webhook"
        return True

    def action_live_events(self) -> None:
        """Enabled, and the events live updates need ticked beside those already ticked (none
        ticked means all: left so). Only the form changes; writing is the user's key."""
        from gateway_tui.core.live import LIVE_EVENTS

        self.query_one("#hooks-enabled", Checkbox).value = True
        events = self.query_one("#hooks-events", SelectionList)
        if events.selected:
            offered = set(self.gateway_app.gateway_line.event_names)
            for name in LIVE_EVENTS:
                if name in offered:
                    events.select(name)

    def action_listen_here(self) -> None:
        from gateway_tui.tui.screens.event_monitor import EventMonitorScreen

        self.app.push_screen(EventMonitorScreen(self.instance_name, listen=True))

    def action_no_events(self) -> None:
        self.query_one("#hooks-events", SelectionList).deselect_all()
