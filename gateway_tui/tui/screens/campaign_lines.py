"""What the campaign screens draw, as plain functions: the run's log line and counts, the
set-up's pace read from the form, a list of problems cut short, a campaign's creation time.
Split from campaign_run.py and campaign_setup.py (each screen's module stays readable)."""

from __future__ import annotations

from datetime import datetime

from rich.text import Text

from gateway_tui.core.api.errors import Problem
from gateway_tui.core.campaign.journal import Pace, Status
from gateway_tui.core.campaign.runner import Attempt, Progress, duration_text
from gateway_tui.core.text.formatting import format_number
from gateway_tui.core.text.i18n import N_, _, clock, date_time, decimal, ngettext, number
from gateway_tui.core.text.sanitize import printable
from gateway_tui.tui.widgets.styled import styled

# Each attempt's outcome in the log: a mark and words (never colour alone), translated where
# drawn.
_OUTCOME = {
    Status.SENT: (N_("✓ sent"), "green"),
    Status.FAILED: (N_("✕ failed"), "red"),
    Status.UNKNOWN: (N_("? unknown, held"), "yellow"),
    Status.PENDING: (N_("↻ not sent"), "dim"),
    Status.SKIPPED: (N_("– set aside"), "dim"),
}


def _who(number: str, name: str) -> str:
    shown = format_number(number) if number.isdigit() else number
    return f"{shown} ({name})" if name else shown


def attempt_line(attempt: Attempt) -> Text:
    """One line of the live log: when, what happened, to whom, and why it failed. Names and
    the gateway's reasons are data: printable, never markup, one line."""
    if attempt.status in _OUTCOME:
        marked, style = _OUTCOME[attempt.status]
        words = _(marked)
    else:
        words, style = attempt.status.value, ""
    # The outcomes in one column, as wide as the longest in the language (16 in English).
    width = max(len(_(marked)) for marked, _style in _OUTCOME.values()) + 1
    when = clock(datetime.fromtimestamp(attempt.at)) if attempt.at else "--:--:--"
    line = Text(f"{when}  ")
    line.append(words.ljust(width), style=style)
    line.append(_("line {n}").format(n=attempt.recipient.line) + "  ", style="dim")
    recipient = attempt.recipient
    line.append(printable(_who(recipient.number, recipient.name)))
    if attempt.error:
        line.append("  — " + printable(" ".join(attempt.error.split())), style=style)
    return line


def counts_line(progress: Progress) -> Text:
    """Sent, failed, unknown and left, the rate and the time left: each count beside its word,
    the numbers the locale's way."""
    counts = Text()
    for label, value, style in (
        (_("Sent {n}"), progress.sent, "green"),
        (_("Failed {n}"), progress.failed, "red"),
        (_("Unknown {n}"), progress.unknown, "yellow"),
        (_("Left {n}"), progress.left, "bold"),
    ):
        counts.append_text(styled(label, style="dim", n=(number(value), style)))
        counts.append("   ")
    if progress.skipped:
        aside = _("Set aside {n}").format(n=number(progress.skipped))
        counts.append(aside + "   ", style="dim")
    if progress.rate_per_minute:
        rate = _("rate {rate}/min").format(rate=decimal(progress.rate_per_minute, 1))
        counts.append(rate, style="dim")
    if progress.eta_seconds is not None and progress.left:
        left = _("about {duration} left").format(duration=duration_text(progress.eta_seconds))
        counts.append("   " + left, style="dim")
    return counts


DEFAULT_RATE = "20"
DEFAULT_JITTER = "30"


def parse_pace(rate_text: str, jitter_text: str) -> tuple[Pace | None, list[Problem]]:
    """The pace typed in the form: messages per minute and jitter in percent."""
    problems = []
    try:
        rate = float(rate_text.strip() or DEFAULT_RATE)
    except ValueError:
        rate = -1
    if not 0 <= rate <= 6000:
        problems.append(Problem("", _("messages per minute: a number from 0 (full speed)")))
    try:
        jitter = float(jitter_text.strip() or DEFAULT_JITTER)
    except ValueError:
        jitter = -1
    if not 0 <= jitter <= 90:
        problems.append(Problem("", _("jitter: a percentage from 0 to 90")))
    if problems:
        return None, problems
    return Pace(rate, jitter / 100), []


def some(problems: list[Problem]) -> str:
    """The first three problems, and how many more there are."""
    shown = "; ".join(str(p) for p in problems[:3])
    if len(problems) <= 3:
        return shown
    more = len(problems) - 3
    return ngettext("{problems} (and {n} more)", "{problems} (and {n} more)", more).format(
        problems=shown, n=number(more)
    )


def created_text(created: str) -> str:
    """When a campaign was made (stored as an ISO time), the locale's way."""
    try:
        return date_time(datetime.fromisoformat(created))
    except ValueError:
        return created
