"""The headless commands: send-list, campaigns, instances, participants, chats."""

from __future__ import annotations

import csv
import dataclasses
import io
import json

import httpx
import pytest

from gateway_tui.core.files.drafts import ComposeStore
from gateway_tui.main import main
from tests.data import CAMPAIGN_DRAFT
from tests.support import json_lines, run_cli_without_textual


def recipients_file(tmp_path, count=5, extra=""):
    path = tmp_path / "to.csv"
    path.write_text("number,name\n" + "".join(f"49172{i:08d},P{i}\n" for i in range(count)) + extra)
    return path


def send(tmp_path, *more: str, to=None) -> list[str]:
    to = to or recipients_file(tmp_path)
    return [
        "send-list",
        "--instance",
        "sales-eu",
        "--draft",
        "Weekly menu",
        "--to",
        str(to),
        "--rate",
        "max",
        *more,
    ]


def test_send_list_json_lines_from_start_to_end(gateway, tmp_path, capsys):
    assert main([*send(tmp_path), "--json"]) == 0
    events = json_lines(capsys.readouterr().out)
    start, *sends, end = events
    assert start["event"] == "start" and start["total"] == 5 and start["left"] == 5
    assert [e["event"] for e in sends] == ["sent"] * 5
    assert sends[0]["number"] == "4917200000000" and sends[0]["message_id"].startswith("3EB0")
    assert end["event"] == "end" and end["state"] == "finished"
    assert (end["sent"], end["failed"], end["unknown"], end["left"]) == (5, 0, 0, 0)
    assert end["exit_status"] == 0
    report = list(csv.DictReader(io.StringIO(open(end["report"]).read())))
    assert [row["status"] for row in report] == ["sent"] * 5
    assert all(gateway.state.sends_by_number[f"49172{i:08d}"] == 1 for i in range(5))


def test_failures_and_unknowns_exit_3_and_are_listed(gateway, tmp_path, capsys):
    gateway.state.not_on_whatsapp.add("4917200000001")
    gateway.faults.add("drop_after_read", method="POST", path_prefix="/message/", times=1)
    assert main([*send(tmp_path), "--json"]) == 3
    end = json_lines(capsys.readouterr().out)[-1]
    assert (end["sent"], end["failed"], end["unknown"]) == (3, 1, 1)
    assert end["held"] == ["4917200000000"]
    # Resumed, the held recipient is not sent again unless asked.
    assert main(["send-list", "--resume", end["campaign"], "--json"]) == 3
    assert gateway.state.sends_by_number["4917200000000"] == 1
    assert main(["send-list", "--resume", end["campaign"], "--resend-unknown"]) == 3
    assert gateway.state.sends_by_number["4917200000000"] == 2
    out = capsys.readouterr().out
    assert "Finished: 4 sent, 1 failed, 0 unknown, 0 left." in out


def test_held_recipients_can_be_set_aside_from_the_command_line(gateway, tmp_path, capsys):
    gateway.faults.add("drop_after_read", method="POST", path_prefix="/message/", times=1)
    assert main([*send(tmp_path), "--json"]) == 3
    campaign = json_lines(capsys.readouterr().out)[-1]["campaign"]
    assert main(["send-list", "--resume", campaign, "--set-aside-unknown", "--json"]) == 0
    end = json_lines(capsys.readouterr().out)[-1]
    assert (end["sent"], end["unknown"], end["skipped"]) == (4, 0, 1)
    assert gateway.state.sends_by_number["4917200000000"] == 1


def test_a_stopped_campaign_exits_4_and_says_how_to_resume(gateway, tmp_path, capsys):
    gateway.faults.add("unauthorized", method="POST", path_prefix="/message/")
    assert main(send(tmp_path)) == 4
    out = capsys.readouterr().out
    assert "refused the API key on the last 3 calls" in out
    assert "Resume with: gateway-tui send-list --resume " in out


def test_a_malformed_csv_is_refused_with_its_line_number(gateway, tmp_path, capsys):
    to = recipients_file(tmp_path, count=2, extra='4917299999999,"Unclosed\n')
    assert main(send(tmp_path, to=to)) == 1
    err = capsys.readouterr().err
    assert "line 4: not valid CSV (a quote opened on this line is never closed)" in err
    assert sum(gateway.state.sends_by_number.values()) == 0


def test_invalid_numbers_refuse_the_file_unless_skipped(gateway, tmp_path, capsys):
    to = recipients_file(tmp_path, count=2, extra="12ab,Bad\n")
    assert main(send(tmp_path, to=to)) == 1
    assert "line 4: '12ab'" in capsys.readouterr().err
    assert main(send(tmp_path, "--skip-invalid", to=to)) == 0
    assert sum(gateway.state.sends_by_number.values()) == 2


def test_an_unknown_template_lists_the_known_ones(gateway, tmp_path, capsys):
    args = send(tmp_path)
    args[args.index("Weekly menu")] = "Nope"
    assert main(args) == 1
    assert "no template named 'Nope' (templates: 'Weekly menu')" in capsys.readouterr().err


def test_no_gateway_is_a_plain_error(tmp_path, capsys):
    assert main(["instances"]) == 1
    assert "no gateway" in capsys.readouterr().err


def test_instances_as_json_and_csv(gateway, capsys):
    assert main(["instances", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {"name": "sales-eu", "status": "open"}.items() <= rows[0].items()
    assert main(["instances", "--csv"]) == 0
    table = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [row["name"] for row in table] == [row["name"] for row in rows]


def test_participants_as_json_with_the_key_from_a_flag(demo_server, capsys):
    instance = demo_server.state.instances["sales-eu"]
    jid = next(iter(instance.groups))
    argv = [
        "participants",
        "sales-eu",
        jid,
        "--json",
        "--url",
        demo_server.url,
        "--api-key",
        demo_server.api_key,
    ]
    assert main(argv) == 0
    rows = json.loads(capsys.readouterr().out)
    assert len(rows) == len(instance.groups[jid].participants)
    assert {"number", "jid", "lid", "role", "name"} == set(rows[0])


def test_a_gateway_error_is_one_plain_line(gateway, capsys):
    assert main(["participants", "sales-eu", "1203630@g.us"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("gateway-tui: error: ") and "Traceback" not in err


def test_chats_local_lists_what_this_app_sent(gateway, tmp_path, capsys):
    assert main(send(tmp_path)) == 0
    capsys.readouterr()
    assert main(["chats", "sales-eu", "--local", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {row["jid"] for row in rows} == {f"49172{i:08d}@s.whatsapp.net" for i in range(5)}
    assert rows[0]["last_message"] == "Hello P4"


def test_chats_lists_the_gateways_chats_with_what_this_app_sent(gateway, tmp_path, capsys):
    assert main(send(tmp_path)) == 0
    capsys.readouterr()
    assert main(["chats", "sales-eu", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    by_jid = {row["jid"]: row for row in rows}
    stored = gateway.state.instances["sales-eu"].chats
    assert set(stored) <= set(by_jid)  # every chat the gateway stores, the new ones among them
    assert by_jid["4915112340001@s.whatsapp.net"]["name"] == "Jonas Weber"
    sent = [by_jid[f"49172{i:08d}@s.whatsapp.net"] for i in range(5)]
    assert all(row["sent_here"] == 1 and row["in_gateway"] for row in sent)
    times = [row["last_at"] for row in rows if row["last_at"]]
    assert times == sorted(times, reverse=True)  # newest first


def test_chats_says_why_the_gateway_could_not_list_them(gateway, capsys):
    gateway.faults.add("status", status=500, path_prefix="/chat/findChats/")
    assert main(["chats", "sales-eu"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("gateway-tui: error: ") and "Traceback" not in err


def test_campaigns_lists_ids_for_resume(gateway, tmp_path, capsys):
    assert main(send(tmp_path)) == 0
    capsys.readouterr()
    assert main(["campaigns", "--json"]) == 0
    [campaign] = json.loads(capsys.readouterr().out)
    assert campaign["instance"] == "sales-eu" and campaign["sent"] == 5


@pytest.mark.parametrize("command", ["send-list", "instances", "participants", "chats"])
def test_every_command_has_help_with_examples(command, capsys):
    with pytest.raises(SystemExit) as exited:
        main([command, "--help"])
    assert exited.value.code == 0
    assert "examples:" in capsys.readouterr().out


def test_send_list_imports_no_textual(gateway, tmp_path, isolated_home):
    result = run_cli_without_textual(send(tmp_path, "--json"), gateway, isolated_home)
    assert result.returncode == 0, result.stderr
    assert json_lines(result.stdout)[-1]["sent"] == 5


def test_demo_server_knobs_reach_the_demo(monkeypatch):
    import gateway_tui.demo.server as demo

    calls = []
    monkeypatch.setattr(demo, "serve", lambda port, **options: calls.append(options) or 0)
    argv = [
        "demo-server",
        "--not-on-whatsapp",
        "4917200000001, 4917200000002",
        "--drop-share",
        "0.25",
    ]
    assert main(argv) == 0
    assert calls == [{"not_on_whatsapp": ["4917200000001", "4917200000002"], "drop_share": 0.25}]
    with pytest.raises(SystemExit):
        main(["demo-server", "--drop-share", "1.5"])


def test_the_drop_knob_drops_a_share_of_sends_after_they_went_out():
    from gateway_tui.demo.server import DemoServer

    with DemoServer(drop_share=1.0, not_on_whatsapp={"4917200000009"}) as server:
        body = {
            "number": "4917200000001",
            "listMessage": {
                "title": "t",
                "description": "d",
                "buttonText": "b",
                "sections": [{"title": "s", "rows": [{"title": "r", "rowId": "r"}]}],
            },
        }
        headers = {"apikey": server.api_key}
        with pytest.raises(httpx.RemoteProtocolError):
            httpx.post(f"{server.url}/message/sendList/sales-eu", json=body, headers=headers)
        assert server.state.sends_by_number["4917200000001"] == 1  # it went out all the same
        server.faults.clear()
        refused = httpx.post(
            f"{server.url}/message/sendList/sales-eu",
            json={**body, "number": "4917200000009"},
            headers=headers,
        )
        assert refused.status_code == 400
        assert refused.json()["response"]["message"][0]["exists"] is False


def test_send_list_on_2_3_x_warns_that_whatsapp_does_not_show_list_messages(
    tmp_path, capsys, monkeypatch
):
    from gateway_tui.demo.server import DemoServer

    with DemoServer(api_version="2.3.6", instances=3) as server:
        monkeypatch.setenv("GATEWAY_URL", server.url)
        monkeypatch.setenv("GATEWAY_API_KEY", server.api_key)
        draft = dataclasses.replace(CAMPAIGN_DRAFT, footer="Acme")  # 2.x requires one
        ComposeStore(server.url, "sales-eu").save_template("Weekly menu", draft)
        assert main(send(tmp_path, "--json")) == 0
        err = capsys.readouterr().err
        assert "This gateway is 2.3.6: WhatsApp does not show list messages" in err
        assert sum(server.state.sends_by_number.values()) == 5  # told, and sent as asked


def test_send_list_on_1_7_1_has_no_such_warning(gateway, tmp_path, capsys):
    assert main(send(tmp_path)) == 0
    assert "does not show list messages" not in capsys.readouterr().err
