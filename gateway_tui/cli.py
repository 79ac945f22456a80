"""The ``gateway-tui`` command line.

Only argparse is imported up front: ``--help`` and ``config path`` must stay fast, and the app
draws its first frame before the config (pydantic) and the HTTP stack are imported.
"""

from __future__ import annotations

import argparse
import gc
import sys
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from typing import TYPE_CHECKING, Any

from gateway_tui import __version__
from gateway_tui.commands import HEADLESS_COMMANDS, add_parsers, fraction
from gateway_tui.urls import validate_gateway_url

if TYPE_CHECKING:
    from gateway_tui.config import ResolvedConfig

DEFAULT_DEMO_PORT = 8080


def _argument_type(convert: Callable[[str], Any]) -> Callable[[str], Any]:
    """Make ``convert``'s ValueError message argparse's error message, instead of argparse's
    generic "invalid value" (which would also echo the input)."""

    def argument(text: str) -> Any:
        try:
            return convert(text)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    argument.__name__ = convert.__name__
    return argument


def _whole_number(minimum: int, maximum: int | None = None) -> Callable[[str], int]:
    """An argparse type for a whole number from ``minimum`` (to ``maximum``)."""

    def whole_number(text: str) -> int:
        try:
            number = int(text)
        except ValueError:
            number = minimum - 1
        if number < minimum or (maximum is not None and number > maximum):
            upper = f" to {maximum}" if maximum is not None else " or more"
            raise ValueError(f"expected a whole number from {minimum}{upper}, got {text!r}")
        return number

    return _argument_type(whole_number)


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
        type=_argument_type(validate_gateway_url),
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
        type=_whole_number(0),
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
        type=_whole_number(1, 65535),
        default=DEFAULT_DEMO_PORT,
        help="port to listen on (default: %(default)s)",
    )
    demo_parser.add_argument(
        "--instances", metavar="N", type=_whole_number(0), help="number of demo instances"
    )
    demo_parser.add_argument(
        "--latency-ms", metavar="N", type=_whole_number(0), help="delay added to every response"
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
        type=_argument_type(fraction(1)),
        help="share (0-1) of sends whose connection drops after the message went out",
    )
    demo_parser.add_argument(
        "--api-version",
        choices=DEMO_VERSIONS,
        help="the Evolution API version imitated (default: 1.7.1)",
    )
    demo_parser.add_argument(
        "--chats", metavar="N", type=_whole_number(0), help="history chats per open instance"
    )
    demo_parser.add_argument(
        "--incoming-every",
        metavar="SECONDS",
        type=_argument_type(_positive_seconds),
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
        type=_whole_number(0),
        help="add one chat of N messages to each open instance",
    )
    add_parsers(commands)  # send-list, campaigns, instances, participants, chats
    return parser


def _given(**options: Any) -> dict[str, Any]:
    """The options that were given, so the demo module keeps its own defaults for the rest."""
    return {name: value for name, value in options.items() if value is not None}


def _fail(message: str) -> int:
    print(f"gateway-tui: error: {message}", file=sys.stderr)
    return 1


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)  # on bad input: usage + a plain message, exit status 2
    if args.demo_instances is not None and not args.demo:
        parser.error("--demo-instances needs --demo")
    if args.demo_version is not None and not args.demo:
        parser.error("--demo-version needs --demo")
    try:
        if args.command == "config":
            from gateway_tui.config import config_path

            print(config_path())
            return 0
        if args.command == "demo-server":
            return _serve_demo(args)

        def load() -> ResolvedConfig:
            from gateway_tui.config import load_config

            return load_config(
                url=args.url, api_key=args.api_key, profile=args.profile, demo=args.demo
            )

        if args.command in HEADLESS_COMMANDS:
            if args.demo:
                parser.error(f"{args.command} runs against a gateway: use --url of a demo-server")
            from gateway_tui.commands import run
            from gateway_tui.config import load_config

            return run(args, load_config(url=args.url, api_key=args.api_key, profile=args.profile))
        if args.demo:
            return _run_demo(load(), instances=args.demo_instances, api_version=args.demo_version)
        # From here to the home screen, Python builds only what lives as long as the process
        # (Textual, the libraries, the first screens): collections among it are wasted time.
        # The app turns the collector back on once the start is done (app._finish_start).
        gc.disable()
        try:
            from gateway_tui.app import run_app

            # The config is loaded once the first frame is drawn.
            return run_app(load, starting_url=args.url)
        finally:
            gc.enable()
    except KeyboardInterrupt:
        return 130


def _positive_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"not a number of seconds: {text!r}") from None
    if not 0.05 <= value <= 86_400:
        raise ValueError("give between 0.05 and 86400 seconds")
    return value


def _serve_demo(args: argparse.Namespace) -> int:
    from gateway_tui.demo.server import serve

    options = _given(
        instances=args.instances,
        latency_ms=args.latency_ms,
        hostile=args.hostile,
        not_on_whatsapp=args.not_on_whatsapp,
        drop_share=args.drop_share,
        chats=args.chats,
        big_chat=args.big_chat,
        api_version=args.api_version,
        incoming_every=args.incoming_every,
        global_events=args.global_events,
    )
    try:
        return serve(args.port, **options)
    except OSError as exc:  # e.g. the port is taken: say so without a traceback
        return _fail(f"cannot serve the demo gateway on port {args.port}: {exc.strerror or exc}")


def _run_demo(
    config: ResolvedConfig, *, instances: int | None, api_version: str | None = None
) -> int:
    from gateway_tui.app import run_app
    from gateway_tui.demo.server import DemoServer

    # Only the server's start-up errors get the short message; the app's keep their traceback.
    with ExitStack() as stack:
        try:
            server = stack.enter_context(
                DemoServer(**_given(instances=instances, api_version=api_version))
            )
        except OSError as exc:
            return _fail(f"cannot start the demo gateway: {exc.strerror or exc}")
        return run_app(demo_config(config, server))


# The demo's drafts, history and templates are filed under this, whatever port it runs on.
DEMO_GATEWAY_ID = "demo"


def demo_config(config: ResolvedConfig, server) -> ResolvedConfig:
    """``config`` pointed at a running demo gateway, with the demo's stable identity."""
    return config.with_gateway(server.url, server.api_key, identity=DEMO_GATEWAY_ID)
