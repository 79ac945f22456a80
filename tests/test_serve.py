"""``gateway-tui serve``: the app in a real headless Chromium draws the instance list. The text
is read from the page's own terminal (xterm.js's buffer, through the DevTools protocol), i.e.
what the tab shows. Chromium is Debian's package (``make test`` installs it when missing)."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import socket
import subprocess
import sys
import time

import aiohttp
import pytest

from tests.support import PROCESS_LIMIT, cli_env

pytestmark = pytest.mark.slow

WAIT = 120.0

# Before the page's scripts run: keep every xterm Terminal the page makes (textual-serve's
# client stores it as `this.terminal`), so the test can read what the tab shows.
KEEP_TERMINALS = """
Object.defineProperty(Object.prototype, "terminal", {
  configurable: true,
  set(value) {
    Object.defineProperty(this, "terminal", {value, writable: true, configurable: true});
    (window.__terminals = window.__terminals || []).push(value);
  },
});
"""
READ_SCREEN = """
(() => {
  const term = (window.__terminals || [])[0];
  if (!term) return "";
  const buffer = term.buffer.active, lines = [];
  for (let y = 0; y < buffer.length; y++) lines.push(buffer.getLine(y).translateToString(true));
  return lines.join("\\n");
})()
"""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _wait_listening(port: int, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + WAIT
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=5).close()
            return
        except OSError:
            assert process.poll() is None, "the server ended"
            assert time.monotonic() < deadline, f"nothing listens on {port}"
            time.sleep(0.1)


class DevTools:
    """A page of the browser, driven over the DevTools protocol."""

    def __init__(self, ws) -> None:
        self.ws = ws
        self.next_id = 0

    async def call(self, method: str, **params):
        self.next_id += 1
        await self.ws.send_json({"id": self.next_id, "method": method, "params": params})
        while True:
            message = await self.ws.receive_json(timeout=WAIT)
            if message.get("id") == self.next_id:
                assert "error" not in message, message
                return message["result"]


async def _screen_text(browser_port: int, url: str, wanted: str) -> str:
    async with aiohttp.ClientSession() as session:
        deadline = time.monotonic() + WAIT
        while True:
            try:
                async with session.get(f"http://127.0.0.1:{browser_port}/json/list") as answer:
                    pages = [t for t in await answer.json() if t["type"] == "page"]
                if pages:
                    break
            except aiohttp.ClientError:
                pass
            assert time.monotonic() < deadline, "Chromium's DevTools never answered"
            await asyncio.sleep(0.1)
        async with session.ws_connect(pages[0]["webSocketDebuggerUrl"], max_msg_size=0) as ws:
            page = DevTools(ws)
            await page.call("Page.enable")
            await page.call("Page.addScriptToEvaluateOnNewDocument", source=KEEP_TERMINALS)
            await page.call("Page.navigate", url=url)
            text = ""
            while wanted not in text:
                assert time.monotonic() < deadline, f"the page never showed {wanted!r}:\n{text}"
                await asyncio.sleep(0.2)
                result = await page.call("Runtime.evaluate", expression=READ_SCREEN)
                text = result["result"].get("value", "")
            return text


def test_serve_draws_the_instance_list_in_headless_chromium(demo_server, isolated_home, tmp_path):
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    assert chromium, "Chromium is not installed (make test installs Debian's chromium)"
    port, browser_port = _free_port(), _free_port()
    env = cli_env(demo_server, isolated_home)
    server = subprocess.Popen(
        [sys.executable, "-m", "gateway_tui", "serve", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    browser = None
    try:
        _wait_listening(port, server)
        browser = subprocess.Popen(
            [
                chromium,
                "--headless=new",
                "--no-sandbox",  # as root in CI
                "--disable-gpu",
                "--no-first-run",
                f"--user-data-dir={tmp_path / 'profile'}",
                f"--remote-debugging-port={browser_port}",
                "--window-size=1400,900",
                "about:blank",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        text = asyncio.run(_screen_text(browser_port, f"http://127.0.0.1:{port}/", "sales-eu"))
    finally:
        for process in (browser, server):
            if process is not None:
                process.terminate()
                try:
                    process.wait(timeout=PROCESS_LIMIT)
                except subprocess.TimeoutExpired:
                    process.kill()
    # The instance list: its rows, with their states in words.
    assert re.search(r"sales-eu.*open", text), text
    assert "Instances" in text or "instances" in text


def test_serve_refuses_another_host_without_public(isolated_home):
    env = {**os.environ, "GATEWAY_TUI_HOME": str(isolated_home)}
    done = subprocess.run(
        [sys.executable, "-m", "gateway_tui", "serve", "--host", "0.0.0.0"],
        capture_output=True,
        text=True,
        env=env,
        timeout=PROCESS_LIMIT,
    )
    assert done.returncode == 1
    assert "needs --public" in done.stderr and "key" in done.stderr
