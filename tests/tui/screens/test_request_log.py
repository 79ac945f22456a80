"""The request log: a call in full (headers with the key redacted, bodies pretty and capped),
`/` to filter by path or status, `c` to clear, and copy as curl kept."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gateway_tui.core.api.events import BODY_CAP_BYTES, KEY_PLACEHOLDER, REDACTED, capped_body
from gateway_tui.tui.screens.instances import InstancesScreen
from gateway_tui.tui.screens.request_log import RequestLogScreen, pretty_body
from tests.navigation import open_request_log
from tests.support import screen_text, wait_for

INSTANCE = "sales-eu"
SIZE = (150, 50)


# Keys as a server writes them: any text, quotes, backslashes and controls included.
secret_values = st.text(min_size=1, max_size=40)


def loaded(app) -> bool:
    return isinstance(app.screen, InstancesScreen) and bool(app.state.instances.value)


@pytest.mark.in_process
async def test_enter_shows_headers_and_bodies_without_the_key(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        app.actions.instances.select(INSTANCE)
        await app.actions.instances.load_settings(INSTANCE)
        screen = await open_request_log(app, pilot)
        assert screen.table.move_cursor_to_key(screen.table.visible_rows[0].request_id + ":1")
        await pilot.press("enter")
        await pilot.pause()
        text = screen_text(app)
        for part in ("Request headers", "apikey: •••• (redacted)", "Response headers"):
            assert part in text
        assert "content-type: application/json" in text.lower()
        assert '"rejectCall"' in text or '"reject_call"' in text  # the body, pretty-printed
        assert demo_server.api_key not in text
        await pilot.press("escape")  # closes the detail first…
        await pilot.pause()
        assert isinstance(app.screen, RequestLogScreen) and not screen.detail_open
        await pilot.press("Y")  # …and copy as curl is still there
        assert app.clipboard.startswith("curl ") and KEY_PLACEHOLDER in app.clipboard
        assert demo_server.api_key not in app.clipboard


@pytest.mark.in_process
async def test_slash_filters_by_path_or_status_and_c_clears(app_for):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        app.actions.instances.select(INSTANCE)
        await app.actions.instances.load_settings(INSTANCE)
        screen = await open_request_log(app, pilot)
        total = screen.table.visible_count
        assert total >= 2
        await pilot.press("slash", *"settings")
        await pilot.pause()
        assert 0 < screen.table.visible_count < total
        assert all("settings" in e.path for e in screen.table.visible_rows)
        await pilot.press("ctrl+u", *"200")
        await pilot.pause()
        assert screen.table.visible_count == total  # every call answered 200
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("c")
        await wait_for(pilot, lambda: screen.table.visible_count == 0)
        assert len(app.state.calls) == 0


@pytest.mark.in_process
def test_a_big_body_is_capped_with_a_note():
    body = json.dumps({"x": "a" * (BODY_CAP_BYTES * 2)}).encode()
    kept = capped_body(body)
    assert len(kept) < BODY_CAP_BYTES + 100
    assert "more bytes not kept" in kept


@pytest.mark.in_process
@given(apikey=secret_values, token=secret_values, created=secret_values)
def test_every_key_in_a_body_is_redacted_whatever_it_holds(apikey, token, created):
    body = [
        {"instance": {"instanceName": "a", "apikey": apikey, "Token": token}},
        {"hash": {"apikey": created}, "note": "after"},
    ]
    kept = json.loads(capped_body(json.dumps(body).encode()))
    assert kept[0]["instance"] == {"instanceName": "a", "apikey": REDACTED, "Token": REDACTED}
    assert kept[1] == {"hash": {"apikey": REDACTED}, "note": "after"}


@pytest.mark.in_process
def test_a_key_the_cap_cuts_through_is_left_out_whole():
    secret = "K" * 64
    padding = "x" * (BODY_CAP_BYTES - 30)  # the cap falls inside the key's value
    body = json.dumps({"pad": padding, "apikey": secret}).encode()
    kept = capped_body(body)
    assert '"apikey"' not in kept and "KKKK" not in kept
    assert "more bytes not kept" in kept


@pytest.mark.in_process
def test_pretty_body_indents_json_and_leaves_other_text_alone():
    assert pretty_body('{"a":[1,2]}') == '{\n  "a": [\n    1,\n    2\n  ]\n}'
    assert pretty_body("<html>oops</html>") == "<html>oops</html>"
    assert pretty_body({"text": "line\nbreak"}) == '{\n  "text": "line\\nbreak"\n}'


@pytest.mark.in_process
def test_property_tests_run_without_a_deadline_a_busy_machine_could_beat():
    from hypothesis import settings

    assert settings().deadline is None  # the suite's profile (tests/conftest.py)


async def test_request_log_lists_calls_without_the_key(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=(160, 40)) as pilot:
        await wait_for(pilot, lambda: loaded(app))
        await pilot.press("f12")
        await pilot.pause()
        assert isinstance(app.screen, RequestLogScreen)
        text = screen_text(app)
        assert "/instance/fetchInstances" in text and "200" in text
        assert demo_server.api_key not in text
        await pilot.press("Y")
        curl = app.clipboard
        assert curl.startswith("curl ") and KEY_PLACEHOLDER in curl
        assert demo_server.url + "/instance/fetchInstances" in curl
        assert demo_server.api_key not in curl


async def test_request_log_shows_failed_calls_with_their_lines(app_for):
    app = app_for(api_key="wrong-key-123456")
    async with app.run_test(size=(160, 40)) as pilot:
        await wait_for(pilot, lambda: app.state.instances.error is not None)
        await pilot.press("f12")
        await pilot.pause()
        text = screen_text(app)
        assert "401" in text and "Unauthorized" in text
        assert "wrong-key-123456" not in text


async def test_the_request_log_lists_calls_by_when_they_started(app_for):
    from datetime import datetime, timedelta

    from gateway_tui.core.api.events import CallEvent
    from tests.navigation import open_request_log

    app = app_for()
    async with app.run_test(size=(120, 36)) as pilot:
        log = await open_request_log(app, pilot)
        app.state.clear_calls()
        at = datetime(2026, 11, 24, 15, 42, 44)
        # A slow call started first and finished last: the log is in the order calls started.
        for path, started in (("/fast", 0.6), ("/slow", 0.1)):
            event = CallEvent("GET", path, "http://x" + path, at + timedelta(seconds=started), 1.0)
            app.state.record_call(event)
        await pilot.pause()
        assert [e.path for e in log.table.visible_rows] == ["/fast", "/slow"]
