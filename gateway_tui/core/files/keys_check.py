"""The ``[keys]`` checks: a remap is kept only when its binding id exists, every key is one a
terminal sends, and it takes no key of another action on a screen where both are active.

What the app's bindings are comes from app_facts.py (generated from the screens, checked by a
test), so the command line's ``config validate`` and the app's start-up give the same verdicts
without importing Textual. A remap that fails a check is dropped: that binding keeps its default.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping

from gateway_tui.core.files.app_facts import BINDINGS, CHARACTER_KEYS, KEY_NAMES, SCREENS
from gateway_tui.core.text.i18n import N_, _

TEXTUAL_PREFIX = "textual."  # Textual's own bindings: their keys are taken, they cannot be remapped
MODIFIERS = ("ctrl", "alt", "shift")
NOT_SENT_MODIFIERS = ("super", "hyper", "meta", "cmd", "win")
# Control keys a terminal sends as another key (Textual's KEY_ALIASES, the other way round).
SENT_AS = {
    "ctrl+i": "tab",
    "ctrl+m": "enter",
    "ctrl+h": "backspace",
    "ctrl+left_square_bracket": "escape",
    "ctrl+[": "escape",
    "ctrl+j": N_("enter (in most terminals)"),
}
_KNOWN_NAMES = frozenset(KEY_NAMES)


def normal_key(key: str) -> str:
    """One spelling per key: "?" and "question_mark" are one key, "Ctrl+S" is "ctrl+s"."""
    *mods, base = key.split("+") if key != "+" else ["+"]
    if len(base) == 1 and not base.isalnum():
        base = CHARACTER_KEYS.get(base, base)
    elif len(base) > 1:
        base = base.lower()
    return "+".join([*(mod.lower() for mod in mods), base])


def key_problem(key: str) -> str | None:
    """Why no terminal sends ``key`` (or no such key exists); None when it is fine."""
    if len(key) == 1:
        return None if key.isprintable() else _("{key} is not a key").format(key=repr(key))
    *mods, base = key.split("+")
    if not base:  # "ctrl++" or a trailing "+"
        base = "plus"
    lowered = [mod.lower() for mod in mods]
    for mod in lowered:
        if mod in NOT_SENT_MODIFIERS:
            return _("{key}: no terminal sends {modifier}+ keys to an application").format(
                key=key, modifier=mod
            )
        if mod not in MODIFIERS:
            return _("{key}: {modifier} is not a modifier (ctrl, alt, shift)").format(
                key=key, modifier=repr(mod)
            )
    if len(base) == 1:
        name = CHARACTER_KEYS.get(base, base.lower())
    else:
        name = base.lower()
        if name not in _KNOWN_NAMES:
            near = difflib.get_close_matches(name, KEY_NAMES, n=1)
            if near:
                return _("{key}: no key is named {name} (did you mean {near}?)").format(
                    key=key, name=repr(base), near=near[0]
                )
            return _("{key}: no key is named {name}").format(key=key, name=repr(base))
    normal = "+".join([*lowered, name])
    if normal in SENT_AS:
        return _("{key}: a terminal sends it as {sent}").format(key=key, sent=_(SENT_AS[normal]))
    if "shift" in lowered and len(base) == 1 and base.isalpha():
        rest = [mod for mod in lowered if mod != "shift"]
        sent = "+".join([*rest, base.upper() if not rest else base.lower()])
        return _("{key}: a terminal sends it as {sent}").format(key=key, sent=sent)
    if "ctrl" in lowered and name.isdigit():
        return _("{key}: most terminals send nothing (or another key) for ctrl and a digit").format(
            key=key
        )
    return None


def default_keys(binding_id: str) -> str | None:
    """The keys ``binding_id`` has when nothing remaps it (None for an unknown id)."""
    entry = BINDINGS.get(binding_id)
    return entry[0] if entry else None


def _keys(spec: str) -> list[str]:
    return [part.strip() for part in spec.split(",") if part.strip()]


def check_keymap(remaps: Mapping[str, str]) -> tuple[dict[str, str], list[tuple[str, str]]]:
    """The remaps that pass every check, and (binding id, why) for each that does not."""
    kept: dict[str, str] = {}
    problems: list[tuple[str, str]] = []
    for binding_id, spec in remaps.items():
        if binding_id not in BINDINGS or binding_id.startswith(TEXTUAL_PREFIX):
            near = difflib.get_close_matches(binding_id, [b for b in BINDINGS if "." in b], n=1)
            if near:
                said = _("no binding has this id (did you mean {near}?)").format(near=near[0])
            else:
                said = _("no binding has this id (`?` in the app lists them)")
            problems.append((binding_id, said))
            continue
        bad = [why for key in _keys(spec) if (why := key_problem(key))]
        if bad:
            problems.append((binding_id, "; ".join(bad)))
            continue
        kept[binding_id] = spec
    while clash := _first_clash(kept):
        binding_id, why = clash
        del kept[binding_id]
        problems.append((binding_id, why))
    order = list(remaps)
    problems.sort(key=lambda problem: order.index(problem[0]))
    return kept, problems


def _first_clash(remaps: Mapping[str, str]) -> tuple[str, str] | None:
    """The last remap (in the file's order) whose key another action of the same screen has."""
    order = {binding_id: n for n, binding_id in enumerate(remaps)}
    worst: tuple[int, str, str] | None = None
    for screen, ids in SCREENS.items():
        by_key: dict[str, list[str]] = {}
        for binding_id in ids:
            spec = remaps.get(binding_id, BINDINGS[binding_id][0])
            for key in _keys(spec):
                by_key.setdefault(normal_key(key), []).append(binding_id)
        for key, holders in by_key.items():
            actions = {BINDINGS[h][1] or h for h in holders}
            # Only a remap that brings the key in clashes: the defaults' own overlaps (a screen
            # taking an app key on purpose, as the composer takes q) are the app's design.
            remapped = [
                h
                for h in holders
                if h in remaps and key not in {normal_key(k) for k in _keys(BINDINGS[h][0])}
            ]
            if len(holders) < 2 or not remapped or len(actions) < 2:
                continue
            last = max(remapped, key=order.__getitem__)
            other = next(h for h in holders if h != last)
            description = _(BINDINGS[other][1]) if BINDINGS[other][1] else other
            why = _("{key} is also {binding} ({description}) on {screen}").format(
                key=key, binding=other, description=description, screen=screen
            )
            if worst is None or order[last] > worst[0]:
                worst = (order[last], last, why)
    return None if worst is None else (worst[1], worst[2])
