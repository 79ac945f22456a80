"""The releases the demo speaks beyond 2.3.6: 2.3.7's three differences and 2.4 (activated, and
without a licence as the recorded 2.4.0-rc2). The whole folders are replayed in
tests/recorded/test_demo_agrees.py; here what a replay in order cannot show."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from gateway_tui.cli.parser import build_parser
from gateway_tui.demo import lifecycle
from gateway_tui.demo.server import DemoServer
from tests.recorded.gateway import load_folder
from tests.support import wait_in_thread

GLOBAL_KEY = "EVO-LOCAL-GLOBAL-KEY-0001"


def _recorded(folder: str, name: str) -> Any:
    return next(r for r in load_folder(folder) if r.name == name)


@pytest.mark.parametrize("version", ["2.3.6", "2.3.7", "2.4.0"])
def test_the_welcome_says_the_release_and_from_2_3_7_the_manager(version: str) -> None:
    with DemoServer(api_version=version, instances=0) as server:
        body = httpx.get(server.url + "/").json()
    assert body["version"] == version
    assert ("manager" in body) is (version != "2.3.6")
    if version != "2.3.6":
        assert body["manager"] == f"{server.url}/manager"
        assert list(body) == list(_recorded("v2.3.7", "root").response_body)


@pytest.mark.parametrize(("version", "state"), [("2.3.6", "connecting"), ("2.3.7", "close")])
def test_right_after_a_connect_out_of_reach_2_3_7_says_close(version: str, state: str) -> None:
    with DemoServer(api_version=version, instances=0, api_key=GLOBAL_KEY) as server:
        server.state.create_instance("lc-1", None).status = "close"
        lifecycle.of(server.state).whatsapp = "offline"  # as the recorder's server: no internet
        headers = {"apikey": GLOBAL_KEY}
        assert httpx.get(f"{server.url}/instance/connect/lc-1", headers=headers).json() == {
            "count": 0
        }
        answer = httpx.get(f"{server.url}/instance/connectionState/lc-1", headers=headers)
    assert answer.json() == {"instance": {"instanceName": "lc-1", "state": state}}


@pytest.mark.parametrize("version", ["2.3.6", "2.3.7"])
def test_find_contacts_by_id_and_name_from_2_3_7(version: str) -> None:
    with DemoServer(api_version=version, instances=3) as server:
        name = next(n for n, i in server.state.instances.items() if i.status == "open")
        url, headers = f"{server.url}/chat/findContacts/{name}", {"apikey": server.api_key}
        every = httpx.post(url, json={}, headers=headers).json()
        first = every[0]
        by_id = httpx.post(url, json={"where": {"id": first["id"]}}, headers=headers).json()
        by_name = httpx.post(
            url, json={"where": {"pushName": "Nobody at all"}}, headers=headers
        ).json()
    assert len(every) > 1
    if version == "2.3.6":  # ignores both filters (v2.3.6-more/105)
        assert len(by_id) == len(by_name) == len(every)
    else:
        assert by_id == [first] and by_name == []


def test_without_a_licence_2_4_answers_as_recorded() -> None:
    """Every recorded exchange of v2.4.0-rc2: the same status, and the same body apart from
    the server's own URL and the licence's instance id."""
    with DemoServer(api_version="2.4.0", licence="inactive", instances=2) as server:
        with httpx.Client(base_url=server.url) as client:
            for rec in load_folder("v2.4.0-rc2"):
                headers = dict(rec.request_headers)
                content = rec.raw_body or (
                    json.dumps(rec.request_body).encode() if rec.request_body else None
                )
                answer = client.request(rec.method, rec.path, headers=headers, content=content)
                assert answer.status_code == rec.status, rec.id
                if rec.status == 204:
                    assert answer.content == b""
                    continue
                body = answer.json()
                real = rec.response_body
                if rec.name == "root":
                    assert body["version"] == "2.4.0" and set(body) == set(real)
                    continue
                mine = json.dumps(body).replace(server.url, "<url>")
                theirs = json.dumps(real).replace("http://127.0.0.1:18740", "<url>")
                ours_id = body.get("instance_id") if isinstance(body, dict) else None
                if ours_id:
                    mine = mine.replace(ours_id, real["instance_id"])
                assert json.loads(mine) == json.loads(theirs), rec.id


def test_a_2_4_licence_gate_holds_whatever_the_key_and_activation_opens_it() -> None:
    with DemoServer(api_version="2.4.0", licence="inactive", instances=2) as server:
        url = server.url
        for key in (server.api_key, "wrong", None):
            headers = {"apikey": key} if key else {}
            answer = httpx.post(f"{url}/message/sendText/x", json={}, headers=headers)
            assert (answer.status_code, answer.json()["code"]) == (503, "LICENSE_REQUIRED")
        assert httpx.get(f"{url}/license/status").json()["status"] == "inactive"
        assert httpx.get(f"{url}/license/activate", params={"code": "abc"}).status_code == 200
        assert httpx.get(f"{url}/license/status").json()["status"] == "active"
        rows = httpx.get(f"{url}/instance/fetchInstances", headers={"apikey": server.api_key})
        assert rows.status_code == 200 and len(rows.json()) == 2


def test_an_activated_2_4_answers_as_2_3_7_and_takes_messaging_history_set() -> None:
    with DemoServer(api_version="2.4.0", instances=2) as server:
        headers = {"apikey": server.api_key}
        name = next(iter(server.state.instances))
        assert httpx.get(f"{server.url}/license/status").json()["status"] == "active"
        rows = httpx.get(f"{server.url}/instance/fetchInstances", headers=headers).json()
        webhook = {"enabled": True, "url": "http://127.0.0.1:9/h"}
        ticked = webhook | {"events": ["MESSAGING_HISTORY_SET"]}
        answer = httpx.post(
            f"{server.url}/webhook/set/{name}", json={"webhook": ticked}, headers=headers
        )
    assert {row["name"] for row in rows} == set(server.state.instances)
    assert answer.status_code == 201 and answer.json()["events"] == ["MESSAGING_HISTORY_SET"]


def test_a_licence_or_metrics_where_the_release_has_none_is_refused() -> None:
    with pytest.raises(ValueError, match="licence"):
        DemoServer(api_version="2.3.7", licence="inactive")
    with pytest.raises(ValueError, match="metrics"):
        DemoServer(api_version="1.7.1", metrics=True)
    with pytest.raises(ValueError, match="unknown Evolution API version"):
        DemoServer(api_version="3.0")


def test_the_command_line_takes_the_new_releases() -> None:
    parser = build_parser()
    args = parser.parse_args(["--demo", "--demo-version", "2.4.0"])
    assert args.demo_version == "2.4.0"
    args = parser.parse_args(
        ["demo-server", "--api-version", "2.4.0", "--licence", "inactive", "--zombie", "z"]
    )
    assert (args.api_version, args.licence, args.zombie) == ("2.4.0", "inactive", ["z"])
    args = parser.parse_args(["demo-server", "--metrics-auth", "prom:pass", "--flapping", "f"])
    assert args.metrics_auth == ("prom", "pass") and args.flapping == ["f"]


def test_2_4_keeps_a_chosen_message_id_and_a_resend_makes_no_second_message() -> None:
    with DemoServer(api_version="2.4.0", instances=3) as server:
        name = next(n for n, i in server.state.instances.items() if i.status == "open")
        instance = server.state.instances[name]
        jid = next(j for j in instance.chats if j.endswith("@s.whatsapp.net"))
        url, headers = f"{server.url}/message/sendText/{name}", {"apikey": server.api_key}
        body = {"number": jid.split("@")[0], "text": "once", "messageId": "3EB0CAMPAIGN0001"}
        first = httpx.post(url, json=body, headers=headers)
        again = httpx.post(url, json=body, headers=headers)
        other = httpx.post(url, json=body | {"messageId": "3EB0CAMPAIGN0002"}, headers=headers)
        stored = [m.key["id"] for m in instance.chats[jid].messages if m.text == "once"]
    assert first.status_code == again.status_code == other.status_code == 201
    assert first.json()["key"]["id"] == again.json()["key"]["id"] == "3EB0CAMPAIGN0001"
    assert stored == ["3EB0CAMPAIGN0001", "3EB0CAMPAIGN0002"]


def test_before_2_4_a_message_id_is_not_the_callers() -> None:
    with DemoServer(api_version="2.3.7", instances=3) as server:
        name = next(n for n, i in server.state.instances.items() if i.status == "open")
        jid = next(j for j in server.state.instances[name].chats if j.endswith("@s.whatsapp.net"))
        body = {"number": jid.split("@")[0], "text": "x", "messageId": "3EB0CAMPAIGN0001"}
        sent = httpx.post(
            f"{server.url}/message/sendText/{name}", json=body, headers={"apikey": server.api_key}
        )
    assert sent.status_code == 201 and sent.json()["key"]["id"] != "3EB0CAMPAIGN0001"


async def test_2_4_a_resend_while_the_first_is_still_sending_makes_no_second_message() -> None:
    """The first send waits out its delay (presence shown) while the resend arrives."""
    import asyncio

    with DemoServer(api_version="2.4.0", instances=3) as server:
        name = next(n for n, i in server.state.instances.items() if i.status == "open")
        instance = server.state.instances[name]
        jid = next(j for j in instance.chats if j.endswith("@s.whatsapp.net"))
        body = {
            "number": jid.split("@")[0],
            "title": "T",
            "description": "d",
            "buttonText": "Open",
            "footerText": "f",
            "sections": [{"title": "S", "rows": [{"title": "R", "rowId": "r1"}]}],
            "delay": 3000,
            "messageId": "3EB0CAMPAIGN0003",
        }
        url, headers = f"{server.url}/message/sendList/{name}", {"apikey": server.api_key}
        async with httpx.AsyncClient(headers=headers, timeout=60) as client:
            first = asyncio.create_task(client.post(url, json=body))
            await asyncio.to_thread(
                wait_in_thread,
                lambda: (name, "3EB0CAMPAIGN0003") in server.state.sending,
                "the first send inside its delay",
            )
            again = await client.post(url, json=body)
            answered = await first
        stored = [m for m in instance.chats[jid].messages if m.key["id"] == "3EB0CAMPAIGN0003"]
    assert answered.status_code == again.status_code == 201
    assert answered.json()["key"] == again.json()["key"]
    assert len(stored) == 1
