"""``gateway-tui webhook-listen``: a webhook receiver to see what the gateway posts.

It listens on 127.0.0.1 unless told another host (said plainly: anyone who can reach it can
post, and the gateway must be able to reach it), takes a POST on any path (with
``webhook_by_events`` the gateway posts to ``<url>/<event-name>``), answers each with a small
200 and prints a line per event as ``gateway-tui events`` does, with 2.3.7's headers
(``X-Instance-ID``, ``X-Instance-Name``, ``X-Event-Type``, ``X-Timestamp``). Bodies are read up
to a limit; nothing received reaches the terminal raw (core/text/sanitize) and the envelope's
``apikey`` is never kept. ``--compare INSTANCE`` follows that instance's socket.io stream too
and flags the events that came only one way. No Textual here.
"""

from __future__ import annotations

import argparse
import asyncio
from typing import TYPE_CHECKING, Any

from gateway_tui.cli.arguments import (
    add_command,
    argument_type,
    examples,
    port_option,
    positive_seconds,
)
from gateway_tui.core.text.i18n import _

if TYPE_CHECKING:
    from gateway_tui.core.events.record import EventRecord
    from gateway_tui.core.files.config import ResolvedConfig

FLAG_EVERY_SECONDS = 1.0
DEFAULT_HOST = "127.0.0.1"  # this machine only, unless told otherwise
DEFAULT_PORT = 8787


def add_webhook_listen(subcommands: Any, gateway: argparse.ArgumentParser) -> None:
    from gateway_tui.cli.events import add_follow_options

    listen = add_command(
        subcommands,
        "webhook-listen",
        _("receive the gateway's webhooks here and print a line per event"),
        gateway=gateway,
        run=webhook_listen,
        description=_(
            "Receive the gateway's webhook calls and print one line per event, with the\n"
            "headers a 2.3.7 sends (X-Instance-ID, X-Instance-Name, X-Event-Type,\n"
            "X-Timestamp). Point an instance's webhook at http://HOST:PORT/ (any path is\n"
            "taken: with webhook_by_events the gateway adds /<event-name>). Every call is\n"
            "answered with a small 200. With --compare INSTANCE the instance's socket.io\n"
            "stream is followed too, and an event that came only one way is flagged\n"
            "(once its twin has not come within a few seconds)."
        ),
        epilog=examples(
            "gateway-tui webhook-listen",
            "gateway-tui webhook-listen --port 9000 --json > hooks.ndjson",
            "gateway-tui webhook-listen --host 0.0.0.0 --compare sales-eu",
        )
        + "\n\n"
        + _(
            "exit status: 0 after --count or --for; 130 on Ctrl-C; 141 when the reader of\n"
            "the output went away; 1 when the port cannot be had."
        ),
    )
    listen.add_argument(
        "--host",
        default=DEFAULT_HOST,
        help=_("address to listen on (default: %(default)s, this machine only)"),
    )
    port_option(listen, DEFAULT_PORT, any_free=True)
    listen.add_argument(
        "--compare",
        metavar="INSTANCE",
        help=_("follow this instance's socket.io stream too and flag events that came one way"),
    )
    listen.add_argument(
        "--grace",
        metavar="SECONDS",
        type=argument_type(positive_seconds),
        default=10.0,
        help=_("with --compare: how long an event waits for its twin (default: %(default)s)"),
    )
    add_follow_options(listen)


def webhook_listen(args: argparse.Namespace, config: ResolvedConfig) -> int:
    """``webhook-listen``: needs a gateway only with --compare."""
    return asyncio.run(listen(args, config))


async def listen(args: argparse.Namespace, config: ResolvedConfig) -> int:
    from gateway_tui.cli.commands import CommandError, _require_gateway
    from gateway_tui.cli.events import Once, gateway_stream, next_record, print_record
    from gateway_tui.cli.output import warn
    from gateway_tui.core.events import receiver as hooks
    from gateway_tui.core.events.crosscheck import Crosscheck

    queue: asyncio.Queue[EventRecord] = asyncio.Queue()
    receiver = hooks.WebhookReceiver(queue.put_nowait, on_problem=lambda line: warn(line))
    stream = None
    if args.compare:
        _require_gateway(config)
        said = Once()

        def status(line: str) -> None:
            if line.endswith(": following"):
                line = _("comparing with the socket.io stream {stream}").format(
                    stream=line.removesuffix(": following")
                )
                if line not in said.said:
                    said.said.add(line)
                    warn(line)
                return
            said(line)

        stream = await gateway_stream(config, [args.compare], queue.put_nowait, status)
    try:
        sock = hooks.bind(args.host, args.port)
    except OSError as error:
        raise CommandError(
            _("cannot listen on {host}:{port}: {error}").format(
                host=args.host, port=args.port, error=error.strerror or error
            )
        ) from None
    port = sock.getsockname()[1]
    started = asyncio.Event()
    server = asyncio.create_task(hooks.serve(receiver.app, sock, started))
    await asyncio.wait(
        {asyncio.ensure_future(started.wait()), server}, return_when="FIRST_COMPLETED"
    )
    warn(hooks.reach_note(args.host, port))
    shown = f"[{args.host}]" if ":" in args.host else args.host
    warn(_("point the webhook at {url} (Ctrl-C stops)").format(url=f"http://{shown}:{port}/"))
    tasks = [server]
    if stream is not None:
        tasks.append(asyncio.create_task(stream.run()))
    check = Crosscheck(args.grace)
    loop = asyncio.get_running_loop()
    until = loop.time() + args.for_seconds if args.for_seconds else None
    ended = asyncio.ensure_future(asyncio.wait(tasks, return_when="FIRST_COMPLETED"))
    printed = 0
    try:
        while args.count is None or printed < args.count:
            tick = loop.time() + FLAG_EVERY_SECONDS
            try:
                record = await next_record(
                    queue, ended, tick if until is None else min(tick, until)
                )
            except CommandError:
                why = stream.failed if stream is not None and stream.failed else None
                raise CommandError(why or _("the receiver stopped")) from None
            if record is not None:
                compared = args.compare is not None and record.instance == args.compare
                if compared:
                    check.add(record)
                if record.via == "webhook" or compared:
                    print_record(record, args.json)
                    printed += 1
            for one_way in check.expired():
                print_record(one_way.record, args.json, flag=one_way.why)
            if until is not None and loop.time() >= until:
                break
    finally:
        ended.cancel()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        sock.close()
    return 0
