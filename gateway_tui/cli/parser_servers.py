"""The parsers of the two subcommands main.py runs by name, with no runner: ``demo-server``
(the demo gateway over HTTP, gateway_tui/demo) and ``serve`` (the app in a browser tab). Listed
in cli/parser.py's SUBCOMMANDS; the top-level ``--demo-version`` takes :data:`DEMO_LINES`.
Only argparse here."""

from __future__ import annotations

import argparse
from typing import Any

from gateway_tui.cli.arguments import (
    add_command,
    argument_type,
    examples,
    fraction,
    port_option,
    positive_seconds,
    whole_number,
)
from gateway_tui.core.text.i18n import _

DEFAULT_DEMO_PORT = 8080
DEFAULT_SERVE_HOST = "127.0.0.1"
DEFAULT_SERVE_PORT = 8000


# The releases demo-server imitates (gateway_tui/demo/versions.py).
DEMO_VERSIONS = ("1.7.1", "2.3.6", "2.3.7", "2.4.0")
# --demo-version: a line (1: 1.7.1, 2: 2.3.6) or a release.
DEMO_LINES = ("1", "2", *DEMO_VERSIONS)


def _metrics_credentials(text: str) -> tuple[str, str]:
    user, colon, password = text.partition(":")
    if not colon or not user or not password:
        raise argparse.ArgumentTypeError(_("give USER:PASSWORD"))
    return user, password


def add_demo_server(subcommands: Any, gateway: argparse.ArgumentParser) -> None:
    demo_parser = add_command(subcommands, "demo-server", _("serve the demo gateway over HTTP"))
    port_option(demo_parser, DEFAULT_DEMO_PORT)
    demo_parser.add_argument(
        "--instances", metavar="N", type=whole_number(0), help=_("number of demo instances")
    )
    demo_parser.add_argument(
        "--latency-ms", metavar="N", type=whole_number(0), help=_("delay added to every response")
    )
    demo_parser.add_argument(
        "--hostile",
        action="store_true",
        default=None,
        help=_("serve the hostile data set (escape sequences in every text field)"),
    )
    demo_parser.add_argument(
        "--not-on-whatsapp",
        metavar="NUMBERS",
        type=lambda text: [n.strip() for n in text.split(",") if n.strip()],
        help=_("comma-separated numbers that sends are refused for (not on WhatsApp)"),
    )
    demo_parser.add_argument(
        "--drop-share",
        metavar="F",
        type=argument_type(fraction(1)),
        help=_("share (0-1) of sends whose connection drops after the message went out"),
    )
    demo_parser.add_argument(
        "--api-version",
        choices=DEMO_VERSIONS,
        help=_("the Evolution API version imitated (default: 1.7.1)"),
    )
    demo_parser.add_argument(
        "--chats", metavar="N", type=whole_number(0), help=_("history chats per open instance")
    )
    demo_parser.add_argument(
        "--incoming-every",
        metavar="SECONDS",
        type=argument_type(positive_seconds),
        help=_(
            "a contact writes to each open instance's most recent chat every SECONDS "
            '("incoming <n>", pushed over socket.io)'
        ),
    )
    demo_parser.add_argument(
        "--global-events",
        action="store_true",
        default=None,
        help=_(
            "with --api-version 2.3.6: every instance's events on the socket.io namespace / "
            "too (a 2.x server with WEBSOCKET_GLOBAL_EVENTS=true)"
        ),
    )
    demo_parser.add_argument(
        "--licence",
        choices=("active", "inactive"),
        help=_(
            "with --api-version 2.4.0: inactive answers as a 2.4 without a licence key "
            "(503 LICENSE_REQUIRED on every business route)"
        ),
    )
    demo_parser.add_argument(
        "--metrics",
        action="store_true",
        default=None,
        help=_("serve Prometheus /metrics (2.x, as with PROMETHEUS_METRICS=true)"),
    )
    demo_parser.add_argument(
        "--metrics-auth",
        metavar="USER:PASSWORD",
        type=_metrics_credentials,
        help=_("serve /metrics behind basic auth (implies --metrics)"),
    )
    demo_parser.add_argument(
        "--zombie",
        metavar="NAME",
        action="append",
        help=_(
            "instance NAME is listed open while its session is closed (sends answer "
            '"Connection Closed"); repeatable'
        ),
    )
    demo_parser.add_argument(
        "--flapping",
        metavar="NAME",
        action="append",
        help=_("instance NAME goes open/close/connecting on a cycle; repeatable"),
    )
    demo_parser.add_argument(
        "--history-sync",
        action="store_true",
        default=None,
        help=_(
            "after each pairing, send the history as a real server does (chats.set, "
            "messages.set; 2.4: messaging-history.set)"
        ),
    )
    demo_parser.add_argument(
        "--history-stop-at",
        metavar="PERCENT",
        type=whole_number(1, 100),
        help=_("the history sync stops early at PERCENT (implies --history-sync)"),
    )
    demo_parser.add_argument(
        "--fleet",
        action="store_true",
        default=None,
        help=_(
            "serve several demo gateways of both lines with these cases on free ports "
            "(--port is ignored) and print their URLs"
        ),
    )
    demo_parser.add_argument(
        "--big-chat",
        metavar="N",
        type=whole_number(0),
        help=_("add one chat of N messages to each open instance"),
    )


def add_serve(subcommands: Any, gateway: argparse.ArgumentParser) -> None:
    serve = add_command(
        subcommands,
        "serve",
        _("run the app in a browser tab (textual-serve)"),
        gateway=gateway,
        description=_(
            "Serve the app as a web page: each browser tab that opens it runs the app with\n"
            "this command line's gateway settings. Loopback only unless --public: the page\n"
            "is the app, with the gateway's key behind it and no login in front."
        ),
        epilog=examples(
            "gateway-tui --profile prod serve            # http://127.0.0.1:8000",
            "gateway-tui serve --port 8765 --demo",
            (
                "gateway-tui serve --host 0.0.0.0 --public   ",
                _("anyone who reaches it uses your key"),
            ),
        ),
    )
    serve.add_argument(
        "--host", default=DEFAULT_SERVE_HOST, help=_("address to listen on (default: %(default)s)")
    )
    port_option(serve, DEFAULT_SERVE_PORT)
    serve.add_argument(
        "--public",
        action="store_true",
        help=_("allow a --host other than loopback (the gateway's key is behind that page)"),
    )
    serve.add_argument(
        "--demo", action="store_true", default=argparse.SUPPRESS, help=_("serve the demo gateway")
    )
