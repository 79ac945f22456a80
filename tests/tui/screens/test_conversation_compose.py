"""Writing in the conversation, on the demo: the message line (enter sends, ctrl+j breaks the
line), a quoted reply, a reaction, read receipts only when asked for, media cards, media saved
to a file (byte-identical, never over another file) and a local file sent.

The request bodies are the ones the recorded real 1.7.1 took (tests/recorded checks the same
bodies against the recordings: v1.7.1-more/066 sendText, 075 sendReaction, 081 markMessageAsRead,
073 sendMedia, 104 getBase64FromMediaMessage)."""

from __future__ import annotations

from pathlib import Path

from gateway_tui.core.api import message_bodies
from gateway_tui.core.files.media_files import media_dir
from gateway_tui.demo import chats as demo_chats
from gateway_tui.tui.screens.conversation_modals import ReactionScreen, SendFileScreen
from tests.data import JONAS, JONAS_JID, JONAS_LAST_ID, chat_with, demo_instance
from tests.navigation import open_conversation, select_message
from tests.support import notices, screen_text, wait_for

SIZE = (140, 40)


def calls_to(app, route: str) -> list:
    return [e for e in app.state.calls if e.path.startswith(route)]


async def test_enter_sends_the_line_and_the_message_shows(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_conversation(app, pilot, JONAS_JID)
        await pilot.press("i", *"Out for delivery", "ctrl+j", *"before noon")
        assert screen.line.text == "Out for delivery\nbefore noon"  # ctrl+j: a new line
        await pilot.press("enter")
        await wait_for(pilot, lambda: bool(calls_to(app, "/message/sendText/")))
        [sent] = calls_to(app, "/message/sendText/")
        assert sent.status == 201
        # The 1.7.1 body (recording v1.7.1-more/066): number and textMessage.text, nested.
        assert sent.request_body == {
            "number": JONAS,
            "textMessage": {"text": "Out for delivery\nbefore noon"},
        }
        chat = demo_instance(demo_server).chats[JONAS_JID]
        assert chat.messages[-1].text == "Out for delivery\nbefore noon"
        await wait_for(pilot, lambda: screen.view.selected.id == chat.messages[-1].key["id"])
        await wait_for(pilot, lambda: "before noon" in screen_text(app))
        assert screen.line.text == ""
        await pilot.press("enter")  # nothing typed: nothing sent
        await pilot.pause()
        assert len(calls_to(app, "/message/sendText/")) == 1
        assert any("Nothing to send" in n for n in notices(app))


async def test_a_failed_send_keeps_the_text(app_for, demo_server):
    demo_instance(demo_server).status = "close"
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_conversation(app, pilot, JONAS_JID)
        await pilot.press("i", *"Are you there?", "enter")
        await wait_for(pilot, lambda: bool(calls_to(app, "/message/sendText/")))
        await wait_for(pilot, lambda: not screen._sending)
        assert calls_to(app, "/message/sendText/")[0].status == 500
        assert screen.line.text == "Are you there?"  # nothing lost, to try again
        assert len(calls_to(app, "/message/sendText/")) == 1  # never repeated on its own


async def test_R_replies_quoting_the_chosen_message(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_conversation(app, pilot, JONAS_JID)
        await select_message(pilot, screen, JONAS_LAST_ID)
        await pilot.press("R")
        await pilot.pause()
        assert "Replying to You: Tracking: DHL" in screen_text(app)
        await pilot.press(*"This one arrives Friday", "enter")
        await wait_for(pilot, lambda: bool(calls_to(app, "/message/sendText/")))
        body = calls_to(app, "/message/sendText/")[0].request_body
        assert body["textMessage"] == {"text": "This one arrives Friday"}
        assert body["options"]["quoted"]["key"] == {
            "remoteJid": JONAS_JID,
            "fromMe": True,
            "id": JONAS_LAST_ID,
        }
        await wait_for(pilot, lambda: screen.view.selected.text == "This one arrives Friday")
        # The bubble shows what it answers; the reply is done.
        await wait_for(pilot, lambda: "↩ You: Tracking: DHL" in screen_text(app))
        assert "Replying to" not in screen_text(app)


async def test_plus_reacts_to_the_chosen_message(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_conversation(app, pilot, JONAS_JID)
        received = next(m for m in reversed(screen.view.messages) if not m.from_me)
        await select_message(pilot, screen, received.id)
        await pilot.press("plus")
        await pilot.pause()
        assert isinstance(app.screen, ReactionScreen)
        await pilot.press("2")
        await wait_for(pilot, lambda: bool(calls_to(app, "/message/sendReaction/")))
        body = calls_to(app, "/message/sendReaction/")[0].request_body
        # The 1.7.1 body (recording v1.7.1-more/075).
        assert body == {"reactionMessage": {"key": received.key.to_json(), "reaction": "❤️"}}
        chat = demo_instance(demo_server).chats[JONAS_JID]
        await wait_for(pilot, lambda: (chat.messages[-1].content or {}).get("reactionMessage"))
        assert chat.messages[-1].content["reactionMessage"]["key"]["id"] == received.id


async def test_read_receipts_only_when_asked_for(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await open_conversation(app, pilot, JONAS_JID)
        await pilot.pause()
        assert calls_to(app, "/chat/markMessageAsRead/") == []  # off by default
        assert "read receipts on" not in screen_text(app)
    chat = demo_instance(demo_server).chats[JONAS_JID]
    chat.messages.append(
        demo_chats.Message(
            key={"remoteJid": JONAS_JID, "fromMe": False, "id": "3AF0000000000000READ1"},
            text="Did it ship?",
            timestamp=chat.messages[-1].timestamp + 1,
        )
    )
    app = app_for(mark_read_on_open=True)
    async with app.run_test(size=SIZE) as pilot:
        await open_conversation(app, pilot, JONAS_JID)
        await wait_for(pilot, lambda: bool(calls_to(app, "/chat/markMessageAsRead/")))
        [call] = calls_to(app, "/chat/markMessageAsRead/")
        assert call.method == "PUT" and call.status == 201
        # The 1.7.1 body (recording v1.7.1-more/081): read_messages, the received ones since
        # the last own message.
        assert call.request_body == {
            "read_messages": [
                {"remoteJid": JONAS_JID, "fromMe": False, "id": "3AF0000000000000READ1"}
            ]
        }
        assert demo_server.state.read_receipts == ["3AF0000000000000READ1"]
        assert "read receipts on" in screen_text(app)


async def test_a_media_card_and_s_saves_the_file_byte_identical(app_for, demo_server):
    def is_document(m) -> bool:
        return "documentMessage" in (m.content or {})

    jid = chat_with(demo_server, is_document)
    original = next(m for m in demo_instance(demo_server).chats[jid].messages if is_document(m))
    expected = demo_chats.media_bytes(original)
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_conversation(app, pilot, jid)
        await select_message(pilot, screen, original.key["id"])
        text = screen_text(app)
        assert "📄 Document" in text and "invoice-2211.pdf" in text
        assert f"{len(expected) / 1024:.1f} KB" in text and "application/pdf" in text
        await pilot.press("s")
        target = media_dir() / "invoice-2211.pdf"
        await wait_for(pilot, lambda: target.exists())
        assert target.read_bytes() == expected
        await pilot.press("s")  # again: a second file, the first untouched
        second = media_dir() / "invoice-2211 (2).pdf"
        await wait_for(pilot, lambda: second.exists())
        assert second.read_bytes() == expected and target.read_bytes() == expected
        received = next(m for m in screen.view.messages if m.kind == "conversation")
        await select_message(pilot, screen, received.id)
        await pilot.press("s")
        await pilot.pause()
        assert any("not a photo, video, audio or document" in n for n in notices(app))


async def test_a_hostile_file_name_is_saved_under_a_safe_name(app_for, demo_server):
    chat = demo_instance(demo_server).chats[JONAS_JID]
    chat.messages.append(
        demo_chats.Message(
            key={"remoteJid": JONAS_JID, "fromMe": False, "id": "3AF00000000000000DOC1"},
            text="",
            timestamp=chat.messages[-1].timestamp + 1,
            content={"documentMessage": {"fileName": "../../.bashrc\x1b[31m", "mimetype": "x"}},
        )
    )
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await open_conversation(app, pilot, JONAS_JID)
        await pilot.press("s")
        await wait_for(pilot, lambda: media_dir().exists() and any(media_dir().iterdir()))
        [saved] = list(media_dir().iterdir())
        assert saved.name == "bashrc_31m.bin" and saved.parent == media_dir()


async def test_f_sends_a_local_file_with_a_caption(app_for, demo_server, tmp_path: Path):
    photo = tmp_path / "receipt.jpg"
    photo.write_bytes(b"\xff\xd8\xff" + bytes(range(256)) * 8)
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_conversation(app, pilot, JONAS_JID)
        await pilot.press("f")
        await pilot.pause()
        assert isinstance(app.screen, SendFileScreen)
        await pilot.press(*str(photo), "tab", *"the receipt", "enter")
        await wait_for(pilot, lambda: bool(calls_to(app, "/message/sendMedia/")))
        chat = demo_instance(demo_server).chats[JONAS_JID]
        await wait_for(pilot, lambda: chat.messages[-1].media is not None)
        assert chat.messages[-1].media == photo.read_bytes()
        assert chat.messages[-1].content["imageMessage"]["caption"] == "the receipt"
        await wait_for(pilot, lambda: screen.view.selected.kind == "imageMessage")
        assert "🖼 Photo" in screen_text(app)


async def test_enter_in_the_file_field_sends_as_the_dialog_says(
    app_for, demo_server, tmp_path: Path
):
    """The dialog says "enter sends": enter in the file field sends (it once moved on to the
    caption and sent nothing)."""
    photo = tmp_path / "plain.jpg"
    photo.write_bytes(b"\xff\xd8\xff" + bytes(range(256)) * 4)
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await open_conversation(app, pilot, JONAS_JID)
        await pilot.press("f")
        await wait_for(pilot, lambda: isinstance(app.screen, SendFileScreen))
        assert "enter or ^s sends" in screen_text(app)
        await pilot.press(*str(photo), "enter")
        await wait_for(pilot, lambda: not isinstance(app.screen, SendFileScreen))
        await wait_for(pilot, lambda: bool(calls_to(app, "/message/sendMedia/")))
        chat = demo_instance(demo_server).chats[JONAS_JID]
        await wait_for(pilot, lambda: chat.messages[-1].media == photo.read_bytes())


async def test_a_file_too_big_is_refused_before_sending(
    app_for, demo_server, tmp_path: Path, monkeypatch
):
    monkeypatch.setitem(message_bodies.MEDIA_LIMITS, "document", 1000)
    big = tmp_path / "dump.bin"
    big.write_bytes(b"x" * 1001)
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await open_conversation(app, pilot, JONAS_JID)
        await pilot.press("f")
        await pilot.pause()
        await pilot.press(*str(big), "enter")
        await pilot.pause()
        assert isinstance(app.screen, SendFileScreen)  # still open, to fix
        assert "WhatsApp takes at most" in screen_text(app)
        assert calls_to(app, "/message/sendMedia/") == []


async def test_on_a_2x_gateway_the_line_sends_the_flat_body_and_the_message_shows():
    """The same keys on a 2.x gateway: the flat body a real 2.3.6 took (v2.3.6-more/067)."""
    from gateway_tui.demo.server import DemoServer
    from tests.support import make_app, make_config

    with DemoServer(api_version="2.3.6") as server:
        app = make_app(make_config(server))
        async with app.run_test(size=SIZE) as pilot:
            await open_conversation(app, pilot, JONAS_JID)
            await pilot.press("i", *"Out for delivery", "enter")
            await wait_for(pilot, lambda: bool(calls_to(app, "/message/sendText/")))
            [sent] = calls_to(app, "/message/sendText/")
            assert sent.status == 201
            assert sent.request_body == {"number": JONAS, "text": "Out for delivery"}
            chat = demo_instance(server).chats[JONAS_JID]
            assert chat.messages[-1].text == "Out for delivery"
            await wait_for(pilot, lambda: "Out for delivery" in screen_text(app))
