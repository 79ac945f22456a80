"""`instances` on the command line (issue 29): rows the gateway listed but the client could not
read are said, never dropped in silence; the JSON has each instance's number and integration."""

from __future__ import annotations

import json

import httpx
import pytest

from gateway_tui.demo.server import DemoServer
from gateway_tui.main import main


@pytest.fixture
def gateway_2x(monkeypatch):
    with DemoServer(api_version="2.3.6") as server:
        monkeypatch.setenv("GATEWAY_URL", server.url)
        monkeypatch.setenv("GATEWAY_API_KEY", server.api_key)
        yield server


def test_an_unreadable_row_is_said(gateway_2x, capsys) -> None:
    gateway_2x.state.instances["support"].profile_name = 12  # served as "profileName": 12
    assert main(["instances"]) == 0
    said = capsys.readouterr()
    assert "1 instance(s) listed by the gateway could not be read" in said.err
    assert "profileName" in said.err
    assert "sales-eu" in said.out and "support" not in said.out


def test_json_has_the_number_and_the_integration_on_2x(gateway_2x, capsys) -> None:
    body = {"instanceName": "with-number", "number": "5511999990000", "qrcode": False}
    body["integration"] = "WHATSAPP-BAILEYS"
    made = httpx.post(
        f"{gateway_2x.url}/instance/create", json=body, headers={"apikey": gateway_2x.api_key}
    )
    assert made.status_code == 201, made.text
    assert main(["instances", "--json"]) == 0
    rows = {row["name"]: row for row in json.loads(capsys.readouterr().out)}
    listed = httpx.get(
        f"{gateway_2x.url}/instance/fetchInstances", headers={"apikey": gateway_2x.api_key}
    ).json()
    (raw,) = [row for row in listed if row.get("name") == "with-number"]
    assert "number" in rows["with-number"] and rows["with-number"]["number"] == raw["number"]
    assert rows["with-number"]["integration"] == "WHATSAPP-BAILEYS"
    assert rows["sales-eu"]["integration"] == "WHATSAPP-BAILEYS"
