"""Chats, messages, contacts and statuses against the real 1.7.1 with planted data (issue 12).

evo-a is planted by the session fixture (Long timestamps for the messages the server "sent");
the numeric-timestamp variant is planted into a scratch instance of the test's own.
"""

from __future__ import annotations

import pytest

from gateway_tui.api import GatewayClient, ServerError
from gateway_tui.api.chat_models import latest_statuses
from gateway_tui.app import GatewayApp
from gateway_tui.screens.chats import ChatsScreen
from gateway_tui.screens.messages import MessagesScreen
from gateway_tui.widgets.conversation import ConversationView
from tests.real_gateway.gateway import PLANTED
from tests.support import make_app, make_config, screen_text, wait_for
from tests.test_demo_chats import BAD_FIND_MESSAGES_BODIES

ANA = "5511987650001@s.whatsapp.net"
BRUNO = "5511987650002@s.whatsapp.net"
GROUP = "120363025912345678@g.us"
LIST_ID = "BAE5F1A2B3C4D5E6"
REPLY_ID = "3EB05D2E8C1F4A7B9E0D62"
DELETED_ID = "E4A1C7B2D9F60E3B8A5C1D7F2E9B4A6C"
OWN_TEXT_ID = "BAE5A7B8C9D0E1F2"
SIZE = (140, 40)


def client(real_gateway) -> GatewayClient:
    return GatewayClient(real_gateway.url, real_gateway.api_key)


async def check_planted_store(real_gateway, instance: str) -> None:
    async with client(real_gateway) as gateway:
        chats = await gateway.find_chats(instance)
        messages = await gateway.find_messages(instance)
        contacts = await gateway.find_contacts(instance)
        statuses = latest_statuses(await gateway.find_status_messages(instance))
        ana = await gateway.find_messages(instance, remote_jid=ANA)
        one = await gateway.find_messages(instance, message_id=LIST_ID)
    assert {c.id for c in chats} == {ANA, BRUNO, GROUP}
    assert len(messages) == 10 and messages.skipped == 0
    # Both timestamp forms read, and the order is ours: oldest first, whatever the server did.
    stamps = [m.timestamp for m in messages]
    assert None not in stamps and stamps == sorted(stamps)
    # The store ignores where.key.remoteJid: the client filters.
    assert [m.id for m in ana] == [
        "3EB0C4F1A9D2B7E6F05A31",
        LIST_ID,
        REPLY_ID,
        OWN_TEXT_ID,
    ]
    assert [m.id for m in one] == [LIST_ID] and one[0].list_message is not None
    by_id = {m.id: m for m in messages}
    assert by_id[LIST_ID].from_me and by_id[LIST_ID].sender_name is None  # pushName ""
    assert by_id[REPLY_ID].selected_row_id == "sab-manha"
    assert by_id[REPLY_ID].quoted_id == LIST_ID
    group_message = by_id["7B3D9F1E5A2C8B4D6E0F1A3C5B7D9E2F"]
    assert group_message.participant == "5521987650003@s.whatsapp.net"
    assert group_message.sender_name == "Carla Dias"
    assert {c.id: c.name for c in contacts}[ANA] == "Ana Souza"
    assert statuses[LIST_ID].status == "READ"
    assert statuses[OWN_TEXT_ID].status == "DELIVERY_ACK"
    assert statuses[DELETED_ID].status == "DELETED"


async def test_planted_store_with_long_timestamps(real_gateway) -> None:
    status, raw = real_gateway.request("POST", f"/chat/findMessages/{PLANTED}", body={})
    assert status == 200
    assert any(isinstance(m["messageTimestamp"], dict) for m in raw)  # the Long form is there
    await check_planted_store(real_gateway, PLANTED)


async def test_planted_store_with_numeric_timestamps(real_gateway, scratch_instance) -> None:
    real_gateway.plant(scratch_instance, EVO_PLANT_NUMERIC_TS="1")
    try:
        _status, raw = real_gateway.request(
            "POST", f"/chat/findMessages/{scratch_instance}", body={}
        )
        assert all(isinstance(m["messageTimestamp"], int) for m in raw)
        await check_planted_store(real_gateway, scratch_instance)
    finally:
        real_gateway.plant(scratch_instance, "--remove")


async def test_status_history_rows_read_as_the_latest(real_gateway, scratch_instance) -> None:
    """A server with history answers one row per update: the newest one counts."""
    real_gateway.plant(scratch_instance, EVO_PLANT_STATUS_HISTORY="1")
    try:
        async with client(real_gateway) as gateway:
            rows = await gateway.find_status_messages(scratch_instance)
        assert sorted(r.status for r in rows if r.message_id == LIST_ID) == [
            "DELIVERY_ACK",
            "READ",
            "SERVER_ACK",
        ]
        assert latest_statuses(rows)[LIST_ID].status == "READ"
    finally:
        real_gateway.plant(scratch_instance, "--remove")


async def test_an_instance_without_store_answers_empty_lists(real_gateway) -> None:
    async with client(real_gateway) as gateway:
        assert await gateway.find_chats("evo-b") == []
        assert await gateway.find_messages("evo-b") == []
        assert await gateway.find_status_messages("evo-b") == []


async def test_whatsapp_numbers_needs_a_connected_instance(real_gateway) -> None:
    async with client(real_gateway) as gateway:
        with pytest.raises(ServerError) as caught:
            await gateway.whatsapp_numbers(PLANTED, ["5511987650001"])
    assert any(
        "onWhatsApp" in line or "Connection Closed" in line for line in caught.value.messages
    )


def app_on(real_gateway) -> GatewayApp:
    return make_app(make_config(real_gateway))


async def test_the_planted_chats_and_conversation_show_right(real_gateway) -> None:
    app = app_on(real_gateway)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        app.open_chats(PLANTED)
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ChatsScreen)
        await wait_for(pilot, lambda: len(screen.table.rows) == 3)
        rows = screen.table.visible_rows
        # Newest activity first: the group (today), Bruno (yesterday), Ana (two days ago).
        assert [r.jid for r in rows] == [GROUP, BRUNO, ANA]
        assert [r.title for r in rows] == [GROUP, "Bruno Lima", "Ana Souza"]
        assert rows[0].from_me and rows[0].last_text == "Combinado, levo o relatório da semana."
        text = screen_text(app)
        assert "group names need a connected instance" in text
        # Live filter over names.
        await pilot.press("slash", *"bruno")
        assert [r.jid for r in screen.table.visible_rows] == [BRUNO]
        await pilot.press("escape")
        assert app.screen is screen and len(screen.table.visible_rows) == 3
        # Ana's conversation: the list, the chosen row, and the delivery marks.
        screen.table.move_cursor_to_key(ANA)
        await pilot.press("enter")
        await pilot.pause()
        messages = app.screen
        assert isinstance(messages, MessagesScreen)
        view = messages.query_one(ConversationView)
        await wait_for(pilot, lambda: len(view.messages) == 4 and bool(view.statuses))
        await pilot.press("home")
        await pilot.pause()
        text = screen_text(app)
        assert "Oi! Vocês entregam no sábado?" in text
        await pilot.press("down")
        text = screen_text(app)
        assert "☰ Ver horários" in text and "Falar com atendente" in text
        await pilot.press("end")
        text = screen_text(app)
        assert "chose ● Manhã" in text and "09h às 12h" in text
        assert "Horários de entrega" in text
        assert "DELIVERY_ACK" in text  # the details line of the chosen (own) message


async def test_deleted_message_and_group_sender(real_gateway) -> None:
    app = app_on(real_gateway)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        app.push_screen(MessagesScreen(PLANTED, BRUNO))
        await pilot.pause()
        view = app.screen.query_one(ConversationView)
        await wait_for(pilot, lambda: len(view.messages) == 4 and DELETED_ID in view.statuses)
        view.select(2)
        await pilot.pause()
        assert view.selected is not None and view.selected.id == DELETED_ID
        assert "🚫 deleted" in screen_text(app)
        app.pop_screen()
        app.push_screen(MessagesScreen(PLANTED, GROUP))
        await pilot.pause()
        view = app.screen.query_one(ConversationView)
        await wait_for(pilot, lambda: len(view.messages) == 2)
        view.select(0)
        await pilot.pause()
        text = screen_text(app)
        assert "Carla Dias" in text and "+55 21 98765-0003" in text


async def test_an_own_text_message_can_be_chosen_for_edit(real_gateway) -> None:
    """The call reaches the real server and its disconnected answer is explained."""
    from gateway_tui.screens.chat_modals import EditMessageScreen

    app = app_on(real_gateway)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        app.push_screen(MessagesScreen(PLANTED, ANA))
        await pilot.pause()
        view = app.screen.query_one(ConversationView)
        await wait_for(pilot, lambda: len(view.messages) == 4)
        view.select(1)  # the list message: not text
        await pilot.press("e")
        assert not isinstance(app.screen, EditMessageScreen)
        view.select(3)
        await pilot.press("e")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, EditMessageScreen) and dialog.key.id == OWN_TEXT_ID
        assert dialog.value.startswith("Perfeito, Ana!")
        await pilot.press("end", *" Até sábado!", "enter")
        await wait_for(pilot, lambda: not dialog.busy)
        text = screen_text(app)
        assert app.screen is dialog
        assert "not connected" in text


@pytest.mark.parametrize(("body", "expected"), BAD_FIND_MESSAGES_BODIES)
def test_find_messages_validation_texts(real_gateway, body, expected) -> None:
    """The same texts the demo gives (tests/test_demo_chats.py)."""
    status, answer = real_gateway.request("POST", f"/chat/findMessages/{PLANTED}", body=body)
    assert status == 400 and answer["response"]["message"] == expected


def test_find_messages_ignores_the_chat_filter_and_honours_id_and_limit(real_gateway) -> None:
    path = f"/chat/findMessages/{PLANTED}"
    _status, everything = real_gateway.request("POST", path, body={})
    _status, filtered = real_gateway.request(
        "POST", path, body={"where": {"key": {"remoteJid": ANA}}}
    )
    assert len(filtered) == len(everything) == 10
    _status, one = real_gateway.request("POST", path, body={"where": {"key": {"id": LIST_ID}}})
    assert [m["key"]["id"] for m in one] == [LIST_ID]
    assert len(real_gateway.request("POST", path, body={"limit": 2})[1]) == 2
    assert real_gateway.request("POST", path, body={"limit": 0}) == (200, [])


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({"numbers": []}, [["numbers does not meet minimum length of 1"]]),
        ({"numbers": [5511]}, [['"numbers" must be an array of numeric strings']]),
        ({"numbers": ["1", "1"]}, [["numbers contains duplicate item"]]),
    ],
)
def test_whatsapp_numbers_validation_texts(real_gateway, body, expected) -> None:
    status, answer = real_gateway.request("POST", f"/chat/whatsappNumbers/{PLANTED}", body=body)
    assert status == 400 and answer["response"]["message"] == expected


async def test_find_contacts_by_number(real_gateway) -> None:
    async with client(real_gateway) as gateway:
        [bruno] = await gateway.find_contacts(PLANTED, "5511987650002")
    assert bruno.id == BRUNO and bruno.name == "Bruno Lima"


def test_the_chats_command_lists_the_planted_chats(real_gateway, monkeypatch, capsys) -> None:
    import json

    from gateway_tui.cli import main

    monkeypatch.setenv("GATEWAY_URL", real_gateway.url)
    monkeypatch.setenv("GATEWAY_API_KEY", real_gateway.api_key)
    assert main(["chats", PLANTED, "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [row["jid"] for row in rows] == [GROUP, BRUNO, ANA]
    assert [row["name"] for row in rows][1:] == ["Bruno Lima", "Ana Souza"]
