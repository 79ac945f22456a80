"""Issue 23, "the screen must tell the truth": what the screens said that was not so."""

from __future__ import annotations

import shutil
import socket
import ssl
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from gateway_tui.core.api.errors import GatewayError
from gateway_tui.core.services.connect import probe_gateway
from gateway_tui.tui.widgets.status_panel import error_advice
from tests.support import screen_text, wait_for

SIZE = (120, 36)


# --- 1. a wrong path prefix, a certificate that is not trusted --------------------------------


async def test_a_wrong_path_prefix_is_not_ok_and_the_url_is_suggested(app_for, demo_server):
    app = app_for(url=f"{demo_server.url}/api")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.state.instances.error is not None)
        await pilot.pause()
        text = screen_text(app)
        assert "● ok" not in text
        assert "/api/instance/fetchInstances" in text  # the server's line stays
        assert "Check the URL" in text
        assert f"try {demo_server.url} without /api" in " ".join(text.split())


@pytest.fixture
def self_signed_server(tmp_path: Path) -> Iterator[str]:
    """An https server on 127.0.0.1 with a self-signed certificate; yields its URL."""
    if shutil.which("openssl") is None:
        pytest.skip("openssl is needed to make a self-signed certificate")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
         "-subj", "/CN=127.0.0.1", "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )  # fmt: skip
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.2)
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            # A client that connects and says nothing must not hold the thread (and the
            # test's teardown) for ever: the handshake gives up after a while.
            conn.settimeout(5)
            try:
                with context.wrap_socket(conn, server_side=True):
                    pass
            except (ssl.SSLError, OSError):
                pass  # the client refuses the certificate: that is the point

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield f"https://127.0.0.1:{listener.getsockname()[1]}"
    stop.set()
    thread.join()
    listener.close()


async def test_a_certificate_that_is_not_trusted_is_named_not_asked_if_the_gateway_runs(
    self_signed_server,
):
    with pytest.raises(GatewayError) as caught:
        await probe_gateway(self_signed_server, "some-key", call_timeout=30)
    title, advice = error_advice(caught.value, self_signed_server)
    said = f"{title}. {advice}"
    assert "Is the gateway running" not in said
    assert "certificate" in title
    assert "SSL_CERT_FILE" in advice


async def test_https_to_a_plain_http_port_asks_about_the_scheme(demo_server):
    url = demo_server.url.replace("http://", "https://")
    with pytest.raises(GatewayError) as caught:
        await probe_gateway(url, demo_server.api_key, call_timeout=30)
    title, advice = error_advice(caught.value, url)
    assert "TLS handshake" in title
    assert "scheme" in advice and "Is the gateway running" not in advice


# --- 2. the chats screen recovers by itself after an outage ------------------------------------


async def test_the_chats_screen_recovers_by_itself_when_the_gateway_is_back():
    from gateway_tui.core.state import Health
    from gateway_tui.demo.server import DemoServer
    from gateway_tui.tui.screens.chats import ChatsScreen
    from tests.support import make_app, make_config

    first = DemoServer().start()
    port = first.port
    app = make_app(make_config(first, refresh_interval=1))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        app.open_chats("sales-eu")
        await wait_for(pilot, lambda: isinstance(app.screen, ChatsScreen))
        book = lambda: app.actions.chats.chat_book("sales-eu")  # noqa: E731
        await wait_for(pilot, lambda: book().value is not None)
        first.stop()
        await pilot.press("r")
        await wait_for(pilot, lambda: app.state.health == Health.UNREACHABLE)
        await wait_for(pilot, lambda: not book().loading)
        assert "● unreachable" in screen_text(app)
        with DemoServer(port=port):  # back, and no key is pressed
            await wait_for(pilot, lambda: app.state.health == Health.OK)
            await wait_for(pilot, lambda: book().error is None and not book().loading)
            await pilot.pause()
            text = screen_text(app)
            assert "● ok" in text and "could not read the gateway's chats" not in text


# --- 4. a failed participants call is not an empty group ---------------------------------------


async def test_a_failed_participants_call_does_not_read_as_an_empty_group(app_for):
    from gateway_tui.tui.screens.participants import ParticipantsScreen

    missing = "120363999999999999@g.us"  # the demo answers 404 ["No participants", …]
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        app.push_screen(ParticipantsScreen("sales-eu", missing))
        participants = app.state.participants_of("sales-eu", missing)
        await wait_for(pilot, lambda: participants.error is not None and not participants.loading)
        await pilot.pause()
        text = screen_text(app)
        assert "No participants: the gateway cannot read this group" in text
        assert "0 participants" not in text and "0 admins" not in text
        assert "participants not read" in text


# --- 7. the small untruths of the instance screens ---------------------------------------------


async def test_a_group_error_of_a_closed_instance_names_the_apps_connect_key(app_for, demo_server):
    from gateway_tui.tui.screens.participants import ParticipantsScreen

    app = app_for(keys={"instance.connect": "ctrl+k"})  # remapped: the hint must follow
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        jid = next(iter(demo_server.state.instances["onboarding"].groups))  # status close
        app.push_screen(ParticipantsScreen("onboarding", jid))
        participants = app.state.participants_of("onboarding", jid)
        await wait_for(pilot, lambda: participants.error is not None)
        await pilot.pause()
        text = " ".join(screen_text(app).split())
        assert "onboarding is not connected" in text
        assert "manager" not in text
        assert "connect it with ^k on its screen" in text


async def test_an_empty_gateway_says_which_key_creates_an_instance(app_for, demo_server):
    demo_server.state.instances.clear()
    app = app_for(keys={"instances.new": "ctrl+n"})
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.state.instances.value is not None)
        await pilot.pause()
        text = screen_text(app)
        assert "No instances on this gateway" in text
        assert "Create one with ^n" in text and "manager" not in text


async def test_a_new_instance_says_its_key_is_listed_again_and_keeps_its_integration(app_for):
    from gateway_tui.tui.screens.instance import InstanceScreen
    from gateway_tui.tui.screens.instances import InstancesScreen

    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, InstancesScreen))
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        await pilot.press("n")
        await pilot.pause()
        await pilot.press(*"fresh-one", "enter")
        await wait_for(pilot, lambda: "Created" in screen_text(app))
        text = " ".join(screen_text(app).split())
        assert "fresh-one (WHATSAPP-BAILEYS)" in text
        # Both 1.7.1 and 2.x list every instance's key to whoever holds the global key.
        assert "shown this once" not in text
        assert "lists it again" in text
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, InstancesScreen))
        await pilot.press("r")  # the gateway's own listing: 1.7.1 names no integration
        await wait_for(pilot, lambda: not app.state.instances.loading)
        app.open_instance("fresh-one")
        await wait_for(pilot, lambda: isinstance(app.screen, InstanceScreen))
        await pilot.pause()
        line = next(x for x in screen_text(app).splitlines() if "Integration" in x)
        assert "WHATSAPP-BAILEYS" in line


async def test_a_failed_state_check_is_not_counted_once_its_instance_is_gone(app_for, demo_server):
    for name in [n for n in demo_server.state.instances if n != "sales-eu"]:
        del demo_server.state.instances[name]
    demo_server.faults.add("status", status=500, path_prefix="/instance/connectionState")
    app = app_for(refresh_interval=1)  # live state checks every second
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: "⚠ 1 state checks failed" in screen_text(app))
        del demo_server.state.instances["sales-eu"]  # deleted elsewhere
        await pilot.press("r")
        await wait_for(pilot, lambda: app.state.instances.value == [])
        await pilot.pause()
        text = screen_text(app)
        assert "No instances on this gateway" in text
        assert "state checks failed" not in text


async def test_the_list_on_return_is_fresh_and_the_header_names_no_instance(demo_server):
    from datetime import datetime, timedelta

    from gateway_tui.tui.app import GatewayApp
    from gateway_tui.tui.screens.instance import InstanceScreen
    from gateway_tui.tui.screens.instances import InstancesScreen
    from tests.support import make_config

    now = [datetime(2026, 11, 24, 15, 42, 44)]
    app = GatewayApp(make_config(demo_server, refresh_interval=3600), clock=lambda: now[0])
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        await pilot.pause()
        assert "updated 15:42:44" in screen_text(app)
        app.open_instance("sales-eu")
        await wait_for(pilot, lambda: isinstance(app.screen, InstanceScreen))
        assert "instance sales-eu" in screen_text(app)
        now[0] += timedelta(hours=2)  # a long while on the instance's screens
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, InstancesScreen))
        await wait_for(pilot, lambda: "updated 17:42:44" in screen_text(app))
        assert "instance sales-eu" not in screen_text(app)


def test_a_read_refused_before_asking_does_not_say_not_sent(demo_server, capsys):
    from gateway_tui.main import main

    argv = ["participants", "sales-eu", "notajid", "--url", demo_server.url]
    argv += ["--api-key", demo_server.api_key]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert "groupJid" in err
    assert "Not sent" not in err and "The gateway was not asked" in err


# --- 6. the websocket and webhook screens --------------------------------------------------------


def test_event_differences_say_what_the_gateway_did():
    from gateway_tui.core.api.lifecycle import (
        EVENT_NAMES,
        WebhookSettings,
        WebsocketSettings,
        webhook_differences,
        websocket_differences,
    )

    every = list(EVENT_NAMES)
    # No event ticked means all 26: reading all 26 back is the same thing.
    sent = WebhookSettings(url="https://hooks.example/in", enabled=True, events=[])
    found = WebhookSettings(url="https://hooks.example/in", enabled=True, events=every)
    assert webhook_differences(sent, found) == []
    # A websocket turned off keeps all 26 events: not "added 25 events".
    sent_ws = WebsocketSettings(enabled=False, events=["CONNECTION_UPDATE"])
    found_ws = WebsocketSettings(enabled=False, events=every)
    [line] = websocket_differences(sent_ws, found_ws)
    assert "added" not in line and "a disabled websocket keeps all 26" in line


async def test_the_websocket_screen_says_when_the_gateway_serves_no_websocket():
    from gateway_tui.demo.server import DemoServer
    from gateway_tui.tui.screens.instance import InstanceScreen
    from tests.support import make_app, make_config

    # A gateway without WEBSOCKET_ENABLED: /socket.io/ is a 404.
    with DemoServer(websocket=False) as server:
        app = make_app(make_config(server))
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: bool(app.state.instances.value))
            app.open_instance("sales-eu")
            await wait_for(pilot, lambda: isinstance(app.screen, InstanceScreen))
            await pilot.press("W")
            await wait_for(pilot, lambda: "Never set" in screen_text(app))
            app.screen.query_one("#hooks-enabled").value = True
            app.screen.query_one("#hooks-events").select("CONNECTION_UPDATE")
            await pilot.press("ctrl+s")
            await wait_for(pilot, lambda: "Written" in screen_text(app))
            await wait_for(pilot, lambda: "websocket channel" in screen_text(app))
            text = " ".join(screen_text(app).split())
            assert "1 event ·" in text and "1 events" not in text
            assert "✓ Written" not in text  # stored as sent, but nothing will be delivered
            assert "this gateway serves no websocket channel" in text


# --- 3. a logout that does not stop a flapping instance --------------------------------------


async def test_a_logout_that_leaves_the_instance_reconnecting_says_so(app_for, demo_server):
    from gateway_tui.core.api.lifecycle import ConnectResult
    from gateway_tui.tui.screens.instance import InstanceScreen
    from tests.support import notices

    # What the connect screen tells of an instance the gateway cannot connect.
    offline = ConnectResult.model_validate({"count": 0}).explanation
    assert "until the instance is logged out" not in offline
    instance = demo_server.state.instances["sales-eu"]
    instance.status = "connecting"  # a 1.7.1 gateway that cannot reach WhatsApp: it flaps
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        app.open_instance("sales-eu")
        await wait_for(pilot, lambda: isinstance(app.screen, InstanceScreen))
        await pilot.press("L")
        await pilot.pause()
        await pilot.press("y")
        await wait_for(
            pilot, lambda: any("/instance/logout/" in w.path for w in demo_server.state.writes)
        )
        instance.status = "connecting"  # the real gateway logs out in the background, and flaps on
        await wait_for(pilot, lambda: any("still reconnecting" in n for n in notices(app)))
        assert not any("the session ended" in n for n in notices(app))


# --- 8. every number written the same way, and an invalid one said so --------------------------


@pytest.mark.parametrize(
    ("digits", "shown"),
    [
        ("4915112340001", "+49 1511 2340001"),  # valid: the way its country writes it
        ("341785919681", "+34 1785919681 (invalid)"),  # not even a possible Spanish number
        ("552985642549", "+55 2985642549 (invalid)"),  # possible, not valid
        ("491517453928", "+49 1517453928 (invalid)"),
        ("9991234567890", "+9991234567890 (invalid)"),  # no such country code
    ],
)
def test_a_number_is_grouped_or_said_to_be_invalid(digits: str, shown: str) -> None:
    from gateway_tui.core.text.formatting import format_number

    assert format_number(digits) == shown
