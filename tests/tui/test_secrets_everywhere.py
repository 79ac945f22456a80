"""Every known secret (the API key, an instance token the app made or was given) is masked in
everything the app writes, whatever the server echoes: the command line's stdout and stderr, a
campaign's journal.jsonl and report.csv, the request log, the crash report, the header."""

from __future__ import annotations

import csv
import io

import pytest

from gateway_tui.main import main
from tests.support import locked_campaign

TOKEN = "INSTANCE-TOKEN-5f1e9a7c2b"


@pytest.fixture
def echoing(demo_server, monkeypatch):
    """A demo gateway that echoes the API key and an instance token in names and ids."""
    monkeypatch.setenv("GATEWAY_URL", demo_server.url)
    monkeypatch.setenv("GATEWAY_API_KEY", demo_server.api_key)
    key = demo_server.api_key
    instance = demo_server.state.instances["sales-eu"]
    instance.profile_name = f"key {key} and token {TOKEN}"
    instance.profile_status = key
    group = next(iter(instance.groups.values()))
    group.participants[0]["name"] = f"={key}"
    return demo_server


def test_the_command_line_never_prints_the_key_a_server_echoes(echoing, capsys):
    from gateway_tui.core.text.sanitize import add_secret

    add_secret(TOKEN)  # as if this process had created the instance
    key = echoing.api_key
    jid = next(iter(echoing.state.instances["sales-eu"].groups))
    for argv in (
        ["instances"],
        ["instances", "--json"],
        ["instances", "--csv"],
        ["participants", "sales-eu", jid],
        ["participants", "sales-eu", jid, "--json"],
        ["participants", "sales-eu", jid, "--csv"],
    ):
        assert main(argv) == 0, argv
        out = capsys.readouterr().out
        assert key not in out and TOKEN not in out, argv
        assert "••••" in out, argv
    # An error text that quotes the key (the gateway echoes the instance name asked for).
    assert main(["participants", f"x-{key}", jid]) == 1
    captured = capsys.readouterr()
    assert key not in captured.err and key not in captured.out
    assert captured.err.startswith("gateway-tui: error: ")


def test_the_journal_and_the_report_never_hold_a_known_secret(demo_server, isolated_home, tmp_path):
    from pydantic import SecretStr

    from gateway_tui.core.campaign.journal import Status
    from gateway_tui.core.campaign.reasons import Reason
    from gateway_tui.core.client_factory import client_for
    from gateway_tui.core.files.config import ResolvedConfig

    key = demo_server.api_key
    config = ResolvedConfig(url=demo_server.url, api_key=SecretStr(key))
    client_for(config)  # the key is known from the moment a client is built with it
    campaign = locked_campaign(
        tmp_path, "number,name\n4917200000001,Ana\n4917200000002,Ben\n", demo_server.url
    )
    campaign.record_try(0, at=1.0, planned=1.0, gap=0.0)
    campaign.record_done(0, Status.SENT, at=2.0, message_id=f"id-{key}")
    campaign.record_try(1, at=3.0, planned=3.0, gap=0.0)
    refused = Reason("refused", {"status": 400, "message": f"apikey {key} is not allowed"})
    campaign.record_done(1, Status.FAILED, at=4.0, reason=refused)
    campaign.record_stop(Reason("stop_same_failure", {"n": 10, "error": refused}), at=5.0)
    report = campaign.write_report()
    campaign.unlock()
    for path in (campaign.journal_path, report):
        text = path.read_text(encoding="utf-8")
        assert key not in text, path.name
        assert "••••" in text, path.name
    rows = list(csv.DictReader(io.StringIO(report.read_text(encoding="utf-8"))))
    assert rows[0]["message_id"] == "id-••••"


async def test_the_request_log_and_the_crash_report_never_hold_a_known_secret(echoing):
    from gateway_tui.core.api.lifecycle import CreateInstanceRequest
    from gateway_tui.core.client_factory import client_for
    from gateway_tui.core.files.config import load_config
    from gateway_tui.tui.crash import crash_report

    key = echoing.api_key
    events = []
    async with client_for(load_config()) as client:
        client.subscribe(events.append)
        await client.instances.create(CreateInstanceRequest(instanceName="echo-me", token=TOKEN))
        echoing.state.instances["echo-me"].profile_name = f"token {TOKEN}"
        await client.instances.fetch()
    logged = [
        " ".join([e.url, e.response_body or "", e.error or "", *e.error_lines]) for e in events
    ]
    assert any("••••" in text for text in logged)
    assert not any(key in text or TOKEN in text for text in logged)
    error = RuntimeError(f"the server said {key} / {TOKEN}")
    report = crash_report(error, []).plain
    assert key not in report and TOKEN not in report and "••••" in report


async def test_the_header_shows_no_known_secret(echoing):
    from gateway_tui.tui.widgets.gateway_bar import GatewayBar
    from tests.support import make_app, make_config

    key = echoing.api_key
    echoing.state.instances["sales-eu"].profile_name = "x"
    app = make_app(make_config(echoing))
    async with app.run_test() as pilot:
        await pilot.pause()
        bar = app.screen.query_one(GatewayBar)
        bar.show(
            url=f"{echoing.url}/?k={key}",
            masked_key=app.masked_key,
            health=app.state.health,
            version=f"2.3.6 {key}",
            selected=f"shop-{key}",
            profile=None,
            insecure=False,
        )
        await pilot.pause()
        shown = bar.render().plain
        assert key not in shown
        assert "shop-••••" in shown


async def test_the_instance_list_titles_and_request_log_show_no_key_a_server_echoes(echoing):
    """Issue 29: the header and the command line masked an echoed key; the instance list, the
    titles and the request log showed it in full."""
    from gateway_tui.tui.screens.groups import GroupPickerScreen
    from gateway_tui.tui.screens.instance import InstanceScreen
    from gateway_tui.tui.screens.request_log import RequestLogScreen
    from tests.support import make_app, make_config, screen_text, wait_for

    key = echoing.api_key
    echoed = f"shop-{key}"  # an instance the gateway names with the key
    echoing.state.create_instance(echoed, None)
    app = make_app(make_config(echoing))
    async with app.run_test(size=(200, 50)) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        listed = screen_text(app)
        assert key not in listed and "shop-••••" in listed  # the name column
        assert "key ••••" in listed  # sales-eu's profile name

        app.open_instance(echoed)
        await wait_for(pilot, lambda: isinstance(app.screen, InstanceScreen))
        await wait_for(pilot, lambda: "Instance id" in screen_text(app))
        shown = screen_text(app)
        assert key not in shown and "shop-••••" in shown  # the title (and the bar)

        app.open_groups(echoed)
        await wait_for(pilot, lambda: isinstance(app.screen, GroupPickerScreen))
        await wait_for(pilot, lambda: "Groups of shop-••••" in screen_text(app))
        assert key not in screen_text(app)

        await pilot.press("f12")
        await wait_for(pilot, lambda: isinstance(app.screen, RequestLogScreen))
        await wait_for(pilot, lambda: "/group/fetchAllGroups/shop-••••" in screen_text(app))
        assert key not in screen_text(app)  # the paths, the details under the table
        await pilot.press("enter")  # one call in full: its URL, bodies
        await pilot.pause()
        assert key not in screen_text(app)
