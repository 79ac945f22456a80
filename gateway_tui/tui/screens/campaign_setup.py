"""f5 in the composer: send the draft to many recipients (a campaign) — the set-up.

Recipients come from a CSV file or pasted lines; every number is checked and duplicates are
removed and counted before anything is sent. The table lists the recipients and the preview
shows the message exactly as the highlighted one gets it (placeholders filled in). The pace,
delay and presence are set here; ctrl+s asks, then starts (screens/campaign_run.py).
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.timer import Timer
from textual.widgets import DataTable, Footer, Input, Label, Select, Static, TextArea

from gateway_tui.core.api.errors import Problem
from gateway_tui.core.api.models import InstanceStatus
from gateway_tui.core.campaign.check import numbers_not_on_whatsapp
from gateway_tui.core.campaign.journal import (
    JournalError,
    Pace,
    campaigns_dir,
    create_campaign,
    open_campaign,
)
from gateway_tui.core.campaign.preflight import InstanceNotReady, check_instance
from gateway_tui.core.campaign.recipients import (
    MessageTemplate,
    RecipientFileError,
    RecipientList,
    parse_recipients,
    read_recipients_file,
)
from gateway_tui.core.campaign.runner import duration_text
from gateway_tui.core.draft import PRESENCES, Draft
from gateway_tui.core.text.i18n import N_, _, ngettext, number
from gateway_tui.tui.screens.base import GatewayScreen
from gateway_tui.tui.screens.campaign_empty import EMPTY_ROW_CHOICES, EmptyRows, and_more
from gateway_tui.tui.screens.campaign_lines import (
    DEFAULT_JITTER,
    DEFAULT_RATE,
    created_text,
    parse_pace,
    some,
)
from gateway_tui.tui.screens.compose_modals import LibraryItem, LibraryScreen
from gateway_tui.tui.screens.confirm import ConfirmScreen
from gateway_tui.tui.screens.preview_pane import FormScroll, PreviewBeside
from gateway_tui.tui.widgets.gateway_bar import GatewayBar
from gateway_tui.tui.widgets.list_preview import ListPreview
from gateway_tui.tui.widgets.styled import stress, styled
from gateway_tui.tui.widgets.text_input import TextInput

PARSE_DELAY_SECONDS = 0.3  # pasted lines are read again this long after the last keystroke
TABLE_LIMIT = 2_000  # rows shown in the recipients table (all are sent)


class CampaignSetupScreen(EmptyRows, PreviewBeside, GatewayScreen):
    HELP_TITLE = N_("Send to many: set up a campaign")

    BINDINGS = [
        Binding("ctrl+s", "start", "Start sending", id="campaign_setup.start", priority=True),
        Binding("f4", "check_whatsapp", "Check on WhatsApp", id="campaign_setup.check_whatsapp"),
        # Not f9: one key away, in the composer, f9 starts a new empty draft. f8 there lists
        # what was sent (campaigns too); here the campaigns to resume.
        Binding("f8", "campaigns", "Resume a campaign", id="campaign_setup.campaigns"),
        # Below 100 columns the preview steps aside (as in the composer); f3 shows it below.
        Binding("f3", "toggle_preview", "Preview", id="campaign_setup.toggle_preview"),
        Binding("escape", "back", "Back", id="campaign_setup.back"),
    ]

    def __init__(self, instance: str, draft: Draft) -> None:
        super().__init__()
        self.instance = instance
        self.draft = Draft.from_json(draft.to_json())
        self.template = MessageTemplate(self.draft)
        self.recipients: RecipientList | None = None
        self.source = ""  # the file's name; "" for pasted lines (self.pasted)
        self.pasted = False
        self.load_error = ""
        self._parse_timer: Timer | None = None
        self._pasted = ""  # the pasted text last read
        # What the server would refuse once each recipient's values are filled in: checked
        # again only when the recipients or the message change (10,000 take a while).
        self._message_problems: list[Problem] | None = None
        self._empty_rows = None

    def compose(self) -> ComposeResult:
        yield GatewayBar()
        with Horizontal(id="campaign-body"):
            with FormScroll(id="campaign-form", can_focus=False):
                yield Static(id="campaign-title", classes="title")
                with Horizontal(classes="composer-field"):
                    yield Label(_("CSV file"), classes="field-label")
                    yield TextInput(
                        placeholder=_("path to a CSV file — {key} loads it").format(key="enter"),
                        id="c-file",
                        compact=True,
                    )
                yield Static(
                    Text(
                        _(
                            "or paste lines: number,name,… — a header row (number,name,city) "
                            "names the placeholders {name} {city} of the message's texts"
                        ),
                        style="dim",
                    ),
                    classes="summary",
                )
                yield TextArea(id="c-paste", soft_wrap=False, show_line_numbers=True)
                yield Static(id="c-summary", classes="summary")
                yield DataTable(id="c-recipients", cursor_type="row", zebra_stripes=True)
                with Horizontal(classes="composer-field"):
                    yield Label(_("Per minute"), classes="field-label")
                    yield TextInput(DEFAULT_RATE, id="c-rate", compact=True)
                    yield Label(_("Jitter %"), classes="field-label-inline")
                    yield TextInput(DEFAULT_JITTER, id="c-jitter", compact=True)
                with Horizontal(classes="composer-field"):
                    yield Label(_("Delay (ms)"), classes="field-label")
                    yield TextInput(
                        self.draft.delay, placeholder=_("none"), id="c-delay", compact=True
                    )
                    yield Label(_("Presence"), classes="field-label-inline")
                    yield Select(
                        [(p, p) for p in PRESENCES],
                        prompt=_("none"),
                        value=self.draft.presence or Select.NULL,
                        id="c-presence",
                        compact=True,
                    )
                yield Static(id="c-pace-note", classes="summary")
                # Shown when some rows leave a placeholder empty ("Hi {name}!" → "Hi !").
                with Horizontal(classes="composer-field", id="c-empty-field"):
                    yield Label(_("Empty values"), classes="field-label")
                    yield Select(
                        [(_(label), value) for label, value in EMPTY_ROW_CHOICES],
                        prompt=_("choose: send as is, or skip"),
                        id="c-empty",
                        compact=True,
                    )
            with VerticalScroll(id="campaign-preview-pane"):
                yield Static(id="c-preview-title", classes="summary")
                yield ListPreview(id="campaign-preview")
        yield Static(id="campaign-status")
        yield Footer()

    def on_mount(self) -> None:
        title = styled(
            _("Send to many from {instance}: “{title}”"),
            instance=self.instance,
            title=self.draft.title or _("(no title)"),
        )
        stress(title, _("Send to many"), "bold")
        if self.template.placeholders:
            names = " ".join("{" + name + "}" for name in self.template.placeholders)
            title.append("  " + _("placeholders {names}").format(names=names), style="cyan")
        for note in self.gateway_app.list_message_notes():
            title.append(f"\n⚠ {note}", style="yellow not bold")
        self.query_one("#campaign-title", Static).update(title)
        self.query_one("#c-file", Input).focus()
        self._layout(self.app.size.width)
        self._redraw()

    # --- input ------------------------------------------------------------------------------

    @on(Input.Submitted, "#c-file")
    def _file_submitted(self, event: Input.Submitted) -> None:
        if event.value.strip():
            event.stop()
            self.load_file(event.value.strip())

    def load_file(self, path: str) -> None:
        try:
            self.recipients = read_recipients_file(Path(path).expanduser())
        except RecipientFileError as exc:
            self.recipients, self.load_error = None, str(exc)
        else:
            self.load_error, self.source, self.pasted = "", Path(path).name, False
        self._fill_table()
        self._redraw()

    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        if self._parse_timer is not None:
            self._parse_timer.stop()
        self._parse_timer = self.set_timer(PARSE_DELAY_SECONDS, self.read_pasted)

    def read_pasted(self) -> None:
        text = self.query_one("#c-paste", TextArea).text
        if not text.strip() or (text == self._pasted and self.pasted):
            return
        self._pasted = text
        try:
            self.recipients = parse_recipients(text)
        except RecipientFileError as exc:
            self.recipients = None
            self.load_error = _("pasted lines, {problem}").format(problem=exc)
        else:
            self.load_error, self.source, self.pasted = "", "", True
        self._fill_table()
        self._redraw()

    @on(Input.Changed, "#c-delay")
    def _delay_changed(self, event: Input.Changed) -> None:
        self.draft.delay = event.value
        self.template = MessageTemplate(self.draft)
        self._message_problems = None
        self._redraw()

    @on(Select.Changed, "#c-empty")
    def _empty_choice_changed(self) -> None:
        self._redraw()

    @on(Input.Changed, "#c-rate, #c-jitter")
    def _pace_changed(self) -> None:
        self._redraw()

    @on(Select.Changed, "#c-presence")
    def _presence_changed(self, event: Select.Changed) -> None:
        value = event.value
        self.draft.presence = value if isinstance(value, str) else ""
        self.template = MessageTemplate(self.draft)
        self._message_problems = None
        self._draw_preview()

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._draw_preview()

    # --- drawing ----------------------------------------------------------------------------

    def _fill_table(self) -> None:
        self._message_problems = None  # the recipients changed
        self._empty_rows = None
        table = self.query_one("#c-recipients", DataTable)
        table.clear(columns=True)
        if self.recipients is None:
            return
        # An @lid goes to its number before 2.4.0-rc2 (core/identity.py), as a single send does.
        known = self.actions.people.identities_of(self.instance)
        version = self.gateway_app.client.server_version
        self.recipients.route_lids(lambda jid: known.resolve(jid).send_jid(version))
        columns = self.recipients.columns
        table.add_columns(_("line"), *(Text(column) for column in columns))
        # Text cells: a plain string in a DataTable would be read as markup.
        table.add_rows(
            [Text(str(r.line)), *(Text(r.fields().get(column, "")) for column in columns)]
            for r in self.recipients.recipients[:TABLE_LIMIT]
        )

    def problems(self) -> list[Problem]:
        """Everything that stops the campaign from starting, in plain words."""
        if self.recipients is None:
            return [Problem("", self.load_error or _("load a CSV file or paste recipients"))]
        problems: list[Problem] = []
        if not self.recipients.recipients:
            problems.append(Problem("", _("no valid recipient")))
        _pace, pace_problems = self._pace()
        if self._message_problems is None:
            self._message_problems = self.template.problems(
                self.recipients, self.gateway_app.gateway_line
            )
        empty = self.empty_rows()
        if empty and self._empty_choice() is None:
            said = ngettext(
                "{n} row leaves a placeholder empty: choose to send it as it is or to skip it",
                "{n} rows leave a placeholder empty: choose to send them as they are or to skip "
                "them",
                len(empty),
            )
            problems.append(Problem("", said.format(n=number(len(empty)))))
        # The message's problems include its delay and presence (Draft.check).
        return problems + pace_problems + self._message_problems

    def _pace(self) -> tuple[Pace | None, list[Problem]]:
        return parse_pace(
            self.query_one("#c-rate", Input).value, self.query_one("#c-jitter", Input).value
        )

    def _redraw(self) -> None:
        self._draw_summary()
        self._draw_pace()
        self._draw_preview()

    def _draw_summary(self) -> None:
        self.query_one("#c-empty-field").display = bool(self.empty_rows())
        text = Text()
        if self.load_error:
            text.append(f"✕ {self.load_error}", style="red")
        elif self.recipients is not None:
            source = self.source if not self.pasted else _("pasted lines")
            text.append(f"{source}: ", style="bold")
            text.append(self.recipients.summary())
            for problem in self.recipients.invalid[:5]:
                text.append(f"\n  {problem}", style="yellow")
            if (more := len(self.recipients.invalid) - 5) > 0:
                text.append("\n  " + and_more(more), style="yellow")
            self._draw_empty_rows(text)
            shown = len(self.recipients.recipients)
            if shown > TABLE_LIMIT:
                shows = _("the table shows the first {n}").format(n=number(TABLE_LIMIT))
                text.append("\n  " + shows, style="dim")
        self.query_one("#c-summary", Static).update(text)
        problems = self.problems()
        if problems:
            status = styled(
                _("Not ready: {problems}"), lead_style="bold red", problems=some(problems)
            )
        else:
            status = styled(
                _("Ready: {key} asks, then starts sending"),
                lead_style="bold green",
                key="ctrl+s",  # as before: the key named as typed, not as the footer draws it
            )
        self.query_one("#campaign-status", Static).update(status)

    def _draw_pace(self) -> None:
        pace, problems = self._pace()
        text = Text()
        if pace is None:
            text.append("; ".join(p.message for p in problems), style="red")
        else:
            text.append(pace.describe())
            count = len(self.recipients.recipients) if self.recipients else 0
            gap = 60 / pace.per_minute if pace.per_minute > 0 else 0.0
            # One send at a time: the gateway holds each request open for the delay.
            each = max(gap, self.draft.delay_ms / 1000)
            if count and each:
                take = ngettext(
                    "{n} recipient takes about {duration}",
                    "{n} recipients take about {duration}",
                    count,
                )
                duration = duration_text(count * each)
                text.append(" · " + take.format(n=number(count), duration=duration))
            if self.draft.delay_ms:
                holds = _("the gateway holds each send {ms} ms")
                text.append(" · " + holds.format(ms=number(self.draft.delay_ms)))
        self.query_one("#c-pace-note", Static).update(text)

    def _draw_preview(self) -> None:
        title = self.query_one("#c-preview-title", Static)
        preview = self.query_one("#campaign-preview", ListPreview)
        if not self.recipients or not self.recipients.recipients:
            title.update(Text(_("The message, before placeholders are filled in"), style="bold"))
            preview.show(self.draft)
            return
        row = self.query_one("#c-recipients", DataTable).cursor_row
        recipient = self.recipients.recipients[
            min(max(row, 0), len(self.recipients.recipients) - 1)
        ]
        label = styled(
            _("As {who} gets it (line {line}) — move in the table to see another"),
            style="dim",
            who=(recipient.name or recipient.number, "bold"),
            line=(str(recipient.line), "dim"),
        )
        title.update(label)
        preview.show(self.template.draft_for(recipient))

    # --- actions ----------------------------------------------------------------------------

    def action_start(self) -> None:
        problems = self.problems()
        if problems:
            self.notify(
                _("Not started: {problems}").format(problems=some(problems)),
                severity="warning",
                markup=False,
            )
            return

        # Before anything is created: the instance is there and open (a typo or a closed
        # instance would spend the recipients). The gateway is asked, not the last poll.
        async def ready() -> InstanceNotReady | None:
            try:
                await check_instance(self.gateway_app.client, self.instance)
            except InstanceNotReady as exc:
                return exc
            return None

        self.call(
            ready(),
            what=_("Checking instance {instance}").format(instance=self.instance),
            on_done=lambda problem: self._not_ready(problem) if problem else self._confirm_start(),
            group="check",
            exclusive=True,
        )

    def _not_ready(self, error: InstanceNotReady) -> None:
        not_started = _("Not started: {problem}.").format(problem=error)
        if error.missing:
            self.notify(not_started, severity="error", markup=False)
            return
        body = Text(not_started + "\n")
        body.append(_("Connect it now? The campaign waits here until you come back."), style="dim")
        self.app.push_screen(
            ConfirmScreen(_("Instance not connected"), body, confirm_label=_("Connect")),
            lambda yes: self.gateway_app.open_pairing(self.instance) if yes else None,
        )

    def _confirm_start(self) -> None:
        assert self.recipients is not None
        pace, _problems = self._pace()
        assert pace is not None
        count = len(self.recipients_to_send().recipients)
        question = ngettext(
            "Send “{title}” to {n} recipient from {instance}, {pace}?",
            "Send “{title}” to {n} recipients from {instance}, {pace}?",
            count,
        )
        body = Text(
            question.format(
                title=self.draft.title,
                n=number(count),
                instance=self.instance,
                pace=pace.describe(),
            )
            + "\n"
        )
        body.append(
            _(
                "A journal keeps track: if the app stops, the campaign resumes without sending "
                "to anyone twice."
            ),
            style="dim",
        )
        self.app.push_screen(
            ConfirmScreen(_("Start the campaign"), body, confirm_label=_("Start sending")),
            lambda yes: self._start(pace) if yes else None,
        )

    def _start(self, pace: Pace) -> None:
        assert self.recipients is not None
        if any(w.node is self and w.group == "create" and not w.is_finished for w in self.workers):
            return  # confirmed twice: one campaign, never two
        # A snapshot for the thread: the form may still change while the files are written.
        self._create(pace, Draft.from_json(self.draft.to_json()), self.recipients_to_send())

    @work(thread=True, exit_on_error=False, group="create")
    def _create(self, pace: Pace, draft: Draft, recipients: RecipientList) -> None:
        """Write the campaign's files (each fsync'd) off the loop: a long list takes a while."""
        try:
            campaign = create_campaign(
                # Filed under the gateway's identity, like drafts: the demo's survive a relaunch
                # on another port.
                gateway=self.gateway_app.gateway_identity or "",
                instance=self.instance,
                draft=draft,
                recipients=recipients,
                pace=pace,
                now=datetime.now(),
            )
        except (JournalError, OSError) as exc:
            message = _("Cannot create the campaign: {error}").format(error=exc)
            self.app.call_from_thread(self.notify, message, severity="error", markup=False)
            return
        self.app.call_from_thread(self._created, campaign.id)

    def _created(self, campaign_id: str) -> None:
        if self.app.screen is not self:  # left while the files were written: not started
            created = _("Campaign {id} created, not started.").format(id=campaign_id)
            self.notify(created, markup=False)
            return
        self._open_run(campaign_id, start=True)

    def _open_run(self, campaign_id: str, *, start: bool = False) -> None:
        from gateway_tui.tui.screens.campaign_run import CampaignRunScreen

        try:
            campaign = open_campaign(campaign_id)
        except JournalError as exc:
            self.notify(str(exc), severity="error", markup=False)
            return
        self.app.pop_screen()
        self.app.push_screen(CampaignRunScreen(campaign, start=start))

    def action_check_whatsapp(self) -> None:
        """Ask the gateway which numbers are on WhatsApp (in batches) and leave out the rest."""
        if not self.recipients or not self.recipients.recipients:
            self.notify(_("Load recipients first."), markup=False)
            return
        instances = self.state.instances.value or []
        instance = next((i for i in instances if i.instance_name == self.instance), None)
        if instance is None or instance.status_kind is not InstanceStatus.OPEN:
            self.notify(
                _("Only an open instance can check numbers; {instance} is not open.").format(
                    instance=self.instance
                ),
                severity="warning",
                markup=False,
            )
            return
        recipients = self.recipients

        def progressed(done: int, total: int) -> None:
            checking = ngettext(
                "Checking on WhatsApp: {done} of {total} number…",
                "Checking on WhatsApp: {done} of {total} numbers…",
                total,
            )
            self.query_one("#campaign-status", Static).update(
                Text(checking.format(done=number(done), total=number(total)))
            )

        def checked(missing: set[str]) -> None:
            count = recipients.leave_out(missing, _("not on WhatsApp"))
            self._fill_table()
            self._redraw()
            left_out = ngettext(
                "{n} number not on WhatsApp left out.",
                "{n} numbers not on WhatsApp left out.",
                count,
            ).format(n=number(count))
            self.notify(left_out if count else _("All are on WhatsApp."), markup=False)

        self.call(
            numbers_not_on_whatsapp(
                self.gateway_app.client, self.instance, recipients, on_batch=progressed
            ),
            what=_("Checking the numbers on WhatsApp"),
            on_done=checked,
            group="check",
            exclusive=True,
        )

    def action_campaigns(self) -> None:
        items = []
        for meta in sorted(campaigns_dir().glob("*/campaign.json"), reverse=True):
            try:
                campaign = open_campaign(meta.parent.name)
            except Exception:  # noqa: BLE001 - one unreadable campaign hides no other
                continue
            if campaign.instance != self.instance or campaign.gateway != (
                self.gateway_app.gateway_identity or ""
            ):
                continue
            counts = campaign.counts()
            detail = _("{created} · {sent} sent, {failed} failed, {held} held, {left} left").format(
                created=created_text(campaign.created),
                sent=number(counts["sent"]),
                failed=number(counts["failed"]),
                held=number(counts["unknown"]),
                left=number(counts["pending"]),
            )
            if (elsewhere := campaign.running_elsewhere()) is not None:
                detail += " · " + _("running elsewhere ({holder})").format(
                    holder=elsewhere.describe()
                )
            if campaign.refusal or campaign.problems:
                damage = campaign.refusal or campaign.problems[0]
                detail += " · " + _("damaged: {problem}").format(problem=damage)
            items.append(LibraryItem(campaign.id, f"{campaign.id}: {campaign.draft.title}", detail))
        self.app.push_screen(
            LibraryScreen(
                _("Campaigns of this instance"),
                items,
                empty=_("No campaign from this instance yet."),
                hint=_("{key} opens it: resume it, or decide on held recipients").format(
                    key="enter"
                ),
            ),
            lambda key: self._open_run(key) if key else None,
        )

    def action_back(self) -> None:
        self.app.pop_screen()
