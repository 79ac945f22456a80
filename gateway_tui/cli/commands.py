"""The headless commands' runners (their parsers: cli/parser.py; send-list: cli/send_list.py).

For scripts and cron: the same profiles, environment variables, client and campaign journal
as the app, and no Textual import. Output is text for people, ``--json`` (one JSON object per
line for ``send-list``, one document otherwise) or ``--csv`` for programs.

A runner is ``run(args, config) -> int`` (the exit status), set on its parser with
``set_defaults(run=...)``. An ``async`` runner talks to a gateway: :func:`run` first checks
that the config names one (URL and key), then runs it in ``asyncio.run``. A plain runner is
called as it is (``campaigns``, ``chats --local``: no gateway needed).

Exit status: 0 when everything went through; 1 for bad input or a gateway error (message on
stderr); 2 for a bad command line; 3 when a campaign ended with failed or unknown recipients;
4 when a campaign stopped (or was interrupted) with recipients left to send; 5 when another
process is sending the campaign (nothing was sent).
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import re
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from gateway_tui.core.text.i18n import _, ngettext, number

if TYPE_CHECKING:  # the parsers are built before the first frame: no pydantic yet
    from gateway_tui.core.files.config import ResolvedConfig

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_INCOMPLETE = 3
EXIT_STOPPED = 4
EXIT_BUSY = 5


class CommandError(Exception):
    """A plain message for stderr, and exit status 1 (or ``status``)."""

    def __init__(self, message: str, status: int = EXIT_ERROR) -> None:
        super().__init__(message)
        self.status = status


# --- running ----------------------------------------------------------------------------------


def run(args: argparse.Namespace, config: ResolvedConfig) -> int:
    """Run the headless command its parser named (``args.run``); returns the exit status."""
    try:
        if inspect.iscoroutinefunction(args.run):
            _refuse_undecodable(args)
            _require_gateway(config)
            return asyncio.run(args.run(args, config))
        return args.run(args, config)
    except CommandError as exc:
        _fail(str(exc))
        return exc.status


def _refuse_undecodable(args: argparse.Namespace) -> None:
    """A text the shell passed that is not UTF-8 (Python keeps its bytes as lone surrogates)
    cannot travel in a request to the gateway: said, naming the argument, before anything is
    sent (a file name that is not UTF-8 stays fine for the commands that only read files)."""
    for name, value in vars(args).items():
        texts = value if isinstance(value, list) else [value]
        if any(isinstance(text, str) and _SURROGATE.search(text) for text in texts):
            raise CommandError(
                _(
                    "{argument} is not valid UTF-8 text: check the terminal's or the file's "
                    "encoding"
                ).format(argument=name.upper())
            )


_SURROGATE = re.compile("[\ud800-\udfff]")


def chats(args: argparse.Namespace, config: ResolvedConfig) -> int:
    """``chats``: the gateway's chats with this app's history; ``--local`` asks no gateway."""
    if args.local:
        return _chats(args, config)
    _require_gateway(config)
    return asyncio.run(_gateway_chats(args, config))


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
            _("no gateway: pass --url or --profile, or set GATEWAY_URL (or a default profile)")
        )
    if not config.api_key or not config.api_key.get_secret_value():
        raise CommandError(_("no API key: set GATEWAY_API_KEY or use a profile with a key"))


def _session(config: ResolvedConfig):
    """The gateway's session, without live events: its client has every setting of the
    profile (the one client factory); ``async with`` closes it all."""
    from gateway_tui.core.session import GatewaySession

    assert config.url and config.api_key
    session = GatewaySession.open(config, live=False)
    added = session.config.problems[len(config.problems) :]
    if added:  # the key cannot travel in a header
        raise CommandError(added[0][0].lower() + added[0][1:])
    return session


def _client(config: ResolvedConfig):
    """The client of a session without live events (closing the client ends that session:
    it owns nothing else)."""
    return _session(config).client


async def _gateway_line(config: ResolvedConfig):
    """The gateway's line (pinned, or from GET /), whose rules a message is checked by."""
    async with _client(config) as client:
        return await client.line()


def _gateway_error(error: Any, url: str | None = None) -> CommandError:
    from gateway_tui.core.api.errors import NotFound
    from gateway_tui.core.text.urls import api_root

    said = _plain(error)
    if isinstance(error, NotFound) and error.no_gateway_api and (parts := api_root(url)):
        said = _("{error} (no gateway API at this URL: try {root} without {path})").format(
            error=said, root=parts[0], path=parts[1]
        )
    return CommandError(said)


def _emit(rows: list[dict[str, Any]], columns: Sequence[str], args: argparse.Namespace) -> None:
    from gateway_tui.cli.output import emit

    emit(rows, columns, as_json=args.json, as_csv=args.csv)


# --- read commands ----------------------------------------------------------------------------


async def instances(args: argparse.Namespace, config: ResolvedConfig) -> int:
    from gateway_tui.core.api.errors import GatewayError

    async with _client(config) as client:
        try:
            instances = await client.instances.fetch()
        except GatewayError as error:
            raise _gateway_error(error, config.url) from None
    from gateway_tui.core.api.lists import unreadable_of
    from gateway_tui.core.files.known_instances import remember_instances

    remember_instances(config.gateway_identity, (i.instance_name for i in instances))
    rows = [
        {
            "name": i.instance_name,
            "status": i.status,
            "owner": i.owner_number,
            # 2.x lists the number an instance was created with (None on 1.7.1).
            "number": i.number,
            "profile_name": i.profile_name,
            "integration": i.integration_name,
            "id": i.instance_id,
        }
        for i in instances
    ]
    _emit(rows, ("name", "status", "owner", "number", "profile_name", "integration", "id"), args)
    # Rows the gateway listed that could not be read are said, never dropped in silence.
    if skipped := unreadable_of(instances):
        shown = "; ".join(skipped[:3]) + ("; …" if len(skipped) > 3 else "")
        _warn(
            ngettext(
                # English keeps its old words for one (tests/cli/test_instances_cli.py).
                "{n} instance(s) listed by the gateway could not be read ({shown})",
                "{n} instances listed by the gateway could not be read ({shown})",
                len(skipped),
            ).format(n=number(len(skipped)), shown=shown)
        )
    return EXIT_OK


async def _gateway_chats(args: argparse.Namespace, config: ResolvedConfig) -> int:
    """The gateway's chats merged with this app's sent history, as the chats screen shows them."""
    from gateway_tui.core.api.errors import GatewayError
    from gateway_tui.core.chat_book import chat_rows
    from gateway_tui.core.files.drafts import ComposeStore

    assert config.url
    async with _session(config) as session:
        actions = session.actions
        stored = ComposeStore(config.url, args.instance).stored_chats()
        actions.messages.restore_sent(
            args.instance, stored.records, texts=stored.texts, archived=stored.archived
        )
        actions.chats.restore_archived(args.instance, stored.archived)
        try:
            book = await actions.chats.load_chat_book(args.instance)
        except GatewayError as error:
            raise _gateway_error(error, config.url) from None
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
        _note(
            ngettext(
                "{n} stored item could not be read and was left out",
                "{n} stored items could not be read and were left out",
                book.skipped,
            ).format(n=number(book.skipped))
        )
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
        for index, at, _message in campaign.sent():
            recipient = campaign.recipients[index]
            title = template.draft_for(recipient).title
            yield campaign.id, recipient, datetime.fromtimestamp(at), title


def campaigns(args: argparse.Namespace, config: ResolvedConfig) -> int:
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
    if holder.pid:
        return _("process {pid}").format(pid=holder.pid)
    return _("another process")


def _note(message: str) -> None:
    from gateway_tui.cli.output import warn

    warn(message)


def _plain(error: Any) -> str:
    from gateway_tui.core.campaign.runner import plain_error

    return plain_error(error)
