"""`m` on an instance: compose a list message with a live preview, check it, send it.

The form is a ``Draft`` (plain data, ``gateway_tui.drafts``): every keystroke updates it, the
checks and the preview are redrawn from it, and it is autosaved within a second. Sending runs in
a worker and is never repeated on its own: a send whose outcome is unknown asks before the next.
"""

from __future__ import annotations

import re
import time
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

from gateway_tui.api.errors import GatewayError, Problem
from gateway_tui.api.models import InstanceStatus, SendListRequest, SentMessage
from gateway_tui.api.validation import normalise_number
from gateway_tui.drafts import PRESENCES, ComposeStore, Draft, DraftRow, DraftSection, HistoryEntry
from gateway_tui.formatting import format_number
from gateway_tui.screens.base import GatewayScreen
from gateway_tui.screens.confirm import ConfirmScreen
from gateway_tui.state import Topic
from gateway_tui.widgets.gateway_bar import GatewayBar
from gateway_tui.widgets.list_preview import ListPreview, PreviewMode

AUTOSAVE_SECONDS = 0.5  # a keystroke reaches the disk within this (well within a second)
COUNTDOWN_TICK = 0.1

# key, label, Draft attribute, placeholder
HEADER_FIELDS: tuple[tuple[str, str, str, str], ...] = (
    (
        "recipient",
        "Recipient",
        "recipient",
        "international digits, e.g. 4915123456789, or a group JID",
    ),
    ("title", "Title", "title", "the bold first line"),
    ("description", "Description", "description", "the message text"),
    ("button", "Button text", "button_text", "opens the list, e.g. See the menu"),
    ("footer", "Footer", "footer", "optional small print"),
)
FIELD_ATTRS = {key: attr for key, _, attr, _ in HEADER_FIELDS} | {"delay": "delay"}
ROW_PARTS = {"title": "title", "desc": "description", "id": "row_id"}
PRESENCE_NOTE = "only takes effect with a delay"
# What the line under the form says about the field under the cursor.
FIELD_HINTS = {
    "recipient": "Recipient: international number with its country code (digits; + and "
    "spaces are dropped), or a group JID …@g.us",
    "title": "Title: the bold first line of the message",
    "description": "Description: the message text under the title",
    "button": "Button text: the button that opens the list (WhatsApp shows 20 characters)",
    "footer": "Footer: optional small print under the message",
    "delay": "Delay: whole milliseconds the gateway waits before sending — the request "
    "stays open that long",
    "presence": "Presence: what the recipient sees during the delay — only takes effect "
    "with a delay",
    "section": "Section title: shown above its rows in the opened list (WhatsApp shows 24)",
    "row-title": "Row title: one choice in the list (WhatsApp shows 24 characters)",
    "row-desc": "Row description: under the row's title (WhatsApp shows 72 characters)",
    "row-id": "rowId: what a reply names when this row is picked — follows the title "
    "until you edit it",
}

# Where a problem about a request field is shown (the ids of the error lines).
_TOP_TARGETS = {
    "number": "recipient",
    "recipient": "recipient",
    "title": "title",
    "description": "description",
    "buttonText": "button",
    "footerText": "footer",
    "delay": "options",
    "presence": "options",
    "options": "options",
    "sections": "sections",
}
_SECTION_PATH = re.compile(r"^sections\[(\d+)\](?:\.rows\[(\d+)\])?(?:\.(\w+))?$")
_FIELD_PREFIX = re.compile(r"^(?:instance\.)?(?:listMessage\.|options\.)?")
# A line of the server's body validation: `<path> <what is wrong>`.
_SERVER_LINE = re.compile(
    r"^(?P<path>(?:instance|listMessage|options|number)[\w.\[\]]*)\s+(?P<rest>.+)$"
)
_REQUIRES = re.compile(r'^requires property "(?P<name>[^"]+)"')
_NOT_EMPTY = re.compile(r'^The "(?P<name>[^"]+)" cannot be empty$')
# Lines of the real server's schema that name no path (the schema's "description").
_KNOWN_LINES = {"Enter a value in milliseconds": "delay", "Invalid format": "number"}
_SUBFIELD_LABEL = {"title": "title", "description": "description", "rowId": "rowId"}


def field_of(path: str) -> str:
    """A request path as the composer names fields: "listMessage.sections[0]" → "sections[0]"."""
    field = _FIELD_PREFIX.sub("", path, count=1)
    return "number" if field == "instance" else field


def target_of(field: str, draft: Draft) -> tuple[str, str]:
    """The error line a problem about ``field`` goes to, and the label to put before it."""
    field = field_of(field)
    if field in _TOP_TARGETS:
        return f"err-{_TOP_TARGETS[field]}", ""
    match = _SECTION_PATH.match(field)
    if match is None:
        return "err-general", ""
    s_index, r_index, sub = int(match[1]), match[2], match[3]
    if s_index >= len(draft.sections):
        return "err-sections", ""
    section = draft.sections[s_index]
    if r_index is None:
        prefix = "title: " if sub == "title" else ""
        return f"err-sec-{section.uid}", prefix
    if int(r_index) >= len(section.rows):
        return f"err-sec-{section.uid}", ""
    prefix = f"{_SUBFIELD_LABEL[sub]}: " if sub in _SUBFIELD_LABEL else ""
    return f"err-row-{section.rows[int(r_index)].uid}", prefix


def server_problems(error: GatewayError) -> list[Problem]:
    """The gateway's refusal, tied to fields wherever its text names one.

    Covers the body-validation form (``[["listMessage.sections[0] requires property …"]]``),
    the property form, and numbers that are not on WhatsApp. Lines that name no field come back
    with field "" (shown under the form).
    """
    problems = [Problem("number", f"{n} is not on WhatsApp") for n in error.not_on_whatsapp]
    problems += [Problem(field_of(p.field), p.message) for p in error.problems]
    said = {f"{n} is not on WhatsApp" for n in error.not_on_whatsapp}
    said |= {f"{p.field}: {p.message}" for p in error.problems}
    for line in error.messages:
        if line in said:
            continue
        if line in _KNOWN_LINES:
            problems.append(Problem(_KNOWN_LINES[line], line))
            continue
        if match := _NOT_EMPTY.match(line):
            name = match["name"]
            problems.append(Problem(name if name in _TOP_TARGETS else "", line))
            continue
        if match := _SERVER_LINE.match(line):
            path = match["path"]
            field = field_of(path)
            if required := _REQUIRES.match(match["rest"]):
                # "<path> requires property "x"": the field is x, inside <path>.
                inside = "" if path in ("instance", "listMessage", "options") else field
                field = f"{inside}.{required['name']}" if inside else required["name"]
            problems.append(Problem(field, line))
            continue
        problems.append(Problem("", line))
    return problems


def describe_timestamp(raw: str | None) -> str:
    if not raw:
        return "—"
    try:
        moment = datetime.fromtimestamp(int(raw))
    except (ValueError, OverflowError, OSError):
        return raw
    return f"{raw} ({moment:%Y-%m-%d %H:%M:%S})"


def recipient_label(recipient: str) -> str:
    value = normalise_number(recipient)
    return format_number(value) if value.isdigit() else value


class ComposerScreen(GatewayScreen):
    HELP_TITLE = "Compose a list message"
    TOPICS = frozenset({Topic.INSTANCES})

    BINDINGS = [
        Binding("ctrl+s", "send", "Send", id="composer.send", priority=True),
        Binding("ctrl+n", "add_row", "Add row", id="composer.add_row"),
        Binding("ctrl+o", "add_section", "Add section", id="composer.add_section"),
        Binding("ctrl+r", "remove", "Remove row / section", id="composer.remove"),
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
        Binding("f2", "toggle_json", "JSON body", id="composer.toggle_json"),
        Binding("f3", "toggle_list", "Opened list", id="composer.toggle_list"),
        Binding("f6", "save_template", "Save as template", id="composer.save_template"),
        Binding("f7", "templates", "Templates", id="composer.templates"),
        Binding("f8", "history", "Sent history", id="composer.history"),
        Binding("f9", "new_draft", "New empty draft", id="composer.new_draft", show=False),
        Binding("f5", "send_to_many", "Send to many", id="composer.send_to_many"),
        Binding("escape", "back", "Back", id="composer.back"),
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

    # --- building -----------------------------------------------------------------------------

    def _load_draft(self) -> None:
        if self.store is None:
            self.store = ComposeStore(self.gateway_app.gateway_url, self.instance)
        try:
            stored = self.store.load_draft()
        except OSError as problem:
            self.notify(
                f"Could not read the saved draft: {problem}", severity="warning", markup=False
            )
            stored = None
        if stored is not None and not stored.is_empty:
            self.draft = stored
            self.restored = True
            self._reveal_all = True
        if self._recipient:
            self.draft.recipient = self._recipient
            self._dirty = True

    def compose(self) -> ComposeResult:
        self._load_draft()
        draft = self.draft
        yield GatewayBar()
        with Horizontal(id="composer-body"):
            with VerticalScroll(id="composer-form", can_focus=False):
                yield Static(id="composer-title", classes="title")
                yield Static(id="composer-draft-status", classes="summary")
                for key, label, attr, placeholder in HEADER_FIELDS:
                    with Horizontal(classes="composer-field"):
                        yield Label(label, classes="field-label")
                        yield Input(
                            getattr(draft, attr),
                            placeholder=placeholder,
                            id=f"f-{key}",
                            compact=True,
                        )
                    yield Static(id=f"err-{key}", classes="field-error composer-error")
                with Horizontal(classes="composer-field"):
                    yield Label("Delay (ms)", classes="field-label")
                    yield Input(draft.delay, placeholder="none", id="f-delay", compact=True)
                    yield Label("Presence", classes="field-label-inline")
                    yield Select(
                        [(p, p) for p in PRESENCES],
                        prompt="none",
                        value=draft.presence or Select.NULL,
                        id="f-presence",
                        compact=True,
                    )
                    yield Label(PRESENCE_NOTE, classes="field-note", id="presence-note")
                yield Static(id="err-options", classes="field-error composer-error")
                yield Static(Text("Sections", style="bold"), classes="section-title")
                yield Static(
                    Text(
                        "ctrl+n add row · ctrl+o add section · ctrl+r remove · "
                        "ctrl+↑ / ctrl+↓ move · rowId follows the title until you edit it"
                    ),
                    classes="summary",
                )
                with Horizontal(id="rows-header"):
                    yield Label("", classes="row-number")
                    yield Label("row title", classes="row-title")
                    yield Label("description", classes="row-desc")
                    yield Label("rowId", classes="row-id")
                yield Static(id="err-sections", classes="field-error composer-error")
                with Vertical(id="sections-editor"):
                    yield from self._section_widgets()
                yield Static(id="err-general", classes="field-error composer-error")
            with VerticalScroll(id="composer-preview-pane"):
                yield ListPreview(id="composer-preview")
        yield Static(id="composer-hint")
        yield Static(id="composer-status")
        yield Footer()

    def _section_widgets(self) -> list[Widget]:
        ids = self.draft.row_ids()
        blocks: list[Widget] = []
        for s_index, section in enumerate(self.draft.sections):
            children: list[Widget] = [
                Horizontal(
                    Label(f"Section {s_index + 1}", classes="section-label"),
                    Input(
                        section.title,
                        placeholder="section title",
                        id=f"sec-{section.uid}-title",
                        compact=True,
                    ),
                    classes="composer-section-line",
                ),
                Static(id=f"err-sec-{section.uid}", classes="field-error composer-error"),
            ]
            for r_index, row in enumerate(section.rows):
                children.extend(self._row_widgets(row, r_index, ids[row.uid]))
            blocks.append(Vertical(*children, classes="composer-section", id=f"sec-{section.uid}"))
        return blocks

    @staticmethod
    def _row_widgets(row: DraftRow, index: int, row_id: str) -> tuple[Widget, Widget]:
        """A row's line (number, title, description, rowId) and its error line."""
        line = Horizontal(
            Label(f"{index + 1:>3}.", classes="row-number"),
            Input(
                row.title,
                placeholder="row title",
                id=f"row-{row.uid}-title",
                classes="row-title",
                compact=True,
            ),
            Input(
                row.description,
                placeholder="description (optional)",
                id=f"row-{row.uid}-desc",
                classes="row-desc",
                compact=True,
            ),
            Input(
                row_id,
                placeholder=row_id,
                id=f"row-{row.uid}-id",
                classes="row-id",
                compact=True,
            ),
            classes="composer-row",
            id=f"row-{row.uid}",
        )
        return line, Static(id=f"err-row-{row.uid}", classes="field-error composer-error")

    def on_mount(self) -> None:
        self.query_one("#f-recipient", Input).focus()
        self._redraw()
        if self._dirty:
            self._schedule_autosave()
        if self.restored:
            self.notify("Draft restored: it was saved as you typed.", markup=False)

    def refresh_from_state(self) -> None:
        """The title, and a warning when the instance cannot send (its status is not open)."""
        title = Text.assemble(("List message from ", "bold"), (self.instance, "bold"))
        instance = self.state.instance(self.instance)
        if instance is not None and instance.status_kind != InstanceStatus.OPEN:
            title.append(
                f"  ⚠ status {instance.status}: the gateway sends only from a connected "
                "(open) instance",
                style="yellow not bold",
            )
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
        hint = FIELD_HINTS.get(key, "")
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
        check = self.draft.check()
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
            target, _ = target_of(problem.field, self.draft)
            lines[target].append(Text(f"✕ gateway: {problem.message}", style="bold red"))
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

    def _draw_preview(self) -> None:
        note = None
        if self.mode == PreviewMode.JSON:
            check = self.draft.check()
            if check.ok:
                note = Text("✓ valid: ctrl+s sends exactly this", style="green")
            else:
                note = Text(
                    f"✕ not sendable yet: {len(check.errors)} problem(s) shown next to the fields",
                    style="red",
                )
        self.query_one("#composer-preview", ListPreview).show(
            self.draft, mode=self.mode, focus_uid=self._focus_uid, note=note
        )

    def _draw_draft_status(self) -> None:
        text = Text()
        if self.saved_at is not None:
            text.append(f"draft autosaved {self.saved_at:%H:%M:%S}")
        elif self.restored:
            text.append("draft restored")
        else:
            text.append("new draft (autosaved as you type)")
        errors, warnings = self._error_count, self._warning_count
        if errors and not (self._reveal_all or self._touched):
            text.append(f" · {errors} thing(s) to fill in before sending")
        elif errors:
            text.append(f" · ✕ {errors} to fix before sending", style="red")
        else:
            text.append(" · ✓ ready to send (ctrl+s)", style="green")
        if warnings:
            text.append(f" · ⚠ {warnings} warning(s)", style="yellow")
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
            if not self._save_failing:  # said once, not at every keystroke
                self._save_failing = True
                self.notify(
                    f"Could not save the draft: {problem}. What is typed stays here while "
                    "this screen is open; saving is tried again at the next keystroke.",
                    title="Draft",
                    severity="error",
                    timeout=15,
                    markup=False,
                )
            return
        self._save_failing = False
        self._dirty = False
        self.saved_at = self.state.now()

    # --- editing the sections -----------------------------------------------------------------

    async def _rebuild_sections(self, focus: str | None = None) -> None:
        editor = self.query_one("#sections-editor", Vertical)
        await editor.remove_children()
        self._shown_lines = {w: t for w, t in self._shown_lines.items() if w.is_attached}
        await editor.mount_all(self._section_widgets())
        self._touched.add("err-sections")
        self._changed()
        if focus:
            self._focus_field(focus)

    def _renumber(self, section: DraftSection) -> None:
        for index, row in enumerate(section.rows):
            for label in self.query(f"#row-{row.uid} .row-number").results(Label):
                label.update(f"{index + 1:>3}.")

    async def _after_row_change(self, section: DraftSection, focus: str | None) -> None:
        """Finish an edit that touched one section's rows in place (no rebuild)."""
        self._renumber(section)
        self._touched.add("err-sections")
        self._changed()
        if focus:
            self._focus_field(focus)

    def _focus_field(self, widget_id: str) -> None:
        try:
            target = self.query_one(f"#{widget_id}", Input)
        except Exception:  # noqa: BLE001 - nothing to focus (it was the last one)
            return
        target.focus()
        target.scroll_visible(animate=False)

    async def _mount_row(self, section: DraftSection, index: int) -> None:
        """Show the row at ``index`` of ``section`` (already in the draft)."""
        container = self.query_one(f"#sec-{section.uid}", Vertical)
        row = section.rows[index]
        after = f"#err-row-{section.rows[index - 1].uid}" if index else f"#err-sec-{section.uid}"
        line, error = self._row_widgets(row, index, self.draft.row_ids()[row.uid])
        await container.mount(line, error, after=self.query_one(after))

    async def action_add_row(self) -> None:
        kind, s_index, r_index = self._position()
        sections = self.draft.sections
        if not sections:
            sections.append(DraftSection(rows=[]))
            await self._rebuild_sections()
        row = DraftRow()
        if kind == "row" and s_index is not None and r_index is not None:
            section, at = sections[s_index], r_index + 1
        elif kind == "section" and s_index is not None:
            section = sections[s_index]
            at = len(section.rows)
        else:
            section = sections[-1]
            at = len(section.rows)
        section.rows.insert(at, row)
        await self._mount_row(section, at)
        await self._after_row_change(section, f"row-{row.uid}-title")

    async def action_add_section(self) -> None:
        _, s_index, _ = self._position()
        section = DraftSection()
        at = len(self.draft.sections) if s_index is None else s_index + 1
        self.draft.sections.insert(at, section)
        await self._rebuild_sections(focus=f"sec-{section.uid}-title")

    async def action_remove(self) -> None:
        kind, s_index, r_index = self._position()
        if kind == "row" and s_index is not None and r_index is not None:
            section = self.draft.sections[s_index]
            row = section.rows.pop(r_index)
            rows = section.rows
            if rows:
                focus = f"row-{rows[min(r_index, len(rows) - 1)].uid}-title"
            else:
                focus = f"sec-{section.uid}-title"
            self._focus_field(focus)  # first: the removed field must not hold the focus
            await self.query_one(f"#row-{row.uid}").remove()
            await self.query_one(f"#err-row-{row.uid}").remove()
            self._shown_lines = {w: t for w, t in self._shown_lines.items() if w.is_attached}
            await self._after_row_change(section, focus)
        elif kind == "section" and s_index is not None:
            section = self.draft.sections[s_index]
            if section.is_empty:
                await self._remove_section(s_index)
                return
            body = Text("Remove section ")
            body.append(section.title or f"{s_index + 1}", style="bold")
            body.append(f" and its {len(section.rows)} row(s)?")

            async def decided(yes: bool | None) -> None:
                if yes:
                    await self._remove_section(s_index)

            self.app.push_screen(
                ConfirmScreen("Remove section", body, confirm_label="Remove"), decided
            )
        else:
            self.notify("Put the cursor in a row or a section title to remove it.", markup=False)

    async def _remove_section(self, index: int) -> None:
        sections = self.draft.sections
        if not 0 <= index < len(sections):
            return
        sections.pop(index)
        if sections:
            focus = f"sec-{sections[min(index, len(sections) - 1)].uid}-title"
        else:
            focus = "f-footer"
        await self._rebuild_sections(focus=focus)
        if not sections:
            self.query_one("#f-footer", Input).focus()

    async def action_move(self, step: int) -> None:
        kind, s_index, r_index = self._position()
        sections = self.draft.sections
        if kind == "row" and s_index is not None and r_index is not None:
            rows = sections[s_index].rows
            row = rows[r_index]
            focus_part = (self.focused.id or "").rsplit("-", 1)[-1] if self.focused else "title"
            target = r_index + step
            if 0 <= target < len(rows):
                rows[r_index], rows[target] = rows[target], rows[r_index]
                # In place: the row's two lines go before (or after) its neighbour's.
                container = self.query_one(f"#sec-{sections[s_index].uid}", Vertical)
                line, error = (
                    self.query_one(f"#row-{row.uid}"),
                    self.query_one(f"#err-row-{row.uid}"),
                )
                other = rows[r_index].uid
                if step < 0:
                    container.move_child(line, before=self.query_one(f"#row-{other}"))
                else:
                    container.move_child(line, after=self.query_one(f"#err-row-{other}"))
                container.move_child(error, after=line)
                await self._after_row_change(sections[s_index], f"row-{row.uid}-{focus_part}")
                return
            elif 0 <= s_index + step < len(sections):
                # Past the edge of its section: into the next one (or the previous).
                rows.pop(r_index)
                neighbour = sections[s_index + step].rows
                if step < 0:
                    neighbour.append(row)
                else:
                    neighbour.insert(0, row)
            else:
                return
            await self._rebuild_sections(focus=f"row-{row.uid}-{focus_part}")
        elif kind == "section" and s_index is not None:
            target = s_index + step
            if not 0 <= target < len(sections):
                return
            sections[s_index], sections[target] = sections[target], sections[s_index]
            await self._rebuild_sections(focus=f"sec-{sections[target].uid}-title")
        else:
            self.notify("Put the cursor in a row or a section title to move it.", markup=False)

    # --- preview ------------------------------------------------------------------------------

    def action_toggle_json(self) -> None:
        self.mode = PreviewMode.MESSAGE if self.mode == PreviewMode.JSON else PreviewMode.JSON
        self._draw_preview()

    def action_toggle_list(self) -> None:
        self.mode = PreviewMode.MESSAGE if self.mode == PreviewMode.LIST else PreviewMode.LIST
        self._draw_preview()

    # --- drafts, templates, history -----------------------------------------------------------

    async def replace_draft(self, draft: Draft, *, what: str) -> None:
        """Show another draft in the form (a template, a sent message, a new one)."""
        self.draft = draft
        self._touched.clear()
        self._reveal_all = False
        self._server_problems = []
        for key, _, attr, _ in HEADER_FIELDS:
            field = self.query_one(f"#f-{key}", Input)
            with field.prevent(Input.Changed):
                field.value = getattr(draft, attr)
        delay = self.query_one("#f-delay", Input)
        with delay.prevent(Input.Changed):
            delay.value = draft.delay
        presence = self.query_one("#f-presence", Select)
        with presence.prevent(Select.Changed):
            presence.value = draft.presence or Select.NULL
        await self._rebuild_sections()
        self._touched.clear()
        self._redraw()
        self._schedule_autosave()
        self.query_one("#f-recipient", Input).focus()
        self.notify(what, markup=False)

    def _confirm_replace(self, title: str, then) -> None:
        """Ask before a draft with content is replaced (it is not kept anywhere else)."""
        if self.draft.is_empty:
            self.call_later(then)
            return
        body = Text(
            "The message in the form will be replaced and not kept. Save it as a template "
            "first (f6) to keep it."
        )

        async def decided(yes: bool | None) -> None:
            if yes:
                await then()

        self.app.push_screen(ConfirmScreen(title, body, confirm_label="Replace"), decided)

    def action_new_draft(self) -> None:
        async def fresh() -> None:
            await self.replace_draft(Draft(), what="New empty draft")

        self._confirm_replace("New empty draft", fresh)

    def action_save_template(self) -> None:
        from gateway_tui.screens.compose_modals import TemplateNameScreen

        assert self.store is not None
        names = list(self.store.templates())

        def chosen(name: str | None) -> None:
            if not name or self.store is None:
                return
            try:
                replaced = self.store.save_template(name, self.draft)
            except (OSError, ValueError) as problem:
                self.notify(f"Template not saved: {problem}", severity="error", markup=False)
                return
            verb = "replaced" if replaced else "saved"
            self.notify(f"Template “{name}” {verb} (without the recipient)", markup=False)

        self.app.push_screen(TemplateNameScreen(names, self.draft.title), chosen)

    def action_templates(self) -> None:
        from gateway_tui.screens.compose_modals import LibraryItem, LibraryScreen

        assert self.store is not None
        store = self.store
        templates = store.templates()
        items = [LibraryItem(name, name, _summary(draft)) for name, draft in templates.items()]

        def delete(name: str) -> bool:
            try:
                return store.delete_template(name)
            except OSError as problem:
                self.notify(f"Template not deleted: {problem}", severity="error", markup=False)
                return False

        def chosen(name: str | None) -> None:
            if name is None or name not in templates:
                return
            template = templates[name]
            template.recipient = self.draft.recipient

            async def load() -> None:
                await self.replace_draft(template, what=f"Template “{name}” loaded")

            self._confirm_replace(f"Load template “{name}”", load)

        self.app.push_screen(
            LibraryScreen(
                "Templates",
                items,
                empty="No templates yet: f6 saves the message in the form as one.",
                on_delete=delete,
            ),
            chosen,
        )

    def action_history(self) -> None:
        from gateway_tui.screens.compose_modals import LibraryItem, LibraryScreen

        assert self.store is not None
        entries = list(reversed(self.store.history()))
        items = []
        for index, entry in enumerate(entries):
            label = f"{entry.sent_at:%Y-%m-%d %H:%M} → {recipient_label(entry.recipient)}"
            detail = f"{entry.title or '(no title)'} · id {entry.message_id or '—'}"
            items.append(LibraryItem(str(index), label, detail))

        def chosen(key: str | None) -> None:
            if key is None:
                return
            entry = entries[int(key)]

            async def reopen() -> None:
                await self.replace_draft(entry.draft(), what="Sent message reopened as a new draft")

            self._confirm_replace("Reopen a sent message", reopen)

        self.app.push_screen(
            LibraryScreen(
                "Sent messages",
                items,
                empty="Nothing sent from this instance yet.",
                hint="enter reopens the message as a new draft",
            ),
            chosen,
        )

    # --- sending ------------------------------------------------------------------------------

    def action_send(self) -> None:
        if self.sending:
            self.notify("Already sending: waiting for the gateway's answer.", markup=False)
            return
        check = self.draft.check()
        self._server_problems = []
        if not check.ok:
            self._reveal_all = True
            self._redraw()
            self._focus_first_problem(check.errors)
            self._status(
                Text(
                    f"✕ Not sent: {len(check.errors)} problem(s) to fix, shown next to the fields.",
                    style="red",
                )
            )
            return
        body = self.draft.body()
        if self._unknown_body is not None:
            text = Text(
                "The outcome of the last send is unknown: the gateway may have sent it. "
                "Check the chat before sending again. Send now anyway?"
            )
            self._ask_then_send("Outcome unknown", text)
        elif body == self._last_sent_body:
            text = Text("This exact message was sent already. Send it again?")
            self._ask_then_send("Send again", text)
        else:
            self._start_send()

    def _ask_then_send(self, title: str, body: Text) -> None:
        self.app.push_screen(
            ConfirmScreen(title, body, confirm_label="Send"),
            lambda yes: self._start_send() if yes else None,
        )

    def _focus_first_problem(self, problems: list[Problem]) -> None:
        for problem in problems:
            target, _ = target_of(problem.field, self.draft)
            widget_id = {
                "err-recipient": "f-recipient",
                "err-title": "f-title",
                "err-description": "f-description",
                "err-button": "f-button",
                "err-options": "f-delay",
            }.get(target)
            if target.startswith("err-sec-"):
                widget_id = f"sec-{target[8:]}-title"
            elif target.startswith("err-row-"):
                widget_id = f"row-{target[8:]}-title"
            if widget_id:
                try:
                    widget = self.query_one(f"#{widget_id}", Input)
                except Exception:  # noqa: BLE001
                    continue
                widget.focus()
                widget.scroll_visible(animate=False)
                return

    def _start_send(self) -> None:
        if self.sending:
            return
        request = self.draft.request()
        self.sending = True
        self._send_started = time.monotonic()
        self._send_delay_ms = request.delay_ms
        self._send_body = request.to_json()
        self._send_form = self.draft.to_json()
        self._send_presence = request.options.presence if request.options else None
        self._countdown = self.set_interval(COUNTDOWN_TICK, self._tick)
        self._tick()
        self._send_worker = self.call(
            self._send(request),
            what="Sending the list message",
            on_done=self._sent,
            on_error=self._send_failed,
            group="send",
        )

    async def _send(self, request: SendListRequest) -> SentMessage:
        try:
            return await self.actions.send_list(self.instance, request)
        finally:
            self.sending = False
            if self._countdown is not None:
                self._countdown.stop()
                self._countdown = None

    def _tick(self) -> None:
        if not self.sending:
            return
        who = recipient_label(
            self.draft.recipient if self._send_form is None else self._send_form["recipient"]
        )
        text = Text.assemble(("⏳ Sending to ", "bold"))
        text.append(who, style="bold")
        left = self._send_delay_ms / 1000 - (time.monotonic() - self._send_started)
        if self._send_delay_ms and left > 0:
            presence = f", showing “{self._send_presence}”" if self._send_presence else ""
            text.append(
                f" — the gateway waits out the delay of {self._send_delay_ms} ms{presence}: "
            )
            text.append(f"{left:.1f} s left", style="bold cyan")
        else:
            text.append(" — waiting for the gateway's answer…")
        self._status(text)

    def _status(self, text: Text) -> None:
        self.query_one("#composer-status", Static).update(text)

    def _sent(self, result: SentMessage) -> None:
        body, form = self._send_body, self._send_form
        self._last_sent_body, self._unknown_body = body, None
        self.last_result = result
        records = self.state.sent.get(self.instance, [])
        record = next((r for r in reversed(records) if r.result is result), None)
        if record is not None and self.store is not None:
            try:
                self.store.add_history(HistoryEntry.from_record(record, form))
                if form == self.draft.to_json():
                    # Sent as it stands: the next keystroke starts a new draft.
                    self.store.discard_draft()
                    self._dirty = False
            except OSError as problem:
                self.notify(
                    f"Sent, but the history could not be saved: {problem}",
                    severity="warning",
                    markup=False,
                )
        key = result.key
        text = Text.assemble(("✓ Sent", "bold green"))
        text.append(f" to {recipient_label(form['recipient'] if form else '')}")
        text.append("\n  message id ")
        text.append(key.id if key else "—", style="bold")
        text.append("   status ")
        text.append(result.status or "—", style="bold")
        text.append("   timestamp ")
        text.append(describe_timestamp(result.message_timestamp))
        text.append("\n  Recorded in the chat list (t on the instance view).", style="dim")
        self._status(text)
        self._redraw()

    def _give_up_send(self) -> None:
        """Stop waiting for a stalled send. The gateway may still send it: never retried, and
        the next ctrl+s asks first."""
        if self._send_worker is not None:
            self._send_worker.cancel()
        self.sending = False
        if self._countdown is not None:
            self._countdown.stop()
            self._countdown = None
        self._unknown_body = self._send_body
        text = Text.assemble(("⚠ Given up: outcome unknown — check before retrying", "bold yellow"))
        text.append(
            "\n  The gateway may have sent the message. Look at the chat before sending again: "
            "ctrl+s asks first, nothing is resent on its own. esc again goes back."
        )
        self._status(text)

    def _send_failed(self, error: GatewayError) -> bool:
        if error.outcome_unknown:
            self._unknown_body = self._send_body
            text = Text.assemble(
                ("⚠ No answer: outcome unknown — check before retrying", "bold yellow")
            )
            text.append(f"\n  {error.summary}", style="dim")
            text.append(
                "\n  The gateway may have sent the message. Look at the chat before sending "
                "again: ctrl+s asks first, nothing is resent on its own."
            )
            self._status(text)
            return True
        self._server_problems = server_problems(error)
        self._reveal_all = True
        self._redraw()
        text = Text.assemble(("✕ Not sent: ", "bold red"))
        text.append(error.title)
        placed = [p for p in self._server_problems if p.field]
        general = [p for p in self._server_problems if not p.field]
        for problem in general[:4]:
            text.append(f"\n  {problem.message}")
        if placed:
            text.append(f"\n  {len(placed)} problem(s) shown next to the fields.", style="red")
        if error.hint:
            text.append(f"\n  {error.hint}", style="yellow")
        self._status(text)
        self._focus_first_problem(placed)
        return True

    def action_send_to_many(self) -> None:
        """A campaign of this draft (screens/campaign_setup.py); the draft is saved first."""
        from gateway_tui.screens.campaign_setup import CampaignSetupScreen

        self.save_draft_now()
        self.app.push_screen(CampaignSetupScreen(self.instance, self.draft))

    # --- leaving ------------------------------------------------------------------------------

    def action_back(self) -> None:
        if self.sending:
            self._give_up_send()
            return
        self.save_draft_now()
        self.app.pop_screen()


def _summary(draft: Draft) -> str:
    rows = draft.row_count
    return f"{draft.title or '(no title)'} · {len(draft.sections)} section(s), {rows} row(s)"
