"""The ``gateway-tui`` command line's parser (gateway_tui/main.py runs what it parses).

Only argparse is imported up front: ``--help`` and ``config path`` must stay fast, and the app
draws its first frame before the config (pydantic) and the HTTP stack are imported.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from gateway_tui import __version__
from gateway_tui.cli.arguments import argument_type, fraction, positive_seconds, whole_number
from gateway_tui.cli.commands import add_parsers
from gateway_tui.cli.events import add_parsers as add_event_parsers
from gateway_tui.core.text.urls import validate_gateway_url

if TYPE_CHECKING:
    pass

DEFAULT_DEMO_PORT = 8080


# The versions demo-server imitates (a 2.x line answers as the recorded 2.3.6).
DEMO_VERSIONS = ("1.7.1", "2.3.6")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="gateway-tui",
        description="A keyboard-first terminal client for Evolution-API-style messaging gateways.",
        epilog=(
            "Settings come from flags, then GATEWAY_URL / GATEWAY_API_KEY / GATEWAY_PROFILE, "
            "then the profiles in the config file (see: gateway-tui config path)."
        ),
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument(
        "--url",
        type=argument_type(validate_gateway_url),
        help="gateway URL, e.g. https://gw.example.com",
    )
    parser.add_argument(
        "--api-key",
        metavar="KEY",
        help="gateway API key (other users can see it in the process list: "
        "prefer GATEWAY_API_KEY or a profile's api_key_env)",
    )
    parser.add_argument("--profile", metavar="NAME", help="use this profile of the config file")
    parser.add_argument(
        "--demo",
        action="store_true",
        help="run against an embedded demo gateway (ignores --url, --api-key and profiles)",
    )
    parser.add_argument(
        "--demo-version",
        choices=("1", "2"),
        help="the Evolution API line the demo imitates: 1 (1.7.1, the default) or 2 (2.3.6)",
    )
    parser.add_argument(
        "--demo-instances",
        metavar="N",
        type=whole_number(0),
        help="number of instances in the demo gateway (with --demo)",
    )

    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    config_parser = commands.add_parser("config", help="about the config file")
    config_commands = config_parser.add_subparsers(
        dest="config_command", metavar="SUBCOMMAND", required=True
    )
    config_commands.add_parser("path", help="print the config file's path")

    demo_parser = commands.add_parser("demo-server", help="serve the demo gateway over HTTP")
    demo_parser.add_argument(
        "--port",
        type=whole_number(1, 65535),
        default=DEFAULT_DEMO_PORT,
        help="port to listen on (default: %(default)s)",
    )
    demo_parser.add_argument(
        "--instances", metavar="N", type=whole_number(0), help="number of demo instances"
    )
    demo_parser.add_argument(
        "--latency-ms", metavar="N", type=whole_number(0), help="delay added to every response"
    )
    demo_parser.add_argument(
        "--hostile",
        action="store_true",
        default=None,
        help="serve the hostile data set (escape sequences in every text field)",
    )
    demo_parser.add_argument(
        "--not-on-whatsapp",
        metavar="NUMBERS",
        type=lambda text: [n.strip() for n in text.split(",") if n.strip()],
        help="comma-separated numbers that sends are refused for (not on WhatsApp)",
    )
    demo_parser.add_argument(
        "--drop-share",
        metavar="F",
        type=argument_type(fraction(1)),
        help="share (0-1) of sends whose connection drops after the message went out",
    )
    demo_parser.add_argument(
        "--api-version",
        choices=DEMO_VERSIONS,
        help="the Evolution API version imitated (default: 1.7.1)",
    )
    demo_parser.add_argument(
        "--chats", metavar="N", type=whole_number(0), help="history chats per open instance"
    )
    demo_parser.add_argument(
        "--incoming-every",
        metavar="SECONDS",
        type=argument_type(positive_seconds),
        help="a contact writes to each open instance's most recent chat every SECONDS "
        '("incoming <n>", pushed over socket.io)',
    )
    demo_parser.add_argument(
        "--global-events",
        action="store_true",
        default=None,
        help="with --api-version 2.3.6: every instance's events on the socket.io namespace / "
        "too (a 2.x server with WEBSOCKET_GLOBAL_EVENTS=true)",
    )
    demo_parser.add_argument(
        "--big-chat",
        metavar="N",
        type=whole_number(0),
        help="add one chat of N messages to each open instance",
    )
    add_parsers(commands)  # send-list, campaigns, instances, participants, chats
    add_event_parsers(commands)  # events, webhook-listen
    return parser
