"""A taken instance name (403 'This name "x" is already in use.', recorded on both lines) is its
own error, not an API key problem (issue 29, item 9)."""

from __future__ import annotations

import json

import pytest

from gateway_tui.core.api.errors import Forbidden, NameTaken, error_for_response
from gateway_tui.tui.screens.instances import InstancesScreen
from gateway_tui.tui.screens.new_instance import NewInstanceScreen
from tests.support import RECORDINGS, screen_text, wait_for


@pytest.mark.parametrize(
    "name", ["v1.7.1/005-create-duplicate-name.json", "v2.3.6/006-create-duplicate-name.json"]
)
def test_the_recorded_answer_is_name_taken(name: str) -> None:
    rec = json.loads((RECORDINGS / name).read_text())
    error = error_for_response(
        rec["status"], rec["response_body"], method="POST", path="/instance/create"
    )
    assert isinstance(error, NameTaken) and not isinstance(error, Forbidden)
    assert "API key" not in error.summary and "already in use" in error.summary


def test_another_403_is_still_about_the_key() -> None:
    body = {
        "status": 403,
        "error": "Forbidden",
        "response": {"message": ["Missing global api key"]},
    }
    error = error_for_response(403, body, method="GET", path="/instance/fetchInstances")
    assert isinstance(error, Forbidden)


async def test_the_new_instance_form_says_the_name_is_taken(app_for):
    app = app_for()
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(
            pilot,
            lambda: bool(app.state.instances.value) and isinstance(app.screen, InstancesScreen),
        )
        taken = app.state.instances.value[0].instance_name
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, NewInstanceScreen))
        await pilot.press(*taken, "enter")
        await wait_for(pilot, lambda: "already in use" in screen_text(app))
        assert "API key" not in screen_text(app)
        assert app.screen.query_one("#new-name").value == taken
