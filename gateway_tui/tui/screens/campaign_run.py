"""A campaign running: progress, counts, rate and ETA; pause, resume, cancel; held recipients.

The runner (gateway_tui.core.campaign.runner) does the sending in a worker; this screen draws its
progress a few times a second and passes the keys on. Recipients whose outcome is unknown are
listed; only the user resends them (u, after a confirmation) or sets them aside (k).
"""

from __future__ import annotations

import time

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import DataTable, Footer, ProgressBar, RichLog, Static

from gateway_tui.core.campaign.journal import (
    Campaign,
    CampaignBusy,
    JournalError,
    JournalRefused,
    Status,
    open_campaign,
)
from gateway_tui.core.campaign.lock import Holder, holder
from gateway_tui.core.campaign.runner import (
    Attempt,
    CampaignRunner,
    Progress,
    RunState,
)
from gateway_tui.core.text.i18n import N_, _, decimal, ngettext, number
from gateway_tui.tui.screens.base import GatewayScreen
from gateway_tui.tui.screens.campaign_lines import _who, attempt_line, counts_line
from gateway_tui.tui.screens.confirm import ConfirmScreen
from gateway_tui.tui.widgets.gateway_bar import GatewayBar
from gateway_tui.tui.widgets.styled import styled

REDRAW_SECONDS = 0.25
FOLLOW_SECONDS = 2.0  # how often a campaign another process sends is read again
_ACTIVE = (RunState.READY, RunState.WAITING, RunState.SENDING, RunState.PAUSED)
# The live log keeps the latest attempts only: a 10,000-recipient run stays small on screen.
LOG_LINES = 200
# The question asked before quitting while a campaign runs (the app asks it once at a time).
QUIT_QUESTION_ID = "quit-while-running"


class CampaignRunScreen(GatewayScreen):
    HELP_TITLE = N_("Campaign")

    BINDINGS = [
        Binding("p,space", "pause", "Pause / resume", id="campaign_run.pause"),
        Binding("c", "cancel", "Cancel", id="campaign_run.cancel"),
        Binding("r", "resume_campaign", "Resume", id="campaign_run.resume"),
        Binding("u", "resend_held", "Resend held", id="campaign_run.resend_held"),
        Binding("k", "skip_held", "Set held aside", id="campaign_run.skip_held"),
        Binding("escape", "back", "Back", id="campaign_run.back"),
        Binding("q", "quit_app", "Quit", id="campaign_run.quit"),
    ]

    # The pacing's clock (the runner's `monotonic`): a screenshot fixes it.
    monotonic = staticmethod(time.monotonic)

    def __init__(self, campaign: Campaign, *, start: bool = False) -> None:
        super().__init__()
        self.campaign = campaign
        self.runner: CampaignRunner | None = None
        self._start_now = start
        self._latest: Progress | None = None
        self._drawn: Progress | None = None
        self._held_drawn: list[int] | None = None

    def compose(self) -> ComposeResult:
        yield GatewayBar()
        yield Static(id="run-title", classes="title")
        yield ProgressBar(id="run-bar", show_eta=False)
        yield Static(id="run-counts")
        yield Static(id="run-current")
        yield Static(id="run-error")
        yield Static(id="run-end")
        log = RichLog(id="run-log", max_lines=LOG_LINES, markup=False, highlight=False, wrap=True)
        log.border_title = _("Sent just now (latest last)")
        yield log
        yield Static(id="run-held-title", classes="summary")
        yield DataTable(id="run-held", cursor_type="row", zebra_stripes=True)
        yield Footer()

    def on_mount(self) -> None:
        campaign = self.campaign
        title = styled(
            _("Campaign {id} · from {instance} · “{title}” · {pace}"),
            lead_style="bold",
            id=(campaign.id, "bold cyan"),
            instance=campaign.instance,
            title=campaign.draft.title,
            pace=campaign.pace.describe(),
        )
        self.query_one("#run-title", Static).update(title)
        table = self.query_one("#run-held", DataTable)
        table.add_columns(_("line"), _("number"), _("name"), _("what happened"))
        self.set_interval(REDRAW_SECONDS, self._redraw)
        self.set_interval(FOLLOW_SECONDS, self._follow_elsewhere)
        self._latest = self._idle_progress()
        self._log_from_journal()
        self._redraw()
        if self._start_now:
            self.action_resume_campaign()

    # --- running -----------------------------------------------------------------------------

    def _now(self) -> float:
        """The app's clock (fixed in screenshots), as the journal's timestamps."""
        return self.state.now().timestamp()

    @property
    def running(self) -> bool:
        return self.runner is not None and self.runner.state in _ACTIVE

    def sender_elsewhere(self) -> Holder | None:
        """Who else sends this campaign now (another process), or None."""
        if self.running:
            return None
        return holder(self.campaign.dir)

    def _follow_elsewhere(self) -> None:
        """While another process sends it, its journal is read again: the counts are its."""
        if self.sender_elsewhere() is None:
            return
        try:
            self.campaign = open_campaign(self.campaign.id, root=self.campaign.dir.parent)
        except JournalError:
            return
        self._latest = self._idle_progress()
        self._redraw()

    def _idle_progress(self) -> Progress:
        counts = self.campaign.counts()
        state = RunState.FINISHED if self.campaign.finished else RunState.READY
        return Progress(
            state=state,
            total=len(self.campaign.recipients),
            sent=counts["sent"],
            failed=counts["failed"],
            unknown=counts["unknown"],
            skipped=counts["skipped"],
            left=counts["pending"],
        )

    def action_resume_campaign(self) -> None:
        if self.running:
            if self.runner is not None and self.runner.paused:
                self.runner.resume()
            return
        if self.campaign.finished:
            self.notify(_("Nobody is left to send to."), markup=False)
            return
        if (other := self.sender_elsewhere()) is not None:
            self.notify(
                _("{holder} sends this campaign: not from here too.").format(
                    holder=other.describe().capitalize()
                ),
                markup=False,
            )
            return
        try:
            # Re-read from disk: the journal is the truth (another run may have moved on).
            self.campaign = open_campaign(self.campaign.id, root=self.campaign.dir.parent)
        except JournalError as exc:
            self.notify(str(exc), severity="error", markup=False)
            return
        self.runner = CampaignRunner(
            self.campaign,
            self.gateway_app.client,
            on_progress=self._progressed,
            on_attempt=self._attempted,
            clock=self._now,
            monotonic=self.monotonic,
        )
        self.run_worker(self._run(self.runner), group="campaign", exit_on_error=False)

    async def _run(self, runner: CampaignRunner) -> None:
        try:
            self._latest = await runner.run()
        except (CampaignBusy, JournalRefused) as exc:
            runner.state = RunState.STOPPED
            runner.stop_reason = _("Not sent from here: {error}.").format(error=exc)
            self._latest = runner.progress()
        except JournalError as exc:  # says what cannot be used (the journal, its lock)
            runner.state = RunState.STOPPED
            runner.stop_reason = _("Stopped: {error}").format(error=exc)
            self._latest = runner.progress()
        except OSError as exc:
            runner.state = RunState.STOPPED
            runner.stop_reason = _("Stopped: the journal cannot be written ({error}).").format(
                error=exc
            )
            self._latest = runner.progress()
        self._redraw()
        ended = self._latest.state if self._latest is not None else None
        if ended in (RunState.FINISHED, RunState.STOPPED, RunState.CANCELLED):
            # An alert, as the fleet's: a notice and the bell, and in the alert log.
            detail = self._latest.stop_reason if ended is not RunState.FINISHED else ""
            self.gateway_app.campaign_ended(
                self.campaign.instance,
                self.campaign.id,
                stopped=ended is not RunState.FINISHED,
                detail=detail,
            )

    def _log_from_journal(self) -> None:
        """The log starts with the latest outcomes the journal holds (a resumed campaign)."""
        log = self.query_one("#run-log", RichLog)
        recipients = self.campaign.recipients
        for index, outcome in self.campaign.latest_outcomes(LOG_LINES):
            if 0 <= index < len(recipients):
                attempt = Attempt(
                    index, recipients[index], outcome.status, reason=outcome.reason, at=outcome.at
                )
                log.write(attempt_line(attempt))

    def _attempted(self, attempt: Attempt) -> None:
        """Each recipient's outcome, as the runner writes it in the journal, in the live log."""
        self.query_one("#run-log", RichLog).write(attempt_line(attempt))

    def _progressed(self, progress: Progress) -> None:
        self._latest = progress
        if progress.state not in (RunState.SENDING, RunState.WAITING):
            self._redraw()  # pauses and stops show at once; the rest a few times a second

    # --- drawing -----------------------------------------------------------------------------

    def _redraw(self) -> None:
        progress = self._latest
        if progress is None or not self.is_attached:
            return
        bar = self.query_one("#run-bar", ProgressBar)
        bar.update(total=progress.total or 1, progress=progress.done)
        self.query_one("#run-counts", Static).update(counts_line(progress))
        self.query_one("#run-current", Static).update(self._current_line(progress))
        error = Text()
        if progress.last_error:
            error = styled(
                _("Last error: {error}"), lead_style="bold red", error=progress.last_error
            )
        self.query_one("#run-error", Static).update(error)
        self.query_one("#run-end", Static).update(self._end_line(progress))
        self._draw_held()

    def _current_line(self, progress: Progress) -> Text:
        who = _who(progress.current.number, progress.current.name) if progress.current else ""
        state = progress.state
        if state is RunState.SENDING:
            return Text(_("⏳ Sending to {who}").format(who=who), style="bold")
        if state is RunState.WAITING and progress.next_at is not None:
            left = max(0.0, progress.next_at - self.monotonic())
            return styled(
                _("Next: {who} in {s} s (the pace)"),
                style="dim",
                lead_style="bold",
                who=(who, ""),
                s=(decimal(left, 0), "dim"),
            )
        if state is RunState.PAUSED:
            paused = _("⏸ Paused — {key} resumes").format(key=self.key_for("campaign_run.pause"))
            return Text(paused, style="bold yellow")
        if state is RunState.READY and progress.left:
            if (other := self.sender_elsewhere()) is not None:
                elsewhere = ngettext(
                    "Being sent by {holder}: {n} left; the counts follow its journal",
                    "Being sent by {holder}: {n} left; the counts follow its journal",
                    progress.left,
                )
                return Text(
                    elsewhere.format(holder=other.describe(), n=number(progress.left)),
                    style="bold yellow",
                )
            left_to_send = ngettext(
                "{n} left to send — {key} resumes",
                "{n} left to send — {key} resumes",
                progress.left,
            )
            resume = self.key_for("campaign_run.resume")
            return Text(left_to_send.format(n=number(progress.left), key=resume), style="bold")
        return Text("")

    def _end_line(self, progress: Progress) -> Text:
        text = Text()
        if progress.stop_reason and progress.state is not RunState.FINISHED:
            text.append(progress.stop_reason, style="bold red")
            text.append("\n")
        if progress.state is RunState.CANCELLED:
            resume = self.key_for("campaign_run.resume")
            cancelled = _("Cancelled: {key} resumes where it stopped.").format(key=resume)
            text.append(cancelled + "\n", style="bold yellow")
        if progress.state is RunState.FINISHED:
            text.append_text(self._finished_line(progress))
        if progress.state not in _ACTIVE or progress.state is RunState.READY:
            if self.campaign.report_path.exists():
                report = str(self.campaign.report_path)
                text.append_text(styled(_("Report: {path}"), lead_style="dim", path=report))
        return text

    @staticmethod
    def _finished_line(progress: Progress) -> Text:
        """Green only when everyone got it (or was set aside); else what is left to look at."""
        if not (progress.unknown or progress.failed):
            return Text(_("✓ Finished.") + " ", style="bold green")
        left = []
        if progress.unknown:
            unknown = ngettext(
                "{n} outcome unknown (held below: check their chats)",
                "{n} outcome unknown (held below: check their chats)",
                progress.unknown,
            )
            left.append(unknown.format(n=number(progress.unknown)))
        if progress.failed:
            failed = ngettext(
                "{n} failed (the report says why)",
                "{n} failed (the report says why)",
                progress.failed,
            )
            left.append(failed.format(n=number(progress.failed)))
        but = _("Finished, nobody left to send to — but {problems}.")
        return Text(but.format(problems=" · ".join(left)) + " ", style="bold yellow")

    def _draw_held(self) -> None:
        held = self.campaign.held()
        if held == self._held_drawn:
            return
        self._held_drawn = held
        table = self.query_one("#run-held", DataTable)
        table.clear()
        for index in held:
            recipient = self.campaign.recipients[index]
            what = self.campaign.unknown[index][1].render()  # stored as a code: said now
            # Text cells: a plain string in a DataTable would be read as markup.
            table.add_row(
                Text(str(recipient.line)),
                Text(recipient.number),
                Text(recipient.name),
                Text(what),
            )
        title = Text()
        if held:
            heading = _("Held — outcome unknown ({n}):").format(n=number(len(held)))
            title.append(heading + " ", style="bold yellow")
            said = _(
                "the gateway may have sent these. Check their chats; nothing is resent on its own."
            )
            hints = self.key_hints(
                ("campaign_run.resend_held", _("resends them")),
                ("campaign_run.skip_held", _("sets them aside")),
            )
            title.append(f"{said} {hints}", style="dim")
        self.query_one("#run-held-title", Static).update(title)
        table.display = bool(held)

    # --- keys --------------------------------------------------------------------------------

    def action_pause(self) -> None:
        if not self.running or self.runner is None:
            return
        if self.runner.paused:
            self.runner.resume()
            self.notify(_("Resumed."), markup=False)
        else:
            self.runner.pause()
            self.notify(_("Pausing: the send in flight finishes first."), markup=False)

    def action_cancel(self) -> None:
        if not self.running or self.runner is None:
            return

        def decided(yes: bool | None) -> None:
            if yes and self.runner is not None:
                self.runner.cancel()

        self.app.push_screen(
            ConfirmScreen(
                _("Cancel the campaign"),
                Text(
                    _(
                        "Stop after the send in flight? The journal keeps the rest: {key} resumes."
                    ).format(key=self.key_for("campaign_run.resume"))
                ),
                confirm_label=_("Cancel campaign"),
                cancel_label=_("Keep sending"),
            ),
            decided,
        )

    def _decide_held(self, resend: bool) -> None:
        if self.running:
            self.notify(_("Pause or cancel the campaign first."), markup=False)
            return
        held = self.campaign.held()
        if not held:
            self.notify(_("No recipient is held."), markup=False)
            return

        def decided(yes: bool | None) -> None:
            if not yes:
                return
            try:
                if resend:
                    count = self.campaign.release(held, at=self._now())
                else:
                    count = self.campaign.skip(held, at=self._now())
                if not resend:
                    self.campaign.write_report()
            except (JournalError, OSError) as exc:
                cannot = _("The journal cannot be written: {error}").format(error=exc)
                self.notify(cannot, severity="error", markup=False)
                return
            finally:
                self.campaign.unlock()  # the runner takes the lock again when it starts
            self._latest = self._idle_progress()
            self._redraw()
            if resend:  # the user said "send again": the run does it, no further key
                again = ngettext(
                    "Sending again to {n} recipient.", "Sending again to {n} recipients.", count
                )
                self.notify(again.format(n=number(count)), markup=False)
                self.action_resume_campaign()

        if resend:
            others = self.campaign.count(Status.PENDING)
            question = ngettext(
                "Send again to {n} recipient whose outcome is unknown? They may already have "
                "the message.",
                "Send again to {n} recipients whose outcome is unknown? Some of them may already "
                "have the message.",
                len(held),
            ).format(n=number(len(held)))
            if others:
                resumes = ngettext(
                    "The campaign resumes too ({n} not sent yet).",
                    "The campaign resumes too ({n} not sent yet).",
                    others,
                )
                question += " " + resumes.format(n=number(others))
            body = Text(question)
            screen = ConfirmScreen(_("Resend held recipients"), body, confirm_label=_("Resend"))
        else:
            aside = ngettext(
                "Set {n} held recipient aside, without sending again?",
                "Set {n} held recipients aside, without sending again?",
                len(held),
            )
            body = Text(aside.format(n=number(len(held))))
            screen = ConfirmScreen(_("Set held aside"), body, confirm_label=_("Set aside"))
        self.app.push_screen(screen, decided)

    def action_resend_held(self) -> None:
        self._decide_held(resend=True)

    def action_skip_held(self) -> None:
        self._decide_held(resend=False)

    async def action_quit_app(self) -> None:
        await self.app.action_quit()  # asks first while the campaign runs

    def confirm_quit(self) -> None:
        """Ask before quitting while the campaign runs (the app's quit path calls this)."""
        from gateway_tui.tui.screens.campaign_setup import CampaignSetupScreen

        resume = self.key_on(CampaignSetupScreen, "campaign_setup.campaigns")
        left = self._latest.left if self._latest is not None else 0
        running = ngettext(
            "The campaign is running ({n} not sent yet). Quit now? It is paused: the send in "
            "flight, if any, is held as unknown; the journal keeps the rest, and the campaign "
            "resumes from the journal in the set-up ({key}).",
            "The campaign is running ({n} not sent yet). Quit now? It is paused: the send in "
            "flight, if any, is held as unknown; the journal keeps the rest, and the campaign "
            "resumes from the journal in the set-up ({key}).",
            left,
        )
        question = ConfirmScreen(
            _("Quit while the campaign runs"),
            Text(running.format(n=number(left), key=resume)),
            confirm_label=_("Quit"),
            cancel_label=_("Keep sending"),
        )
        question.id = QUIT_QUESTION_ID
        self.app.push_screen(question, lambda yes: self.app.exit() if yes else None)

    def leave(self) -> None:
        if self.running:
            running = _(
                "The campaign is running: {pause} pauses, {cancel} cancels (the journal keeps its "
                "place)."
            )
            self.notify(
                running.format(
                    pause=self.key_for("campaign_run.pause"),
                    cancel=self.key_for("campaign_run.cancel"),
                ),
                markup=False,
            )
            return
        super().leave()
