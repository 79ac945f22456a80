"""`gateway-tui --fleet`: the very first frame draws the rows the fleet kept at the last run
(dimmed, each with its age, never as current) from a small file read with the standard library,
before the config, pydantic or the HTTP stack are loaded; then the fleet reads its gateways."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from gateway_tui.core.files import storage
from gateway_tui.core.fleet.fleet import FleetRow
from gateway_tui.core.fleet.head import head_path, load_head
from gateway_tui.core.fleet.monitor import cache_path, save_rows
from gateway_tui.core.fleet.verdict import Verdict
from gateway_tui.tui.app import GatewayApp
from tests.support import imported_by, make_config, screen_text, wait_for


def kept(instance: str, verdict: Verdict, then: datetime, reason: str = "open") -> FleetRow:
    return FleetRow("prod", instance, "2.3.7 · 2.x", "open", "", "", None, verdict, reason, at=then)


def keep_rows() -> None:
    """301 rows kept 12 minutes ago (an hour is no wait: the age is said to the minute)."""
    then = datetime.now(UTC) - timedelta(minutes=12, seconds=30)
    rows = [kept(f"ok-{i:03d}", Verdict.OK, then) for i in range(300)]
    rows.insert(0, kept("the-zombie", Verdict.ZOMBIE, then, "listed open, connection closed"))
    save_rows(rows, cache_path())


async def test_the_first_frame_draws_the_kept_rows_with_their_age(demo_server) -> None:
    keep_rows()
    shown_when_loading = []

    def load():
        # Called once the first frame is drawn, with the starting screen still up.
        shown_when_loading.append(screen_text(app))
        return make_config(demo_server)

    app = GatewayApp(load, starting_url=demo_server.url, fleet=True)
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_for(pilot, lambda: app.started and len(app.fleet.readings) == 1)
    [first] = shown_when_loading
    assert "the-zombie" in first and re.search(r"zombie \(1[23] min ago\)", first)
    assert "301 rows from the last run" in first and "1 not ok" in first
    assert "ok-000" in first and re.search(r"ok \(1[23] min ago\)", first)


async def test_without_kept_rows_the_first_frame_says_loading(demo_server) -> None:
    shown_when_loading = []

    def load():
        shown_when_loading.append(screen_text(app))
        return make_config(demo_server)

    app = GatewayApp(load, starting_url=demo_server.url, fleet=True)
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_for(pilot, lambda: app.started)
    [first] = shown_when_loading
    assert "loading…" in first and "from the last run" not in first


def test_the_head_is_the_first_rows_trouble_first_and_a_bad_file_is_none() -> None:
    keep_rows()
    path = head_path(storage.data_dir())
    head = load_head(path)
    assert head is not None and head.total == 301 and head.not_ok == 1 and head.gateways == 1
    assert head.rows[0].instance == "the-zombie" and head.rows[0].verdict == "zombie"
    assert head.rows[0].at is not None and len(head.rows) < 301  # only what a frame shows
    path.write_text('{"version": 1, "rows": [["x\\u001b[2J", 5]]}')
    assert load_head(path) is None
    path.write_text("{not json")
    assert load_head(path) is None
    path.write_text(
        '{"version":1,"gateways":1,"instances":1,"not_ok":0,"total":1,'
        '"rows":[["g\\u001b[2J","i","","","","ok","",false,null]]}'
    )
    (row,) = load_head(path).rows
    assert "\x1b" not in row.gateway


def test_reading_the_head_imports_neither_the_http_stack_nor_pydantic(tmp_path) -> None:
    modules = imported_by(
        "import gateway_tui.tui.app, gateway_tui.tui.screens.starting, gateway_tui.core.fleet.head,"
        " gateway_tui.core.files.instances_head",
        tmp_path,
    )
    assert (
        "gateway_tui.core.fleet.head" in modules
        and "gateway_tui.core.files.instances_head" in modules
    )
    early = ("httpx", "httpcore", "pydantic", "gateway_tui.core.files.config")
    assert sorted(m for m in modules if m.split(".")[0] in early or m in early) == []
