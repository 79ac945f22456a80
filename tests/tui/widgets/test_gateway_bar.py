"""The header: URL, masked key, and the gateway's health (one instance failing is not the
gateway failing)."""

from __future__ import annotations

from datetime import datetime

import pytest
from textual.widgets import Static

from gateway_tui.core.api.events import CallEvent
from gateway_tui.core.draft import Draft, DraftRow, DraftSection
from gateway_tui.core.files.config import mask_key
from gateway_tui.core.state import AppState, Health
from gateway_tui.tui.screens.composer import ComposerScreen
from gateway_tui.tui.screens.instances import InstancesScreen
from tests.navigation import open_composer_with
from tests.support import screen_text, wait_for

# --- one instance's 500 is not the gateway failing ----------------------------------------------


def _event(path: str, status: int | None, error: str | None = "x") -> CallEvent:
    return CallEvent("PUT", path, "http://g" + path, datetime.now(), 1.0, status, error)


CLOSED = "onboarding"
SIZE = (140, 40)
JONAS = "4915112340001"


def _lunch() -> Draft:
    return Draft(
        recipient=JONAS,
        title="Lunch",
        description="Pick one",
        button_text="Menu",
        sections=[DraftSection("Pizzas", [DraftRow("Margherita"), DraftRow("Funghi")])],
    )


# --- the composer: a general send error is not drawn under the last row ----------------------


def _status(screen: ComposerScreen) -> str:
    return str(screen.query_one("#composer-status", Static).render())


def loaded(app) -> bool:
    return isinstance(app.screen, InstancesScreen) and bool(app.state.instances.value)


@pytest.mark.parametrize(
    ("path", "status", "health"),
    [
        ("/group/updateGroupSubject/evo-a", 500, Health.OK),
        ("/message/sendList/evo-a", 500, Health.OK),
        ("/chat/archiveChat/evo-a", 500, Health.OK),
        ("/instance/fetchInstances", 500, Health.FAILING),
        ("/message/sendList/evo-a", 502, Health.FAILING),
        ("/message/sendList/evo-a", 503, Health.FAILING),
        ("/settings/find/evo-a", 401, Health.FAILING),
        ("/settings/find/evo-a", None, Health.UNREACHABLE),
    ],
)
def test_health_follows_the_gateway_not_one_instance(path, status, health) -> None:
    state = AppState()
    state.record_call(_event("/instance/fetchInstances", 200, None))
    state.record_call(_event(path, status))
    assert state.health is health


async def test_a_send_to_a_closed_instance_leaves_the_header_ok(app_for, demo_server) -> None:
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        screen = await open_composer_with(app, pilot, demo_server, _lunch(), CLOSED)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: "Not sent" in _status(screen))
        assert app.state.health is Health.OK
        assert "● ok" in screen_text(app) and "failing" not in screen_text(app)


# --- the key mask, the instance's labels ------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "shown"),
    [
        ("WRONG", "••••"),
        ("1234567", "••••"),
        ("12345678", "••••78"),
        ("123456789012", "••••012"),
        ("EVO-LOCAL-GLOBAL-KEY-0001", "••••0001"),
    ],
)
def test_a_mask_never_shows_more_than_a_quarter_of_a_key(key: str, shown: str) -> None:
    assert mask_key(key) == shown
    assert len(shown) - 4 <= len(key) // 4


async def test_header_shows_url_masked_key_and_health(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_for(pilot, lambda: loaded(app))
        text = screen_text(app)
        assert demo_server.url in text
        assert "••••" + demo_server.api_key[-4:] in text
        assert demo_server.api_key not in text
        assert "● ok" in text
