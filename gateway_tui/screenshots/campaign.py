"""Scenarios of a campaign: the set-up with a per-recipient preview, and a campaign running.

The running campaign lives in a throwaway directory with a fixed id and seed, and its first
sends are written to its journal at fixed times: with the app's clock fixed, the picture is the
same on every run (the runner then waits for the pace's next turn).
"""

from __future__ import annotations

import atexit
import shutil
import tempfile
from datetime import timedelta
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import DataTable, Static, TextArea

from gateway_tui.core.campaign.journal import Pace, Status, create_campaign
from gateway_tui.core.campaign.reasons import Reason
from gateway_tui.core.campaign.recipients import parse_recipients
from gateway_tui.core.campaign.runner import RunState
from gateway_tui.core.draft import Draft, DraftRow, DraftSection
from gateway_tui.screenshots.base import FIXED_NOW, Scenario, wait_until
from gateway_tui.screenshots.compose import INSTANCE, SIZE, open_composer

RECIPIENTS = """number,name,branch
+49 151 1234 0001,Ana,Mitte
+49 151 1234 0002,Jonas,Kreuzberg
+49 151 1234 0003,Lea,Mitte
4915112340002,Jonas again,Kreuzberg
+55 11 91234 5678,Bruno,Pinheiros
12ab,Typo,Mitte
"""


def campaign_menu() -> Draft:
    return Draft(
        title="Lunch menu, {name}",
        description="Today's dishes at {branch}, ready at noon",
        button_text="See the menu",
        footer="Order by 11:30",
        sections=[
            DraftSection(
                "Pizzas",
                [DraftRow("Margherita", "Tomato, mozzarella"), DraftRow("Funghi", "Mushrooms")],
            ),
            DraftSection("Drinks", [DraftRow("Lemonade", "Fresh, homemade")]),
        ],
    )


async def _setup(pilot: Pilot) -> None:
    from gateway_tui.tui.screens.campaign_setup import CampaignSetupScreen

    app = pilot.app
    composer = await open_composer(pilot)
    composer.draft = campaign_menu()
    await pilot.press("f5")
    await wait_until(pilot, lambda: isinstance(app.screen, CampaignSetupScreen))
    setup = app.screen
    setup.query_one("#c-paste", TextArea).load_text(RECIPIENTS)
    await wait_until(pilot, lambda: setup.recipients is not None)
    table = setup.query_one("#c-recipients", DataTable)
    table.focus()
    await wait_until(pilot, lambda: table.has_focus)
    await pilot.press("down")
    title = setup.query_one("#c-preview-title", Static)
    second = setup.recipients.recipients[1]
    await wait_until(pilot, lambda: table.cursor_row == 1 and second.name in str(title.render()))


async def _running(pilot: Pilot) -> None:
    from textual.widgets import RichLog

    from gateway_tui.tui.screens.campaign_run import CampaignRunScreen

    app = pilot.app
    await wait_until(pilot, lambda: bool(app.state.instances.value))
    root = Path(tempfile.mkdtemp(prefix="gateway-tui-shot-"))
    atexit.register(shutil.rmtree, root, True)
    lines = "".join(f"49151123{index:05d},Customer {index}\n" for index in range(240))
    campaign = create_campaign(
        gateway=app.gateway_url or "",
        instance=INSTANCE,
        draft=campaign_menu(),
        recipients=parse_recipients("number,name,branch\n" + lines.replace("\n", ",Mitte\n")),
        pace=Pace(per_minute=6, jitter=0.3),
        now=FIXED_NOW,
        root=root,
        seed=7,
        campaign_id="20261121-091500-c4f2",
    )
    start = (FIXED_NOW - timedelta(minutes=13)).timestamp()
    outcomes = [Status.SENT] * 80
    outcomes[17] = outcomes[52] = Status.FAILED
    outcomes[64] = Status.UNKNOWN
    for index, status in enumerate(outcomes):
        at = start + index * 9.7
        campaign.record_try(index, at=at, planned=at, gap=9.7)
        reason = {
            Status.FAILED: Reason(
                "not_on_whatsapp", {"status": 400, "number": campaign.recipients[index].number}
            ),
            Status.UNKNOWN: Reason("no_answer"),
        }.get(status)
        campaign.record_done(
            index,
            status,
            at=at + 0.4,
            message_id=f"3EB0{index:016X}" if not reason else "",
            reason=reason,
        )
    campaign.unlock()  # the screen's runner takes the lock
    screen = CampaignRunScreen(campaign, start=True)
    screen.monotonic = lambda: 0.0  # the pacing's clock stands still: the wait is always drawn
    app.push_screen(screen)
    await wait_until(pilot, lambda: screen.runner is not None and screen.runner.next_at is not None)
    # Drawn: the next recipient and the wait before it (the screen redraws on a timer).
    current = screen.query_one("#run-current", Static)
    # (Compared with the line it draws, not with its English words: the pseudo-locale walks it.)
    await wait_until(
        pilot,
        lambda: (
            (progress := screen._latest) is not None
            and progress.state is RunState.WAITING
            and progress.next_at is not None
            and str(current.render()) == screen._current_line(progress).plain
        ),
    )
    # The log holds the journal's 80 outcomes and shows its newest (a RichLog scrolls after
    # its next refresh: drawn before that, the picture is a line short).
    log = screen.query_one("#run-log", RichLog)
    await wait_until(
        pilot, lambda: len(log.lines) >= len(outcomes) and 0 < log.max_scroll_y == log.scroll_y
    )


SCENARIOS = [
    Scenario("campaign-setup", _setup, size=SIZE),
    Scenario("campaign-running", _running, size=(120, 34)),
]
