"""The ``gateway-tui`` command line's parser: its options and every subcommand's parser.

gateway_tui/main.py runs what it parses. Only argparse (and the runners' modules, which import
nothing more at their top) is imported up front: ``--help`` and ``config path`` must stay fast,
and the app draws its first frame before the config (pydantic) and the HTTP stack are imported.

Adding a subcommand:

1. write ``add_<name>(subcommands, gateway)`` below (or in a module of its own):
   ``add_command(subcommands, "<name>", help, ...)`` (cli/arguments.py), with
   ``gateway=gateway`` when it talks to a gateway (``--url``/``--api-key``/``--profile``
   after the command too) and ``output_options(parser)`` for ``--json``/``--csv``;
2. a headless command names its runner there, ``add_command(..., run=<runner>)``: a function
   ``(args, config) -> int`` in cli/commands.py, or in a module of its own when it is long
   (cli/send_list.py). An ``async`` runner gets a checked gateway and runs in ``asyncio.run``
   (cli/commands.py's ``run``); ``needs_config=False`` beside it spares loading the config
   (pydantic) for a command that reads none (``config path``, ``completion``). A command
   that needs the app or the demo gateway sets no runner: main.py runs it by name;
3. list ``add_<name>`` in :data:`SUBCOMMANDS` (the order ``--help`` shows them in).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gateway_tui import __version__
from gateway_tui.cli import commands, completion, health, send_list
from gateway_tui.cli import config_commands as config_commands_module
from gateway_tui.cli.argparse_words import speak_our_language
from gateway_tui.cli.arguments import (
    add_command,
    argument_type,
    examples,
    fraction,
    instance_argument,
    json_or_csv,
    whole_number,
)
from gateway_tui.cli.completion import SHELLS, complete_with, instance_names, profile_names
from gateway_tui.cli.events import add_events
from gateway_tui.cli.output import COLOR_CHOICES
from gateway_tui.cli.parser_nouns import NOUNS
from gateway_tui.cli.parser_servers import DEMO_LINES, add_demo_server, add_serve
from gateway_tui.cli.send_kinds import (
    add_poll_votes,
    add_send_audio,
    add_send_contact,
    add_send_location,
    add_send_poll,
)
from gateway_tui.cli.send_list import DEFAULT_JITTER, DEFAULT_RATE
from gateway_tui.core.text.i18n import _
from gateway_tui.core.text.urls import validate_gateway_url


def language_code(text: str) -> str:
    """``--lang``: a language we ship (pt-BR, pt_BR.UTF-8 and pt all name pt_BR)."""
    from gateway_tui.core.text.i18n import LANGUAGES, normalize

    code = normalize(text)
    if code is None:
        raise argparse.ArgumentTypeError(
            _("expected one of {languages}, got {text}").format(
                languages=", ".join(LANGUAGES), text=repr(text)
            )
        )
    return code


def build_parser() -> argparse.ArgumentParser:
    """The whole command line, in the run's language: build it after the language is chosen
    (main.py), since help texts are translated here, once."""
    speak_our_language()  # argparse's own words too (cli/argparse_words.py)
    parser = argparse.ArgumentParser(
        prog="gateway-tui",
        description=_(
            "A keyboard-first terminal client for Evolution-API-style messaging gateways."
        ),
        epilog=_(
            "Settings come from flags, then GATEWAY_URL / GATEWAY_API_KEY / GATEWAY_PROFILE, "
            "then the profiles in the config file (see: gateway-tui config path)."
        ),
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"%(prog)s {__version__}",
        help=_("show program's version number and exit"),
    )
    parser.add_argument(
        "--url",
        type=argument_type(validate_gateway_url),
        help=_("gateway URL, e.g. https://gw.example.com"),
    )
    parser.add_argument(
        "--api-key",
        metavar="KEY",
        help=_(
            "gateway API key (other users can see it in the process list: "
            "prefer GATEWAY_API_KEY or a profile's api_key_env)"
        ),
    )
    complete_with(
        parser.add_argument(
            "--profile", metavar="NAME", help=_("use this profile of the config file")
        ),
        profile_names,
    )
    add_color_option(parser, default="auto")
    parser.add_argument(
        "--lang",
        metavar="LANG",
        type=language_code,
        help=_(
            "the language of the app and the command line: en, pt_BR or es (default: the "
            "config's language, else LC_ALL / LC_MESSAGES / LANG, else English)"
        ),
    )
    parser.add_argument(
        "--demo",
        action="store_true",
        help=_("run against an embedded demo gateway (ignores --url, --api-key and profiles)"),
    )
    parser.add_argument(
        "--demo-version",
        choices=DEMO_LINES,
        help=_(
            "the Evolution API release the demo imitates: 1 or 1.7.1 (the default), 2 or "
            "2.3.6, 2.3.7, 2.4.0"
        ),
    )
    parser.add_argument(
        "--demo-instances",
        metavar="N",
        type=whole_number(0),
        help=_("number of instances in the demo gateway (with --demo)"),
    )
    parser.add_argument(
        "--fleet",
        action="store_true",
        help=_(
            "open on the fleet: every instance of every profile's gateway, judged "
            "(with --demo: several demo gateways with a zombie, a flapping instance, a "
            "licence-gated and a stopped one)"
        ),
    )

    subcommands = parser.add_subparsers(dest="command", metavar="COMMAND")
    gateway = gateway_options()
    for add in SUBCOMMANDS:
        add(subcommands, gateway)
    return parser


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
            _(
                "expected messages per minute from 0 to 6000 (0 or 'max': full speed), got {text}"
            ).format(text=repr(text))
        )
    return rate


def gateway_options() -> argparse.ArgumentParser:
    """--url / --api-key / --profile after the command too (``send-list --profile x``)."""
    common = argparse.ArgumentParser(add_help=False)
    group = common.add_argument_group(_("gateway (as for the app)"))
    group.add_argument(
        "--url",
        type=argument_type(validate_gateway_url),
        default=argparse.SUPPRESS,
        help=_("gateway URL (else GATEWAY_URL, else the profile's)"),
    )
    group.add_argument(
        "--api-key",
        metavar="KEY",
        default=argparse.SUPPRESS,
        help=_("API key (prefer GATEWAY_API_KEY: a flag shows in the process list)"),
    )
    complete_with(
        group.add_argument(
            "--profile",
            metavar="NAME",
            default=argparse.SUPPRESS,
            help=_("a profile of the config file"),
        ),
        profile_names,
    )
    return common


def add_color_option(parser: argparse.ArgumentParser, default: Any = argparse.SUPPRESS) -> None:
    parser.add_argument(
        "--color",
        choices=COLOR_CHOICES,
        default=default,
        help=_(
            "colour in tables and messages: auto (a terminal, unless NO_COLOR is set), "
            "always or never"
        ),
    )


def output_options(parser: argparse.ArgumentParser) -> None:
    add_color_option(parser)
    json_or_csv(parser)


# --- the subcommands ---------------------------------------------------------------------------


def add_config(subcommands: Any, gateway: argparse.ArgumentParser) -> None:
    config_parser = add_command(
        subcommands,
        "config",
        _("about the config file: path, show, validate, schema"),
        epilog=examples(
            "gateway-tui config show",
            "gateway-tui --profile prod config show",
            "gateway-tui config validate",
            "gateway-tui config schema > config.schema.json",
        ),
    )
    config_commands = config_parser.add_subparsers(
        dest="config_command", metavar="SUBCOMMAND", required=True
    )
    config_commands.add_parser("path", help=_("print the config file's path")).set_defaults(
        run=config_commands_module.path, needs_config=False
    )
    show = add_command(
        config_commands,
        "show",
        _(
            "the settings in use and where each came from (flag, environment, profile, "
            "config file, default); the key masked"
        ),
        gateway=gateway,
        run=config_commands_module.show,
    )
    output_options(show)
    validate = config_commands.add_parser(
        "validate",
        help=_(
            "check the config file: unknown settings, wrong types, [keys] (unknown ids, keys "
            "no terminal sends, two actions of one screen on one key), themes; exit 1 on a "
            "problem"
        ),
    )
    validate.add_argument("file", nargs="?", help=_("a config file (default: the one in use)"))
    validate.set_defaults(run=config_commands_module.validate, needs_config=False)
    config_commands.add_parser(
        "schema", help=_("print a JSON Schema of the config file, for editors")
    ).set_defaults(run=config_commands_module.schema, needs_config=False)


def add_send_list(subcommands: Any, gateway: argparse.ArgumentParser) -> None:
    send = add_command(
        subcommands,
        "send-list",
        _("send a list message to many recipients (a campaign), paced and resumable"),
        gateway=gateway,
        run=send_list.send_list,
        description=_(
            "Send a saved list message to every recipient of a CSV file, paced, with a journal\n"
            "that makes the campaign resumable: after a crash, --resume sends to whoever is\n"
            "left and never to anyone twice. A recipient whose outcome is unknown (timeout,\n"
            "dropped connection) is held, and only sent again with --resend-unknown.\n\n"
            "The CSV has the number first, then optionally a name; with a header row every\n"
            "column is a placeholder the message's texts can use: {name}, {city}."
        ),
        epilog=examples(
            "gateway-tui send-list --instance sales-eu --draft 'Weekly menu' --to list.csv",
            "gateway-tui --profile prod send-list --instance shop --draft menu.json \\",
            "    --to customers.csv --rate 12/min --json > progress.jsonl",
            "gateway-tui send-list --resume 20261123-101500-ab12",
            "gateway-tui send-list --resume 20261123-101500-ab12 --resend-unknown",
            "gateway-tui send-list --resume 20261123-101500-ab12 --set-aside-unknown",
        )
        + "\n\n"
        + _(
            "--draft is a template's name (saved with F6 in the composer), a draft JSON file,\n"
            "or 'current' for the instance's autosaved draft.\n"
            "exit status: 0 all sent; 1 bad input or gateway error; 3 some failed or unknown;\n"
            "4 stopped with recipients left (resume it); 5 another process is sending it."
        ),
    )
    complete_with(
        send.add_argument("--instance", metavar="NAME", help=_("the instance that sends")),
        instance_names,
    )
    send.add_argument("--draft", metavar="NAME", help=_("template name, draft file, or 'current'"))
    send.add_argument("--to", metavar="FILE", type=Path, help=_("recipients (CSV)"))
    send.add_argument(
        "--rate",
        metavar="N/min",
        type=_rate,
        help=_("messages per minute (default {rate}; 0 or 'max': full speed)").format(
            rate=f"{DEFAULT_RATE:g}"
        ),
    )

    send.add_argument(
        "--jitter",
        metavar="F",
        type=argument_type(fraction(0.9)),
        help=_("random share each gap varies by, 0-0.9 (default {jitter})").format(
            jitter=DEFAULT_JITTER
        ),
    )
    send.add_argument("--resume", metavar="ID", help=_("continue campaign ID where it stopped"))
    send.add_argument(
        "--resend-unknown",
        action="store_true",
        help=_("with --resume: send again to the recipients held as unknown"),
    )
    send.add_argument(
        "--set-aside-unknown",
        action="store_true",
        help=_("with --resume: mark the recipients held as unknown as not to be sent (skipped)"),
    )
    send.add_argument(
        "--skip-invalid",
        action="store_true",
        help=_("leave out numbers that are not valid instead of refusing the file"),
    )
    send.add_argument(
        "--check-whatsapp",
        action="store_true",
        help=_(
            "first ask the gateway which numbers are on WhatsApp (an open instance only) "
            "and leave out the others"
        ),
    )
    send.add_argument("--json", action="store_true", help=_("progress as JSON lines"))


def add_campaigns(subcommands: Any, gateway: argparse.ArgumentParser) -> None:
    campaigns = add_command(
        subcommands,
        "campaigns",
        _("list campaigns (their ids, for --resume)"),
        epilog=examples("gateway-tui campaigns", "gateway-tui campaigns --json"),
        run=commands.campaigns,
    )
    output_options(campaigns)


def add_instances(subcommands: Any, gateway: argparse.ArgumentParser) -> None:
    instances = add_command(
        subcommands,
        "instances",
        _("list the gateway's instances"),
        gateway=gateway,
        run=commands.instances,
        epilog=examples(
            "gateway-tui instances",
            "gateway-tui --profile prod instances --json",
            "GATEWAY_URL=https://gw.example.com GATEWAY_API_KEY=… gateway-tui instances --csv",
        ),
    )
    output_options(instances)


def add_chats(subcommands: Any, gateway: argparse.ArgumentParser) -> None:
    chats = add_command(
        subcommands,
        "chats",
        _("list the chats of an instance, newest first"),
        gateway=gateway,
        run=commands.chats,
        description=_(
            "List the chats of an instance, newest first: the gateway's stored chats\n"
            "(findChats, contacts, each chat's newest message) merged with what this app\n"
            "sent from this machine. --local lists only what this app sent (composer and\n"
            "campaigns), without asking the gateway."
        ),
        epilog=examples(
            "gateway-tui chats sales-eu",
            "gateway-tui chats sales-eu --json",
            "gateway-tui chats sales-eu --local --csv",
        ),
    )
    instance_argument(chats)
    chats.add_argument(
        "--local",
        action="store_true",
        help=_("only the chats this app sent to (no gateway call)"),
    )
    output_options(chats)


def add_completion(subcommands: Any, gateway: argparse.ArgumentParser) -> None:
    shell = add_command(
        subcommands,
        "completion",
        _("print the shell completion script (bash, zsh or fish)"),
        description=_(
            "Print the script that completes gateway-tui's commands, options, profile names\n"
            "and instance names (as last listed; no network call) in your shell."
        ),
        epilog="\n".join(
            (
                _("load it:"),
                '  bash: eval "$(gateway-tui completion bash)"     # '
                + _("in {file}").format(file="~/.bashrc"),
                '  zsh:  eval "$(gateway-tui completion zsh)"      # '
                + _("in {file}, after compinit").format(file="~/.zshrc"),
                "  fish: gateway-tui completion fish > ~/.config/fish/completions/gateway-tui.fish",
            )
        ),
    )
    shell.add_argument("shell", choices=SHELLS)
    shell.set_defaults(run=completion.completion, needs_config=False)


def add_health(subcommands: Any, gateway: argparse.ArgumentParser) -> None:
    parser = add_command(
        subcommands,
        "health",
        _("judge every instance of every profile's gateway (exit 2 when any is not ok)"),
        run=health.run,
        description=_(
            "Every instance of every profile's gateway, judged: ok, connecting, closed, zombie,\n"
            "licence, unreachable or unauthorized, with the reason and its evidence. Gateways\n"
            "are read at once: a slow or dead one delays nobody."
        ),
        epilog=examples(
            "gateway-tui health",
            "gateway-tui health --profile prod --profile staging --json",
            "gateway-tui health --watch 60",
        )
        + "\n\n"
        + _("exit status: 0 all ok; 1 bad input; 2 any gateway or instance not ok."),
    )
    parser.add_argument(
        "--profile",
        metavar="NAME",
        action="append",
        dest="health_profiles",
        help=_("only this profile (repeat for more; default: every profile, else --url)"),
    )
    parser.add_argument("--json", action="store_true", help=_("one JSON object per line"))
    # Read as text and checked by the runner: bad input exits 1, as the command promises.
    parser.add_argument(
        "--watch", metavar="SECONDS", help=_("read again every SECONDS until interrupted")
    )


# Every subcommand, in the order --help lists them.
SUBCOMMANDS: tuple[Callable[[Any, argparse.ArgumentParser], None], ...] = (
    add_config,
    add_demo_server,
    add_send_list,
    add_send_audio,
    add_send_poll,
    add_send_location,
    add_send_contact,
    add_poll_votes,
    add_campaigns,
    add_instances,
    *NOUNS,  # instance, settings, groups, group, labels, contacts, chat, send-text, …
    add_chats,
    add_events,  # cli/events.py: events and webhook-listen
    add_completion,
    add_serve,
    add_health,
)
