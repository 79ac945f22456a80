"""The operator's language: English, Português do Brasil or Español (ARCHITECTURE: "Language").

Every sentence the app and the command line show goes through here:

- ``_("Whole sentence with {placeholders}.")`` translates now, in the current language; it is
  called where the text is shown, never at import time (the language is chosen after import).
- ``N_("…")`` marks a module-level constant for the catalogue; where it is shown, ``_(CONSTANT)``.
- ``ngettext(singular, plural, n)`` for every count; ``number``, ``decimal``, ``clock``,
  ``date_time`` and ``day`` write numbers and times the locale's way (Babel).

The language comes from ``--lang``, else ``language`` in the config file, else the environment
(``LC_ALL``, ``LC_MESSAGES``, ``LANG``), else English (``choose_language``). The catalogues are
gettext ``.mo`` files compiled from ``gateway_tui/locale/<lang>/*.po`` (core/text/catalogues.py)
and shipped in the wheel. ``qps`` is the pseudo-locale: every translated sentence comes back
marked ``‹…›``, so a screen's text that is neither marked nor data is a sentence nobody marked.

Only the standard library is imported here (the start is measured); Babel's number and date
formatting is imported the first time a number or a time is written in a language other than
English.
"""

from __future__ import annotations

import gettext
import os
import re
from collections.abc import Mapping
from datetime import date, datetime
from pathlib import Path

DOMAIN = "gateway_tui"
LOCALE_DIR = Path(__file__).resolve().parent.parent.parent / "locale"
ENGLISH = "en"
PSEUDO = "qps"
# The languages a user can choose, each with its own name (what `--lang` lists).
LANGUAGES: dict[str, str] = {
    ENGLISH: "English",
    "pt_BR": "Português (Brasil)",
    "es": "Español",
}
# The pseudo-locale marks: every sentence that went through the catalogue is drawn between them.
PSEUDO_OPEN = "‹"
PSEUDO_CLOSE = "›"

# What the pseudo-locale keeps as it is: {name} placeholders, and argparse's %-placeholders
# (%(prog)s, %s, %r: its own words go through the catalogue, cli/argparse_words.py).
_PLACEHOLDER = re.compile(r"\{[^{}]*\}|%\([^()]*\)[a-z]|%[a-z%]")


class _Pseudo(gettext.NullTranslations):
    """Every sentence marked and its letters accented, placeholders kept: the pseudo-locale."""

    _ACCENTS = str.maketrans("aeiouAEIOUcnyCNY", "áéíóúÁÉÍÓÚçñýÇÑÝ")

    def _mark(self, message: str) -> str:
        parts: list[str] = []
        last = 0
        for match in _PLACEHOLDER.finditer(message):
            parts.append(message[last : match.start()].translate(self._ACCENTS))
            parts.append(match.group())
            last = match.end()
        parts.append(message[last:].translate(self._ACCENTS))
        return f"{PSEUDO_OPEN}{''.join(parts)}{PSEUDO_CLOSE}"

    def gettext(self, message: str) -> str:
        return self._mark(message) if message else message

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return self._mark(msgid1 if n == 1 else msgid2)


_language = ENGLISH
_translations: gettext.NullTranslations = gettext.NullTranslations()


def normalize(code: str | None) -> str | None:
    """The language a code names, or None: ``pt_BR.UTF-8``, ``pt-br`` and ``pt`` are pt_BR
    (the only Portuguese there is), ``es_ES``/``es_MX``/``es`` are es, ``en*``, ``C`` and
    ``POSIX`` are English, ``qps`` the pseudo-locale. Anything else: None."""
    if not code:
        return None
    base = code.split(".", 1)[0].split("@", 1)[0].replace("-", "_").strip()
    lowered = base.lower()
    if lowered in ("c", "posix") or lowered.startswith("en"):
        return ENGLISH
    if lowered == PSEUDO:
        return PSEUDO
    if lowered == "pt" or lowered.startswith("pt_"):
        return "pt_BR"
    if lowered == "es" or lowered.startswith("es_"):
        return "es"
    return None


def from_environment(environ: Mapping[str, str] | None = None) -> str | None:
    """The language the environment asks for, as the C library reads it: the first of
    ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that is set decides (an unknown one means English)."""
    environ = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name)
        if value:
            return normalize(value) or ENGLISH
    return None


def choose_language(
    option: str | None,
    configured: str | None,
    environ: Mapping[str, str] | None = None,
) -> str:
    """``--lang``, else the config's ``language``, else the environment, else English.
    An option or a setting naming no language we have is skipped (its caller says so)."""
    for asked in (option, configured):
        chosen = normalize(asked)
        if chosen is not None:
            return chosen
    return from_environment(environ) or ENGLISH


def set_language(code: str) -> str:
    """Make ``code`` the language of every sentence from now on; returns the one in use
    (English when ``code`` is none we know or its catalogue is missing)."""
    global _language, _translations
    chosen = normalize(code) or ENGLISH
    if chosen == ENGLISH:
        translations: gettext.NullTranslations = gettext.NullTranslations()
    elif chosen == PSEUDO:
        translations = _Pseudo()
    else:
        try:
            translations = gettext.translation(DOMAIN, LOCALE_DIR, languages=[chosen])
        except OSError:  # no catalogue shipped for it: English, as for an unknown language
            chosen, translations = ENGLISH, gettext.NullTranslations()
    _language, _translations = chosen, translations
    return chosen


def current_language() -> str:
    return _language


def _(message: str) -> str:
    """``message`` in the current language (the catalogue's msgid is the English sentence)."""
    return _translations.gettext(message)


def N_(message: str) -> str:  # noqa: N802 - the gettext convention the extractor knows
    """Marks ``message`` for the catalogue without translating it (a module-level constant);
    the code that shows it calls ``_(message)``."""
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    """The sentence for ``n`` of something, by the language's plural rules."""
    return _translations.ngettext(singular, plural, n)


def _babel_locale() -> str:
    return "en" if _language in (ENGLISH, PSEUDO) else _language


def number(value: int | float) -> str:
    """A whole number the locale's way: 1,234 in English, 1.234 in pt-BR and es."""
    if _language in (ENGLISH, PSEUDO):
        return f"{value:,}" if isinstance(value, int) else f"{value:,.0f}"
    from babel.numbers import format_decimal

    return format_decimal(value, locale=_babel_locale(), group_separator=True)


def decimal(value: float, places: int = 1) -> str:
    """A number with ``places`` decimals, the locale's way (1,234.5 / 1.234,5)."""
    if _language in (ENGLISH, PSEUDO):
        return f"{value:,.{places}f}"
    from babel.numbers import format_decimal

    pattern = "#,##0" + ("." + "0" * places if places else "")
    return format_decimal(value, format=pattern, locale=_babel_locale())


def clock(moment: datetime, seconds: bool = True) -> str:
    """The time of day, 24-hour in every language we ship (as the gateway's operators read it)."""
    return moment.strftime("%H:%M:%S" if seconds else "%H:%M")


def day(moment: date) -> str:
    """A date the locale's way: 2026-11-27 in English (ISO, as before), 27/11/2026 in pt-BR/es."""
    if _language in (ENGLISH, PSEUDO):
        return moment.strftime("%Y-%m-%d")
    from babel.dates import get_date_format

    pattern = get_date_format("short", locale=_babel_locale()).pattern
    if "yyyy" not in pattern:  # 27/11/26 is ambiguous beside the years a journal spans
        pattern = pattern.replace("yy", "yyyy")
    from babel.dates import format_date

    return format_date(moment, format=pattern, locale=_babel_locale())


def date_time(moment: datetime, seconds: bool = False) -> str:
    """A date and a time of day, the locale's way."""
    return f"{day(moment)} {clock(moment, seconds=seconds)}"
