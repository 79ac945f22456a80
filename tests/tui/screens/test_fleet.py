"""The fleet screen: every instance of every profile's gateway, judged, trouble first; a
stopped gateway and a refused key are one row each; enter opens an instance on its own
gateway; a batch restart of five instances sends five calls."""

from __future__ import annotations

import asyncio
import socket
from contextlib import ExitStack

import pytest
from pydantic import SecretStr

from gateway_tui.core.files.config import Profile
from gateway_tui.core.fleet.verdict import Verdict
from gateway_tui.demo.server import DemoServer
from gateway_tui.tui.app import GatewayApp
from gateway_tui.tui.screens.fleet import FleetScreen
from tests.support import make_config, screen_text, wait_for


def refused_url() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{sock.getsockname()[1]}"


@pytest.fixture
def gateways():
    """Two running demo gateways of both lines (the same instance names on both, as staging
    and production have), one stopped, and one profile with a wrong key."""
    with ExitStack() as stack:
        one = stack.enter_context(DemoServer(instances=6))
        two = stack.enter_context(DemoServer(api_version="2.3.6", instances=6))
        yield {
            "one": (one.url, one.api_key, one),
            "two": (two.url, two.api_key, two),
            "stopped": (refused_url(), "KEY-OF-A-STOPPED-GATEWAY", None),
            "wrongkey": (two.url, "NOT-THE-KEY-OF-TWO-1234", None),
        }


def fleet_app(gateways, current: str = "one", *, fleet: bool = True, **kw) -> GatewayApp:
    url, key, server = gateways[current]
    config = make_config(server, **kw)
    config.profiles = {
        name: Profile(url=url, api_key=SecretStr(key)) for name, (url, key, _) in gateways.items()
    }
    return GatewayApp(config.switch_profile(current), fleet=fleet)


def told(app: GatewayApp) -> list[str]:
    """Every notice the app was asked to show, kept (a toast expires; this list does not)."""
    if not hasattr(app, "_told"):
        app._told = []
        shown = app.notify

        def notify(message: str, *, title: str = "", **kwargs) -> None:
            app._told.append(f"{title}: {message}")
            shown(message, title=title, **kwargs)

        app.notify = notify
    return app._told


def fleet_screen(app: GatewayApp) -> FleetScreen | None:
    return app.screen if isinstance(app.screen, FleetScreen) else None


def rows_in(app: GatewayApp):
    screen = fleet_screen(app)
    return list(screen.table.visible_rows) if screen is not None else []


def all_read(app: GatewayApp, count: int = 4) -> bool:
    screen = fleet_screen(app)
    return screen is not None and len(app.fleet.readings) == count


async def test_every_gateway_in_one_table_trouble_first(gateways) -> None:
    app = fleet_app(gateways)
    async with app.run_test(size=(160, 40)) as pilot:
        await wait_for(pilot, lambda: all_read(app) and len(rows_in(app)) == 14)
        rows = rows_in(app)
        by_gateway = {}
        for row in rows:
            by_gateway.setdefault(row.gateway, []).append(row)
        assert len(by_gateway["one"]) == 6 and len(by_gateway["two"]) == 6
        (stopped,) = by_gateway["stopped"]
        assert stopped.instance is None and stopped.verdict is Verdict.UNREACHABLE
        (refused,) = by_gateway["wrongkey"]
        assert refused.instance is None and refused.verdict is Verdict.UNAUTHORIZED
        # trouble first: nothing ok comes before something that is not
        verdicts = [row.verdict for row in rows]
        first_ok = verdicts.index(Verdict.OK)
        assert Verdict.OK not in verdicts[:first_ok] and set(verdicts[first_ok:]) == {Verdict.OK}
        text = screen_text(app)
        assert "unreachable" in text and "unauthorized" in text
        # the 2.x rows say why they closed, in WhatsApp's own words
        assert any("401 logged out" in row.last_disconnection for row in by_gateway["two"])
        for secret in ("KEY-OF-A-STOPPED-GATEWAY", "NOT-THE-KEY-OF-TWO-1234"):
            assert secret not in text


async def test_enter_opens_the_instance_on_its_own_gateway(gateways) -> None:
    from gateway_tui.tui.screens.instance import InstanceScreen

    app = fleet_app(gateways, current="one")
    two = gateways["two"][2]
    async with app.run_test(size=(160, 40)) as pilot:
        await wait_for(pilot, lambda: all_read(app))
        screen = fleet_screen(app)
        target = next(r for r in rows_in(app) if r.gateway == "two" and r.instance == "sales-eu")
        assert screen.table.move_cursor_to_key(target.key)
        await pilot.press("enter")
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, InstanceScreen) and app.config.profile == "two",
        )
        assert app.config.url == two.url
        assert app.client.base_url == two.url
        # what the instance screen reads comes from gateway two
        await wait_for(pilot, lambda: app.state.instance("sales-eu") is not None)
        before = sum(1 for _, _, path in two.requests if path == "/instance/fetchInstances")
        assert before >= 1
        # back on the fleet from anywhere, with a key
        await pilot.press("ctrl+g")
        await wait_for(pilot, lambda: fleet_screen(app) is not None)


async def test_e_opens_the_event_monitor_of_the_instance_on_its_own_gateway(gateways) -> None:
    from gateway_tui.tui.screens.event_monitor import EventMonitorScreen
    from tests.data import newest_person_chat

    app = fleet_app(gateways, current="one")
    two = gateways["two"][2]
    async with app.run_test(size=(160, 40)) as pilot:
        await wait_for(pilot, lambda: all_read(app))
        screen = fleet_screen(app)
        target = next(r for r in rows_in(app) if r.gateway == "two" and r.instance == "sales-eu")
        assert screen.table.move_cursor_to_key(target.key)
        await pilot.press("E")
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, EventMonitorScreen) and app.config.profile == "two",
        )
        monitor = app.screen
        assert monitor.instance == "sales-eu"
        await wait_for(pilot, lambda: monitor.stream is not None and monitor.stream.connected)
        await asyncio.to_thread(two.write, "sales-eu", newest_person_chat(two, "sales-eu"), "hi")
        await wait_for(pilot, lambda: monitor.ring.total >= 1)
        assert monitor.ring[-1].instance == "sales-eu"  # gateway two's event, on its socket
        assert monitor.stream.url == two.url


async def test_a_batch_restart_of_five_sends_five_calls(gateways) -> None:
    from gateway_tui.tui.screens.confirm import ConfirmScreen

    app = fleet_app(gateways)
    one, two = gateways["one"][2], gateways["two"][2]
    told(app)  # every notice kept from the start
    async with app.run_test(size=(160, 40)) as pilot:
        await wait_for(pilot, lambda: all_read(app))
        screen = fleet_screen(app)
        chosen = [r for r in rows_in(app) if r.instance][:5]
        for row in chosen:
            assert screen.table.move_cursor_to_key(row.key)
            await pilot.press("space")
        assert {(t.gateway, t.instance) for t in screen.marked_targets()} == {
            (r.gateway, r.instance) for r in chosen
        }
        await pilot.press("R")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        body = screen_text(app)
        assert all(row.instance in body for row in chosen)  # one confirmation names them all
        await pilot.press("y")
        # A 2.x gateway refuses a restart of an instance that is not open (200 with an error,
        # read as the refusal it is since issue 29): the calls are what this counts.
        await wait_for(pilot, lambda: any(" of 5 done" in n for n in told(app)))
        restarts = [
            (server.url, path)
            for server in (one, two)
            for _, method, path in server.requests
            if "/instance/restart/" in path
        ]
        assert len(restarts) == 5
        expected = {(gateways[r.gateway][0], f"/instance/restart/{r.instance}") for r in chosen}
        assert set(restarts) == expected


async def test_delete_asks_for_typed_words(gateways) -> None:
    from gateway_tui.tui.screens.confirm import PromptScreen

    app = fleet_app(gateways)
    one = gateways["one"][2]
    async with app.run_test(size=(160, 40)) as pilot:
        await wait_for(pilot, lambda: all_read(app))
        screen = fleet_screen(app)
        closed = next(r for r in rows_in(app) if r.gateway == "one" and r.status == "close")
        screen.table.move_cursor_to_key(closed.key)
        await pilot.press("space", "ctrl+d")
        await wait_for(pilot, lambda: isinstance(app.screen, PromptScreen))
        await pilot.press(*"delete", "enter")  # not the words asked for
        await wait_for(pilot, lambda: fleet_screen(app) is not None)
        assert not [p for _, m, p in one.requests if m == "DELETE"]
        await pilot.press("ctrl+d")
        await wait_for(pilot, lambda: isinstance(app.screen, PromptScreen))
        await pilot.press(*"delete 1", "enter")
        await wait_for(pilot, lambda: [p for _, m, p in one.requests if m == "DELETE"])
        assert [p for _, m, p in one.requests if m == "DELETE"] == [
            f"/instance/delete/{closed.instance}"
        ]


async def test_an_instance_leaving_open_is_one_alert_with_a_notice(gateways) -> None:
    app = fleet_app(gateways)
    one = gateways["one"][2]
    told(app)  # every notice kept from the start
    async with app.run_test(size=(160, 40)) as pilot:
        await wait_for(pilot, lambda: all_read(app))
        one.state.instances["sales-eu"].status = "close"
        await app.fleet.refresh()
        await wait_for(pilot, lambda: any("left open" in n for n in told(app)))
        assert [a.instance for a in app.fleet.alerts if a.kind.value == "left open"] == ["sales-eu"]
        await app.fleet.refresh()  # still closed: the same event, no second alert
        assert len([a for a in app.fleet.alerts if a.kind.value == "left open"]) == 1
        await wait_for(pilot, lambda: "left open" in screen_text(app))  # under the table


async def test_the_last_rows_are_drawn_at_once_marked_with_their_age_then_read(gateways) -> None:
    """Before any gateway answers, the rows kept at the last run are shown dimmed with their
    age (never as current), then replaced by what the gateways say."""
    import asyncio
    from datetime import UTC, datetime, timedelta

    import httpx

    from gateway_tui.core.fleet.fleet import FleetRow
    from gateway_tui.core.fleet.monitor import cache_path, save_rows

    kept = FleetRow(
        "one",
        "sales-eu",
        "1.7.1",
        "close",
        "",
        "",
        None,
        Verdict.CLOSED,
        "closed then",
        at=datetime.now(UTC) - timedelta(minutes=7),
    )
    save_rows([kept], cache_path())
    release = asyncio.Event()

    def transport(config):
        real = httpx.AsyncHTTPTransport()

        class Held(httpx.AsyncBaseTransport):
            async def handle_async_request(self, request):
                await release.wait()
                return await real.handle_async_request(request)

        return Held()

    url, key, server = gateways["one"]
    config = make_config(server)
    config.profiles = {"one": Profile(url=url, api_key=SecretStr(key))}
    app = GatewayApp(config.switch_profile("one"), fleet=True, fleet_transport=transport)
    async with app.run_test(size=(160, 40)) as pilot:
        await wait_for(pilot, lambda: len(rows_in(app)) == 1)
        (cached,) = rows_in(app)
        assert cached.cached and cached.verdict is Verdict.CLOSED
        text = screen_text(app)
        assert "closed (7 min ago)" in text and "from the last run" in text
        release.set()
        await wait_for(pilot, lambda: all_read(app, 1) and len(rows_in(app)) == 6)
        assert not any(row.cached for row in rows_in(app))
        sales = next(row for row in rows_in(app) if row.instance == "sales-eu")
        assert sales.verdict is Verdict.OK


async def test_a_key_and_the_palette_reach_the_fleet_from_a_form(gateways) -> None:
    from gateway_tui.tui.screens.composer import ComposerScreen

    app = fleet_app(gateways, fleet=False)
    async with app.run_test(size=(160, 40)) as pilot:
        await wait_for(pilot, lambda: app.state.instances.value is not None)
        app.open_composer("sales-eu")
        await wait_for(pilot, lambda: isinstance(app.screen, ComposerScreen))
        assert "Fleet" in {command.title for command in app.get_system_commands(app.screen)}
        await pilot.press("ctrl+g")  # from a text field of the composer
        await wait_for(pilot, lambda: fleet_screen(app) is not None)


async def test_the_hint_names_the_mark_key_as_remapped(gateways) -> None:
    app = fleet_app(gateways, keys={"fleet.mark": "x"})
    told(app)  # every notice kept from the start
    async with app.run_test(size=(160, 40)) as pilot:
        await wait_for(pilot, lambda: all_read(app))
        screen = fleet_screen(app)
        stopped = next(r for r in rows_in(app) if r.gateway == "stopped")
        screen.table.move_cursor_to_key(stopped.key)  # a gateway's row: nothing to act on
        await pilot.press("R")
        await wait_for(pilot, lambda: any("mark instances with x" in n for n in told(app)))
        instance_row = next(r for r in rows_in(app) if r.instance)
        screen.table.move_cursor_to_key(instance_row.key)
        await pilot.press("x")
        assert [t.instance for t in screen.marked_targets()] == [instance_row.instance]


async def test_enter_on_another_gateways_row_leaks_nothing_of_the_first(gateways) -> None:
    """With a live link open on gateway one, enter on gateway two's row: one's session is
    closed (its demo sees the socket go), its events reach none of two's screens, and its key
    is no longer used by the app's session (the fleet's own reads of it go on)."""
    from gateway_tui.tui.screens.instance import InstanceScreen

    one, two = gateways["one"][2], gateways["two"][2]
    app = fleet_app(gateways, current="one", fleet=False)
    async with app.run_test(size=(160, 40)) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        first = app.session
        app.follow_live("sales-eu")
        await wait_for(pilot, lambda: len(one.events.sio.eio.sockets) > 0)
        await pilot.press("ctrl+g")
        await wait_for(pilot, lambda: all_read(app))
        screen = fleet_screen(app)
        row = next(r for r in rows_in(app) if r.gateway == "two" and r.instance == "sales-eu")
        screen.table.move_cursor_to_key(row.key)
        await pilot.press("enter")
        await wait_for(
            pilot, lambda: isinstance(app.screen, InstanceScreen) and app.config.profile == "two"
        )
        assert app.session is not first
        await wait_for(pilot, lambda: first.closed)
        await wait_for(pilot, lambda: len(one.events.sio.eio.sockets) == 0)
        assert app.client.base_url == two.url


async def test_live_or_polled_says_why_for_every_gateways_instances(gateways) -> None:
    """⚡ live only where the instance's events arrive on the app's socket; every other row
    says why it is polled: another gateway (the app listens to the one in use only), an
    instance not opened yet."""
    app = fleet_app(gateways, current="one", fleet=False)
    async with app.run_test(size=(160, 40)) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        await pilot.press("ctrl+g")
        await wait_for(pilot, lambda: all_read(app))
        screen = fleet_screen(app)

        def detail_for(gateway: str, instance: str) -> str:
            row = next(r for r in rows_in(app) if r.gateway == gateway and r.instance == instance)
            screen.table.move_cursor_to_key(row.key)
            screen._show_detail()
            return str(screen.query_one("#fleet-detail").render())

        other = detail_for("two", "sales-eu")
        assert "polled: read every" in other and "gateway in use (one) only" in other
        assert "not opened in this app yet" in detail_for("one", "sales-eu")
        app.follow_live("sales-eu")
        await wait_for(pilot, lambda: app.live_for("sales-eu"))
        screen.refresh_from_state()
        live = next(r for r in rows_in(app) if r.gateway == "one" and r.instance == "sales-eu")
        assert live.link == "⚡ live"
        assert "⚡ live: its events arrive on the app's socket" in detail_for("one", "sales-eu")
        assert "gateway in use (one) only" in detail_for("two", "sales-eu")


async def test_the_fleet_s_verdicts_summary_and_alert_line_in_spanish(gateways, language):
    language("es")
    app = fleet_app(gateways)
    one = gateways["one"][2]
    told(app)
    async with app.run_test(size=(160, 40)) as pilot:
        await wait_for(pilot, lambda: all_read(app))
        await wait_for(pilot, lambda: "inaccesible" in screen_text(app))
        text = screen_text(app)
        assert "no autorizado" in text  # the refused key's verdict
        assert "4 gateways · 12 instancias · " in text
        one.state.instances["sales-eu"].status = "close"
        await app.fleet.refresh()
        await wait_for(pilot, lambda: "dejó de estar abierta" in screen_text(app))
        (alert,) = [a for a in app.fleet.alerts if a.kind.value == "left open"]  # a code
        assert alert.summary().startswith("one / sales-eu: dejó de estar abierta: ")
        assert any("dejó de estar abierta" in notice for notice in told(app))
