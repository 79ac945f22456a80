"""What the command line's parsers share: the argument types (each turns a plain ValueError
into argparse's message) and the pieces many subcommands are built of (:func:`add_command`,
the INSTANCE positional, ``--json``/``--csv``, ``--port``). Only argparse here."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from gateway_tui.cli.completion import complete_with, instance_names
from gateway_tui.core.text.i18n import _


def argument_type(convert: Callable[[str], Any]) -> Callable[[str], Any]:
    """Make ``convert``'s ValueError message argparse's error message, instead of argparse's
    generic "invalid value" (which would also echo the input)."""

    def argument(text: str) -> Any:
        try:
            return convert(text)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    argument.__name__ = convert.__name__
    return argument


def whole_number(minimum: int, maximum: int | None = None) -> Callable[[str], int]:
    """An argparse type for a whole number from ``minimum`` (to ``maximum``)."""

    def whole_number(text: str) -> int:
        try:
            number = int(text)
        except ValueError:
            number = minimum - 1
        if maximum is None and number < minimum:
            raise ValueError(
                _("expected a whole number from {minimum} or more, got {text}").format(
                    minimum=minimum, text=repr(text)
                )
            )
        if number < minimum or (maximum is not None and number > maximum):
            raise ValueError(
                _("expected a whole number from {minimum} to {maximum}, got {text}").format(
                    minimum=minimum, maximum=maximum, text=repr(text)
                )
            )
        return number

    return argument_type(whole_number)


def fraction(maximum: float) -> Callable[[str], float]:
    """A parser of a fraction from 0 to ``maximum`` (ValueError with a plain message)."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = -1.0
        if not 0 <= value <= maximum:
            raise ValueError(
                _("expected a fraction from 0 to {maximum}, got {text}").format(
                    maximum=f"{maximum:g}", text=repr(text)
                )
            )
        return value

    return parse


def positive_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ValueError(_("not a number of seconds: {text}").format(text=repr(text))) from None
    if not 0.05 <= value <= 86_400:
        raise ValueError(_("give between 0.05 and 86400 seconds"))
    return value


# --- what many subcommands' parsers share ------------------------------------------------------

RAW = argparse.RawDescriptionHelpFormatter


def examples(*lines: str | tuple[str, str]) -> str:
    """An epilog's examples: the heading in the run's language, then each command as it is
    typed (command and option names and their values are never translated); a command with a
    comment is ``(command, _("comment"))``, the command padded as it should line up."""
    shown = [
        f"  {line[0]}# {line[1]}" if isinstance(line, tuple) else f"  {line}" for line in lines
    ]
    return "\n".join([_("examples:"), *shown])


def add_command(
    subcommands: Any,
    name: str,
    help_text: str,
    *,
    gateway: argparse.ArgumentParser | None = None,
    description: str | None = None,
    epilog: str | None = None,
    run: Callable[..., Any] | None = None,
) -> argparse.ArgumentParser:
    """A subcommand's parser: its description and epilog laid out as written (examples, exit
    statuses), the gateway options after it when it talks to a gateway (``gateway``), and its
    runner (``run``; none for a command main.py runs by name)."""
    parser = subcommands.add_parser(
        name,
        parents=[gateway] if gateway is not None else [],
        formatter_class=RAW,
        help=help_text,
        description=description,
        epilog=epilog,
    )
    if run is not None:
        parser.set_defaults(run=run)
    return parser


def instance_argument(parser: argparse.ArgumentParser, help_text: str | None = None) -> None:
    """The INSTANCE positional, completed from the instance names last listed."""
    complete_with(
        parser.add_argument("instance", metavar="INSTANCE", help=help_text), instance_names
    )


def json_or_csv(parser: argparse.ArgumentParser) -> None:
    """``--json`` or ``--csv`` (one of them) for a command that prints rows."""
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help=_("print JSON"))
    output.add_argument("--csv", action="store_true", help=_("print CSV with a header row"))


def port_option(parser: argparse.ArgumentParser, default: int, *, any_free: bool = False) -> None:
    """``--port`` to listen on (``any_free``: 0 takes any free port, said on stderr)."""
    parser.add_argument(
        "--port",
        type=whole_number(0 if any_free else 1, 65535),
        default=default,
        help=_("port to listen on (default: %(default)s; 0: any free port, said on stderr)")
        if any_free
        else _("port to listen on (default: %(default)s)"),
    )
