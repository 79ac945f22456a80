"""Builds and checks the translation catalogues (core/text/i18n.py reads what this writes).

    python -m gateway_tui.core.text.catalogues            # compile every language's .mo
    python -m gateway_tui.core.text.catalogues --check    # what is missing, stale or wrong
    python -m gateway_tui.core.text.catalogues --missing FILE...  # untranslated, for those files

The sources are ``gateway_tui/locale/<lang>/<area>.po``, one file per area of the code, so work
on one area never conflicts with another; all of a language's sources compile into one
``gateway_tui/locale/<lang>/LC_MESSAGES/gateway_tui.mo`` (committed: the wheel ships it, and
tests/test_catalogues.py fails when it no longer matches its sources). What the code marks is
found by Babel's extractor: ``_()``, ``N_()``, ``ngettext()`` and the description, the third
positional argument, of every ``Binding(...)``. The demo gateway is not searched: it imitates
real servers, whose messages are never translated.
"""

from __future__ import annotations

import argparse
import io
import re
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir, extract_from_file
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from gateway_tui.core.text.i18n import DOMAIN, ENGLISH, LANGUAGES, LOCALE_DIR

PACKAGE_DIR = LOCALE_DIR.parent
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2), "Binding": (3,)}
# Not searched: the demo imitates real servers (never translated); the screenshot scenarios
# are a development tool outside the wheel.
SKIPPED = ("demo", "screenshots")
# A fixed date in the compiled header: the same sources always give the same bytes.
FIXED_DATE = datetime(2026, 1, 1, tzinfo=UTC)
_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")


def translated_languages() -> list[str]:
    return [code for code in LANGUAGES if code != ENGLISH]


def sources(language: str) -> list[Path]:
    return sorted((LOCALE_DIR / language).glob("*.po"))


def mo_path(language: str) -> Path:
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.mo"


@dataclass(frozen=True)
class Marked:
    """A sentence the code marks: its msgid (a tuple for a plural) and where it was found."""

    msgid: str | tuple[str, str]
    where: str


def _method_map() -> list[tuple[str, str]]:
    return [(f"{skipped}/**.py", "ignore") for skipped in SKIPPED] + [("**.py", "python")]


def extract(files: Iterable[Path] | None = None) -> dict[str | tuple[str, str], list[str]]:
    """Every sentence the code marks, with the places that mark it."""
    found: dict[str | tuple[str, str], list[str]] = {}
    options = {"**.py": {"encoding": "utf-8"}}
    if files is None:
        walked = (
            (filename, lineno, message)
            for filename, lineno, message, _comments, _context in extract_from_dir(
                PACKAGE_DIR, _method_map(), options, KEYWORDS, comment_tags=()
            )
        )
    else:
        walked = (
            (str(path), lineno, message)
            for path in files
            for lineno, message, _comments, _context in extract_from_file(
                "python", path, KEYWORDS, comment_tags=(), options={"encoding": "utf-8"}
            )
        )
    for filename, lineno, message in walked:
        if isinstance(message, tuple):
            if len(message) == 1 or message[1] is None:  # Binding(key, action, description)
                message = message[0]
            else:
                message = (message[0], message[1])
        if not message:
            continue
        found.setdefault(message, []).append(f"{filename}:{lineno}")
    return found


def _key(msgid: str | tuple[str, str]) -> str:
    return msgid[0] if isinstance(msgid, tuple) else msgid


def load(language: str) -> tuple[Catalog, list[str]]:
    """All of a language's sources as one catalogue, and the problems met on the way
    (the same sentence translated two ways in two files)."""
    merged = Catalog(
        locale=language,
        domain=DOMAIN,
        project="gateway-tui",
        creation_date=FIXED_DATE,
        revision_date=FIXED_DATE,
        fuzzy=False,
    )
    problems: list[str] = []
    origin: dict[str, str] = {}
    for path in sources(language):
        with path.open("rb") as handle:
            catalogue = read_po(handle, locale=language, domain=DOMAIN)
        # The sources' plural rule, not Babel's CLDR one for the locale (which gives pt and es a
        # third form, "many", that no source translates: n=2 would find no msgstr[2] and fall
        # back to English).
        merged.mime_headers = [("Plural-Forms", catalogue.plural_forms)]
        for message in catalogue:
            if not message.id:
                continue
            key = _key(message.id)
            existing = merged.get(message.id)
            if existing is not None and existing.string != message.string:
                problems.append(
                    f"{language}: {key!r} is translated two ways ({origin[key]}, {path.name})"
                )
                continue
            merged.add(message.id, message.string, flags=message.flags)
            origin[key] = path.name
    return merged, problems


def compiled(catalogue: Catalog) -> bytes:
    buffer = io.BytesIO()
    # Fuzzy entries are a translator's doubt: they are not shipped (gettext's own rule).
    write_mo(buffer, catalogue, use_fuzzy=False)
    return buffer.getvalue()


def _placeholders(text: str) -> set[str]:
    """The named fields of a str.format sentence ("{{" and "}}" are literal braces)."""
    text = text.replace("{{", "").replace("}}", "")
    return {name.split("!")[0].split(":")[0] for name in _PLACEHOLDER.findall(text)}


def problems_of(language: str, marked: dict[str | tuple[str, str], list[str]]) -> list[str]:
    """What is wrong with one language: sentences the code marks and the catalogue lacks (or
    leaves empty or fuzzy), placeholders that differ, translations the code no longer marks."""
    catalogue, problems = load(language)
    for msgid, places in sorted(marked.items(), key=lambda item: _key(item[0])):
        message = catalogue.get(_key(msgid))
        where = places[0]
        if message is None or not message.string or message.fuzzy:
            problems.append(f"{language}: untranslated {_key(msgid)!r} ({where})")
            continue
        wanted = (
            _placeholders(msgid[0]) | _placeholders(msgid[1])
            if isinstance(msgid, tuple)
            else _placeholders(msgid)
        )
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if isinstance(msgid, tuple) != isinstance(message.id, tuple):
            problems.append(f"{language}: {_key(msgid)!r} is a plural in one place only ({where})")
            continue
        for string in strings:
            extra = _placeholders(string) - wanted
            missing = set() if isinstance(msgid, tuple) else wanted - _placeholders(string)
            if extra or missing:
                problems.append(
                    f"{language}: {_key(msgid)!r} placeholders differ: "
                    f"{sorted(missing)} missing, {sorted(extra)} unknown ({where})"
                )
    keys = {_key(msgid) for msgid in marked}
    for message in catalogue:
        if message.id and _key(message.id) not in keys:
            problems.append(f"{language}: {_key(message.id)!r} is no longer in the code")
    return problems


def stale(language: str) -> bool:
    path = mo_path(language)
    catalogue, _problems = load(language)
    return not path.exists() or path.read_bytes() != compiled(catalogue)


def compile_all() -> list[Path]:
    written = []
    for language in translated_languages():
        catalogue, problems = load(language)
        for problem in problems:
            print(problem, file=sys.stderr)
        path = mo_path(language)
        path.parent.mkdir(parents=True, exist_ok=True)
        data = compiled(catalogue)
        if not path.exists() or path.read_bytes() != data:
            path.write_bytes(data)
            written.append(path)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m gateway_tui.core.text.catalogues")
    parser.add_argument("--check", action="store_true", help="say what is missing or stale")
    parser.add_argument(
        "--missing",
        nargs="+",
        type=Path,
        metavar="FILE",
        help="the untranslated sentences these code files mark",
    )
    args = parser.parse_args(argv)
    if args.missing:
        marked = extract(args.missing)
        lines = [
            problem
            for language in translated_languages()
            for problem in problems_of(language, marked)
            if "is no longer in the code" not in problem
        ]
        print("\n".join(lines) or "nothing missing")
        return 1 if lines else 0
    if args.check:
        marked = extract()
        lines = [p for language in translated_languages() for p in problems_of(language, marked)]
        lines += [
            f"{lang}: the compiled .mo is stale" for lang in translated_languages() if stale(lang)
        ]
        print("\n".join(lines) or f"{len(marked)} sentences, every one translated")
        return 1 if lines else 0
    for path in compile_all():
        print(f"wrote {path.relative_to(PACKAGE_DIR.parent)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
