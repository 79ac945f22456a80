"""Scenarios of the composer: preview, opened list, JSON (the chats are in chats.py).

Each scenario keeps its drafts and history in a throwaway directory, so a picture never shows
(or overwrites) a draft of the person running ``make screenshots``.
"""

from __future__ import annotations

import atexit
import shutil
import tempfile
from pathlib import Path

from textual.pilot import Pilot

from gateway_tui.core.draft import Draft, DraftRow, DraftSection
from gateway_tui.core.files.drafts import ComposeStore
from gateway_tui.screenshots.base import Scenario, shown, wait_until

INSTANCE = "sales-eu"
SIZE = (140, 46)

# What the scenarios type: a lunch menu of 2 sections × 3 rows.
MENU_FIELDS = (
    "4915112340001",
    "Lunch menu",
    "Today's dishes, ready at noon",
    "See the menu",
    "Order by 11:30",
)
MENU_SECTIONS = (
    (
        "Pizzas",
        (
            ("Margherita", "Tomato, mozzarella, basil"),
            ("Funghi", "Mushrooms and thyme"),
            (
                "Diavola",
                "Spicy salami, chili oil, fresh basil and a long list of toppings nobody reads",
            ),
        ),
    ),
    (
        "Drinks",
        (
            ("Lemonade", "Fresh, homemade"),
            ("Espresso", ""),
            ("Sparkling water", "0.5 l"),
        ),
    ),
)


def _store(app) -> ComposeStore:
    root = Path(tempfile.mkdtemp(prefix="gateway-tui-shot-"))
    atexit.register(shutil.rmtree, root, True)
    return ComposeStore(app.gateway_url, INSTANCE, root=root)


async def _instances(pilot: Pilot) -> None:
    app = pilot.app
    await wait_until(pilot, lambda: bool(app.state.instances.value))


def menu_draft() -> Draft:
    """The lunch menu as the composer keeps it (2 sections × 3 rows)."""
    recipient, title, description, button, footer = MENU_FIELDS
    return Draft(
        recipient=recipient,
        title=title,
        description=description,
        button_text=button,
        footer=footer,
        sections=[
            DraftSection(name, [DraftRow(t, d) for t, d in rows]) for name, rows in MENU_SECTIONS
        ],
    )


async def open_composer(pilot: Pilot):
    """The composer on the lunch menu, the cursor on the last row's title.

    The menu comes back as a saved draft: typing it key by key is what the tests do
    (tests/tui/screens/test_composer.py); a picture only needs the result.
    """
    from gateway_tui.tui.screens.composer import ComposerScreen

    app = pilot.app
    await _instances(pilot)
    app.open_instance(INSTANCE)
    # The instance screen's own read, done before the composer covers it (a late answer
    # would redraw the header mid-picture).
    settings = app.state.settings_of(INSTANCE)
    await wait_until(pilot, lambda: settings.value is not None or settings.error is not None)
    store = _store(app)
    store.save_draft(menu_draft())
    screen = ComposerScreen(INSTANCE, store=store)
    app.push_screen(screen)
    # Mounted (its on_mount posted "Draft restored" to the app), then the app's queue worked
    # through to a marker posted after it: the notice has been taken in, so the clear below
    # removes it. Waiting for the notice itself would wait for what expires (5 s, and a busy
    # machine is slower than that).
    await wait_until(pilot, lambda: app.screen is screen and screen.is_mounted)
    taken_in: list[bool] = []
    app.call_later(taken_in.append, True)
    await wait_until(pilot, lambda: bool(taken_in))
    last = screen.draft.sections[-1].rows[-1]
    field = screen.query_one(f"#row-{last.uid}-title")
    field.focus()
    app.clear_notifications()  # "Draft restored" would cover the preview
    await wait_until(pilot, lambda: field.has_focus and screen._focus_uid == last.uid)
    return screen


async def _composer(pilot: Pilot) -> None:
    await open_composer(pilot)


async def _opened_list(pilot: Pilot) -> None:
    from gateway_tui.tui.widgets.list_preview import PreviewMode

    screen = await open_composer(pilot)
    before = screen.focused
    await pilot.press("shift+tab")  # the cursor on a row: the list shows it highlighted
    await wait_until(pilot, lambda: screen.focused not in (None, before))
    uid = screen._uid_of(screen.focused)
    await pilot.press("f3")
    await wait_until(pilot, lambda: screen.mode == PreviewMode.LIST and screen._focus_uid == uid)


async def _json(pilot: Pilot) -> None:
    from gateway_tui.tui.widgets.list_preview import PreviewMode

    screen = await open_composer(pilot)
    await pilot.press("f2")
    pane = screen.query_one("#composer-preview-pane")
    await wait_until(pilot, lambda: screen.mode == PreviewMode.JSON and pane.has_focus)


async def _narrow(pilot: Pilot) -> None:
    """At 80×24 the preview steps aside (f4 shows it below the form)."""
    await open_composer(pilot)


async def _narrow_preview(pilot: Pilot) -> None:
    screen = await open_composer(pilot)
    await pilot.press("f4")
    await wait_until(pilot, lambda: screen.preview_shown)


async def _help(pilot: Pilot) -> None:
    """f1 in the composer (? types a "?" there): its own keys first, each with its id."""
    from gateway_tui.tui.screens.help import HelpScreen

    await open_composer(pilot)
    await pilot.press("f1")
    await wait_until(pilot, shown(pilot, HelpScreen))


SCENARIOS = [
    Scenario("compose", _composer, size=SIZE),
    Scenario("compose-opened-list", _opened_list, size=SIZE),
    Scenario("compose-json", _json, size=SIZE),
    Scenario("compose-80-columns", _narrow, size=(80, 24)),
    Scenario("compose-80-columns-preview", _narrow_preview, size=(80, 24)),
    Scenario("compose-help", _help, size=SIZE),
]
