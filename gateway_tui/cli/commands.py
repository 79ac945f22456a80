"""The headless commands: ``send-list``, ``campaigns``, ``instances``, ``participants``, ``chats``.

For scripts and cron: the same profiles, environment variables, client and campaign journal
as the app, and no Textual import. Output is text for people, ``--json`` (one JSON object per
line for ``send-list``, one document otherwise) or ``--csv`` for programs.

Exit status: 0 when everything went through; 1 for bad input or a gateway error (message on
stderr); 2 for a bad command line; 3 when a campaign ended with failed or unknown recipients;
4 when a campaign stopped (or was interrupted) with recipients left to send; 5 when another
process is sending the campaign (nothing was sent).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import signal
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gateway_tui.cli.arguments import argument_type, fraction

if TYPE_CHECKING:  # the parsers are built before the first frame: no pydantic yet
    from gateway_tui.core.files.config import ResolvedConfig

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_INCOMPLETE = 3
EXIT_STOPPED = 4
EXIT_BUSY = 5
DEFAULT_RATE = 20.0
DEFAULT_JITTER = 0.3
PROGRESS_EVERY_SECONDS = 10.0

STDOUT_CLOSED = "stopped: the output was closed (its reader went away)"

HEADLESS_COMMANDS = ("send-list", "campaigns", "instances", "participants", "chats")


class CommandError(Exception):
    """A plain message for stderr, and exit status 1 (or ``status``)."""

    def __init__(self, message: str, status: int = EXIT_ERROR) -> None:
        super().__init__(message)
        self.status = status


# --- the parsers ------------------------------------------------------------------------------


def _rate(text: str) -> float:
    value = text.strip().lower().removesuffix("/min").strip()
    if value in ("max", "full"):
        return 0.0
    try:
        rate = float(value)
    except ValueError:
        rate = -1.0
    if not 0 <= rate <= 6000:
        raise argparse.ArgumentTypeError(
            f"expected messages per minute from 0 to 6000 (0 or 'max': full speed), got {text!r}"
        )
    return rate


def _gateway_options() -> argparse.ArgumentParser:
    """--url / --api-key / --profile after the command too (``send-list --profile x``)."""
    from gateway_tui.core.text.urls import validate_gateway_url

    common = argparse.ArgumentParser(add_help=False)
    group = common.add_argument_group("gateway (as for the app)")
    group.add_argument(
        "--url",
        type=argument_type(validate_gateway_url),
        default=argparse.SUPPRESS,
        help="gateway URL (else GATEWAY_URL, else the profile's)",
    )
    group.add_argument(
        "--api-key",
        metavar="KEY",
        default=argparse.SUPPRESS,
        help="API key (prefer GATEWAY_API_KEY: a flag shows in the process list)",
    )
    group.add_argument(
        "--profile", metavar="NAME", default=argparse.SUPPRESS, help="a profile of the config file"
    )
    return common


def _output_options(parser: argparse.ArgumentParser) -> None:
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print JSON")
    output.add_argument("--csv", action="store_true", help="print CSV with a header row")


def add_parsers(commands: Any) -> None:
    """Add the headless commands to the main parser's subparsers."""
    common = _gateway_options()
    raw = argparse.RawDescriptionHelpFormatter

    send = commands.add_parser(
        "send-list",
        parents=[common],
        formatter_class=raw,
        help="send a list message to many recipients (a campaign), paced and resumable",
        description=(
            "Send a saved list message to every recipient of a CSV file, paced, with a journal\n"
            "that makes the campaign resumable: after a crash, --resume sends to whoever is\n"
            "left and never to anyone twice. A recipient whose outcome is unknown (timeout,\n"
            "dropped connection) is held, and only sent again with --resend-unknown.\n\n"
            "The CSV has the number first, then optionally a name; with a header row every\n"
            "column is a placeholder the message's texts can use: {name}, {city}."
        ),
        epilog=(
            "examples:\n"
            "  gateway-tui send-list --instance sales-eu --draft 'Weekly menu' --to list.csv\n"
            "  gateway-tui --profile prod send-list --instance shop --draft menu.json \\\n"
            "      --to customers.csv --rate 12/min --json > progress.jsonl\n"
            "  gateway-tui send-list --resume 20261123-101500-ab12\n"
            "  gateway-tui send-list --resume 20261123-101500-ab12 --resend-unknown\n"
            "  gateway-tui send-list --resume 20261123-101500-ab12 --set-aside-unknown\n\n"
            "--draft is a template's name (saved with F6 in the composer), a draft JSON file,\n"
            "or 'current' for the instance's autosaved draft.\n"
            "exit status: 0 all sent; 1 bad input or gateway error; 3 some failed or unknown;\n"
            "4 stopped with recipients left (resume it); 5 another process is sending it."
        ),
    )
    send.add_argument("--instance", metavar="NAME", help="the instance that sends")
    send.add_argument("--draft", metavar="NAME", help="template name, draft file, or 'current'")
    send.add_argument("--to", metavar="FILE", type=Path, help="recipients (CSV)")
    send.add_argument(
        "--rate",
        metavar="N/min",
        type=_rate,
        help=f"messages per minute (default {DEFAULT_RATE:g}; 0 or 'max': full speed)",
    )

    send.add_argument(
        "--jitter",
        metavar="F",
        type=argument_type(fraction(0.9)),
        help=f"random share each gap varies by, 0-0.9 (default {DEFAULT_JITTER})",
    )
    send.add_argument("--resume", metavar="ID", help="continue campaign ID where it stopped")
    send.add_argument(
        "--resend-unknown",
        action="store_true",
        help="with --resume: send again to the recipients held as unknown",
    )
    send.add_argument(
        "--set-aside-unknown",
        action="store_true",
        help="with --resume: mark the recipients held as unknown as not to be sent (skipped)",
    )
    send.add_argument(
        "--skip-invalid",
        action="store_true",
        help="leave out numbers that are not valid instead of refusing the file",
    )
    send.add_argument(
        "--check-whatsapp",
        action="store_true",
        help="first ask the gateway which numbers are on WhatsApp (an open instance only) "
        "and leave out the others",
    )
    send.add_argument("--json", action="store_true", help="progress as JSON lines")

    campaigns = commands.add_parser(
        "campaigns",
        formatter_class=raw,
        help="list campaigns (their ids, for --resume)",
        epilog="examples:\n  gateway-tui campaigns\n  gateway-tui campaigns --json",
    )
    _output_options(campaigns)

    instances = commands.add_parser(
        "instances",
        parents=[common],
        formatter_class=raw,
        help="list the gateway's instances",
        epilog=(
            "examples:\n  gateway-tui instances\n  gateway-tui --profile prod instances --json\n"
            "  GATEWAY_URL=https://gw.example.com GATEWAY_API_KEY=… gateway-tui instances --csv"
        ),
    )
    _output_options(instances)

    participants = commands.add_parser(
        "participants",
        parents=[common],
        formatter_class=raw,
        help="list the participants of a group",
        epilog=(
            "examples:\n  gateway-tui participants sales-eu 120363012345678901@g.us\n"
            "  gateway-tui participants sales-eu 120363012345678901 --csv > members.csv"
        ),
    )
    participants.add_argument("instance", metavar="INSTANCE")
    participants.add_argument("group", metavar="GROUP_JID")
    _output_options(participants)

    chats = commands.add_parser(
        "chats",
        parents=[common],
        formatter_class=raw,
        help="list the chats of an instance, newest first",
        description=(
            "List the chats of an instance, newest first: the gateway's stored chats\n"
            "(findChats, contacts, each chat's newest message) merged with what this app\n"
            "sent from this machine. --local lists only what this app sent (composer and\n"
            "campaigns), without asking the gateway."
        ),
        epilog=(
            "examples:\n  gateway-tui chats sales-eu\n  gateway-tui chats sales-eu --json\n"
            "  gateway-tui chats sales-eu --local --csv"
        ),
    )
    chats.add_argument("instance", metavar="INSTANCE")
    chats.add_argument(
        "--local", action="store_true", help="only the chats this app sent to (no gateway call)"
    )
    _output_options(chats)


# --- running ----------------------------------------------------------------------------------


def run(args: argparse.Namespace, config: ResolvedConfig) -> int:
    """Run a headless command; returns the exit status."""
    try:
        if args.command == "campaigns":
            return _campaigns(args)
        if args.command == "chats" and args.local:
            return _chats(args, config)
        _require_gateway(config)
        if args.command == "chats":
            return asyncio.run(_gateway_chats(args, config))
        if args.command == "send-list":
            return asyncio.run(_send_list(args, config))
        if args.command == "instances":
            return asyncio.run(_instances(args, config))
        if args.command == "participants":
            return asyncio.run(_participants(args, config))
    except CommandError as exc:
        _fail(str(exc))
        return exc.status
    raise AssertionError(f"not a headless command: {args.command}")


def _fail(message: str) -> int:
    from gateway_tui.cli.output import warn

    warn(message, "gateway-tui: error: ")
    return EXIT_ERROR


def _warn(message: str) -> None:
    from gateway_tui.cli.output import warn

    warn(message, "gateway-tui: warning: ")


def _require_gateway(config: ResolvedConfig) -> None:
    for problem in config.problems:
        _warn(problem)
    if not config.url:
        raise CommandError(
            "no gateway: pass --url or --profile, or set GATEWAY_URL (or a default profile)"
        )
    if not config.api_key or not config.api_key.get_secret_value():
        raise CommandError("no API key: set GATEWAY_API_KEY or use a profile with a key")


def _client(config: ResolvedConfig):
    """The app's client, with every setting of the profile (the one client factory)."""
    from gateway_tui.core.api.errors import GatewayError
    from gateway_tui.core.client_factory import client_for

    assert config.url and config.api_key
    try:
        return client_for(config)
    except GatewayError as error:
        raise CommandError(f"the API key cannot be used: {error.summary}") from None


async def _gateway_line(config: ResolvedConfig):
    """The gateway's line (pinned, or from GET /), whose rules a message is checked by."""
    async with _client(config) as client:
        return await client.line()


def _gateway_error(error: Any) -> CommandError:
    return CommandError(_plain(error))


def _emit(rows: list[dict[str, Any]], columns: Sequence[str], args: argparse.Namespace) -> None:
    from gateway_tui.cli.output import emit

    emit(rows, columns, as_json=args.json, as_csv=args.csv)


# --- read commands ----------------------------------------------------------------------------


async def _instances(args: argparse.Namespace, config: ResolvedConfig) -> int:
    from gateway_tui.core.api.errors import GatewayError

    async with _client(config) as client:
        try:
            instances = await client.fetch_instances()
        except GatewayError as error:
            raise _gateway_error(error) from None
    rows = [
        {
            "name": i.instance_name,
            "status": i.status,
            "owner": i.owner_number,
            "profile_name": i.profile_name,
            "id": i.instance_id,
        }
        for i in instances
    ]
    _emit(rows, ("name", "status", "owner", "profile_name", "id"), args)
    return EXIT_OK


async def _participants(args: argparse.Namespace, config: ResolvedConfig) -> int:
    from gateway_tui.core.api.errors import GatewayError

    async with _client(config) as client:
        try:
            participants = await client.group_participants(args.instance, args.group)
        except GatewayError as error:
            raise _gateway_error(error) from None
    rows = [
        {"number": p.number, "jid": p.id, "role": p.role.value, "name": p.name}
        for p in participants
    ]
    _emit(rows, ("number", "jid", "role", "name"), args)
    return EXIT_OK


async def _gateway_chats(args: argparse.Namespace, config: ResolvedConfig) -> int:
    """The gateway's chats merged with this app's sent history, as the chats screen shows them."""
    from gateway_tui.core.api.errors import GatewayError
    from gateway_tui.core.chat_book import chat_rows
    from gateway_tui.core.files.drafts import ComposeStore
    from gateway_tui.core.services import Actions
    from gateway_tui.core.state import AppState

    assert config.url
    async with _client(config) as client:
        actions = Actions(client, AppState())
        stored = ComposeStore(config.url, args.instance).stored_chats()
        actions.restore_sent(
            args.instance, stored.records, texts=stored.texts, archived=stored.archived
        )
        actions.restore_archived(args.instance, stored.archived)
        try:
            book = await actions.load_chat_book(args.instance)
        except GatewayError as error:
            raise _gateway_error(error) from None
    rows = [
        {
            "jid": row.jid,
            "name": row.name,
            "last_at": row.last_at.isoformat(timespec="seconds") if row.last_at else None,
            "from_me": row.from_me,
            "archived": row.archived,
            "in_gateway": row.in_store,
            "sent_here": row.sent_here,
            "last_message": row.last_text,
        }
        for row in chat_rows(
            book,
            actions.state.chats_of(args.instance),
            lambda jid: actions.state.subject_of(args.instance, jid),
        )
    ]
    _add_campaign_sends(rows, config.url, args.instance)
    columns = ("jid", "name", "last_at", "from_me", "archived", "in_gateway", "sent_here")
    _emit(rows, (*columns, "last_message"), args)
    if book.skipped:
        _note(f"{book.skipped} stored item(s) could not be read and were left out")
    return EXIT_OK


def _add_campaign_sends(rows: list[dict[str, Any]], gateway: str, instance: str) -> None:
    """Count what campaigns sent from here into ``rows`` (the sent history holds only the
    composer's); a chat the gateway does not list gets a row of its own."""
    from gateway_tui.core.services.messages import chat_jid

    by_jid = {row["jid"]: row for row in rows}
    for _campaign_id, recipient, at, title in _campaign_sends(gateway, instance):
        jid = chat_jid(recipient.number)
        row = by_jid.get(jid)
        if row is None:
            row = by_jid[jid] = {
                "jid": jid,
                "name": "",
                "last_at": None,
                "from_me": True,
                "archived": False,
                "in_gateway": False,
                "sent_here": 0,
                "last_message": "",
            }
            rows.append(row)
        row["sent_here"] += 1
        when = at.isoformat(timespec="seconds")
        if not row["in_gateway"] and (row["last_at"] is None or when > row["last_at"]):
            row["last_at"], row["last_message"] = when, title
    rows.sort(key=lambda row: row["last_at"] or "", reverse=True)


def _chats(args: argparse.Namespace, config: ResolvedConfig) -> int:
    # --local: the chats this app sent to, from the composer's history and the campaigns'
    # journals, without a gateway call.
    from gateway_tui.core.files.drafts import ComposeStore
    from gateway_tui.core.services.messages import chat_jid, record_jid, sent_text

    if not config.url:
        _require_gateway(config)
    stored = ComposeStore(config.url, args.instance).stored_chats()
    sent = [
        (
            record_jid(record),
            record.sent_at,
            stored.texts.get(record.result.key.id, sent_text(record))
            if record.result.key
            else sent_text(record),
            record.result.status,
        )
        for record in stored.records
    ]
    sent += [
        (chat_jid(recipient.number), at, title, "campaign " + campaign_id)
        for campaign_id, recipient, at, title in _campaign_sends(config.url, args.instance)
    ]
    chats: dict[str, dict[str, Any]] = {}
    for jid, at, text, status in sorted(sent, key=lambda item: item[1]):
        chat = chats.setdefault(jid, {"jid": jid, "messages": 0})
        chat["messages"] += 1
        chat["last_message"] = text
        chat["last_at"] = at
        chat["last_status"] = status
        chat["archived"] = stored.archived.get(jid, False)
    rows = sorted(chats.values(), key=lambda chat: chat["last_at"], reverse=True)
    for row in rows:
        row["last_at"] = row["last_at"].isoformat(timespec="seconds")
    _emit(rows, ("jid", "messages", "last_at", "last_status", "archived", "last_message"), args)
    return EXIT_OK


def _campaign_sends(gateway: str, instance: str):
    """(campaign id, recipient, sent at, title) of every message campaigns sent from here."""
    from gateway_tui.core.campaign.journal import JournalError, campaigns_dir, open_campaign
    from gateway_tui.core.campaign.recipients import MessageTemplate

    for meta in sorted(campaigns_dir().glob("*/campaign.json")):
        try:
            campaign = open_campaign(meta.parent.name)
        except JournalError:
            continue
        if campaign.gateway != gateway or campaign.instance != instance:
            continue
        template = MessageTemplate(campaign.draft)
        for index, at, _ in campaign.sent():
            recipient = campaign.recipients[index]
            title = template.draft_for(recipient).title
            yield campaign.id, recipient, datetime.fromtimestamp(at), title


def _campaigns(args: argparse.Namespace) -> int:
    from gateway_tui.core.campaign.journal import list_campaigns

    rows = [
        {
            "id": c.id,
            "instance": c.instance,
            "created": c.created,
            **{status: c.counts.get(status, "") for status in _STATUS_COLUMNS},
            "running": _running(c.running),
            "problem": c.problem,
        }
        for c in list_campaigns()
    ]
    columns = ("id", "instance", "created", *_STATUS_COLUMNS, "running", "problem")
    _emit(rows, columns, args)
    return EXIT_OK


_STATUS_COLUMNS = ("sent", "failed", "unknown", "skipped", "pending")


def _running(holder: Any) -> str:
    """Who sends a campaign now ("" when nobody does)."""
    if holder is None:
        return ""
    return f"process {holder.pid}" if holder.pid else "another process"


# --- send-list --------------------------------------------------------------------------------


def _load_draft(name: str, config: ResolvedConfig, instance: str):
    from gateway_tui.core.files.drafts import ComposeStore, Draft

    store = ComposeStore(config.url, instance)
    path = Path(name).expanduser()
    if name == "current":
        draft = store.load_draft()
        if draft is None or draft.is_empty:
            raise CommandError(f"instance {instance} has no saved draft on this machine")
        return draft
    if path.suffix == ".json" and path.is_file():
        try:
            return Draft.from_json(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError) as exc:
            raise CommandError(f"cannot read the draft {path}: {exc}") from None
    templates = store.templates()
    if name in templates:
        return templates[name]
    known = ", ".join(repr(t) for t in templates) or "none saved yet (F6 in the composer)"
    raise CommandError(f"no template named {name!r} (templates: {known})")


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
        raise CommandError(f"a new campaign needs {', '.join(missing)} (or --resume ID)")
    draft = _load_draft(args.draft, config, args.instance)
    try:
        recipients = read_recipients_file(args.to)
    except RecipientFileError as exc:
        raise CommandError(str(exc)) from None
    if recipients.invalid:
        lines = "; ".join(str(problem) for problem in recipients.invalid[:10])
        more = len(recipients.invalid) - 10
        lines += f"; and {more} more" if more > 0 else ""
        if not args.skip_invalid:
            raise CommandError(
                f"{args.to}: {len(recipients.invalid)} invalid number(s): {lines} "
                "(fix them, or pass --skip-invalid to leave them out)"
            )
        _note(f"leaving out {lines}")
    await _check_instance(args.instance, config)
    if args.check_whatsapp:
        await _check_whatsapp(args.instance, recipients, config)
    problems = MessageTemplate(draft).problems(recipients, await _gateway_line(config))
    if problems:
        listed = "; ".join(str(problem) for problem in problems[:10])
        raise CommandError(f"the message cannot be sent: {listed}")
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
        raise CommandError(f"cannot create the campaign: {exc}") from None


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
            raise CommandError(f"cannot check the numbers on WhatsApp: {_plain(error)}") from None
    if missing:
        count = recipients.leave_out(missing, "not on WhatsApp")
        listed = ", ".join(sorted(missing)[:10]) + (" …" if len(missing) > 10 else "")
        _note(f"leaving out {count} not on WhatsApp: {listed}")


def _note(message: str) -> None:
    from gateway_tui.cli.output import warn

    warn(message)


def _plain(error: Any) -> str:
    from gateway_tui.core.campaign.runner import plain_error

    return plain_error(error)


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
        _warn(f"{problem}; held")
    more = len(campaign.problems) - 20 + campaign.problems_left_out
    if more > 0:
        _warn(f"and {more} more")
    if campaign.refusal:
        raise CommandError(campaign.refusal)


def _resumed_campaign(args: argparse.Namespace, config: ResolvedConfig):
    from gateway_tui.core.campaign.journal import JournalError, Pace, open_campaign

    if args.to or args.draft:
        raise CommandError("--resume continues a campaign as it was made: no --to or --draft")
    try:
        campaign = open_campaign(args.resume)
    except JournalError as exc:
        raise CommandError(str(exc)) from None
    if campaign.gateway != config.url:
        raise CommandError(
            f"campaign {campaign.id} was made for {campaign.gateway}, not {config.url}"
        )
    if args.instance and args.instance != campaign.instance:
        raise CommandError(f"campaign {campaign.id} sends from {campaign.instance}")
    if args.rate is not None or args.jitter is not None:
        pace = campaign.pace
        campaign.pace = Pace(
            pace.per_minute if args.rate is None else args.rate,
            pace.jitter if args.jitter is None else args.jitter,
        )
    if args.resend_unknown and args.set_aside_unknown:
        raise CommandError("--resend-unknown or --set-aside-unknown: not both")
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
        )
        if attempt.status.value in ("failed", "unknown"):
            self.text(f"  {attempt.status.value:<8} {recipient.number} {attempt.error}")

    def progress(self, progress: Any) -> None:
        from gateway_tui.core.campaign.runner import duration_text

        now = self.clock()
        if self.as_json or now - self._last_line < PROGRESS_EVERY_SECONDS:
            return
        self._last_line = now
        eta = ""
        if progress.eta_seconds is not None:
            eta = f", about {duration_text(progress.eta_seconds)} left"
        self.text(
            f"  {progress.done:,}/{progress.total:,}: {progress.sent:,} sent, {progress.failed:,} "
            f"failed, {progress.unknown:,} unknown{eta}"
        )


async def _send_list(args: argparse.Namespace, config: ResolvedConfig) -> int:
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
    verb = "Resuming" if args.resume else "Starting"
    printer.text(
        f"{verb} campaign {campaign.id}: {counts['pending']:,} of {len(campaign.recipients):,} "
        f"recipients to send from {campaign.instance}, {campaign.pace.describe()}."
    )
    if counts["unknown"]:
        printer.text(
            f"  {counts['unknown']:,} recipient(s) held as unknown are not sent again "
            "(--resend-unknown sends them, --set-aside-unknown marks them skipped)."
        )
    async with _client(config) as client:
        await _list_message_notes(client)
        runner = CampaignRunner(
            campaign, client, on_progress=printer.progress, on_attempt=printer.attempt
        )
        printer.on_closed = lambda: runner.cancel(STDOUT_CLOSED)
        if printer.closed:
            runner.cancel(STDOUT_CLOSED)
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signum, runner.cancel)
        try:
            final = await runner.run()
        except (JournalError, OSError) as exc:
            raise CommandError(f"the campaign cannot go on: {exc}") from None
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
    printer.text(
        f"{final.state.value.capitalize()}: {final.sent:,} sent, {final.failed:,} failed, "
        f"{final.unknown:,} unknown, {final.left:,} left. Report: {campaign.report_path}"
    )
    if final.stop_reason:
        printer.text(final.stop_reason)
    if held:
        printer.text(
            "Held (outcome unknown, check their chats): "
            + ", ".join(held[:20])
            + (f" and {len(held) - 20} more" if len(held) > 20 else "")
        )
    if final.left:
        printer.text(f"Resume with: gateway-tui send-list --resume {campaign.id}")
    if printer.closed:  # nobody reads stdout any more: say it where someone may
        left = f"; resume with: gateway-tui send-list --resume {campaign.id}" if final.left else ""
        _note(f"campaign {campaign.id} interrupted: {STDOUT_CLOSED}{left}")
    return status
