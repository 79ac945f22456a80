"""argparse's own words ("usage:", "options", "the following arguments are required: …") in the
run's language (core/text/i18n.py).

How: argparse looks up its module-level ``_`` and ``ngettext`` (``from gettext import gettext
as _, ngettext``) each time it writes a heading or an error, precisely so that its messages can
be translated. :func:`speak_our_language` rebinds those two names to ours, which read the
language chosen for this run (``--lang``, the config, the environment). Why not the others:

- binding gettext's default domain to our catalogue (``gettext.textdomain``) would also answer
  every other library that uses the default domain, and the stdlib picks that domain's language
  from the environment alone: ``--lang`` and the config's ``language`` would never reach it
  without rewriting ``LANGUAGE`` in ``os.environ``;
- subclassing ArgumentParser and HelpFormatter would mean copying a dozen of argparse's methods
  (the usage prefix, the group titles, ``-h``'s help, ``error``, the required-arguments check,
  the choice check, …) that change between Python versions, and missing the ones we forget.

Rebinding changes no text in English (our ``_`` returns the msgid when no catalogue is in use)
and copies no argparse code. The msgids are argparse's own (Python 3.11's, the oldest we run
on), listed below with ``N_`` so the extractor puts them in the catalogue; the %-placeholders
are argparse's and must stay in every translation. tests/cli/test_cli_language.py checks that
every message argparse can show a user on this Python is listed here. The messages only a
programmer meets (a parser built wrong: "conflicting option string", ".__call__() not
defined", …) are left in English.
"""

from __future__ import annotations

import argparse

from gateway_tui.core.text import i18n
from gateway_tui.core.text.i18n import N_

ARGPARSE_MESSAGES = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("unrecognized arguments: %s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("invalid %(type)s value: %(value)r"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("unexpected option string: %s"),
    N_("unknown parser %(parser_name)r (choices: %(choices)s)"),
    N_("can't open '%(filename)s': %(error)s"),
)


def expected_arguments(n: int) -> str:
    """argparse's one plural (``nargs=N`` given fewer), marked here for the extractor."""
    return i18n.ngettext("expected %s argument", "expected %s arguments", n) % n


# What argparse says that only the programmer building a parser can meet: left in English.
PROGRAMMER_MESSAGES = (
    ".__call__() not defined",
    "conflicting subparser: %s",
    "conflicting subparser alias: %s",
    'argument "-" with mode %r',
    "cannot merge actions - two groups are named %r",
    "'required' is an invalid argument for positionals",
    "invalid option string %(option)r: must start with a character %(prefix_chars)r",
    "dest= is required for options like %r",
    "invalid conflict_resolution value: %r",
    "conflicting option string: %s",
    "mutually exclusive arguments must be optional",
    "cannot have multiple subparser arguments",
    "%r is not callable",
)


def speak_our_language() -> None:
    """Make argparse's own words go through our catalogue (idempotent; see the module)."""
    argparse._ = i18n._  # type: ignore[attr-defined]
    argparse.ngettext = i18n.ngettext  # type: ignore[attr-defined]
