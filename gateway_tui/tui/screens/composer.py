"""`m` on an instance: compose a list message with a live preview, check it, send it.

The form is a ``Draft`` (plain data, ``gateway_tui.core.draft``): every keystroke updates
it, the checks and the preview are redrawn from it, and it is autosaved within a second. Sending
runs in a worker and is never repeated on its own: a send whose outcome is unknown asks before the
next.
"""

from __future__ import annotations

import json
from collections import defaultdict
from datetime import datetime

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Footer, Input, Label, Select, Static
from textual.worker import Worker

from gateway_tui.core.api.errors import Problem
from gateway_tui.core.api.models import InstanceStatus, SentMessage
from gateway_tui.core.draft import PRESENCES, Draft
from gateway_tui.core.files.drafts import ComposeStore
from gateway_tui.core.state import Topic
from gateway_tui.core.text.i18n import N_, _, clock, ngettext, number
from gateway_tui.tui.screens.base import GatewayScreen
from gateway_tui.tui.screens.composer_fields import (  # noqa: F401 - re-exported for callers
    FIELD_ATTRS,
    FIELD_HINTS,
    FIELD_LIMITS,
    HEADER_FIELDS,
    PRESENCE_NOT_SENT,
    PRESENCE_NOTE,
    ROW_PARTS,
    field_hint,
    field_of,
    placeholder_for,
    server_problems,
    target_of,
)
from gateway_tui.tui.screens.composer_library import DraftLibrary
from gateway_tui.tui.screens.composer_sections import SectionsEditor
from gateway_tui.tui.screens.composer_send import (  # noqa: F401 - re-exported for callers
    COUNTDOWN_TICK,
    SendFlow,
    describe_timestamp,
    recipient_label,
)
from gateway_tui.tui.screens.confirm import ConfirmScreen
from gateway_tui.tui.screens.preview_pane import FormScroll, PreviewBeside
from gateway_tui.tui.widgets.gateway_bar import GatewayBar
from gateway_tui.tui.widgets.length_counter import LengthCounter
from gateway_tui.tui.widgets.list_preview import ListPreview, PreviewMode
from gateway_tui.tui.widgets.styled import styled
from gateway_tui.tui.widgets.text_input import TextInput

AUTOSAVE_SECONDS = 0.5  # a keystroke reaches the disk within this (well within a second)


class ComposerScreen(SectionsEditor, DraftLibrary, SendFlow, PreviewBeside, GatewayScreen):
    HELP_TITLE = N_("Compose a list message")
    TOPICS = frozenset({Topic.INSTANCES})

    BINDINGS = [
        Binding("ctrl+s", "send", "Send", id="composer.send", priority=True),
        Binding("ctrl+n", "add_row", "Add row", id="composer.add_row"),
        Binding("ctrl+o", "add_section", "Add section", id="composer.add_section", show=False),
        Binding("ctrl+r", "remove", "Remove", id="composer.remove"),
        Binding(
            "ctrl+up,alt+up", "move(-1)", "Move row / section up", id="composer.move_up", show=False
        ),
        Binding(
            "ctrl+down,alt+down",
            "move(1)",
            "Move row / section down",
            id="composer.move_down",
            show=False,
        ),
        Binding("f2", "toggle_json", "JSON", id="composer.toggle_json"),
        # In the JSON view (f2 puts the cursor there); in a field y and Y are letters.
        Binding("y", "copy_body", "Copy the JSON body", id="composer.copy_body", show=False),
        Binding("Y", "copy_curl", "Copy as curl", id="composer.copy_curl", show=False),
        Binding("f3", "toggle_list", "Opened list", id="composer.toggle_list", show=False),
        Binding("f4", "toggle_preview", "Preview", id="composer.toggle_preview"),
        Binding("f6", "save_template", "Save as template", id="composer.save_template", show=False),
        Binding("f7", "templates", "Templates", id="composer.templates", show=False),
        Binding("f8", "history", "Sent history", id="composer.history", show=False),
        Binding("f9", "new_draft", "New empty draft", id="composer.new_draft", show=False),
        Binding("f5", "send_to_many", "Send to many", id="composer.send_to_many"),
        Binding("escape", "back", "Back", id="composer.back"),
        # q quits elsewhere; in a form, on a field that is not text (a select, a checkbox), it
        # would leave the composer and the app at once.
        Binding("q", "q_in_form", "q is not Quit here", id="composer.q", show=False),
    ]

    def __init__(
        self, instance: str, *, recipient: str | None = None, store: ComposeStore | None = None
    ) -> None:
        """``recipient`` replaces the draft's; ``store`` defaults to the instance's files."""
        super().__init__()
        self.instance = instance
        self._recipient = recipient
        self.draft = Draft()
        self.store: ComposeStore | None = store
        self.mode = PreviewMode.MESSAGE
        self.restored = False
        # Error lines (ids) the user has typed into: their errors show before a send attempt.
        self._touched: set[str] = set()
        self._reveal_all = False
        self._server_problems: list[Problem] = []
        self._focus_uid: int | None = None
        self._dirty = False
        self._autosave_timer: Timer | None = None
        self.saved_at: datetime | None = None
        # Sending.
        self.sending = False
        self._send_worker: Worker | None = None
        self._send_started = 0.0
        self._send_delay_ms = 0
        self._send_body: dict | None = None
        self._send_form: dict | None = None
        self._countdown: Timer | None = None
        self.last_result: SentMessage | None = None
        self._last_sent_body: dict | None = None
        self._unknown_body: dict | None = None
        # What the error lines and the draft status show now (redrawn only on change).
        self._shown_lines: dict[Widget, str] = {}
        self._shown_status = ""
        self._error_count = self._warning_count = 0
        self._send_presence: str | None = None
        self._save_failing = False
        self._save_error = ""  # why the last save failed ("" once one succeeded)
        self._field_before_json: Widget | None = None

    # --- building -----------------------------------------------------------------------------

    def _load_draft(self) -> None:
        if self.store is None:
            self.store = ComposeStore(self.gateway_app.gateway_identity, self.instance)
        try:
            stored = self.store.load_draft()
        except OSError as problem:
            self.notify(
                _("Could not read the saved draft: {problem}").format(problem=problem),
                severity="warning",
                markup=False,
            )
            stored = None
        if stored is not None and not stored.is_empty:
            self.draft = stored
            self.restored = True
            # Problems show on the fields the user had reached (those with something in them),
            # not on every empty field ahead: the rest appear when sending is tried.
            self._touched = self._reached_lines(stored)
        if self._recipient:
            self.draft.recipient = self._recipient
            self._dirty = True

    @staticmethod
    def _reached_lines(draft: Draft) -> set[str]:
        """The error lines of the fields of ``draft`` that hold something."""
        lines = {f"err-{key}" for key, _label, attr, _hint in HEADER_FIELDS if getattr(draft, attr)}
        if draft.delay or draft.presence:
            lines.add("err-options")
        for section in draft.sections:
            if section.title:
                lines.add(f"err-sec-{section.uid}")
            for row in section.rows:
                if row.title or row.description or row.row_id:
                    lines.add(f"err-row-{row.uid}")
        return lines

    def compose(self) -> ComposeResult:
        self._load_draft()
        draft = self.draft
        yield GatewayBar()
        with Horizontal(id="composer-body"):
            with FormScroll(id="composer-form", can_focus=False):
                yield Static(id="composer-title", classes="title")
                yield Static(id="composer-draft-status", classes="summary")
                for key, label, attr, placeholder in HEADER_FIELDS:
                    with Horizontal(classes="composer-field"):
                        yield Label(_(label), classes="field-label")
                        yield TextInput(
                            getattr(draft, attr),
                            placeholder=placeholder_for(
                                key, placeholder, self.gateway_app.gateway_line
                            ),
                            id=f"f-{key}",
                            compact=True,
                        )
                        if key in FIELD_LIMITS:
                            yield LengthCounter(FIELD_LIMITS[key], id=f"count-{key}")
                    yield Static(id=f"err-{key}", classes="field-error composer-error")
                with Horizontal(classes="composer-field", id="options-line"):
                    yield Label(_("Delay (ms)"), classes="field-label")
                    yield TextInput(draft.delay, placeholder=_("none"), id="f-delay", compact=True)
                    line = self.gateway_app.gateway_line
                    yield Label(_("Presence"), classes="field-label-inline")
                    yield Select(
                        [(p, p) for p in PRESENCES],
                        prompt=_("none"),
                        value=draft.presence or Select.NULL,
                        id="f-presence",
                        compact=True,
                        disabled=not line.sends_presence,
                    )
                    note = PRESENCE_NOTE if line.sends_presence else PRESENCE_NOT_SENT
                    yield Label(_(note), classes="field-note", id="presence-note")
                yield Static(id="err-options", classes="field-error composer-error")
                yield Static(Text(_("Sections"), style="bold"), classes="section-title")
                yield Static(
                    Text(
                        _(
                            "{add_row} add row · {add_section} add section · {remove} remove · "
                            "{up} / {down} move · rowId follows the title until you edit it"
                        ).format(
                            add_row="ctrl+n",
                            add_section="ctrl+o",
                            remove="ctrl+r",
                            up="ctrl+↑",
                            down="ctrl+↓",
                        )
                    ),
                    classes="summary",
                )
                with Horizontal(id="rows-header"):
                    yield Label("", classes="row-number")
                    yield Label(_("row title"), classes="row-title")
                    yield Label(_("description"), classes="row-desc")
                    yield Label(_("rowId"), classes="row-id")
                yield Static(id="err-sections", classes="field-error composer-error")
                with Vertical(id="sections-editor"):
                    yield from self._section_widgets()
                yield Static(id="err-general", classes="field-error composer-error")
            with VerticalScroll(id="composer-preview-pane"):
                yield ListPreview(id="composer-preview")
        yield Static(id="composer-hint")
        yield Static(id="composer-status")
        yield Footer()

    def on_mount(self) -> None:
        self._layout(self.app.size.width)
        self.query_one("#f-recipient", Input).focus()
        self._redraw()
        if self._dirty:
            self._schedule_autosave()
        if self.restored:
            self.notify(_("Draft restored: it was saved as you typed."), markup=False)

    def action_q_in_form(self) -> None:
        quit_now, back = self.key_for("app.quit_now"), self.key_for("composer.back")
        self.notify(
            _("{q} does not quit from the composer: {quit_now} quits, {back} goes back.").format(
                q="q", quit_now=quit_now, back=back
            ),
            markup=False,
        )

    def refresh_from_state(self) -> None:
        """The title, and a warning when the instance cannot send (its status is not open)."""
        title = styled(_("List message from {instance}"), "bold", instance=self.instance)
        instance = self.state.instance(self.instance)
        if instance is not None and instance.status_kind != InstanceStatus.OPEN:
            warning = _(
                "⚠ status {status}: the gateway sends only from a connected (open) instance"
            ).format(status=instance.status)
            title.append("  " + warning, style="yellow not bold")
        for note in self.gateway_app.list_message_notes():
            title.append(f"\n⚠ {note}", style="yellow not bold")
        self.query_one("#composer-title", Static).update(title)

    def on_unmount(self) -> None:
        if self._autosave_timer is not None:
            self._autosave_timer.stop()
            self._autosave_timer = None
        self.save_draft_now()

    # --- reading the form ---------------------------------------------------------------------

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        if self._apply_input(event.input.id or "", event.value):
            self._changed()

    def _apply_input(self, widget_id: str, value: str) -> bool:
        """Put a field's value in the draft; False when it holds that value already."""
        draft = self.draft
        if widget_id.startswith("f-"):
            key = widget_id[2:]
            attr = FIELD_ATTRS.get(key)
            if attr is None or getattr(draft, attr) == value:
                return False
            setattr(draft, attr, value)
            self._touched.add("err-options" if key == "delay" else f"err-{key}")
            return True
        parts = widget_id.split("-")
        if len(parts) != 3 or not parts[1].isdigit():
            return False
        kind, uid, part = parts[0], int(parts[1]), parts[2]
        if kind == "sec":
            index = draft.find_section(uid)
            if index is None or draft.sections[index].title == value:
                return False
            draft.sections[index].title = value
            self._touched.add(f"err-sec-{uid}")
            return True
        where = draft.find_row(uid) if kind == "row" else None
        if where is None or part not in ROW_PARTS:
            return False
        row = draft.sections[where[0]].rows[where[1]]
        if part == "id":
            # The field shows the rowId in use; only a different value is the user's own.
            if value == draft.row_ids()[uid] or (not value and not row.row_id):
                return False
            row.row_id = value
        else:
            attr = ROW_PARTS[part]
            if getattr(row, attr) == value:
                return False
            setattr(row, attr, value)
        self._touched.add(f"err-row-{uid}")
        return True

    def on_select_changed(self, event: Select.Changed) -> None:
        event.stop()
        value = event.value if isinstance(event.value, str) else ""
        if value != self.draft.presence:
            self.draft.presence = value
            self._touched.add("err-options")
            self._changed()

    def on_descendant_focus(self, event) -> None:
        uid = self._uid_of(self.focused)
        if uid != self._focus_uid:
            self._focus_uid = uid
            self._draw_preview()
        self._draw_hint()

    def _draw_hint(self) -> None:
        """One line on the field under the cursor: what it is and what limits apply."""
        widget_id = (self.focused.id if self.focused is not None else None) or ""
        if widget_id.startswith("f-"):
            key = widget_id[2:]
        elif widget_id.startswith("sec-"):
            key = "section"
        elif widget_id.startswith("row-"):
            key = "row-" + widget_id.rsplit("-", 1)[-1]
        else:
            key = ""
        hint = field_hint(key)
        text = Text.assemble(("▸ ", "bold"), hint) if hint else Text()
        self.query_one("#composer-hint", Static).update(text)

    def on_descendant_blur(self, event) -> None:
        # A cleared rowId went back to automatic: show the automatic one once the user leaves.
        self._sync_row_ids()

    @staticmethod
    def _uid_of(widget: Widget | None) -> int | None:
        parts = (widget.id or "").split("-") if widget is not None else []
        if len(parts) == 3 and parts[0] in ("sec", "row") and parts[1].isdigit():
            return int(parts[1])
        return None

    def _position(self) -> tuple[str, int | None, int | None]:
        """Where the cursor is: ("row", s, r), ("section", s, None), or ("form", None, None)."""
        widget = self.focused
        uid = self._uid_of(widget)
        if uid is not None and widget is not None and (widget.id or "").startswith("row-"):
            found = self.draft.find_row(uid)
            if found is not None:
                return "row", found[0], found[1]
        if uid is not None:
            index = self.draft.find_section(uid)
            if index is not None:
                return "section", index, None
        return "form", None, None

    # --- redrawing ----------------------------------------------------------------------------

    def _changed(self) -> None:
        self._sync_row_ids()
        self._redraw()
        self._schedule_autosave()

    def _redraw(self) -> None:
        self._draw_counters()
        self._show_problems()
        self._draw_preview()
        self._draw_draft_status()

    def _sync_row_ids(self) -> None:
        """Automatic rowIds follow their titles (and stay unique) in the fields that show them."""
        ids = self.draft.row_ids()
        for section in self.draft.sections:
            for row in section.rows:
                if row.row_id:
                    continue
                try:
                    field = self.query_one(f"#row-{row.uid}-id", Input)
                except Exception:  # noqa: BLE001 - not mounted yet (a rebuild is under way)
                    continue
                field.placeholder = ids[row.uid]
                if field.has_focus and not field.value:
                    continue  # the user just cleared it to type another one
                if field.value != ids[row.uid]:
                    with field.prevent(Input.Changed):
                        field.value = ids[row.uid]

    def _show_problems(self) -> None:
        check = self.draft.check(self.gateway_app.gateway_line)
        lines: dict[str, list[Text]] = defaultdict(list)
        for problem in check.errors:
            target, prefix = target_of(problem.field, self.draft)
            if self._reveal_all or target in self._touched:
                lines[target].append(Text(f"✕ {prefix}{problem.message}", style="red"))
        for problem in check.warnings:
            target, prefix = target_of(problem.field, self.draft)
            lines[target].append(Text(f"⚠ {prefix}{problem.message}", style="yellow"))
        for problem in self._server_problems:
            if not problem.field:
                continue  # about no field: the status line says it, not a line under a row
            target, _prefix = target_of(problem.field, self.draft)
            said = _("gateway: {problem}").format(problem=problem.message)
            lines[target].append(Text(f"✕ {said}", style="bold red"))
        for widget in self.query(".composer-error").results(Static):
            found = lines.get(widget.id or "")
            text = Text("\n").join(found) if found else Text()
            # Only lines that changed are redrawn: a keystroke must not relayout the form.
            if self._shown_lines.get(widget) != text.markup:
                self._shown_lines[widget] = text.markup
                widget.display = bool(found)
                widget.update(text)
        self._error_count = len(check.errors)
        self._warning_count = len(check.warnings)

    def _draw_counters(self) -> None:
        for key, _label, attr, _hint in HEADER_FIELDS:
            if key in FIELD_LIMITS:
                self.query_one(f"#count-{key}", LengthCounter).show(getattr(self.draft, attr))

    def _draw_preview(self) -> None:
        note = None
        if self.mode == PreviewMode.JSON:
            check = self.draft.check(self.gateway_app.gateway_line)
            if check.ok:
                said = _("valid: {send} sends exactly this").format(send="ctrl+s")
                note = Text(f"✓ {said}", style="green")
            else:
                count = len(check.errors)
                said = ngettext(
                    "not sendable yet: {n} problem shown next to the fields",
                    "not sendable yet: {n} problems shown next to the fields",
                    count,
                ).format(n=number(count))
                note = Text(f"✕ {said}", style="red")
        self.query_one("#composer-preview", ListPreview).show(
            self.draft,
            mode=self.mode,
            focus_uid=self._focus_uid,
            note=note,
            line=self.gateway_app.gateway_line,
        )

    def _draw_draft_status(self) -> None:
        text = Text()
        if self.saved_at is not None:
            text.append(_("draft autosaved {time}").format(time=clock(self.saved_at)))
        elif self.restored:
            text.append(_("draft restored"))
        else:
            text.append(_("new draft (autosaved as you type)"))
        errors, warnings = self._error_count, self._warning_count
        if errors and not (self._reveal_all or self._touched):
            said = ngettext(
                "{n} thing to fill in before sending",
                "{n} things to fill in before sending",
                errors,
            )
            text.append(" · " + said.format(n=number(errors)))
        elif errors:
            said = _("{n} to fix before sending").format(n=number(errors))
            text.append(f" · ✕ {said}", style="red")
        else:
            said = _("ready to send ({send})").format(send="ctrl+s")
            text.append(f" · ✓ {said}", style="green")
        if warnings:
            said = ngettext("{n} warning", "{n} warnings", warnings).format(n=number(warnings))
            text.append(f" · ⚠ {said}", style="yellow")
        if text.markup != self._shown_status:
            self._shown_status = text.markup
            self.query_one("#composer-draft-status", Static).update(text)

    # --- autosave -----------------------------------------------------------------------------

    def _schedule_autosave(self) -> None:
        self._dirty = True
        if self._autosave_timer is None:
            self._autosave_timer = self.set_timer(AUTOSAVE_SECONDS, self._autosave)

    def _autosave(self) -> None:
        self._autosave_timer = None
        self.save_draft_now()
        if self.is_attached:
            self._draw_draft_status()

    def save_draft_now(self) -> None:
        """Write the draft if it changed since the last write (atomically)."""
        if not self._dirty or self.store is None:
            return
        try:
            self.store.save_draft(self.draft)
        except OSError as problem:
            self._save_error = problem.strerror or str(problem)
            if not self._save_failing:  # said once, not at every keystroke
                self._save_failing = True
                self.notify(
                    _(
                        "Could not save the draft: {problem}. What is typed stays here while "
                        "this screen is open; saving is tried again at the next keystroke."
                    ).format(problem=problem),
                    title=_("Draft"),
                    severity="error",
                    timeout=15,
                    markup=False,
                )
            return
        self._save_failing = False
        self._save_error = ""
        self._dirty = False
        self.saved_at = self.state.now()

    # --- preview ------------------------------------------------------------------------------

    def action_toggle_json(self) -> None:
        self._set_mode(PreviewMode.MESSAGE if self.mode == PreviewMode.JSON else PreviewMode.JSON)

    def action_toggle_list(self) -> None:
        self._set_mode(PreviewMode.MESSAGE if self.mode == PreviewMode.LIST else PreviewMode.LIST)

    def _set_mode(self, mode: PreviewMode) -> None:
        self.mode = mode
        self._show_preview()
        self._draw_preview()
        pane = self.query_one("#composer-preview-pane")
        if mode == PreviewMode.JSON:
            # The cursor goes to the JSON: arrows scroll it (sideways too), y / Y copy it.
            if not pane.has_focus:
                self._field_before_json = self.focused
            pane.focus()
        elif pane.has_focus:
            # Out of the JSON, back to the field the cursor was in.
            back = self._field_before_json
            (back if back is not None and back.is_attached else self._first_field()).focus()

    def _first_field(self) -> Input:
        return self.query_one("#f-recipient", Input)

    def action_copy_body(self) -> None:
        body = json.dumps(
            self.draft.body(self.gateway_app.gateway_line), indent=2, ensure_ascii=False
        )
        self.copy(body, _("JSON body"))

    def action_copy_curl(self) -> None:
        curl = self.actions.messages.send_list_curl(self.instance, self.draft.request())
        self.copy(
            curl, _("curl (the key is read from {variable})").format(variable="$GATEWAY_API_KEY")
        )

    def action_send_to_many(self) -> None:
        """A campaign of this draft (screens/campaign_setup.py); the draft is saved first."""
        from gateway_tui.tui.screens.campaign_setup import CampaignSetupScreen

        self.save_draft_now()
        self.app.push_screen(CampaignSetupScreen(self.instance, self.draft))

    # --- leaving ------------------------------------------------------------------------------

    def action_back(self) -> None:
        if self.sending:
            self._give_up_send()
            return
        self.save_draft_now()
        if self._dirty and self._save_error:
            self._ask_to_leave_unsaved()
            return
        self.app.pop_screen()

    def _ask_to_leave_unsaved(self) -> None:
        """The draft could not be written: leaving would drop it, so the user decides."""
        body = Text(
            _("The draft could not be saved ({problem}).").format(problem=self._save_error) + "\n"
        )
        body.append(
            _(
                "Leave anyway and lose what was typed? Stay, and it is saved as soon as the disk "
                "takes it (at the next keystroke, or when you leave)."
            ),
            style="dim",
        )

        def decided(leave: bool | None) -> None:
            if leave:
                self._dirty = False  # the user's choice: on_unmount does not try again
                self.app.pop_screen()

        self.app.push_screen(
            ConfirmScreen(_("Draft not saved"), body, confirm_label=_("Leave without it")),
            decided,
        )
