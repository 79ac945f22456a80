"""The request log: a call in full (headers with the key redacted, bodies pretty and capped),
`/` to filter by path or status, `c` to clear, and copy as curl kept."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gateway_tui.core.api.events import BODY_CAP_BYTES, KEY_PLACEHOLDER, REDACTED, capped_body
from gateway_tui.tui.screens.request_log import RequestLogScreen, pretty_body
from tests.navigation import open_request_log
from tests.support import screen_text, wait_for

# The demo runs in the test's event loop (tests/in_process.py): these tests need no socket.
pytestmark = pytest.mark.in_process

INSTANCE = "sales-eu"
SIZE = (150, 50)


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


def test_a_big_body_is_capped_with_a_note():
    body = json.dumps({"x": "a" * (BODY_CAP_BYTES * 2)}).encode()
    kept = capped_body(body)
    assert len(kept) < BODY_CAP_BYTES + 100
    assert "more bytes not kept" in kept


# Keys as a server writes them: any text, quotes, backslashes and controls included.
secret_values = st.text(min_size=1, max_size=40)


@given(apikey=secret_values, token=secret_values, created=secret_values)
def test_every_key_in_a_body_is_redacted_whatever_it_holds(apikey, token, created):
    body = [
        {"instance": {"instanceName": "a", "apikey": apikey, "Token": token}},
        {"hash": {"apikey": created}, "note": "after"},
    ]
    kept = json.loads(capped_body(json.dumps(body).encode()))
    assert kept[0]["instance"] == {"instanceName": "a", "apikey": REDACTED, "Token": REDACTED}
    assert kept[1] == {"hash": {"apikey": REDACTED}, "note": "after"}


def test_a_key_the_cap_cuts_through_is_left_out_whole():
    secret = "K" * 64
    padding = "x" * (BODY_CAP_BYTES - 30)  # the cap falls inside the key's value
    body = json.dumps({"pad": padding, "apikey": secret}).encode()
    kept = capped_body(body)
    assert '"apikey"' not in kept and "KKKK" not in kept
    assert "more bytes not kept" in kept


def test_pretty_body_indents_json_and_leaves_other_text_alone():
    assert pretty_body('{"a":[1,2]}') == '{\n  "a": [\n    1,\n    2\n  ]\n}'
    assert pretty_body("<html>oops</html>") == "<html>oops</html>"
    assert pretty_body({"text": "line\nbreak"}) == '{\n  "text": "line\\nbreak"\n}'


def test_property_tests_run_without_a_deadline_a_busy_machine_could_beat():
    from hypothesis import settings

    assert settings().deadline is None  # the suite's profile (tests/conftest.py)
