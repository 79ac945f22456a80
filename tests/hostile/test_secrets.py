"""The API key is a secret: never on screen, in the request log, a curl export, a picture or a log.

The instances' own keys and tokens (which a gateway may list) are secrets too.
"""

from __future__ import annotations

import logging
from pathlib import Path

import httpx
import pytest

from gateway_tui.core.files.config import load_config
from gateway_tui.demo.data import DEMO_API_KEY, build_state
from gateway_tui.tui.app import GatewayApp
from gateway_tui.tui.screens.instance import InstanceScreen
from tests.support import notices, screen_text, wait_for

ROOT = Path(__file__).resolve().parents[2]


def secrets_of_the_demo() -> set[str]:
    """The global key and every instance key/token of the seeded demo world."""
    state = build_state()
    return {DEMO_API_KEY} | {instance.apikey for instance in state.instances.values()}


def assert_no_secret(text: str, where: str) -> None:
    for secret in secrets_of_the_demo():
        assert secret not in text, f"a secret ({secret[:4]}…) appears in {where}"


@pytest.mark.parametrize(
    "picture",
    sorted([*ROOT.glob("screenshots/*.svg"), *ROOT.glob("tests/**/__snapshots__/**/*.svg")]),
    ids=lambda p: p.name,
)
def test_no_picture_holds_a_secret(picture: Path):
    assert_no_secret(picture.read_text(encoding="utf-8"), picture.name)


def test_there_are_pictures_to_check():
    # The parametrized test above would pass vacuously if the pictures moved.
    assert len(list(ROOT.glob("screenshots/*.svg"))) >= 6
    assert len(list(ROOT.glob("tests/**/__snapshots__/**/*.svg"))) >= 6


async def test_no_screen_log_or_request_log_holds_a_secret(app_for, caplog):
    caplog.set_level(logging.DEBUG)
    app = app_for()
    async with app.run_test(size=(160, 45)) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        assert_no_secret(screen_text(app), "the instances screen")
        for name in ("sales-eu", "hr-internal"):
            app.open_instance(name)
            await wait_for(pilot, lambda n=name: app.state.settings_of(n).value is not None)
            assert isinstance(app.screen, InstanceScreen)
            assert_no_secret(screen_text(app), f"the view of {name}")
            await pilot.press("escape")
            await pilot.pause()
        await pilot.press("f12")
        await pilot.pause()
        assert_no_secret(screen_text(app), "the request log")
        for event in app.state.calls:
            assert_no_secret(repr(event) + event.as_curl(), "a logged call")
        assert_no_secret(repr(app.state.instances.value), "the instance models' repr")
    assert caplog.records, "expected httpx to log the calls"
    assert_no_secret(caplog.text, "the log")


async def test_a_refused_key_is_not_echoed_anywhere(app_for, caplog):
    caplog.set_level(logging.DEBUG)
    wrong = "sk-wrong-0123456789abcdef"
    app = app_for(api_key=wrong)
    async with app.run_test(size=(160, 45)) as pilot:
        await wait_for(pilot, lambda: app.state.instances.error is not None)
        error = app.state.instances.error
        for text in (screen_text(app), str(error), "\n".join(error.details()), caplog.text):
            assert wrong not in text
        assert "••••cdef" in screen_text(app)


async def test_plain_http_to_another_host_warns_before_the_first_call():
    """The key would travel in clear: say so before anything is sent (no real traffic here)."""
    seen_warning_before_call: list[bool] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen_warning_before_call.append(any("unencrypted" in line for line in notices(app)))
        return httpx.Response(200, json=[])

    config = load_config(url="http://gateway.example.invalid", api_key="k-0000000000")
    config.refresh_interval = 0
    app = GatewayApp(config, transport=httpx.MockTransport(handler))
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_for(pilot, lambda: bool(seen_warning_before_call))
        assert seen_warning_before_call[0] is True
        assert "key sent in clear" in screen_text(app)


async def test_loopback_http_gives_no_warning(app_for):
    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        assert not any("unencrypted" in line for line in notices(app))
        assert "key sent in clear" not in screen_text(app)
