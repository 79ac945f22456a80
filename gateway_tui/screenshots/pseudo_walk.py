"""`python -m gateway_tui.screenshots.pseudo_walk [SCENARIO...]`: every screen in the pseudo-locale.

In ``qps`` every sentence that went through the catalogue comes back with its vowels accented
(core/text/i18n.py), so a word on screen with a plain vowel is either data (what the demo
gateway answered, what the scenario's user typed) or a sentence the code never marked for
translation. The walk runs the screenshot scenarios — every screen of the app — and lists the
second kind per screen (tests/tui/test_pseudo_walk.py fails on any).
"""

from __future__ import annotations

import ast
import asyncio
import io
import json
import re
import sys
from dataclasses import replace
from pathlib import Path

import httpx
from rich.console import Console

import gateway_tui
from gateway_tui.core.files.app_facts import BINDINGS, KEY_NAMES
from gateway_tui.core.text.i18n import PSEUDO, set_language
from gateway_tui.screenshots import all_scenarios
from gateway_tui.screenshots.base import RedirectTransport, Scenario, build_app
from gateway_tui.tui.textual_private import rendered_screen

PACKAGE = Path(gateway_tui.__file__).parent
WORD = re.compile(r"[A-Za-z]+")
PLAIN_VOWEL = re.compile(r"[aeiouAEIOU]")
# The same in every language: products, protocols, formats, the names keys are shown by.
PROPER = {
    "WhatsApp", "WHATSAPP", "BAILEYS", "Baileys", "Evolution", "gateway", "tui", "API", "URL",
    "JSON", "CSV", "QR", "HTTP", "HTTPS", "http", "https", "GET", "POST", "PUT", "DELETE",
    "PATCH", "Textual", "webhook", "websocket", "jid", "JID", "UTF", "ok", "OK", "id", "ID",
    "esc", "ctrl", "alt", "shift", "enter", "tab", "pgup", "pgdn", "del", "ins", "home", "end",
    # HTTP dates (a Date header) are English in every language.
    "Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun", "Jan", "Feb", "Mar", "Apr", "May", "Jun",
    "Jul", "Aug", "Sep", "Oct", "Nov", "Dec", "GMT",
}  # fmt: skip


def _words_of_literals(folder: Path) -> set[str]:
    """Every word in the string literals of ``folder``'s modules (what the scenarios type)."""
    words: set[str] = set()
    for path in folder.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                words.update(WORD.findall(node.value))
    return words


def fixed_words() -> set[str]:
    words = _words_of_literals(PACKAGE / "screenshots")
    words |= {word for name in KEY_NAMES for word in WORD.findall(name)}
    return words | PROPER


# Ids are data: binding ids ("instances.refresh", in help) and the gateway's field names
# ("readMessages"), the same in every language.
_BINDING_ID = re.compile(r"\b[a-z_]+\.[a-z_]+(?:\([^)]*\))?")
_IDENTIFIER = re.compile(r"^[a-z]+[A-Z][A-Za-z]*$")
_BINDING_IDS = frozenset(BINDINGS)
# Not words at all: placeholders' names ({city}), environment variables (GATEWAY_API_KEY),
# URLs, hex ids (3EB0C767D26EDA), JSON keys.
_NOT_WORDS = re.compile(
    r"\{[A-Za-z_]+\}|\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b|\b\w+://\S+|\b(?=\w*\d)[0-9A-F]{8,}\b"
    r'|"[A-Za-z_]+"(?=\s*:)'  # a JSON key in a request body shown (the JSON view)
)


def _is_edge(character: str) -> bool:
    return character == "…" or ("\u2500" <= character <= "\u259f")


def unmarked(text: str, data: set[str]) -> list[str]:
    """The words of ``text`` no catalogue went through and no data explains (a word cut at a
    cell's edge, beside its "…", counts as the data word it begins or ends)."""
    left = set()
    text = _BINDING_ID.sub(
        lambda m: " " * len(m.group()) if m.group() in _BINDING_IDS else m.group(), text
    )
    text = _NOT_WORDS.sub(lambda m: " " * len(m.group()), text)
    folded = {known.lower() for known in data}
    for match in WORD.finditer(text):
        word = match.group()
        # Under four letters a word tells nothing (a clipped cell's "bas", an id's "eu"): an
        # unmarked sentence always has longer words too.
        if len(word) < 4 or not PLAIN_VOWEL.search(word) or word in data:
            continue
        if (word.isupper() or word.islower()) and word.lower() in folded:
            continue  # data shown in capitals (a list's section title) or as a slug
        if _IDENTIFIER.match(word):
            continue
        # Cut at a cell's edge ("…"), or where a dialog's border covers the screen behind it.
        after = text[match.end() : match.end() + 2]
        # ... or at a column's end with no mark (a table cell clipped: two spaces follow).
        cut_after = _is_edge(after[:1]) or after == "  "
        cut_before = _is_edge(text[max(match.start() - 1, 0) : match.start()])
        if (cut_after and any(known.startswith(word) for known in data)) or (
            cut_before and any(known.endswith(word) for known in data)
        ):
            continue
        left.add(word)
    return sorted(left)


def _values(answer: str) -> set[str]:
    """The words of an answer's values: a JSON answer's keys are the protocol, not data."""
    try:
        document = json.loads(answer)
    except ValueError:
        return set(WORD.findall(answer))
    words: set[str] = set()
    stack = [document]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str):
            words.update(WORD.findall(item))
    return words


def _recording(answers: list[str]):
    """RedirectTransport's request handler, keeping every answer the demo gateway gives as
    text: what the gateway says is data."""
    forward = RedirectTransport.handle_async_request

    async def handle(self: RedirectTransport, request: httpx.Request) -> httpx.Response:
        response = await forward(self, request)
        raw = b"".join([chunk async for chunk in response.aiter_raw()])
        await response.aclose()
        answers.append(httpx.Response(200, headers=response.headers, content=raw).text)
        # Headers both ways are protocol: data to the walk (the request log shows them).
        answers.append(request.content.decode("utf-8", "replace"))  # what the app sent
        headers = [*request.headers.items(), *response.headers.items()]
        answers.append(" ".join(f"{name} {value}" for name, value in headers))
        return httpx.Response(
            response.status_code,
            headers=response.headers,
            stream=httpx.ByteStream(raw),
            extensions=response.extensions,
            request=request,
        )

    return forward, handle


def _screen_text(app) -> str:
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), record=True)
    console.print(rendered_screen(app))
    return console.export_text()


async def walk(scenario: Scenario) -> tuple[list[str], str]:
    """The unmarked words on ``scenario``'s screen, and the screen's text."""
    from gateway_tui.demo.server import DemoServer

    answers: list[str] = []
    forward, recording = _recording(answers)
    RedirectTransport.handle_async_request = recording  # type: ignore[method-assign]
    try:
        with DemoServer(**scenario.server_options) as server:
            app = build_app(server, replace(scenario, language=PSEUDO))
            async with app.run_test(size=scenario.size) as pilot:
                await scenario.run(pilot)
                text = _screen_text(app)
                from textual.widgets import Input

                # What sits in an input is the user's (a profile name, a typed number).
                typed = " ".join(field.value for field in app.screen.query(Input))
                said = set(WORD.findall(repr(vars(server.state)))) | set(WORD.findall(typed))
                said.update(word for answer in answers for word in _values(answer))
                said.update(w for event in app.state.calls for w in WORD.findall(repr(event)))
    finally:
        RedirectTransport.handle_async_request = forward  # type: ignore[method-assign]
        set_language("en")
    return unmarked(text, fixed_words() | said), text


def main(argv: list[str]) -> int:
    wanted = set(argv)
    found = 0
    for scenario in all_scenarios():
        if scenario.language != "en" or (wanted and scenario.name not in wanted):
            continue
        left, _text = asyncio.run(walk(scenario))
        found += bool(left)
        print(f"{scenario.name}: {', '.join(left) if left else 'all marked'}")
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
