"""The connect screen: URL and key, checked against the gateway; what it says when they are
wrong."""

from __future__ import annotations

import shutil
import socket
import ssl
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.widgets import Input, Static

from gateway_tui.core.api.errors import GatewayError
from gateway_tui.core.files.config import load_config
from gateway_tui.core.services.connect import probe_gateway
from gateway_tui.tui.app import GatewayApp
from gateway_tui.tui.screens.connect import ConnectScreen
from gateway_tui.tui.screens.instances import InstancesScreen
from gateway_tui.tui.widgets.status_panel import error_advice
from tests.support import screen_text, wait_for


def footer_line(app) -> str:
    return screen_text(app).rstrip("\n").splitlines()[-1]


def loaded(app) -> bool:
    return isinstance(app.screen, InstancesScreen) and bool(app.state.instances.value)


SIZE = (120, 36)


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


# --- 8. hints name the keys that work ---------------------------------------------------------


@pytest.mark.in_process
async def test_the_connect_screen_says_ctrl_r_tries_again():
    app = GatewayApp(load_config())
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ConnectScreen))
        screen = app.screen
        screen.query_one("#url", Input).value = "http://127.0.0.1:9"  # nothing listens there
        screen.query_one("#api-key", Input).value = "some-key"
        await pilot.press("ctrl+r")
        said = screen.query_one("#connect-result", Static)
        await wait_for(pilot, lambda: "✕" in str(said.render()))
        text = str(said.render())
        assert "press ^r to try again" in text
        assert "press r " not in text.lower()


async def test_the_connect_screen_at_80x24_says_the_global_keys():
    from gateway_tui.core.files.config import load_config
    from gateway_tui.tui.app import GatewayApp
    from gateway_tui.tui.screens.connect import ConnectScreen

    app = GatewayApp(load_config())
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ConnectScreen))
        await wait_for(pilot, lambda: "f1 Keys" in footer_line(app))
        line = footer_line(app)
        for said in ("^q Quit", "f1 Keys", "f12 Log"):
            assert said in line, line


async def test_a_burst_ending_in_ctrl_s_on_the_connect_form_reads_the_whole_key(demo_server):
    """URL, tab, key and ctrl+s typed in one burst: ctrl+s (a priority binding) acts once the
    letters before it are in their fields (it used to say "Enter the API key." 7 runs in 8)."""
    from gateway_tui.core.files.config import load_config, read_config_file
    from gateway_tui.tui.app import GatewayApp
    from gateway_tui.tui.screens.connect import ConnectScreen
    from tests.support import burst

    app = GatewayApp(load_config())
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ConnectScreen))
        burst(app, *demo_server.url, "tab", *demo_server.api_key, "ctrl+s")
        said = ("Saved profile", "Enter the API key.", "✕")
        await wait_for(pilot, lambda: any(s in screen_text(app) for s in said))
        assert "Enter the API key." not in screen_text(app)
        saved = read_config_file()[0].profiles["default"]
        assert saved.api_key.get_secret_value() == demo_server.api_key


async def test_nothing_configured_opens_the_connect_screen(demo_server):
    app = GatewayApp(load_config())
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ConnectScreen)
        await pilot.click("#url")
        await pilot.press(*demo_server.url)
        await pilot.click("#api-key")
        await pilot.press(*"wrong-key")
        await pilot.press("ctrl+r")  # test connection
        await wait_for(pilot, lambda: "refused the API key" in screen_text(app))
        assert "wrong-key" not in screen_text(app)  # a password field: never echoed
        app.screen.query_one("#api-key").value = demo_server.api_key
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: "Connected" in screen_text(app))
        await pilot.press("ctrl+s")  # save as profile
        await pilot.pause()
        saved = load_config()
        assert saved.url == demo_server.url
        assert saved.api_key.get_secret_value() == demo_server.api_key
        await pilot.press("ctrl+o")  # connect
        await wait_for(pilot, lambda: loaded(app))


async def test_connect_screen_explains_a_bad_url_next_to_the_field():
    app = GatewayApp(load_config())
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.click("#url")
        await pilot.press(*"ftp://nope")
        await pilot.press("ctrl+o")
        await pilot.pause()
        assert isinstance(app.screen, ConnectScreen)
        assert "http" in str(app.screen.query_one("#url-error").render())


async def test_the_connect_screen_from_the_palette_has_a_way_back(app_for):
    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_for(pilot, lambda: loaded(app))
        app._open_connect()
        await pilot.pause()
        assert isinstance(app.screen, ConnectScreen)
        await pilot.press("escape")  # the URL field has focus; escape still goes back
        await pilot.pause()
        assert isinstance(app.screen, InstancesScreen)


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
