"""Every private Textual name we use is listed in gateway_tui/tui/textual_private.py, still exists
on the installed Textual with the kind we expect, and is read nowhere else."""

from __future__ import annotations

import importlib
import inspect
import re
from pathlib import Path

import pytest

from gateway_tui.tui import textual_private
from gateway_tui.tui.textual_private import OVERRIDDEN, PRIVATE_NAMES, PrivateName

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [
    path
    for folder in ("gateway_tui", "tests", "bench")
    for path in sorted((ROOT / folder).rglob("*.py"))
    if path.name not in ("textual_private.py", "test_textual_private.py")
]


def _owner(entry: PrivateName) -> object:
    module, _, qualname = entry.owner.partition(":")
    owner: object = importlib.import_module(module)
    for part in filter(None, qualname.split(".")):
        owner = getattr(owner, part)
    return owner


def _instance(cls: type) -> object:
    """A fresh instance: "attribute" names are set by ``__init__``."""
    return cls()


@pytest.mark.parametrize("entry", PRIVATE_NAMES + OVERRIDDEN, ids=lambda e: f"{e.owner}.{e.name}")
def test_each_private_name_exists_with_its_kind(entry: PrivateName) -> None:
    owner = _owner(entry)
    if entry.kind == "attribute":
        assert inspect.isclass(owner)
        value = _instance(owner)
        assert hasattr(value, entry.name), f"{entry.owner} has no {entry.name} any more"
        assert not callable(getattr(value, entry.name)) or entry.name == "_parent"
        return
    assert hasattr(owner, entry.name), f"{entry.owner} has no {entry.name} any more"
    found = getattr(owner, entry.name)
    if entry.kind == "class":
        assert inspect.isclass(found)
    elif entry.kind == "function":
        assert inspect.isfunction(found) or inspect.isbuiltin(found)
    else:
        assert inspect.isfunction(found) or inspect.iscoroutinefunction(found)


def test_the_overridden_methods_are_still_called_by_that_name() -> None:
    # An override of a name Textual dropped would silently never run again.
    from gateway_tui.tui.app import GatewayApp
    from gateway_tui.tui.widgets.message_line import MessageLine
    from gateway_tui.tui.widgets.record_table import RecordTable
    from gateway_tui.tui.widgets.text_input import TextInput

    ours = {"_display": GatewayApp, "_handle_exception": GatewayApp, "_fatal_error": GatewayApp}
    ours |= {"_on_key": MessageLine, "_on_click": RecordTable}
    ours |= {"_on_focus": TextInput, "_watch_value": TextInput}
    assert set(ours) == {entry.name for entry in OVERRIDDEN}
    for entry in OVERRIDDEN:
        assert entry.name in vars(ours[entry.name]), f"{entry.name} is no longer overridden"
        assert issubclass(ours[entry.name], _owner(entry))  # type: ignore[arg-type]


def _private_names() -> set[str]:
    return {entry.name for entry in PRIVATE_NAMES if entry.name.startswith("_")}


def test_no_private_textual_name_is_read_outside_the_module() -> None:
    names = _private_names() | {"_message_queue"}
    attribute = re.compile(r"\.(_[A-Za-z]\w*)\b")
    private_import = re.compile(
        r"^\s*(from|import) textual[\w.]*\._|^\s*from textual[\w.]* import .*\b_[a-z]", re.M
    )
    found: list[str] = []
    for path in SOURCES:
        text = path.read_text(encoding="utf-8")
        for match in attribute.finditer(text):
            if match.group(1) in names:
                line = text.count("\n", 0, match.start()) + 1
                found.append(f"{path.relative_to(ROOT)}:{line}: {match.group(0)}")
        for match in private_import.finditer(text):
            found.append(f"{path.relative_to(ROOT)}: {match.group(0).strip()}")
        if '"_message_queue"' in text:
            found.append(f"{path.relative_to(ROOT)}: _message_queue")
    assert not found, "private Textual names read outside textual_private.py:\n" + "\n".join(found)


async def test_the_accessors_answer_on_a_running_app() -> None:
    from textual.app import App
    from textual.binding import Binding, BindingsMap

    class Small(App[None]):
        BINDINGS = [Binding("x", "bell", "Bell", id="small.bell")]

    app = Small()
    async with app.run_test() as pilot:
        assert isinstance(textual_private.bindings_of(app), BindingsMap)
        assert "x" in textual_private.bindings_of(app).key_to_bindings
        app.set_keymap({"small.bell": "y"})
        await pilot.pause()
        assert textual_private.keymap_of(app) == {"small.bell": "y"}
        app.notify("hello")
        await pilot.pause()
        assert [n.message for n in textual_private.notifications_of(app)] == ["hello"]
        assert textual_private.on_app_thread(app)
        assert not textual_private.in_update_batch(app)
        assert textual_private.unhandled_exception(app) is None
        assert not textual_private.crash_printed(app)
        assert textual_private.parent_of(app.screen) is app
        assert textual_private.rendered_screen(app) is not None
        assert textual_private.character_to_key("/") == "slash"
