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
from gateway_tui.core.files.app_facts import KEY_NAMES
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


def unmarked(text: str, data: set[str]) -> list[str]:
    """The words of ``text`` no catalogue went through and no data explains (a word cut at a
    cell's edge, beside its "…", counts as the data word it begins or ends)."""
    left = set()
    for match in WORD.finditer(text):
        word = match.group()
        if len(word) < 2 or not PLAIN_VOWEL.search(word) or word in data:
            continue
        cut_after = text[match.end() : match.end() + 1] == "…"
        cut_before = text[max(match.start() - 1, 0) : match.start()] == "…"
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
                said = set(WORD.findall(repr(vars(server.state))))
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
        if wanted and scenario.name not in wanted:
            continue
        left, _text = asyncio.run(walk(scenario))
        found += bool(left)
        print(f"{scenario.name}: {', '.join(left) if left else 'all marked'}")
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
