"""Every hint that names a key asks the bindings: with every binding of every screen, dialog,
widget and the app remapped to keys nothing uses by default, no hint, summary, button, panel,
banner or footer on the screens walked names an old key, and the hints name the new ones."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re

from textual.app import App
from textual.binding import Binding
from textual.dom import DOMNode

import gateway_tui
from gateway_tui.tui.app import GatewayApp
from gateway_tui.tui.screens.base import key_for
from gateway_tui.tui.screens.chat_modals import ProfileScreen
from gateway_tui.tui.screens.chats import ChatsScreen
from gateway_tui.tui.screens.confirm import ConfirmScreen
from gateway_tui.tui.screens.group_modals import InviteScreen, SubjectScreen
from gateway_tui.tui.screens.groups import GroupPickerScreen
from gateway_tui.tui.screens.help import HelpScreen
from gateway_tui.tui.screens.instance import InstanceScreen
from gateway_tui.tui.screens.instances import InstancesScreen
from gateway_tui.tui.screens.new_instance import NewInstanceScreen
from gateway_tui.tui.screens.participants import ParticipantsScreen
from gateway_tui.tui.screens.request_log import RequestLogScreen
from tests.data import BIG, INSTANCE
from tests.support import make_app, make_config, notices, screen_text, wait_for

# Words a hint puts after a key ("r retries", "⏎ opens", "a archive", "(y)").
HINT_WORDS = (
    "add answer archive asks back cancels chats clear closes compose composes connect copies "
    "copy creates curl deletes details edits export fetches filter finds goes groups keys "
    "lets log opens pauses profile quits refresh remove resends response restart retries "
    "revokes saves search sends sets shows sort toggles types webhook websocket write"
).split()


def _binding_classes() -> list[type[DOMNode]]:
    """Every class of the app with bindings of its own (screens, dialogs, widgets, the app)."""
    found: dict[str, type[DOMNode]] = {}
    for info in pkgutil.walk_packages(gateway_tui.__path__, "gateway_tui."):
        if any(part in info.name for part in (".demo", ".screenshots", "__main__")):
            continue
        module = importlib.import_module(info.name)
        for cls in vars(module).values():
            if (
                inspect.isclass(cls)
                and cls.__module__.startswith("gateway_tui.")
                and issubclass(cls, DOMNode)
                and "BINDINGS" in vars(cls)
            ):
                found[f"{cls.__module__}.{cls.__qualname__}"] = cls
    return list(found.values())


def _bindings() -> list[Binding]:
    return [b for cls in _binding_classes() for b in cls.BINDINGS if isinstance(b, Binding)]


def _new_keys() -> list[str]:
    """Keys no binding uses by default, each shown by Textual under its own name."""
    pool = [f"f{n}" for n in range(13, 25)]
    modifiers = (
        *("ctrl", "shift", "alt", "ctrl+shift", "ctrl+alt", "shift+alt", "ctrl+shift+alt"),
        *("super", "meta", "ctrl+meta", "shift+meta"),  # more room: fleet, conversation
    )
    pool += [f"{mod}+f{n}" for mod in modifiers for n in range(1, 25)]
    pool += [f"ctrl+alt+{letter}" for letter in "abcdefghijklmnopqrstuvwxyz"]
    return pool


def remapped() -> tuple[dict[str, str], dict[str, set[str]]]:
    """A keymap giving every binding id a key of its own, and each id's old keys."""
    ids: dict[str, set[str]] = {}
    for binding in _bindings():
        assert binding.id, f"a binding without an id cannot be remapped: {binding}"
        ids.setdefault(binding.id, set()).update(k.strip() for k in binding.key.split(","))
    pool = _new_keys()
    assert len(pool) >= len(ids), f"{len(ids)} binding ids, {len(pool)} keys to remap them to"
    used = {key for keys in ids.values() for key in keys}
    assert not used & set(pool)
    return dict(zip(sorted(ids), pool, strict=False)), ids


def _old_displays(old: dict[str, set[str]]) -> set[str]:
    """How the footer shows each old key, and the names a hint wrote by hand ("enter")."""
    app = App()
    shown = {app.get_key_display(Binding(key, "")) for keys in old.values() for key in keys}
    return shown | {key for keys in old.values() for key in keys} | {"esc"}


# "enter" in a dialog's one text field submits it: Textual's Input does that, no binding does
# (there is nothing to remap), so these hints name it by hand.
FIELD_ENTER = ("enter fetches", "enter saves", "enter or ")


def _stale_hints(text: str, old_displays: set[str]) -> list[str]:
    """Places in ``text`` where an old key is named as a key."""
    for phrase in FIELD_ENTER:
        text = text.replace(phrase, "")
    found = []
    words = "|".join(HINT_WORDS)
    # A digit is a count in a summary ("4 groups") far more often than a key.
    for display in sorted((d for d in old_displays if not d.isdigit()), key=len, reverse=True):
        key = re.escape(display)
        before = r"(?:^|(?<=[\s·(—:,]))"
        patterns = (
            rf"{before}{key} (?:{words})\b",  # "r retries", "⏎ opens"
            rf"(?<=\s)\({key}[)\s]",  # a button: "Save (^s)", "(e edits)"
            # "press r to try again", "Create one with n." (not "with a delay")
            rf"\b(?:press|with) {key}(?=[.,;)]|$| to )",
        )
        for pattern in patterns:
            for match in re.finditer(pattern, text, re.M):
                line = text[text.rfind("\n", 0, match.start()) + 1 : text.find("\n", match.end())]
                found.append(f"{display!r} in: {line.strip()}")
    return found


def test_every_binding_has_an_id_and_the_remap_covers_them() -> None:
    keymap, old = remapped()
    assert set(keymap) == set(old)
    # The screens walked below, the app and the table widgets are among them.
    for cls in (InstancesScreen, GroupPickerScreen, ParticipantsScreen, RequestLogScreen):
        assert cls in _binding_classes()
    assert GatewayApp in _binding_classes()


def test_the_hint_finder_finds_hard_coded_keys() -> None:
    # The check below is only worth what this finds: the forms the old hints had.
    olds = {"r", "⏎", "^s", "esc", "d", "a", "y", "n", "e", "s"}
    for hint in (
        "⚠ Showing data from 09:30 — refresh failed: boom (r retries)",
        "4 groups · ⏎ opens · J types a JID",
        " Send (^s)  Close (esc) ",
        "⏎ opens the conversation · a archive · p profile",
        "2 instances could not be read — d shows why",
        "Is the gateway running? Then press r to try again.",
        "Create one with n.",
        "Reply to rejected calls: — (e edits)",
    ):
        assert _stale_hints(hint, olds), hint
    for plain in (
        "m compose a list message · a group JID",
        "33 chat(s) · 3 group(s)",
        "only takes effect with a delay",
    ):
        assert not _stale_hints(plain, olds), plain


async def test_remapped_keys_leave_no_hint_naming_an_old_key(demo_server) -> None:
    keymap, old = remapped()
    old_displays = _old_displays(old)
    app = make_app(make_config(demo_server, keys=keymap))
    seen: dict[str, str] = {}

    async def look(name: str) -> None:
        await pilot.pause()
        seen[name] = screen_text(app) + "\n" + "\n".join(notices(app))

    async with app.run_test(size=(140, 45)) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        assert app.config.problems == [], app.config.problems  # every new key was accepted
        await look("instances")
        app.open_instance(INSTANCE)
        await wait_for(pilot, lambda: isinstance(app.screen, InstanceScreen))
        await wait_for(pilot, lambda: app.state.settings_of(INSTANCE).value is not None)
        await look("instance")
        app.open_groups(INSTANCE)
        await wait_for(pilot, lambda: app.state.groups_of(INSTANCE).value is not None)
        await look("groups")
        app.push_screen(ParticipantsScreen(INSTANCE, BIG))
        await wait_for(pilot, lambda: bool(app.state.participants_of(INSTANCE, BIG).value))
        await look("participants")
        app.push_screen(InviteScreen(INSTANCE, BIG, "EU Sales"))
        await wait_for(pilot, lambda: isinstance(app.screen, InviteScreen))
        await look("invite")
        app.pop_screen()
        app.push_screen(SubjectScreen(INSTANCE, BIG, "EU Sales"))
        await wait_for(pilot, lambda: isinstance(app.screen, SubjectScreen))
        await look("subject")
        app.pop_screen()
        app.push_screen(ChatsScreen(INSTANCE))
        await wait_for(pilot, lambda: app.actions.chats.chat_book(INSTANCE).value is not None)
        await look("chats")
        app.push_screen(ProfileScreen(INSTANCE, ""))
        await wait_for(pilot, lambda: isinstance(app.screen, ProfileScreen))
        await look("profile")
        app.pop_screen()
        app.push_screen(ConfirmScreen("Delete", "Delete it?", confirm_label="Delete"))
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await look("confirm")
        app.pop_screen()
        app.push_screen(NewInstanceScreen())
        await wait_for(pilot, lambda: isinstance(app.screen, NewInstanceScreen))
        await look("new instance")
        app.pop_screen()
        app.push_screen(RequestLogScreen())
        await wait_for(pilot, lambda: isinstance(app.screen, RequestLogScreen))
        await look("request log")
        app.push_screen(HelpScreen(app.screen))
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        await look("help")
        shown_keys = {name: key_for(app.screen, name) for name in ("app.help", "app.quit")}

    stale = [
        f"{name}: {hit}" for name, text in seen.items() for hit in _stale_hints(text, old_displays)
    ]
    assert not stale, "hints that name a key nobody pressed any more:\n" + "\n".join(stale)
    # And the hints name the new keys (the remap reached them, not just removed the old).
    new = {name: App().get_key_display(Binding(keymap[name], "")) for name in keymap}
    assert f"{new['participants.sort']} sort" in seen["participants"]
    assert f"{new['groups.enter_jid']} types a JID" in seen["groups"]
    assert f"{new['log.detail']} details" in seen["request log"]
    assert f"{new['instance.groups']} groups" in seen["instance"]
    assert f"({new['confirm.yes']})" in seen["confirm"]
    assert shown_keys == {"app.help": new["app.help"], "app.quit": new["app.quit"]}
