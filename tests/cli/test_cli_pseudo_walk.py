"""Every command's --help in the pseudo-locale: a sentence nobody marked fails (issue 35).

What is not a sentence stays as typed in every language and is data to the check: command and
option names, metavars, choices, defaults, and the examples' command lines."""

from __future__ import annotations

import argparse

from gateway_tui.cli.parser import build_parser
from gateway_tui.core.text.i18n import PSEUDO, _, set_language
from gateway_tui.screenshots.pseudo_walk import WORD, fixed_words, unmarked

# File types are names in every language.
FILE_TYPES = {"ogg", "opus", "mp3", "m4a", "aac", "wav", "amr", "webm", "csv", "jsonl"}


def _parsers(parser: argparse.ArgumentParser):
    yield parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for child in dict.fromkeys(action.choices.values()):
                yield from _parsers(child)


def _not_sentences(parser: argparse.ArgumentParser) -> set[str]:
    words: set[str] = set(WORD.findall(parser.prog))
    for action in parser._actions:
        for text in (*action.option_strings, action.dest, action.metavar or ""):
            words.update(WORD.findall(str(text)))
        for choice in action.choices or ():
            words.update(WORD.findall(str(choice)))
        if action.default not in (None, argparse.SUPPRESS):
            words.update(WORD.findall(str(action.default)))
    return words


def test_every_command_help_is_marked():
    set_language(PSEUDO)
    examples = _("examples:")
    parser = build_parser()
    found = {}
    for each in _parsers(parser):
        text = each.format_help()
        # The examples are command lines, typed as they are (their comments are marked).
        text = text.split(examples, 1)[0]
        # So are shell lines elsewhere (completion's set-up: eval "$(gateway-tui …)").
        text = "\n".join(line for line in text.splitlines() if "$(gateway-tui" not in line)
        text = "\n".join(line for line in text.splitlines() if "~/.config/" not in line)
        data = fixed_words() | FILE_TYPES | _not_sentences(each) | _not_sentences(parser)
        left = unmarked(text, data)
        if left:
            found[each.prog] = left
    assert found == {}
