"""The launcher: ``gateway-tui`` parses its command line, then runs one of three faces.

A headless command (``gateway_tui.cli``), the demo gateway (``gateway_tui.demo``) or the app
(``gateway_tui.tui``). The only module that sees all three: the command line itself imports no
Textual and nothing of the app (the import-linter contracts in pyproject.toml).

Only argparse is imported up front: ``--help`` and ``config path`` must stay fast, and the app
draws its first frame before the config (pydantic) and the HTTP stack are imported.
"""

from __future__ import annotations

import argparse
import gc
import sys
from collections.abc import Sequence
from contextlib import ExitStack
from typing import TYPE_CHECKING, Any

from gateway_tui.cli.completion import answer_if_asked
from gateway_tui.cli.parser import build_parser
from gateway_tui.core.text.i18n import _

if TYPE_CHECKING:
    from gateway_tui.core.files.config import ResolvedConfig


def _given(**options: Any) -> dict[str, Any]:
    """The options that were given, so the demo module keeps its own defaults for the rest."""
    return {name: value for name, value in options.items() if value is not None}


def _fail(message: str) -> int:
    print(_("gateway-tui: error: {message}").format(message=message), file=sys.stderr)
    return 1


def main(argv: Sequence[str] | None = None) -> int:
    from gateway_tui.cli.output import StdoutClosed, quiet_exit_on_closed_stdout

    try:
        return _main(argv)
    except (StdoutClosed, BrokenPipeError):
        # The reader went away (``| head -1``): end as Unix tools do, no traceback.
        return quiet_exit_on_closed_stdout()


def _main(argv: Sequence[str] | None = None) -> int:
    from gateway_tui.core.files.language import start_language

    # Before the parser is built: its --help is in the chosen language.
    start_language(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    if argv is None:
        answer_if_asked(parser)  # the shell asks for completions (cli/completion.py)
    args = parser.parse_args(argv)  # on bad input: usage + a plain message, exit status 2
    from gateway_tui.cli.output import set_color

    set_color(args.color)
    if args.demo_instances is not None and not args.demo:
        parser.error(_("{option} needs --demo").format(option="--demo-instances"))
    if args.demo_version is not None and not args.demo:
        parser.error(_("{option} needs --demo").format(option="--demo-version"))
    try:
        if args.command == "demo-server":
            return _serve_demo(args)
        if args.command == "serve":
            return _serve_app(args)

        def load() -> ResolvedConfig:
            from gateway_tui.core.files.config import load_config

            return load_config(
                url=args.url, api_key=args.api_key, profile=args.profile, demo=args.demo
            )

        if getattr(args, "run", None) is not None:  # a headless command (cli/parser.py)
            if args.demo and args.command != "config":
                parser.error(
                    _("{command} runs against a gateway: use --url of a demo-server").format(
                        command=args.command
                    )
                )
            from gateway_tui.cli.commands import run

            if not getattr(args, "needs_config", True):  # config path, completion: stay fast
                return run(args, None)
            from gateway_tui.core.files.config import load_config

            return run(args, load_config(url=args.url, api_key=args.api_key, profile=args.profile))
        if args.demo:
            if args.fleet:
                return _run_demo_fleet(load())
            return _run_demo(load(), instances=args.demo_instances, api_version=args.demo_version)
        # From here to the home screen, Python builds only what lives as long as the process
        # (Textual, the libraries, the first screens): collections among it are wasted time.
        # The app turns the collector back on once the start is done (app._finish_start).
        gc.disable()
        try:
            from gateway_tui.tui.app import run_app

            # The config is loaded once the first frame is drawn.
            # The first frame draws what the fleet, or this same launch, kept last.
            face = {"fleet": True} if args.fleet else {"launch": (args.url, args.profile)}
            return run_app(load, starting_url=args.url, **face)
        finally:
            gc.enable()
    except KeyboardInterrupt:
        return 130


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
        licence=args.licence,
        metrics=args.metrics,
        metrics_auth=args.metrics_auth,
        zombie=args.zombie,
        flapping=args.flapping,
        history_sync=args.history_sync,
        history_stop_at=args.history_stop_at,
    )
    try:
        if args.fleet:
            from gateway_tui.demo.server import serve_fleet

            return serve_fleet()
        return serve(args.port, **options)
    except ValueError as exc:  # an option the release does not have (a licence on 2.3.7…)
        return _fail(str(exc))
    except OSError as exc:  # e.g. the port is taken: say so without a traceback
        return _fail(
            _("cannot serve the demo gateway on port {port}: {error}").format(
                port=args.port, error=exc.strerror or exc
            )
        )


def _serve_app(args: argparse.Namespace) -> int:
    """``gateway-tui serve``: the app in browser tabs (textual-serve runs one app per tab)."""
    import ipaddress
    import os
    import shlex

    try:
        loopback = args.host == "localhost" or ipaddress.ip_address(args.host).is_loopback
    except ValueError:
        loopback = False
    if not loopback and not args.public:
        return _fail(
            _(
                "serve listens on loopback only: --host {host} needs --public (anyone who "
                "reaches that address uses the app, and your gateway's key, with no login)"
            ).format(host=args.host)
        )
    if not loopback:
        print(
            _(
                "gateway-tui: warning: serving on {address} for anyone who can reach it: the "
                "page is the app, with your gateway's API key behind it and no login."
            ).format(address=f"{args.host}:{args.port}"),
            file=sys.stderr,
        )
    command = [sys.executable, "-m", "gateway_tui"]
    # Each tab's app speaks the language this command was given (--lang; else the same
    # config and environment the tab's process reads).
    for flag, value in (("--url", args.url), ("--profile", args.profile), ("--lang", args.lang)):
        if value:
            command += [flag, value]
    if args.demo:
        command.append("--demo")
    if args.api_key:  # to each tab's app through the environment, never its command line
        os.environ["GATEWAY_API_KEY"] = args.api_key
    from textual_serve.server import Server

    server = Server(shlex.join(command), host=args.host, port=args.port, title="gateway-tui")
    print(
        _("gateway-tui: serving the app on {url}").format(url=f"http://{args.host}:{args.port}/"),
        file=sys.stderr,
    )
    try:
        server.serve()
    except OSError as exc:  # e.g. the port is taken
        return _fail(
            _("cannot serve on {address}: {error}").format(
                address=f"{args.host}:{args.port}", error=exc.strerror or exc
            )
        )
    return 0


def _run_demo(
    config: ResolvedConfig, *, instances: int | None, api_version: str | None = None
) -> int:
    from gateway_tui.demo.server import DemoServer
    from gateway_tui.tui.app import run_app

    # Only the server's start-up errors get the short message; the app's keep their traceback.
    with ExitStack() as stack:
        try:
            server = stack.enter_context(
                DemoServer(**_given(instances=instances, api_version=api_version))
            )
        except OSError as exc:
            return _fail(
                _("cannot start the demo gateway: {error}").format(error=exc.strerror or exc)
            )
        return run_app(demo_config(config, server))


DEMO_FLEET_REFRESH = 5.0


def _run_demo_fleet(config: ResolvedConfig) -> int:
    """The app on the fleet screen over several demo gateways (demo/fleet.py), each a profile
    of this run only (nothing is saved)."""
    from gateway_tui.demo.fleet import start_fleet
    from gateway_tui.tui.app import run_app

    try:
        fleet = start_fleet()
    except OSError as exc:
        return _fail(_("cannot start the demo gateways: {error}").format(error=exc.strerror or exc))
    with fleet:
        return run_app(demo_fleet_config(config, fleet), fleet=True)


def demo_fleet_config(config: ResolvedConfig, fleet) -> ResolvedConfig:
    """``config`` with one profile per demo gateway, the first running one in use."""
    import dataclasses

    from pydantic import SecretStr

    from gateway_tui.core.files.config import Profile

    profiles = {}
    for gateway in fleet.gateways:
        user, password = gateway.metrics_auth or (None, None)
        profiles[gateway.name] = Profile(
            url=gateway.url,
            api_key=SecretStr(gateway.api_key) if gateway.api_key else None,
            api_version="auto",
            metrics_user=user,
            metrics_password=SecretStr(password) if password else None,
        )
    first = next(g.name for g in fleet.gateways if g.server is not None)
    # Read every few seconds: the demo's flapping instances change every few seconds too.
    every = min(config.refresh_interval or DEMO_FLEET_REFRESH, DEMO_FLEET_REFRESH)
    with_profiles = dataclasses.replace(config, profiles=profiles, refresh_interval=every)
    return with_profiles.switch_profile(first)


# The demo's drafts, history and templates are filed under this, whatever port it runs on.
DEMO_GATEWAY_ID = "demo"


def demo_config(config: ResolvedConfig, server) -> ResolvedConfig:
    """``config`` pointed at a running demo gateway, with the demo's stable identity."""
    return config.with_gateway(server.url, server.api_key, identity=DEMO_GATEWAY_ID)
