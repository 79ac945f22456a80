"""``{placeholders}`` in a message's texts: found, filled, and named when left unfilled.

``{{`` and ``}}`` are literal braces; ``{x}`` is a placeholder; any other brace is just text.
Filled by plain substitution, never ``str.format`` (which would let a template reach into
Python objects). A campaign fills them per recipient (``campaign/recipients.py``); a single
send has nothing to fill them with, so one left in it is an error (``unfilled_problem``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from gateway_tui.core.text.i18n import ngettext

PLACEHOLDER = re.compile(r"\{\{|\}\}|\{([^{}\n]*)\}")


def column_name(raw: str) -> str:
    """A column's (and a placeholder's) name as compared: spaces folded, case folded."""
    return " ".join(raw.split()).casefold()


def placeholders_in(text: str) -> list[str]:
    """The placeholder names used in ``text``, in order (normalised like column names)."""
    return [
        column_name(match.group(1))
        for match in PLACEHOLDER.finditer(text)
        if match.group(1) is not None
    ]


def fill(text: str, values: Mapping[str, str]) -> str:
    """``text`` with every ``{placeholder}`` replaced; an unknown one is left as it is."""

    def replace(match: re.Match[str]) -> str:
        token = match.group(0)
        if token == "{{":
            return "{"
        if token == "}}":
            return "}"
        return values.get(column_name(match.group(1)), token)

    return PLACEHOLDER.sub(replace, text)


def unfilled(texts: Iterable[str]) -> list[str]:
    """Every placeholder of ``texts`` as written (``{name}``), once each, in order."""
    seen: list[str] = []
    for text in texts:
        for match in PLACEHOLDER.finditer(text):
            if match.group(1) is not None and match.group(0) not in seen:
                seen.append(match.group(0))
    return seen


def unfilled_problem(texts: Iterable[str]) -> str | None:
    """Why a single send holding placeholders is refused (None when it holds none)."""
    found = unfilled(texts)
    if not found:
        return None
    names = ", ".join(found)
    return ngettext(
        "{names} is a placeholder with nothing to fill it in a single send (placeholders are "
        "filled by a campaign's recipients; write {{{{ and }}}} for a literal brace)",
        "{names} are placeholders with nothing to fill it in a single send (placeholders are "
        "filled by a campaign's recipients; write {{{{ and }}}} for a literal brace)",
        len(found),
    ).format(names=names)
