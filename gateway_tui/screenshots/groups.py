"""Scenarios of the groups screens: picker, participants with the invite panel, the dialogs."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from textual.pilot import Pilot

from gateway_tui.core.files import recent_groups
from gateway_tui.core.files.storage import HOME_ENV
from gateway_tui.screenshots.base import Scenario, shown, wait_until
from gateway_tui.screenshots.shell import instances_loaded

INSTANCE = "sales-eu"
BIG_GROUP = "120363012345678901@g.us"  # "EU Sales — all hands", 1,024 participants
WAR_ROOM = "120363023456789012@g.us"  # "Pricing war room"

_homes: tempfile.TemporaryDirectory[str] | None = None


def _private_home() -> None:
    """Recent groups live in the data dir: a picture must neither read nor change the user's.

    Each scenario gets a fresh, empty home (tests restore their own afterwards).
    """
    global _homes
    if _homes is None:
        _homes = tempfile.TemporaryDirectory(prefix="gateway-tui-shots-")
    os.environ[HOME_ENV] = tempfile.mkdtemp(dir=Path(_homes.name))


async def _picker(pilot: Pilot) -> None:
    app = pilot.app
    _private_home()
    # One group used before: the picker offers it first, marked.
    recent_groups.remember(INSTANCE, WAR_ROOM, "Pricing war room")
    await instances_loaded(pilot)
    app.open_groups(INSTANCE)
    await wait_until(pilot, lambda: app.state.groups_of(INSTANCE).value is not None)


async def _participants(pilot: Pilot) -> None:
    app = pilot.app
    _private_home()
    await instances_loaded(pilot)
    app.open_groups(INSTANCE)
    await wait_until(pilot, lambda: app.state.groups_of(INSTANCE).value is not None)
    await pilot.press("enter")  # the first group: the 1,024-member one
    await wait_until(pilot, lambda: app.state.participants_of(INSTANCE, BIG_GROUP).value)
    await pilot.press("i")
    await wait_until(pilot, lambda: app.state.invite_of(INSTANCE, BIG_GROUP).current is not None)


async def _participants_revoked(pilot: Pilot) -> None:
    from gateway_tui.tui.screens.confirm import ConfirmScreen

    app = pilot.app
    await _participants(pilot)
    await pilot.press("R")
    await wait_until(pilot, shown(pilot, ConfirmScreen))  # else y is the table's key
    await pilot.press("y")
    await wait_until(pilot, lambda: bool(app.state.invite_of(INSTANCE, BIG_GROUP).revoked))
    app.clear_notifications()  # the "revoked" toast would vanish at its own pace


async def _revoke_confirm(pilot: Pilot) -> None:
    from gateway_tui.tui.screens.confirm import ConfirmScreen

    await _participants(pilot)
    await pilot.press("R")
    await wait_until(pilot, shown(pilot, ConfirmScreen))


async def _subject(pilot: Pilot) -> None:
    from gateway_tui.tui.screens.group_modals import SubjectScreen

    await _participants(pilot)
    await pilot.press("s")
    await wait_until(pilot, shown(pilot, SubjectScreen))


async def _invite(pilot: Pilot) -> None:
    from textual.widgets import Static

    from gateway_tui.tui.screens.group_modals import InviteScreen

    app = pilot.app
    await _participants(pilot)
    await pilot.press("n")
    await wait_until(pilot, shown(pilot, InviteScreen))
    await wait_until(pilot, lambda: app.focused is not None and app.focused.id == "invite-numbers")
    # One good number, a duplicate of it, and one too short: the check lists the bad line.
    await pilot.press(*"+49 1511 2340001", "enter", *"4915112340001, 12345")
    check = app.screen.query_one("#invite-check", Static)
    await wait_until(pilot, lambda: "12345" in str(check.render()))


SCENARIOS = [
    Scenario("group-picker", _picker),
    Scenario("participants", _participants),
    Scenario("participants-revoked", _participants_revoked),
    Scenario("revoke-confirm", _revoke_confirm),
    Scenario("subject-modal", _subject),
    Scenario("invite-modal", _invite),
]
