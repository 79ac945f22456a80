"""``gateway-tui send-list``: a list message to many recipients, paced, journalled, resumable.

The campaign itself (pace, journal, never twice) is core/campaign; this module checks the
command line's input, holds the campaign's lock and prints progress for people (text) or
programs (``--json``, one JSON object per line). Its parser is in cli/parser.py.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import signal
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gateway_tui.cli.commands import (
    EXIT_BUSY,
    EXIT_INCOMPLETE,
    EXIT_OK,
    EXIT_STOPPED,
    CommandError,
    _client,
    _gateway_line,
    _note,
    _plain,
    _warn,
)
from gateway_tui.core.text.i18n import N_, _, ngettext, number

if TYPE_CHECKING:
    from gateway_tui.core.files.config import ResolvedConfig

DEFAULT_RATE = 20.0
DEFAULT_JITTER = 0.3
PROGRESS_EVERY_SECONDS = 10.0

# The stop reason given to the runner: in --json's stop_reason as it is (programs read it),
# in the run's language where people read it.
STDOUT_CLOSED = N_("stopped: the output was closed (its reader went away)")
# The word before a failed or unknown recipient's line, and the sentence that ends a run.
_ATTEMPT_WORDS = {"failed": N_("failed"), "unknown": N_("unknown")}
_ENDED = {
    "finished": N_(
        "Finished: {sent} sent, {failed} failed, {unknown} unknown, {left} left. Report: {report}"
    ),
    "stopped": N_(
        "Stopped: {sent} sent, {failed} failed, {unknown} unknown, {left} left. Report: {report}"
    ),
    "cancelled": N_(
        "Cancelled: {sent} sent, {failed} failed, {unknown} unknown, {left} left. Report: {report}"
    ),
}


def _load_draft(name: str, config: ResolvedConfig, instance: str):
    from gateway_tui.core.draft import Draft
    from gateway_tui.core.files.drafts import ComposeStore

    store = ComposeStore(config.url, instance)
    path = Path(name).expanduser()
    if name == "current":
        draft = store.load_draft()
        if draft is None or draft.is_empty:
            raise CommandError(
                _("instance {instance} has no saved draft on this machine").format(
                    instance=instance
                )
            )
        return draft
    if path.suffix == ".json" and path.is_file():
        try:
            return Draft.from_json(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError) as exc:
            raise CommandError(
                _("cannot read the draft {file}: {error}").format(file=path, error=exc)
            ) from None
    templates = store.templates()
    if name in templates:
        return templates[name]
    known = ", ".join(repr(t) for t in templates) or _("none saved yet (F6 in the composer)")
    raise CommandError(
        _("no template named {name} (templates: {known})").format(name=repr(name), known=known)
    )


async def _new_campaign(args: argparse.Namespace, config: ResolvedConfig):
    from gateway_tui.core.campaign.journal import JournalError, Pace, create_campaign
    from gateway_tui.core.campaign.recipients import (
        MessageTemplate,
        RecipientFileError,
        read_recipients_file,
    )

    missing = [
        flag
        for flag, value in (
            ("--instance", args.instance),
            ("--draft", args.draft),
            ("--to", args.to),
        )
        if not value
    ]
    if missing:
        raise CommandError(
            _("a new campaign needs {options} (or --resume ID)").format(options=", ".join(missing))
        )
    try:
        draft = _load_draft(args.draft, config, args.instance)
    except CommandError:
        # "no saved draft" of an instance that does not exist says the wrong thing: a typo in
        # --instance is said first.
        await _check_instance(args.instance, config)
        raise
    try:
        recipients = read_recipients_file(args.to)
    except RecipientFileError as exc:
        raise CommandError(str(exc)) from None
    await _route_lids(args.instance, recipients, config)
    if recipients.invalid:
        lines = "; ".join(str(problem) for problem in recipients.invalid[:10])
        more = len(recipients.invalid) - 10
        if more > 0:
            lines = _("{problems}; and {n} more").format(problems=lines, n=number(more))
        if not args.skip_invalid:
            raise CommandError(
                ngettext(
                    "{file}: {n} invalid number: {problems} "
                    "(fix it, or pass --skip-invalid to leave it out)",
                    "{file}: {n} invalid numbers: {problems} "
                    "(fix them, or pass --skip-invalid to leave them out)",
                    len(recipients.invalid),
                ).format(file=args.to, n=number(len(recipients.invalid)), problems=lines)
            )
        _note(_("leaving out {problems}").format(problems=lines))
    await _check_instance(args.instance, config)
    if args.check_whatsapp:
        await _check_whatsapp(args.instance, recipients, config)
    problems = MessageTemplate(draft).problems(recipients, await _gateway_line(config))
    if problems:
        listed = "; ".join(str(problem) for problem in problems[:10])
        raise CommandError(_("the message cannot be sent: {problems}").format(problems=listed))
    pace = Pace(
        DEFAULT_RATE if args.rate is None else args.rate,
        DEFAULT_JITTER if args.jitter is None else args.jitter,
    )
    assert config.url
    try:
        return create_campaign(
            gateway=config.url,
            instance=args.instance,
            draft=draft,
            recipients=recipients,
            pace=pace,
            now=datetime.now(),
        )
    except (JournalError, OSError) as exc:
        raise CommandError(_("cannot create the campaign: {error}").format(error=exc)) from None


async def _route_lids(instance: str, recipients: Any, config: ResolvedConfig) -> None:
    """Each ``@lid`` recipient to the JID that works on this gateway, as the app does (core/
    identity.py): before 2.4.0-rc2 its number from the store, else left out as invalid with
    the reason (never sent to a LID that would answer exists: false)."""
    from gateway_tui.core.api.errors import GatewayError
    from gateway_tui.core.identity import is_lid
    from gateway_tui.core.services.people import identities_from_store

    lids = [r.number for r in recipients.recipients if is_lid(r.number)]
    if not lids:
        return
    async with _client(config) as client:
        try:
            version = client.server_version or (await client.fetch_server_info(quiet=True)).version
            known = await identities_from_store(client, instance, lids)
        except GatewayError as error:
            raise CommandError(
                _("cannot read who the @lid recipients are: {error}").format(error=_plain(error))
            ) from None
    recipients.route_lids(lambda jid: known.resolve(jid).send_jid(version))


async def _check_instance(instance: str, config: ResolvedConfig) -> None:
    """Before a new campaign exists: the instance is there and open (a typo spends no one)."""
    from gateway_tui.core.campaign.preflight import instance_problem

    async with _client(config) as client:
        problem = await instance_problem(client, instance)
    if problem:
        raise CommandError(problem)


async def _check_whatsapp(instance: str, recipients: Any, config: ResolvedConfig) -> None:
    from gateway_tui.core.api.errors import GatewayError
    from gateway_tui.core.campaign.check import numbers_not_on_whatsapp

    async with _client(config) as client:
        try:
            missing = await numbers_not_on_whatsapp(client, instance, recipients)
        except GatewayError as error:
            raise CommandError(
                _("cannot check the numbers on WhatsApp: {error}").format(error=_plain(error))
            ) from None
    if missing:
        count = recipients.leave_out(missing, "not on WhatsApp")
        listed = ", ".join(sorted(missing)[:10]) + (" …" if len(missing) > 10 else "")
        _note(
            ngettext(
                "leaving out {n} not on WhatsApp: {numbers}",
                "leaving out {n} not on WhatsApp: {numbers}",
                count,
            ).format(n=number(count), numbers=listed)
        )


def _hold_the_lock(campaign: Any) -> None:
    """Become the campaign's only runner (until this process ends), or say who is."""
    from gateway_tui.core.campaign.journal import CampaignBusy, JournalError

    try:
        campaign.lock()  # and read the journal again, under the lock
    except CampaignBusy as exc:
        raise CommandError(str(exc), EXIT_BUSY) from None
    except JournalError as exc:  # the lock cannot be taken at all (a folder in its place)
        raise CommandError(str(exc)) from None
    for problem in campaign.problems[:20]:
        _warn(_("{problem}; held").format(problem=problem))
    more = len(campaign.problems) - 20 + campaign.problems_left_out
    if more > 0:
        _warn(_("and {n} more").format(n=number(more)))
    if campaign.refusal:
        raise CommandError(campaign.refusal)


def _resumed_campaign(args: argparse.Namespace, config: ResolvedConfig):
    from gateway_tui.core.campaign.journal import JournalError, Pace, open_campaign

    if args.to or args.draft:
        raise CommandError(_("--resume continues a campaign as it was made: no --to or --draft"))
    try:
        campaign = open_campaign(args.resume)
    except JournalError as exc:
        raise CommandError(str(exc)) from None
    if campaign.gateway != config.url:
        raise CommandError(
            _("campaign {id} was made for {gateway}, not {url}").format(
                id=campaign.id, gateway=campaign.gateway, url=config.url
            )
        )
    if args.instance and args.instance != campaign.instance:
        raise CommandError(
            _("campaign {id} sends from {instance}").format(
                id=campaign.id, instance=campaign.instance
            )
        )
    if args.rate is not None or args.jitter is not None:
        pace = campaign.pace
        campaign.pace = Pace(
            pace.per_minute if args.rate is None else args.rate,
            pace.jitter if args.jitter is None else args.jitter,
        )
    if args.resend_unknown and args.set_aside_unknown:
        raise CommandError(_("--resend-unknown or --set-aside-unknown: not both"))
    return campaign


def _decide_held(args: argparse.Namespace, campaign: Any) -> None:
    """--resend-unknown / --set-aside-unknown: the user's word, written under the lock."""
    from gateway_tui.core.campaign.journal import JournalError

    try:
        if args.resend_unknown:
            campaign.release(campaign.held(), at=datetime.now().timestamp())
        if args.set_aside_unknown:
            campaign.skip(campaign.held(), at=datetime.now().timestamp())
    except JournalError as exc:
        raise CommandError(str(exc), EXIT_STOPPED) from None


class _Printer:
    """Progress for people (stderr-friendly lines) or programs (JSON lines on stdout).

    When the reader of stdout goes away (``| head -3``), printing stops and ``on_closed`` is
    called once (the campaign is interrupted, as by Ctrl+C: a later run resumes it).
    """

    def __init__(self, as_json: bool, clock: Callable[[], float]) -> None:
        self.as_json = as_json
        self.clock = clock
        self._last_line = 0.0
        self.closed = False
        self.on_closed: Callable[[], None] = lambda: None

    def _out(self, write: Callable[[], None]) -> None:
        from gateway_tui.cli.output import StdoutClosed

        if self.closed:
            return
        try:
            write()
        except StdoutClosed:
            self.closed = True
            self.on_closed()

    def event(self, kind: str, **fields: Any) -> None:
        from gateway_tui.cli.output import json_line

        if self.as_json:
            self._out(lambda: json_line({"event": kind, **fields}))

    def text(self, line: str) -> None:
        from gateway_tui.cli.output import say

        if not self.as_json:
            self._out(lambda: say(line))

    def attempt(self, attempt: Any) -> None:
        recipient = attempt.recipient
        self.event(
            attempt.status.value,
            index=attempt.index,
            line=recipient.line,
            number=recipient.number,
            name=recipient.name,
            message_id=attempt.message_id or None,
            error=attempt.error or None,
            error_code=attempt.reason.code or None,
        )
        if attempt.status.value in _ATTEMPT_WORDS:
            word = _(_ATTEMPT_WORDS[attempt.status.value])
            self.text(f"  {word:<8} {recipient.number} {attempt.error}")

    def progress(self, progress: Any) -> None:
        from gateway_tui.core.campaign.runner import duration_text

        now = self.clock()
        if self.as_json or now - self._last_line < PROGRESS_EVERY_SECONDS:
            return
        self._last_line = now
        counts = {
            "done": number(progress.done),
            "total": number(progress.total),
            "sent": number(progress.sent),
            "failed": number(progress.failed),
            "unknown": number(progress.unknown),
        }
        if progress.eta_seconds is None:
            said = _("{done}/{total}: {sent} sent, {failed} failed, {unknown} unknown")
        else:
            said = _(
                "{done}/{total}: {sent} sent, {failed} failed, {unknown} unknown, about {eta} left"
            )
            counts["eta"] = duration_text(progress.eta_seconds)
        self.text("  " + said.format(**counts))


async def send_list(args: argparse.Namespace, config: ResolvedConfig) -> int:
    campaign = _resumed_campaign(args, config) if args.resume else await _new_campaign(args, config)
    try:  # the lock is held from before the first send to the end of the command
        _hold_the_lock(campaign)
        if args.resume:
            _decide_held(args, campaign)
        return await _run_campaign(args, config, campaign)
    finally:
        campaign.unlock()


async def _list_message_notes(client: Any) -> None:
    """What the composer says of list messages on this gateway's line, said before the first
    send (2.3.0–2.3.7 answer 201 and WhatsApp never shows the message). Asking the line never
    fails: an unreachable gateway leaves it 1.7.1, and the sends say what is wrong."""
    from gateway_tui.core.api.dialects import list_message_notes

    line = await client.line()
    for note in list_message_notes(line, client.server_version):
        _warn(note)


async def _run_campaign(args: argparse.Namespace, config: ResolvedConfig, campaign: Any) -> int:
    import time

    from gateway_tui.core.campaign.journal import JournalError
    from gateway_tui.core.campaign.reasons import OUTPUT_CLOSED
    from gateway_tui.core.campaign.runner import CampaignRunner, RunState

    printer = _Printer(args.json, time.monotonic)
    counts = campaign.counts()
    printer.event(
        "start",
        campaign=campaign.id,
        instance=campaign.instance,
        total=len(campaign.recipients),
        left=counts["pending"],
        held=counts["unknown"],
        pace=campaign.pace.to_json(),
        journal=str(campaign.journal_path),
    )
    total = len(campaign.recipients)
    if args.resume:
        said = ngettext(
            "Resuming campaign {id}: {pending} of {total} recipient to send from {instance}, "
            "{pace}.",
            "Resuming campaign {id}: {pending} of {total} recipients to send from {instance}, "
            "{pace}.",
            total,
        )
    else:
        said = ngettext(
            "Starting campaign {id}: {pending} of {total} recipient to send from {instance}, "
            "{pace}.",
            "Starting campaign {id}: {pending} of {total} recipients to send from {instance}, "
            "{pace}.",
            total,
        )
    printer.text(
        said.format(
            id=campaign.id,
            pending=number(counts["pending"]),
            total=number(total),
            instance=campaign.instance,
            pace=campaign.pace.describe(),
        )
    )
    if counts["unknown"]:
        printer.text(
            "  "
            + ngettext(
                "{n} recipient held as unknown is not sent again "
                "(--resend-unknown sends it, --set-aside-unknown marks it skipped).",
                "{n} recipients held as unknown are not sent again "
                "(--resend-unknown sends them, --set-aside-unknown marks them skipped).",
                counts["unknown"],
            ).format(n=number(counts["unknown"]))
        )
    async with _client(config) as client:
        await _list_message_notes(client)
        runner = CampaignRunner(
            campaign, client, on_progress=printer.progress, on_attempt=printer.attempt
        )
        printer.on_closed = lambda: runner.cancel(OUTPUT_CLOSED)
        if printer.closed:
            runner.cancel(OUTPUT_CLOSED)
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signum, runner.cancel)
        try:
            final = await runner.run()
        except (JournalError, OSError) as exc:
            raise CommandError(_("the campaign cannot go on: {error}").format(error=exc)) from None
        finally:
            for signum in (signal.SIGINT, signal.SIGTERM):
                loop.remove_signal_handler(signum)
    held = [campaign.recipients[i].number for i in campaign.held()]
    if final.state is RunState.FINISHED and not (final.failed or final.unknown):
        status = EXIT_OK
    elif final.left:
        status = EXIT_STOPPED
    else:
        status = EXIT_INCOMPLETE
    printer.event(
        "end",
        campaign=campaign.id,
        state=final.state.value,
        sent=final.sent,
        failed=final.failed,
        unknown=final.unknown,
        skipped=final.skipped,
        left=final.left,
        held=held,
        stop_reason=final.stop_reason or None,
        report=str(campaign.report_path),
        exit_status=status,
    )
    ended = _ENDED.get(final.state.value)
    printer.text(
        (
            _(ended)
            if ended
            else final.state.value.capitalize()
            + ": "
            + _("{sent} sent, {failed} failed, {unknown} unknown, {left} left. Report: {report}")
        ).format(
            sent=number(final.sent),
            failed=number(final.failed),
            unknown=number(final.unknown),
            left=number(final.left),
            report=campaign.report_path,
        )
    )
    if final.stop_reason:
        printer.text(_(STDOUT_CLOSED) if final.stop_reason == STDOUT_CLOSED else final.stop_reason)
    if held:
        shown = ", ".join(held[:20])
        printer.text(
            _("Held (outcome unknown, check their chats): {numbers} and {n} more").format(
                numbers=shown, n=number(len(held) - 20)
            )
            if len(held) > 20
            else _("Held (outcome unknown, check their chats): {numbers}").format(numbers=shown)
        )
    resume = f"gateway-tui send-list --resume {campaign.id}"
    if final.left:
        printer.text(_("Resume with: {command}").format(command=resume))
    _campaign_alert(config, campaign, final, stopped=final.state is not RunState.FINISHED)
    if printer.closed:  # nobody reads stdout any more: say it where someone may
        said = (
            _("campaign {id} interrupted: {reason}; resume with: {command}")
            if final.left
            else _("campaign {id} interrupted: {reason}")
        )
        _note(said.format(id=campaign.id, reason=_(STDOUT_CLOSED), command=resume))
    return status


def _campaign_alert(config: ResolvedConfig, campaign: Any, final: Any, *, stopped: bool) -> None:
    """The alert the app raises when a campaign finishes or stops (core/fleet/alerts.py), on
    stderr; where stderr is a terminal, the bell too, and (``desktop_notifications``, opt-in)
    the terminal's desktop notification. Never on stdout: ``--json`` stays JSON."""
    import sys
    from datetime import UTC

    from gateway_tui.cli.output import warn
    from gateway_tui.core.fleet.alerts import AlertBook, desktop_notification

    counts = {
        "sent": number(final.sent),
        "failed": number(final.failed),
        "left": number(final.left),
    }
    if final.stop_reason:
        reason = _(STDOUT_CLOSED) if final.stop_reason == STDOUT_CLOSED else final.stop_reason
        detail = _("{sent} sent, {failed} failed, {left} left — {reason}").format(
            reason=reason, **counts
        )
    else:
        detail = _("{sent} sent, {failed} failed, {left} left").format(**counts)
    gateway = config.profile or config.url or "gateway"
    for alert in AlertBook().campaign_ended(
        gateway,
        campaign.instance,
        campaign.id,
        stopped=stopped,
        at=datetime.now(UTC),
        detail=detail,
    ):
        warn(alert.summary(), "gateway-tui: alert: ")
        try:
            if not sys.stderr.isatty():
                continue
            sys.stderr.write("\a")
            if config.desktop_notifications:
                sys.stderr.write(desktop_notification(alert))
            sys.stderr.flush()
        except (OSError, ValueError):
            pass  # a closed stderr is no reason to fail the campaign's exit status
