"""The composer's send flow: check, ask when it could repeat a send, send in a worker, report.

A mixin of ``ComposerScreen``. A send is never repeated on its own: one whose outcome is unknown
asks before the next, and so does the same body sent twice.
"""

from __future__ import annotations

import time
from datetime import datetime

from rich.text import Text
from textual.timer import Timer
from textual.widgets import Input, Static
from textual.worker import Worker

from gateway_tui.core.api.errors import GatewayError, Problem
from gateway_tui.core.api.models import SendListRequest, SentMessage
from gateway_tui.core.api.validation import normalise_number
from gateway_tui.core.draft import Draft
from gateway_tui.core.files.drafts import ComposeStore, HistoryEntry
from gateway_tui.core.text.formatting import format_number
from gateway_tui.core.text.i18n import _, date_time, decimal, ngettext, number
from gateway_tui.tui.screens.composer_fields import server_problems, target_of
from gateway_tui.tui.screens.confirm import ConfirmScreen
from gateway_tui.tui.widgets.styled import styled

COUNTDOWN_TICK = 0.1


def describe_timestamp(raw: str | None) -> str:
    if not raw:
        return "—"
    try:
        moment = datetime.fromtimestamp(int(raw))
    except (ValueError, OverflowError, OSError):
        return raw
    return f"{raw} ({date_time(moment, seconds=True)})"


def recipient_label(recipient: str) -> str:
    value = normalise_number(recipient)
    return format_number(value) if value.isdigit() else value


class SendFlow:
    """Sending for the composer (``ComposerScreen`` mixes it in)."""

    draft: Draft
    store: ComposeStore | None
    instance: str
    sending: bool
    _send_started: float
    _send_delay_ms: int
    _send_body: dict | None
    _send_form: dict | None
    _countdown: Timer | None
    last_result: SentMessage | None
    _last_sent_body: dict | None
    _unknown_body: dict | None
    _send_presence: str | None
    _send_worker: Worker | None
    _server_problems: list[Problem]
    _reveal_all: bool
    _dirty: bool

    def action_send(self) -> None:
        if self.sending:
            self.notify(_("Already sending: waiting for the gateway's answer."), markup=False)
            return
        check = self.draft.check(self.gateway_app.gateway_line)
        self._server_problems = []
        if not check.ok:
            self._reveal_all = True
            self._redraw()
            self._focus_first_problem(check.errors)
            count = len(check.errors)
            said = ngettext(
                "Not sent: {n} problem to fix, shown next to the fields.",
                "Not sent: {n} problems to fix, shown next to the fields.",
                count,
            ).format(n=number(count))
            self._status(Text(f"✕ {said}", style="red"))
            return
        body = self.draft.body(self.gateway_app.gateway_line)
        if self._unknown_body is not None:
            text = Text(
                _(
                    "The outcome of the last send is unknown: the gateway may have sent it. "
                    "Check the chat before sending again. Send now anyway?"
                )
            )
            self._ask_then_send(_("Outcome unknown"), text)
        elif body == self._last_sent_body:
            text = Text(_("This exact message was sent already. Send it again?"))
            self._ask_then_send(_("Send again"), text)
        else:
            self._start_send()

    def _ask_then_send(self, title: str, body: Text) -> None:
        self.app.push_screen(
            ConfirmScreen(title, body, confirm_label=_("Send")),
            lambda yes: self._start_send() if yes else None,
        )

    def _focus_first_problem(self, problems: list[Problem]) -> None:
        for problem in problems:
            target, _prefix = target_of(problem.field, self.draft)
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
        presence = request.options.presence if request.options else None
        if not self.gateway_app.gateway_line.sends_presence:
            presence = "composing"  # what 2.x always shows during the delay
        self._send_presence = presence
        self._countdown = self.set_interval(COUNTDOWN_TICK, self._tick)
        self._tick()
        self._send_worker = self.call(
            self._send(request),
            what=_("Sending the list message"),
            on_done=self._sent,
            on_error=self._send_failed,
            group="send",
        )

    async def _send(self, request: SendListRequest) -> SentMessage:
        try:
            return await self.actions.messages.send_list(self.instance, request)
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
        left = self._send_delay_ms / 1000 - (time.monotonic() - self._send_started)
        delay = str(self._send_delay_ms)  # as typed in the form
        seconds = (_("{n} s left").format(n=decimal(max(left, 0), 1)), "bold cyan")
        if self._send_delay_ms and left > 0 and self._send_presence:
            sentence = _(
                "⏳ Sending to {who} — the gateway waits out the delay of {delay} ms, "
                "showing “{presence}”: {left}"
            )
        elif self._send_delay_ms and left > 0:
            sentence = _(
                "⏳ Sending to {who} — the gateway waits out the delay of {delay} ms: {left}"
            )
        else:
            sentence = _("⏳ Sending to {who} — waiting for the gateway's answer…")
        text = styled(
            sentence,
            "",
            who=(who, "bold"),
            delay=delay,
            presence=self._send_presence or "",
            left=seconds,
        )
        text.stylize("bold", 0, sentence.find("{who}"))  # "⏳ Sending to", bold
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
                    _("Sent, but the history could not be saved: {problem}").format(
                        problem=problem
                    ),
                    severity="warning",
                    markup=False,
                )
        key = result.key
        text = styled(
            _("✓ Sent to {recipient}"),
            "",
            recipient=recipient_label(form["recipient"] if form else ""),
        )
        verb_ends = text.plain.find(" ", 2)  # "✓ Sent" stands out, whatever the language
        text.stylize("bold green", 0, verb_ends if verb_ends > 0 else None)
        text.append("\n  ")
        text.append_text(
            styled(
                _("message id {id}   status {status}   timestamp {timestamp}"),
                "",
                id=(key.id if key else "—", "bold"),
                status=(result.status or "—", "bold"),
                timestamp=describe_timestamp(result.message_timestamp),
            )
        )
        recorded = _("Recorded in the chat list ({chats} on the instance view).").format(chats="t")
        text.append("\n  " + recorded, style="dim")
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
        text = Text.assemble(
            (_("⚠ Given up: outcome unknown — check before retrying"), "bold yellow")
        )
        text.append(
            "\n  "
            + _(
                "The gateway may have sent the message. Look at the chat before sending again: "
                "{send} asks first, nothing is resent on its own. {back} again goes back."
            ).format(send=self.key_for("composer.send"), back=self.key_for("composer.back"))
        )
        self._status(text)

    def _send_failed(self, error: GatewayError) -> bool:
        if error.outcome_unknown:
            self._unknown_body = self._send_body
            text = Text.assemble(
                (_("⚠ No answer: outcome unknown — check before retrying"), "bold yellow")
            )
            text.append(f"\n  {error.summary}", style="dim")
            text.append(
                "\n  "
                + _(
                    "The gateway may have sent the message. Look at the chat before sending "
                    "again: {send} asks first, nothing is resent on its own."
                ).format(send=self.key_for("composer.send"))
            )
            self._status(text)
            return True
        self._server_problems = server_problems(error)
        self._reveal_all = True
        self._redraw()
        text = styled(_("✕ Not sent: {reason}"), "bold red", reason=(error.title, ""))
        placed = [p for p in self._server_problems if p.field]
        general = [p for p in self._server_problems if not p.field]
        for problem in general[:4]:
            text.append(f"\n  {problem.message}")
        if placed:
            said = ngettext(
                "{n} problem shown next to the fields.",
                "{n} problems shown next to the fields.",
                len(placed),
            ).format(n=number(len(placed)))
            text.append(f"\n  {said}", style="red")
        if error.hint:
            text.append(f"\n  {error.hint}", style="yellow")
        self._status(text)
        self._focus_first_problem(placed)
        return True
