"""``gateway-tui events``: follow the gateway's socket.io stream and print a line per event
(``--json``: one JSON object a line with ``time``, ``instance``, ``event``, ``via``, ``data``)
until interrupted, ``--count`` events were printed or ``--for`` seconds have passed.

Every line passes the display boundary (core/text/sanitize); the key is never printed (the
envelope's ``apikey`` is dropped as it arrives, and the client's key is a known secret, masked).
Ctrl-C ends it with status 130, a reader that goes away (``| head -3``) with 141, quietly.
No Textual here.
"""

from __future__ import annotations

import argparse
import asyncio
import time
from typing import TYPE_CHECKING, Any

from gateway_tui.cli.arguments import (
    add_command,
    argument_type,
    examples,
    positive_seconds,
    whole_number,
)
from gateway_tui.core.text.i18n import _, ngettext, number

if TYPE_CHECKING:
    from gateway_tui.core.events.record import EventRecord
    from gateway_tui.core.files.config import ResolvedConfig


def add_events(subcommands: Any, gateway: argparse.ArgumentParser) -> None:
    """``events`` (and ``webhook-listen``, cli/webhook_listen.py) on the main parser."""
    from gateway_tui.cli.webhook_listen import add_webhook_listen

    events = add_command(
        subcommands,
        "events",
        _("follow the gateway's events (socket.io) and print a line per event"),
        gateway=gateway,
        run=follow,
        description=_(
            "Follow the gateway's socket.io events and print one line per event until\n"
            "interrupted: time, instance, event and a one-line summary. With --json, one\n"
            "JSON object a line (time, instance, event, via, data, and what else the\n"
            "gateway sent but its key). An instance's events come only while its websocket\n"
            "is on with those events ticked (a 2.x started with WEBSOCKET_GLOBAL_EVENTS\n"
            "sends every event on its global stream, which is followed too)."
        ),
        epilog=examples(
            "gateway-tui events",
            "gateway-tui events --instance sales-eu --event messages.upsert --json",
            "gateway-tui events --json --count 3",
            "gateway-tui events --for 60 --json > events.ndjson",
        )
        + "\n\n"
        + _(
            "exit status: 0 after --count or --for; 130 on Ctrl-C; 141 when the reader of\n"
            "the output went away; 1 when the gateway or its websocket cannot be had."
        ),
    )
    add_follow_options(events)
    events.add_argument(
        "--instance", metavar="NAME", help=_("only this instance (default: every instance)")
    )
    events.add_argument(
        "--event",
        metavar="NAME",
        action="append",
        help=_("only this event (messages.upsert or MESSAGES_UPSERT); repeat for more"),
    )
    add_webhook_listen(subcommands, gateway)


def add_follow_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help=_("one JSON object a line"))
    parser.add_argument(
        "--count", metavar="N", type=whole_number(1), help=_("stop after N events printed")
    )
    parser.add_argument(
        "--for",
        dest="for_seconds",
        metavar="SECONDS",
        type=argument_type(positive_seconds),
        help=_("stop after SECONDS"),
    )


# --- printing ---------------------------------------------------------------------------------


def clock_of(record: EventRecord) -> str:
    local = time.localtime(record.time)
    return time.strftime("%H:%M:%S", local) + f".{int(record.time * 1000) % 1000:03d}"


def event_line(record: EventRecord, *, via: bool = False) -> str:
    """One event for people: time, (way,) instance, event, summary; printable."""
    from gateway_tui.core.events.summary import summarize
    from gateway_tui.core.text.sanitize import field

    parts = [clock_of(record)]
    if via:
        parts.append(record.via)
    parts += [field(record.instance) or "-", field(record.event), summarize(record)]
    return "  ".join(parts)


def print_record(record: EventRecord, as_json: bool, **extra: Any) -> None:
    """One event on stdout (raises StdoutClosed when its reader went away)."""
    from gateway_tui.cli.output import write
    from gateway_tui.core.events.export import ndjson_line
    from gateway_tui.core.text.sanitize import json_text

    if as_json:
        if extra:
            write(json_text({**extra, **record.as_json()}, default=str) + "\n", flush=True)
        else:
            write(ndjson_line(record), flush=True)
    else:
        prefix = "".join(f"{value}: " for value in extra.values())
        write(prefix + event_line(record, via=bool(extra) or record.via == "webhook") + "\n")
        if record.path or record.headers:
            write("    " + request_line(record) + "\n")
        write("", flush=True)


def request_line(record: EventRecord) -> str:
    """Where a webhook came to and its X- headers, printable."""
    from gateway_tui.core.text.sanitize import field

    headers = "  ".join(f"{name}={field(value)}" for name, value in record.headers.items())
    return f"POST {field(record.path)}  {headers or _('(no X- headers: an older gateway)')}"


# --- following --------------------------------------------------------------------------------


async def gateway_stream(
    config: ResolvedConfig,
    instances: list[str] | None,
    on_record: Any,
    on_status: Any,
) -> Any:
    """An EventStream of ``instances`` (None: every instance the gateway lists), with the
    global stream on a 2.x gateway."""
    from gateway_tui.cli.commands import CommandError, _client, _plain
    from gateway_tui.core.api.errors import GatewayError
    from gateway_tui.core.events.stream import EventStream

    async with _client(config) as client:
        try:
            line = await client.line()
            if instances is None:
                instances = [i.instance_name for i in await client.instances.fetch()]
        except GatewayError as error:
            raise CommandError(_plain(error)) from None
    is_v2 = line.line == "2"
    if not instances and not is_v2:
        raise CommandError(_("the gateway has no instances: no events to follow"))
    assert config.url and config.api_key
    return EventStream(
        config.url,
        config.api_key.get_secret_value(),
        on_record,
        instances=instances,
        global_stream=is_v2,
        on_status=on_status,
    )


class Once:
    """Says each status line once (a namespace retried every few seconds says it once)."""

    def __init__(self) -> None:
        self.said: set[str] = set()

    def __call__(self, line: str) -> None:
        from gateway_tui.cli.output import warn

        if line.endswith(": following") or line in self.said:
            return
        self.said.add(line)
        warn(line, "gateway-tui: ")


async def next_record(
    queue: asyncio.Queue[EventRecord], task: asyncio.Task[Any], until: float | None
) -> EventRecord | None:
    """The next event, or None when ``until`` (loop time) has passed. Raises CommandError
    when ``task`` (the stream, the receiver) ended."""
    from gateway_tui.cli.commands import CommandError

    loop = asyncio.get_running_loop()
    timeout = None if until is None else until - loop.time()
    if timeout is not None and timeout <= 0:
        return None
    getting = asyncio.ensure_future(queue.get())
    done, _pending = await asyncio.wait(
        {getting, task}, timeout=timeout, return_when="FIRST_COMPLETED"
    )
    if getting in done:
        return getting.result()
    getting.cancel()
    if task in done:
        raise CommandError(_why_ended(task))
    return None


def _why_ended(task: asyncio.Task[Any]) -> str:
    if not task.cancelled() and task.exception() is not None:
        return _("the event stream failed ({error})").format(error=type(task.exception()).__name__)
    return _("the event stream ended")


async def follow(args: argparse.Namespace, config: ResolvedConfig) -> int:
    """``events``: run with a checked gateway (cli/commands.py's ``run``)."""
    from gateway_tui.cli.commands import CommandError
    from gateway_tui.cli.output import warn
    from gateway_tui.core.events.filters import EventFilter

    queue: asyncio.Queue[EventRecord] = asyncio.Queue()
    stream = await gateway_stream(
        config, [args.instance] if args.instance else None, queue.put_nowait, Once()
    )
    only = EventFilter.of(
        events=args.event or (), instances=[args.instance] if args.instance else ()
    )
    count = len([n for n in stream.namespaces if n != "/"])
    if "/" in stream.namespaces:
        said = ngettext(
            "following the events of {n} instance and the gateway's global stream (Ctrl-C stops)",
            "following the events of {n} instances and the gateway's global stream (Ctrl-C stops)",
            count,
        )
    else:
        said = ngettext(
            "following the events of {n} instance (Ctrl-C stops)",
            "following the events of {n} instances (Ctrl-C stops)",
            count,
        )
    warn(said.format(n=number(count)))
    task = asyncio.create_task(stream.run())
    loop = asyncio.get_running_loop()
    until = loop.time() + args.for_seconds if args.for_seconds else None
    printed = 0
    try:
        while args.count is None or printed < args.count:
            try:
                record = await next_record(queue, task, until)
            except CommandError:
                raise CommandError(stream.failed or _("the event stream ended")) from None
            if record is None:
                break
            if only.matches(record):
                print_record(record, args.json)
                printed += 1
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
    return 0
