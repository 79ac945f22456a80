"""No escape sequence from outside reaches the terminal: a walk over every screen with the demo
gateway's hostile data set (escapes, C1 controls, bidi overrides, zero-width characters,
10,000-character names, lone surrogates), with everything the app writes to the terminal driver
captured and checked.

The app's own output is full of escape sequences (colours, cursor moves, the clipboard): what is
allowed is exactly CSI sequences Textual writes (never "erase the screen"), OSC 8 links and OSC 52
whose base64 payload is itself free of control characters. Anything else — an OSC 2 title, an
OSC 52 with the attacker's payload, an 8-bit C1 control — fails the walk.
"""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Iterator

import pytest
from textual.app import App

from gateway_tui.core.draft import Draft, DraftRow, DraftSection
from gateway_tui.core.files.drafts import ComposeStore
from gateway_tui.core.text.sanitize import clipboard_text, printable
from gateway_tui.demo.hostile import ATTACKS, CLIPBOARD, hostile
from gateway_tui.tui.display_filter import ControlCharacterFilter
from gateway_tui.tui.screens.chat_modals import EditMessageScreen, ProfileScreen
from gateway_tui.tui.screens.chats import ChatsScreen
from gateway_tui.tui.screens.composer import ComposerScreen
from gateway_tui.tui.screens.confirm import ConfirmScreen
from gateway_tui.tui.screens.connect import ConnectScreen
from gateway_tui.tui.screens.groups import GroupPickerScreen
from gateway_tui.tui.screens.help import HelpScreen
from gateway_tui.tui.screens.instance import InstanceScreen
from gateway_tui.tui.screens.messages import MessagesScreen
from gateway_tui.tui.screens.participants import ParticipantsScreen
from tests.support import (
    CapturingDriver,
    make_app,
    make_config,
    posted_notices,
    screen_text,
    wait_for,
)

SIZE = (120, 36)


async def until(pilot, condition) -> None:
    """Wait for ``condition``: it ends as soon as it holds; the limit is for a very busy machine."""
    await wait_for(pilot, condition)


BAKERY = "5511912345678"
JONAS = "4915112340001"

_CSI = re.compile(r"\x1b\[[0-9;?<=>:]*[ -/]*[@-~]")
_OSC = re.compile(r"\x1b\](?P<body>[^\x07\x1b]*)(?:\x07|\x1b\\)")


def unexpected_sequences(output: str, copied: tuple[str, ...] = ()) -> list[str]:
    """Every control sequence or control character in ``output`` the app must not write.

    ``copied``: what the app itself put on the clipboard (OSC 52 is allowed for exactly that).
    """
    problems = [repr(m.group()) for m in _CSI.finditer(output) if m.group().endswith(("J", "K"))]
    problems += [repr(c) for c in re.findall("[\x80-\x9f]", output)]
    for match in _OSC.finditer(output):
        body = match.group("body")
        if body.startswith("52;c;"):
            payload = base64.b64decode(body[5:]).decode("utf-8")
            if payload not in copied or printable(payload, multiline=True) != payload:
                problems.append(f"clipboard set to {payload!r}")
        elif not body.startswith(("8;", "22;")):  # links, the mouse pointer's shape
            problems.append(repr(match.group()))
    rest = _OSC.sub("", _CSI.sub("", output))
    problems += [repr(rest[i : i + 12]) for i in range(len(rest)) if rest[i] == "\x1b"]
    problems += [repr(c) for c in re.findall("[\x00-\x08\x0b-\x1f\x7f]", rest.replace("\x1b", ""))]
    return problems


@pytest.fixture
def hostile_server() -> Iterator:
    from gateway_tui.demo.server import DemoServer

    with DemoServer(hostile=True) as server:
        yield server


@pytest.fixture
def captured() -> Iterator[list[str]]:
    CapturingDriver.outputs = []
    yield CapturingDriver.outputs


@pytest.fixture
def copied(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What reached Textual's copy_to_clipboard (after the app's own cleaning)."""
    texts: list[str] = []
    original = App.copy_to_clipboard

    def record(self: App, text: str) -> None:
        texts.append(text)
        original(self, text)

    monkeypatch.setattr(App, "copy_to_clipboard", record)
    return texts


def hostile_app(server):
    app = make_app(make_config(server))
    app.driver_class = CapturingDriver
    return app


def name_starting(app, prefix: str) -> str:
    return next(
        i.instance_name for i in app.state.instances.value if i.instance_name.startswith(prefix)
    )


def plant_local_files(server, instance: str) -> None:
    """A draft, a template and a sent history full of attacks (local files are outside too)."""
    store = ComposeStore(server.url, instance)
    nasty = hostile("local \ud800 text")
    draft = Draft(
        recipient=BAKERY,
        title=nasty,
        description=nasty,
        button_text="Pick",
        footer=nasty,
        sections=[DraftSection(title=nasty, rows=[DraftRow(title=nasty, description=nasty)])],
    )
    store.save_template(hostile("template"), draft)
    store.dir.mkdir(parents=True, exist_ok=True)
    entry = {
        "recipient": BAKERY,
        "sentAt": "2026-01-01T10:00:00",
        "body": {"number": BAKERY, "listMessage": {"title": nasty}},
        "result": {
            "key": {"remoteJid": f"{BAKERY}@s.whatsapp.net", "fromMe": True, "id": hostile("3EB0")},
            "status": "PENDING",
        },
    }
    history = {"version": 1, "entries": [entry]}
    (store.dir / "history.json").write_text(json.dumps(history), encoding="ascii")


async def test_hostile_data_never_reaches_the_terminal(hostile_server, captured, copied):
    app = hostile_app(hostile_server)
    async with app.run_test(size=SIZE, headless=False) as pilot:
        await until(pilot, lambda: bool(app.state.instances.value))
        await pilot.pause()
        # The instance list, sorted, filtered, copied (clipboard), then one opened.
        await pilot.press("s", "c", "y")
        sales = name_starting(app, "sales-eu")
        plant_local_files(hostile_server, sales)
        app.open_instance(sales)
        await until(pilot, lambda: isinstance(app.screen, InstanceScreen))
        await until(pilot, lambda: app.state.settings_of(sales).value is not None)
        # Groups, participants, invite code, subject and invite dialogs, export.
        await pilot.press("g")
        await until(pilot, lambda: isinstance(app.screen, GroupPickerScreen))
        await until(pilot, lambda: bool(app.state.groups_of(sales).value))
        await pilot.press("y", "d", "enter")
        await until(pilot, lambda: isinstance(app.screen, ParticipantsScreen))
        jid = app.screen.group_jid
        await until(pilot, lambda: app.state.participants_of(sales, jid).value is not None)
        await pilot.press("i", "y", "c", "d")
        await pilot.pause()
        for key in ("s", "n", "e"):
            await pilot.press(key)
            await pilot.pause()
            await pilot.press("escape")
            await pilot.pause()
        await pilot.press("escape", "escape")
        await until(pilot, lambda: isinstance(app.screen, InstanceScreen))
        # The composer with a hostile draft, its JSON and list previews, templates, history.
        await pilot.press("m")
        await until(pilot, lambda: isinstance(app.screen, ComposerScreen))
        for key in ("f2", "f3", "f6", "escape", "f7", "escape", "f8", "escape"):
            await pilot.press(key)
            await pilot.pause()
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, InstanceScreen))
        # Chats and a conversation (hostile names and texts), the edit dialog on one of the
        # instance's own texts, and a business profile full of attacks.
        await pilot.press("t")
        await until(pilot, lambda: isinstance(app.screen, ChatsScreen))
        chats = app.screen
        await until(pilot, lambda: chats.table.display and chats.table.cursor_row is not None)
        assert chats.table.move_cursor_to_key(f"{JONAS}@s.whatsapp.net")
        await pilot.press("e")  # the edit of the chat's newest own text, straight away
        # An edit older than WhatsApp's 15 minutes asks first: yes.
        await until(pilot, lambda: isinstance(app.screen, (ConfirmScreen, EditMessageScreen)))
        if isinstance(app.screen, ConfirmScreen):
            await pilot.press("y")
        await until(pilot, lambda: isinstance(app.screen, EditMessageScreen))
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is chats)
        await pilot.press("enter")  # the conversation, and the same dialog from there
        await until(pilot, lambda: isinstance(app.screen, MessagesScreen))
        conversation = app.screen
        await until(
            pilot, lambda: app.actions.chats.messages_of(sales, conversation.jid).value is not None
        )
        await pilot.press("e")
        # An edit older than WhatsApp's 15 minutes asks first: yes.
        await until(pilot, lambda: isinstance(app.screen, (ConfirmScreen, EditMessageScreen)))
        if isinstance(app.screen, ConfirmScreen):
            await pilot.press("y")
        await until(pilot, lambda: isinstance(app.screen, EditMessageScreen))
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is chats)
        assert chats.table.move_cursor_to_key(f"{BAKERY}@s.whatsapp.net")
        await pilot.press("p")
        await until(pilot, lambda: isinstance(app.screen, ProfileScreen))
        await until(pilot, lambda: app.state.profiles.get((sales, BAKERY)) is not None)
        await until(pilot, lambda: "email" in screen_text(app))
        await pilot.press("escape", "escape", "escape")
        await pilot.pause()
        # The request log (curl copy), help, a confirmation naming an instance, the connect form.
        await pilot.press("f12", "c", "escape", "question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen))
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("ctrl+d")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("n")
        await pilot.pause()
        app.push_screen(ConnectScreen())
        await pilot.pause()
        await pilot.press("escape")
        # The palette lists the instances by name.
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"open")
        await until(pilot, lambda: "Open instance" in screen_text(app))
        await pilot.press("escape")
        await pilot.pause()
        # A gateway error quoting a hostile name, as a notification.
        missing = hostile("gone")
        told = len(posted_notices(app))
        app.open_instance(missing)
        await until(pilot, lambda: len(posted_notices(app)) > told)
        await pilot.pause()
        shown_screens = {type(s).__name__ for s in app.screen_stack}
    output = "".join(captured)
    assert output, "the capturing driver saw no output"
    assert len(copied) >= 5  # names, ids, JIDs, numbers, invite URL, curl
    assert unexpected_sequences(output, tuple(copied)) == []
    assert "\u241b" in output  # the escapes were shown, as "␛"
    assert "pwned" in output  # …followed by the rest of the text, harmlessly
    assert shown_screens  # the walk ended on a live app


def test_the_check_catches_each_attack():
    """The check itself would fail on what the attacks write (so the walk can fail)."""
    for attack in ("\x1b]2;t\x07", "\x1b[2J", "\x9b31m", CLIPBOARD):
        assert unexpected_sequences("ok " + attack)
    nasty = "a\x1b[2J"
    encoded = base64.b64encode(nasty.encode()).decode()
    assert unexpected_sequences(f"\x1b]52;c;{encoded}\x07", (nasty,))
    fine = base64.b64encode(b"sales-eu").decode()
    assert not unexpected_sequences(f"\x1b]52;c;{fine}\x07", ("sales-eu",))
    assert not unexpected_sequences("\x1b[1;2H\x1b[38;2;1;2;3mhi\x1b[0m")


def test_printable_shows_every_control_and_drops_bidi():
    shown = printable(ATTACKS + "\ud800\n\t")
    assert not re.search("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]", shown)
    assert shown.count("\u241b") == ATTACKS.count("\x1b")
    assert "\u2407" in shown  # BEL
    assert shown.endswith("\ufffd  ")
    assert printable("a\nb", multiline=True) == "a\nb"
    assert clipboard_text("x\x1b]52;c;AA\x07") == "x\u241b]52;c;AA\u2407"
    assert printable("plain text ünïcode 中文") == "plain text ünïcode 中文"


def test_the_line_filter_keeps_the_width_and_shows_placeholders():
    from rich.segment import Segment
    from textual.color import Color

    segments = [Segment("ab\x1b[2Jc"), Segment("    ")]
    cleaned = ControlCharacterFilter().apply(segments, Color(0, 0, 0))
    text = "".join(s.text for s in cleaned)
    assert text == "ab\u241b[2Jc   "
    # No spare cells: the control is dropped rather than widening the line.
    tight = ControlCharacterFilter().apply([Segment("ab\x1bc")], Color(0, 0, 0))
    assert "".join(s.text for s in tight) == "abc"


def test_printable_text_keeps_styles():
    from rich.text import Text

    from gateway_tui.core.text.sanitize import printable_text

    text = Text("ab\x1b[2J", style="bold")
    text.stylize("red", 0, 2)
    shown = printable_text(text)
    assert shown.plain == "ab\u241b[2J" and shown.style == "bold"
    assert shown.spans == text.spans
    assert printable_text(Text("plain")).plain == "plain"
