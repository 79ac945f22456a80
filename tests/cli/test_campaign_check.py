"""Is it on WhatsApp: whatsappNumbers in the client and the demo, and the campaign's check."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest

from gateway_tui.core.api.client import GatewayClient
from gateway_tui.core.api.errors import InvalidRequest, ServerError
from gateway_tui.core.campaign.check import CHECK_BATCH, numbers_not_on_whatsapp
from gateway_tui.core.campaign.recipients import parse_recipients
from gateway_tui.core.draft import Draft, DraftRow, DraftSection
from gateway_tui.core.files.drafts import ComposeStore
from gateway_tui.main import main


def call(server, coro_factory):
    async def go():
        async with GatewayClient(server.url, server.api_key) as client:
            return await coro_factory(client)

    return asyncio.run(go())


def post(server, instance: str, body) -> httpx.Response:
    return httpx.post(
        f"{server.url}/chat/whatsappNumbers/{instance}",
        headers={"apikey": server.api_key},
        json=body,
    )


def test_the_client_reads_who_is_on_whatsapp(demo_server):
    demo_server.state.not_on_whatsapp.add("4917400000002")
    answers = call(
        demo_server,
        lambda c: c.contacts.whatsapp_numbers("sales-eu", ["+49 174 0000 0001", "4917400000002"]),
    )
    assert [(a.number, a.exists) for a in answers] == [
        ("4917400000001", True),
        ("4917400000002", False),
    ]
    assert answers[0].jid == "4917400000001@s.whatsapp.net"


@pytest.mark.parametrize(
    ("body", "status", "text"),
    [
        ({"numbers": []}, 400, "numbers does not meet minimum length of 1"),
        ({"numbers": ["1", "1"]}, 400, "numbers contains duplicate item"),
        ({"numbers": [5511]}, 400, '"numbers" must be an array of numeric strings'),
        ({}, 500, "Cannot read properties of undefined (reading 'forEach')"),
    ],
)
def test_the_demo_refuses_like_a_real_server(demo_server, body, status, text):
    response = post(demo_server, "sales-eu", body)
    assert response.status_code == status
    message = response.json()["response"]["message"]
    assert message == ([[text]] if status == 400 else text)


def test_a_disconnected_instance_cannot_check(demo_server):
    demo_server.state.instances["sales-eu"].status = "close"
    with pytest.raises(ServerError) as refused:
        call(demo_server, lambda c: c.contacts.whatsapp_numbers("sales-eu", ["4917400000001"]))
    assert refused.value.instance_not_connected
    assert refused.value.messages == ["Cannot read properties of undefined (reading 'onWhatsApp')"]


def test_the_client_refuses_no_numbers_or_the_same_number_twice(demo_server):
    for numbers in ([], ["4917400000001", "+49 174 0000 0001"]):
        with pytest.raises(InvalidRequest):
            call(
                demo_server,
                lambda c, numbers=numbers: c.contacts.whatsapp_numbers("sales-eu", numbers),
            )
    assert not demo_server.state.writes


def test_the_campaign_check_asks_in_batches_and_leaves_out_who_is_not(demo_server):
    count = CHECK_BATCH * 2 + 7
    rows = "".join(f"49174{i:08d}\n" for i in range(count))
    recipients = parse_recipients(rows + "120363012345678901@g.us\n")
    demo_server.state.not_on_whatsapp.update({"4917400000003", "4917400000100"})
    missing = call(demo_server, lambda c: numbers_not_on_whatsapp(c, "sales-eu", recipients))
    assert missing == {"4917400000003", "4917400000100"}
    calls = [w for w in demo_server.state.writes if w.path.startswith("/chat/whatsappNumbers/")]
    assert len(calls) == 3  # 107 numbers in batches of 50; the group JID is not asked about
    assert recipients.leave_out(missing, "not on WhatsApp") == 2
    assert len(recipients.recipients) == count - 2 + 1
    assert recipients.invalid[-1].message == "4917400000100: not on WhatsApp"


def test_send_list_check_whatsapp_sends_only_to_numbers_on_whatsapp(
    demo_server, tmp_path, capsys, monkeypatch
):
    monkeypatch.setenv("GATEWAY_URL", demo_server.url)
    monkeypatch.setenv("GATEWAY_API_KEY", demo_server.api_key)
    draft = Draft(
        title="Hi",
        description="Menu",
        button_text="See",
        sections=[DraftSection("Drinks", [DraftRow("Cola")])],
    )
    ComposeStore(demo_server.url, "sales-eu").save_template("menu", draft)
    to = tmp_path / "to.csv"
    to.write_text("4917400000001\n4917400000002\n4917400000003\n")
    demo_server.state.not_on_whatsapp.add("4917400000002")
    argv = [
        "send-list",
        "--instance",
        "sales-eu",
        "--draft",
        "menu",
        "--to",
        str(to),
        "--rate",
        "max",
        "--check-whatsapp",
        "--json",
    ]
    assert main(argv) == 0
    captured = capsys.readouterr()
    assert "leaving out 1 not on WhatsApp: 4917400000002" in captured.err
    end = json.loads(captured.out.splitlines()[-1])
    assert (end["sent"], end["failed"]) == (2, 0)
    assert "4917400000002" not in demo_server.state.sends_by_number
