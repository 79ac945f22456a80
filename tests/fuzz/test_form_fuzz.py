"""Every form takes anything: arbitrary unicode never crashes the app or breaks its layout, and is
either sent verbatim or refused with the reason next to the field. Server text is shown as text.

One running app per form; hypothesis drives it from a worker thread (its test function is
synchronous), handing each example to the app's event loop and waiting for the check to finish.
Values are set into the fields directly (10,000 characters typed through Pilot would take
minutes) and a few short ones are typed key by key. After each example: the screen still renders
(``export_screenshot``), the form's key widgets still have a size and still fit the terminal, and
what was entered either reached the demo gateway exactly as the form says it sends it, or the
field's own error line says why it was not sent.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextvars
import csv
import json
import tomllib
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from textual.geometry import Region
from textual.widget import Widget
from textual.widgets import Input, Select, Static, TextArea

from gateway_tui.core.api.validation import group_jid_from, normalise_number, parse_delay
from gateway_tui.core.client_factory import client_for
from gateway_tui.core.draft import PRESENCES, Draft, DraftRow, DraftSection
from gateway_tui.core.files.config import config_path, load_config, validate_gateway_url
from gateway_tui.core.files.drafts import ComposeStore
from gateway_tui.demo import data as demo_data
from gateway_tui.tui.app import GatewayApp
from gateway_tui.tui.screens.chat_modals import EditMessageScreen, ProfileScreen
from gateway_tui.tui.screens.composer import ComposerScreen
from gateway_tui.tui.screens.confirm import ConfirmScreen
from gateway_tui.tui.screens.connect import ConnectScreen
from gateway_tui.tui.screens.group_modals import (
    ExportScreen,
    InviteScreen,
    SubjectScreen,
    resolve_export_path,
)
from gateway_tui.tui.screens.instance import InstanceScreen
from gateway_tui.tui.screens.messages import MessagesScreen
from gateway_tui.tui.screens.participants import CSV_HEADER, ParticipantsScreen
from gateway_tui.tui.textual_private import unhandled_exception
from gateway_tui.tui.widgets.record_table import RecordTable
from tests.navigation import open_group_jid_entry, open_participants
from tests.support import PROCESS_LIMIT, notices, screen_text, wait_for

INSTANCE = "sales-eu"
BIG = "120363012345678901@g.us"
JONAS = "4915112340001"
SIZE = (140, 45)
EXAMPLES = 15
LONG = 10_000

# What each form gets besides hypothesis's own unicode: markup, right-to-left text and
# direction overrides, emoji sequences, control characters, zero-width runs, 10,000 characters.
SPECIAL = [
    "[bold]x[/bold]",
    "[/]",
    "[link=https://evil.example]click[/link] [bold red]x[/]",
    "مرحبا بالعالم",
    "\u202egnp.exe",
    "שלום [b]עולם[/b]",
    "👩‍👩‍👧‍👦🏳️‍🌈🇧🇷",
    "\x00\x1b[31mred\x07\x7f",
    "a\tb\nc\rd",
    "\u200b\u200d\ufeff",
    " ",
    "",
    "x" * LONG,
    "中" * LONG,
    "4915112340001",
]
TEXT = st.one_of(
    st.sampled_from(SPECIAL),
    st.text(max_size=60),
    st.text(st.characters(codec="utf-8", categories=["Cc", "Zs", "Mn", "So"]), max_size=30),
    st.builds(lambda c: c * LONG, st.characters(codec="utf-8", exclude_categories=["Cs"])),
)
# Typed key by key through Pilot (so the widgets' own key handling sees them too).
# (Pilot cannot type emoji or format characters: those are set, not typed, above.)
TYPED = ["[b]ü", "é [/]", "١٢٣"]

MARKUP = "[bold red]x[/] [link=https://evil.example]y[/link]"


# --- driving hypothesis from a thread ---------------------------------------------------------


async def fuzz(
    check: Callable[..., Awaitable[None]],
    *strategies: st.SearchStrategy,
    max_examples: int = EXAMPLES,
) -> int:
    """Run ``check(*values)`` on this event loop for each example hypothesis draws."""
    loop = asyncio.get_running_loop()
    context = contextvars.copy_context()  # the running app (Textual keeps it in a contextvar)
    tried = 0

    def on_loop(*values: Any) -> None:
        done: concurrent.futures.Future = concurrent.futures.Future()

        def start() -> None:
            task = loop.create_task(check(*values))

            def finish(task: asyncio.Task) -> None:
                if task.cancelled():
                    done.cancel()
                elif task.exception() is not None:
                    done.set_exception(task.exception())
                else:
                    done.set_result(None)

            task.add_done_callback(finish)

        loop.call_soon_threadsafe(start, context=context)
        done.result(timeout=PROCESS_LIMIT)

    @settings(
        max_examples=max_examples,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(st.tuples(*strategies))
    def run(values: tuple) -> None:
        nonlocal tried
        tried += 1
        on_loop(*values)

    await loop.run_in_executor(None, run)
    return tried


# --- layout and reasons -----------------------------------------------------------------------


def fits(app: GatewayApp, *widgets: Widget, inside: bool = True) -> None:
    """The screen renders, and each widget has a size and lies within the terminal."""
    assert app.export_screenshot()  # the whole screen still renders to a picture
    screen = Region(0, 0, *app.size)
    for widget in widgets:
        region = widget.region
        assert region.width > 0 and region.height > 0, f"#{widget.id} has no size: {region}"
        assert region.width <= screen.width, f"#{widget.id} is wider than the terminal"
        if inside:
            assert screen.contains_region(region), f"#{widget.id} is off screen: {region}"


def said(widget: Static) -> str:
    return str(widget.render()) if widget.display else ""


def refused(widget: Static) -> bool:
    """The field's error line gives a reason (✕, or the yellow "nothing to change")."""
    text = said(widget)
    return "✕" in text or "nothing to change" in text


def report(capsys: pytest.CaptureFixture, form: str, tried: int, results: dict[str, int]) -> None:
    """One line per form for the closing note: inputs tried and what became of them."""
    outcomes = ", ".join(f"{count} {outcome}" for outcome, count in sorted(results.items()))
    with capsys.disabled():
        print(f"\nform fuzz, {form}: {sum(results.values())} inputs ({tried} drawn): {outcomes}")


def tally(results: dict[str, int], outcome: str) -> None:
    results[outcome] = results.get(outcome, 0) + 1


async def put(pilot, widget: Input | TextArea, value: str, typed: bool) -> None:
    """Set the field's value, or type it key by key into the emptied field."""
    if typed:
        widget.focus()
        await pilot.pause()
    if isinstance(widget, TextArea):
        widget.text = "" if typed else value
    else:
        widget.value = "" if typed else value
    if typed:
        await pilot.press(*value)
    await pilot.pause()


# --- connect: URL, key, profile name ----------------------------------------------------------


async def test_connect_form_takes_anything(monkeypatch, capsys):
    received: list[httpx.Request] = []

    async def probe(url: str, key: str, **settings) -> int:
        """The real probe's client on a transport that records what a gateway would get."""

        def answer(request: httpx.Request) -> httpx.Response:
            received.append(request)
            return httpx.Response(200, json=[])

        transport = httpx.MockTransport(answer)
        async with client_for(
            settings.get("config"), url=url, api_key=key, retry_delays=(), transport=transport
        ) as client:
            return len(await client.instances.fetch())

    monkeypatch.setattr("gateway_tui.tui.screens.connect.probe_gateway", probe)
    app = GatewayApp(load_config())
    results: dict[str, int] = {}
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ConnectScreen)
        fields = {name: screen.query_one(f"#{name}", Input) for name in FORM}
        result = screen.query_one("#connect-result", Static)
        lines = [screen.query_one("#url-error", Static), screen.query_one("#key-error", Static)]
        buttons = [screen.query_one(f"#{name}") for name in ("test", "save", "connect")]

        async def check(field: str, value: str, typed: bool = False) -> None:
            for name, default in FORM.items():
                fields[name].value = default
            await put(pilot, fields[field], value, typed)
            form = {name: widget.value for name, widget in fields.items()}
            received.clear()
            result.update("")
            await pilot.press("ctrl+r")
            await wait_for(pilot, lambda: bool(said(result)) or any(map(said, lines)))
            fits(app, *fields.values(), *buttons, inside=False)
            if received:
                url = validate_gateway_url(form["url"])
                key = form["api-key"].strip()
                assert [str(r.url) for r in received] == [f"{url}/instance/fetchInstances"]
                assert received[0].headers["apikey"] == key
                assert "✓ Connected" in said(result)
                await pilot.press("ctrl+s")
                await pilot.pause()
                assert "✓ Saved" in said(result), said(result)
                saved = tomllib.loads(config_path().read_text(encoding="utf-8"))
                name = form["profile-name"].strip() or "default"
                assert saved["profiles"][name] == {"url": url, "api_key": key}
                tally(results, "sent")
            else:
                assert any(refused_here(line) for line in lines), (said(result), form)
                tally(results, "refused")

        tried = await fuzz(check, st.sampled_from(list(FORM)), TEXT, max_examples=18)
        for field, value in zip(FORM, TYPED, strict=True):
            await check(field, value, typed=True)
    report(capsys, "connect (url, key, profile)", tried, results)
    assert tried >= 18 and results.get("sent") and results.get("refused"), results


FORM = {"url": "https://gw.example.com", "api-key": "k-123", "profile-name": "p"}


async def test_connect_save_on_a_corrupt_config_file_says_why():
    """The app starts on the connect screen over a corrupt config; saving must not crash."""
    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('default_profile = "prod"\nrefresh_interval = = 3\n')
    app = GatewayApp(load_config())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ConnectScreen)
        for name, value in FORM.items():
            screen.query_one(f"#{name}", Input).value = value
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.is_running and unhandled_exception(app) is None
        result = said(screen.query_one("#connect-result", Static))
        assert "✕ Could not save the profile" in result and "line 2" in result
    assert path.read_text().endswith("= = 3\n")  # left as it was, for the user to repair


def refused_here(line: Static) -> bool:
    """A reason next to the field (the connect form words them without ✕)."""
    return bool(said(line))


# --- the group JID entry of the picker --------------------------------------------------------


async def test_group_jid_entry_takes_anything(app_for, capsys):
    app = app_for()
    results: dict[str, int] = {}
    async with app.run_test(size=SIZE) as pilot:
        picker = await open_group_jid_entry(app, pilot)
        field = picker.query_one("#jid-input", Input)
        preview = picker.query_one("#jid-preview", Static)

        async def check(value: str, typed: bool = False) -> None:
            field.focus()
            await put(pilot, field, value, typed)
            fits(app, field, preview, picker.query_one("#groups-table", RecordTable))
            calls = len(app.state.calls)
            await pilot.press("enter")
            await pilot.pause()
            if isinstance(app.screen, ParticipantsScreen):
                jid = group_jid_from(value)
                assert app.screen.group_jid == jid
                await wait_for(pilot, lambda: len(app.state.calls) > calls)
                sent = [e for e in app.state.calls if e.path.startswith("/group/participants/")]
                query = parse_qs(urlsplit(sent[-1].url).query)
                assert query["groupJid"] == [jid]  # what the gateway received
                await pilot.press("escape")
                await pilot.pause()
                assert app.screen is picker
                tally(results, "sent")
            else:
                assert app.screen is picker
                assert "✕" in said(preview) or not value.strip(), said(preview)
                tally(results, "refused")

        tried = await fuzz(check, st.one_of(TEXT, st.from_regex(r"\A[0-9]{5,20}(-[0-9]{3})?\Z")))
        for value in (*TYPED, "120363012345678901"):
            await check(value, typed=True)
    report(capsys, "group JID entry", tried, results)
    assert tried >= EXAMPLES and results.get("sent") and results.get("refused"), results


# --- subject, invite and CSV export on the participants screen --------------------------------


async def test_subject_dialog_takes_anything(app_for, demo_server, capsys):
    app = app_for()
    group = demo_server.state.instances[INSTANCE].groups[BIG]
    results: dict[str, int] = {}
    async with app.run_test(size=SIZE) as pilot:
        participants = await open_participants(app, pilot)

        async def check(value: str, typed: bool = False) -> None:
            if not isinstance(app.screen, SubjectScreen):
                await pilot.press("s")
            dialog = app.screen
            assert isinstance(dialog, SubjectScreen)
            field = dialog.query_one("#subject-input", Input)
            note = dialog.query_one("#subject-error", Static)
            buttons = dialog.query_one("#subject-save"), dialog.query_one("#subject-cancel")
            await put(pilot, field, value, typed)
            fits(app, field, *buttons)
            before = group.subject
            await pilot.press("ctrl+s")
            await wait_for(pilot, lambda: not dialog.busy)
            if app.screen is participants:
                assert group.subject == value.strip() != before  # the gateway has it verbatim
                assert app.state.subject_of(INSTANCE, BIG) == value.strip()
                if value.isprintable() and "[" in value and len(value) < 60:
                    assert value.strip() in screen_text(app)  # as text, not markup
                tally(results, "sent")
            else:
                fits(app, field, note, *buttons)
                assert refused(note), said(note)
                assert group.subject == before
                tally(results, "refused")

        tried = await fuzz(check, TEXT)
        for value in TYPED:
            await check(value, typed=True)
    report(capsys, "subject", tried, results)
    assert tried >= EXAMPLES and results.get("sent") and results.get("refused"), results


async def test_invite_dialog_takes_anything(app_for, demo_server, capsys):
    app = app_for()
    instance = demo_server.state.instances[INSTANCE]
    jonas = f"{JONAS}@s.whatsapp.net"
    results: dict[str, int] = {}
    async with app.run_test(size=SIZE) as pilot:
        await open_participants(app, pilot)
        await pilot.press("n")
        dialog = app.screen
        assert isinstance(dialog, InviteScreen)
        numbers = dialog.query_one("#invite-numbers", TextArea)
        description = dialog.query_one("#invite-description", Input)
        check_line = dialog.query_one("#invite-check", Static)
        result = dialog.query_one("#invite-result", Static)
        buttons = dialog.query_one("#invite-send"), dialog.query_one("#invite-close")

        async def check(field: str, value: str, typed: bool = False) -> None:
            numbers.text, description.value = JONAS, "Join us"
            await put(pilot, numbers if field == "numbers" else description, value, typed)
            fits(app, numbers, description, *buttons)
            result.update("")
            calls = len(app.state.calls)
            chat = instance.chats.get(jonas)
            messages = len(chat.messages) if chat else 0
            await pilot.press("ctrl+s")
            await wait_for(pilot, lambda: not dialog.busy)
            fits(app, numbers, description, *buttons)
            if len(app.state.calls) > calls:
                await wait_for(pilot, lambda: bool(said(result)))
                if "✓ Invite sent" in said(result):
                    sent = app.state.calls[-1].request_body
                    assert sent["description"] == description.value
                    if field == "description":  # the gateway sent the text it was given
                        chat = instance.chats[jonas]
                        assert len(chat.messages) == messages + 1
                        assert chat.messages[-1].text.startswith(description.value + "\n\n")
                    tally(results, "sent")
                else:
                    assert "✕" in said(result), said(result)  # the gateway refused: why
                    tally(results, "refused by the gateway")
            else:  # refused here: the numbers (check line) or a blank description (result)
                assert any(
                    "✕" in said(w) and "nothing was sent" in said(w) for w in (check_line, result)
                )
                tally(results, "refused")

        tried = await fuzz(check, st.sampled_from(["numbers", "description"]), TEXT)
        for field, value in (("numbers", "+49 151 x"), ("description", TYPED[0])):
            await check(field, value, typed=True)
    report(capsys, "invite (numbers, description)", tried, results)
    assert tried >= EXAMPLES and results.get("sent") and results.get("refused"), results


async def test_csv_export_path_takes_anything(app_for, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path))
    app = app_for()
    results: dict[str, int] = {}
    # Names only: a "/" could reach any folder (the tests may run as root), "~" the home.
    names = TEXT.filter(lambda v: "/" not in v and "\\" not in v and not v.startswith("~"))
    async with app.run_test(size=SIZE) as pilot:
        participants = await open_participants(app, pilot)

        async def check(value: str, typed: bool = False) -> None:
            if not isinstance(app.screen, ExportScreen):
                await pilot.press("e")
            dialog = app.screen
            assert isinstance(dialog, ExportScreen)
            field = dialog.query_one("#export-path", Input)
            note = dialog.query_one("#export-preview", Static)
            buttons = dialog.query_one("#export-save"), dialog.query_one("#export-cancel")
            await put(pilot, field, value, typed)
            fits(app, field, *buttons)
            await pilot.press("ctrl+s")
            await pilot.pause()
            if isinstance(app.screen, ConfirmScreen):  # exists: never replaced without asking
                await pilot.press("n")
                await pilot.pause()
                tally(results, "asked")
            elif app.screen is participants:
                path = resolve_export_path(value)
                with path.open(encoding="utf-8", newline="") as handle:
                    assert next(csv.reader(handle)) == list(CSV_HEADER)
                path.unlink()
                tally(results, "written")
            else:
                fits(app, field, note, *buttons)
                assert refused(note), said(note)
                tally(results, "refused")

        tried = await fuzz(check, names)
        for value in (*TYPED, "a\x00b.csv"):
            await check(value, typed=value != "a\x00b.csv")
    report(capsys, "CSV export path", tried, results)
    assert tried >= EXAMPLES and results.get("written") and results.get("refused"), results


# --- the composer: every text field, the delay, the presence ---------------------------------


def base_draft() -> Draft:
    return Draft(
        recipient=JONAS,
        title="Lunch menu",
        description="Pick one",
        button_text="See the menu",
        sections=[DraftSection("Pizzas", [DraftRow("Margherita", "Tomato")])],
    )


# Where each field lands in the list message the gateway stores.
SENT_AS: dict[str, Callable[[dict], Any]] = {
    "title": lambda m: m["title"],
    "description": lambda m: m["description"],
    "button": lambda m: m["buttonText"],
    "footer": lambda m: m.get("footerText"),
    "section": lambda m: m["sections"][0]["title"],
    "row title": lambda m: m["sections"][0]["rows"][0]["title"],
    "row description": lambda m: m["sections"][0]["rows"][0].get("description"),
    "rowId": lambda m: m["sections"][0]["rows"][0]["rowId"],
}


async def test_composer_fields_take_anything(app_for, demo_server, capsys):
    ComposeStore(demo_server.url, INSTANCE).save_draft(base_draft())
    app = app_for()
    instance = demo_server.state.instances[INSTANCE]
    results: dict[str, int] = {}
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        app.open_composer(INSTANCE)
        await pilot.pause()
        composer = app.screen
        assert isinstance(composer, ComposerScreen)

        def widgets() -> dict[str, tuple[Input, Static]]:
            section = composer.draft.sections[0]
            row = section.rows[0].uid
            named = {
                key: (f"#f-{key}", f"#err-{'options' if key == 'delay' else key}")
                for key in ("recipient", "title", "description", "button", "footer", "delay")
            }
            named |= {
                "section": (f"#sec-{section.uid}-title", f"#err-sec-{section.uid}"),
                "row title": (f"#row-{row}-title", f"#err-row-{row}"),
                "row description": (f"#row-{row}-desc", f"#err-row-{row}"),
                "rowId": (f"#row-{row}-id", f"#err-row-{row}"),
            }
            return {
                key: (composer.query_one(field, Input), composer.query_one(line, Static))
                for key, (field, line) in named.items()
            }

        async def check(field: str, value: str, typed: bool = False) -> None:
            await composer.replace_draft(base_draft(), what="Reset for the next example")
            await pilot.pause()
            box, line = widgets()[field]
            await put(pilot, box, value, typed)
            fits(app, box, inside=False)
            draft = composer.draft
            if draft.check().ok and draft.delay_ms > 100:
                # Valid, but the gateway would hold the request that long: the JSON body (what
                # ctrl+s sends, shown by f2) must carry it verbatim.
                assert draft.body()["options"]["delay"] == int(value.strip())
                tally(results, "checked in the body")
                return
            result = composer.last_result
            await pilot.press("ctrl+s")
            if isinstance(app.screen, ConfirmScreen):  # the same message again: yes
                await pilot.press("y")
            await wait_for(pilot, lambda: not composer.sending)
            fits(app, box, inside=False)
            if composer.last_result is not result:
                key = composer.last_result.key
                message = instance.chats[key.remote_jid].find(key.id)
                if field == "recipient":
                    assert key.remote_jid.startswith(normalise_number(value))
                elif field == "delay":
                    options = composer._send_body.get("options") or {}
                    assert options.get("delay") == parse_delay(value)[0]
                else:
                    wanted = value or ("margherita" if field == "rowId" else None)
                    assert SENT_AS[field](message.list_message) == wanted, field
                tally(results, "sent")
            else:
                status = said(composer.query_one("#composer-status", Static))
                assert "✕ Not sent" in status, status
                assert "✕" in said(line), f"{field}: no reason next to it ({said(line)!r})"
                tally(results, "refused")

        tried = await fuzz(check, st.sampled_from(list(widgets())), TEXT, max_examples=24)
        for field, value in zip(("title", "delay", "rowId"), TYPED, strict=True):
            await check(field, value, typed=True)
    report(capsys, "composer (10 text fields and the delay)", tried, results)
    assert tried >= 24 and results.get("sent") and results.get("refused"), results


async def test_composer_presence_from_a_hand_edited_draft(app_for, demo_server):
    """Presence is a choice, not free text: whatever a draft file holds opens as a choice."""
    store = ComposeStore(demo_server.url, INSTANCE)
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))

        async def check(value: str) -> None:
            raw = base_draft().to_json() | {"presence": value, "delay": "50"}
            store.draft_path.parent.mkdir(parents=True, exist_ok=True)
            store.draft_path.write_text(json.dumps(raw), encoding="utf-8")
            app.open_composer(INSTANCE)
            await pilot.pause()
            composer = app.screen
            assert isinstance(composer, ComposerScreen)
            select = composer.query_one("#f-presence", Select)
            fits(app, select, inside=False)
            wanted = value if value in PRESENCES else None
            assert (None if select.value is Select.NULL else select.value) == wanted
            await pilot.press("ctrl+s")
            if isinstance(app.screen, ConfirmScreen):
                await pilot.press("y")
            await wait_for(pilot, lambda: composer.last_result is not None)
            sent = [e for e in app.state.calls if e.path.startswith("/message/sendList/")][-1]
            assert sent.request_body["options"].get("presence") == wanted
            await pilot.press("escape")
            await pilot.pause()

        await fuzz(check, st.one_of(st.sampled_from([*PRESENCES, ""]), TEXT), max_examples=6)


# --- the chat edit dialog ---------------------------------------------------------------------


async def test_edit_dialog_takes_anything(app_for, demo_server, capsys):
    app = app_for()
    instance = demo_server.state.instances[INSTANCE]
    results: dict[str, int] = {}
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        # The instance's own text message in Jonas's chat (WhatsApp edits only text).
        jid, message_id = f"{JONAS}@s.whatsapp.net", "3EB0C0FFEE0123456789"
        message = instance.chats[jid].find(message_id)
        chats = MessagesScreen(INSTANCE, jid)  # his newest message is chosen
        app.push_screen(chats)
        await pilot.pause()
        await wait_for(pilot, lambda: chats.view.selected is not None)
        assert chats.view.selected.id == message_id

        asked = {"old": False}

        async def check(value: str, typed: bool = False) -> None:
            if not isinstance(app.screen, EditMessageScreen):
                await pilot.press("e")
                # An edit older than WhatsApp's 15 minutes asks first: yes.
                await wait_for(
                    pilot, lambda: isinstance(app.screen, (ConfirmScreen, EditMessageScreen))
                )
                asked["old"] = isinstance(app.screen, ConfirmScreen)
                if asked["old"]:
                    await pilot.press("y")
                    await wait_for(pilot, lambda: isinstance(app.screen, EditMessageScreen))
            dialog = app.screen
            assert isinstance(dialog, EditMessageScreen)
            field = dialog.query_one("#edit-text", Input)
            note = dialog.query_one("#edit-note", Static)
            await put(pilot, field, value, typed)
            fits(app, field)
            before = message.text
            await pilot.press("ctrl+s")
            await wait_for(pilot, lambda: not dialog.busy)
            if app.screen is chats:
                assert message.text == value and message.edited  # verbatim, not stripped
                record = app.state.chats_of(INSTANCE).get(jid)
                if asked["old"]:  # past the 15 minutes the customer never sees it: state as was
                    assert record is None or message_id not in record.edited
                else:
                    assert record is not None and record.texts[message_id] == value
                tally(results, "sent")
            else:
                fits(app, field, note)
                assert refused(note), said(note)
                assert message.text == before
                tally(results, "refused")

        tried = await fuzz(check, TEXT)
        for value in TYPED:
            await check(value, typed=True)
    report(capsys, "chat edit", tried, results)
    assert tried >= EXAMPLES and results.get("sent") and results.get("refused"), results


# --- server text is data, not markup ----------------------------------------------------------


async def test_server_text_with_markup_shows_literally(app_for, demo_server, monkeypatch):
    state = demo_server.state
    state.instances[INSTANCE].profile_name = "[red]x[/]"  # a short column in the table
    state.instances[INSTANCE].profile_status = MARKUP
    state.instances[INSTANCE].groups[BIG].subject = MARKUP
    state.create_instance(MARKUP, None)
    profile = demo_data.BUSINESS_PROFILES["447700900456"] | {"name": MARKUP, "status": MARKUP}
    monkeypatch.setitem(demo_data.BUSINESS_PROFILES, "447700900456", profile)
    app = app_for()
    async with app.run_test(size=(180, 50)) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        text = screen_text(app)
        assert "[red]x[/]" in text and "[bold red]x[/]" in text  # profile name, instance name

        app.open_instance(INSTANCE)
        await pilot.pause()
        assert MARKUP in screen_text(app)  # the profile status in the details

        app.open_groups(INSTANCE)
        await wait_for(pilot, lambda: app.state.groups_of(INSTANCE).value is not None)
        assert "[bold red]x[/]" in screen_text(app)  # the subject column (cut to its width)
        await pilot.press("escape", "escape")

        app.push_screen(ProfileScreen(INSTANCE, "447700900456"))
        await wait_for(pilot, lambda: MARKUP in screen_text(app))
        await pilot.press("escape")

        # Words that quote the name: the gateway forgot the instance meanwhile, and the view
        # says it is gone (issue 29 item 7), the name shown as typed, never interpreted.
        app.open_instance(MARKUP)
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, InstanceScreen)
        await wait_for(pilot, lambda: "Instance id" in screen_text(app))
        del state.instances[MARKUP]
        await pilot.press("r")
        await wait_for(pilot, lambda: screen.gone)
        gone = f"✕ {MARKUP} does not exist on the gateway"
        await wait_for(pilot, lambda: gone in screen_text(app))
        assert "Instance id" not in screen_text(app)  # nothing of it is offered any more
        # A key that needs the instance is refused in a notice (markup off) quoting the name.
        await pilot.press("C")  # instance.connect
        said = f"{MARKUP} does not exist on the gateway"
        await wait_for(pilot, lambda: any(said in line for line in notices(app)))
