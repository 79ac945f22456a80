"""The demo's socket.io stream against the recorded ones: the same steps give the same event
names with the same payload shapes (2.x's global stream on "/", the instance's namespace)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
import socketio

from gateway_tui.demo import lifecycle
from gateway_tui.demo.server import DemoServer
from tests.recorded.gateway import recordings_dir

NOISE = {"connect", "disconnect", "connect_error"}


def _shape(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _shape(item) for key, item in sorted(value.items())}
    return type(value).__name__


def _recorded(folder: str) -> list[tuple[str, Any]]:
    """(event, payload shape) on the root socket, consecutive repeats merged."""
    stream = json.loads(
        (recordings_dir() / folder / "events-001-lifecycle-qrcode-false.json").read_text()
    )
    found: list[tuple[str, Any]] = []
    for event in stream["events"]:
        if event["socket"] != "root" or event["event"] in NOISE:
            continue
        item = (event["event"], _shape(event["data"]))
        if not found or found[-1] != item:
            found.append(item)
    return found


def _merged(got: list[tuple[str, Any]]) -> list[tuple[str, Any]]:
    found: list[tuple[str, Any]] = []
    for event, payload in got:
        item = (event, _shape(payload))
        if not found or found[-1] != item:
            found.append(item)
    return found


@pytest.mark.parametrize("folder", ["v2.3.6-more", "v2.3.7-more"])
async def test_create_connect_delete_emit_what_the_real_server_emits(folder: str) -> None:
    """The recorded steps: create ws-1 (qrcode false, websocket on), connect (no internet),
    logout (not connected), delete. What arrives on "/" must be the recorded sequence."""
    release = folder.removesuffix("-more").removeprefix("v")
    real = _recorded(folder)
    with DemoServer(api_version=release, instances=0, global_events=True) as server:
        lifecycle.of(server.state).whatsapp = "offline"
        server.state.auto_scan_seconds = None
        headers = {"apikey": server.api_key}
        got: list[tuple[str, Any]] = []
        client = socketio.AsyncClient()
        client.on("*", lambda event, data: got.append((event, data)))
        await client.connect(server.url, headers=headers)
        try:
            async with httpx.AsyncClient(base_url=server.url, headers=headers) as http:
                body = {"instanceName": "ws-1", "integration": "WHATSAPP-BAILEYS", "qrcode": False}
                assert (await http.post("/instance/create", json=body)).status_code == 201
                await http.get("/instance/connect/ws-1")
                await http.delete("/instance/logout/ws-1")
                assert (await http.delete("/instance/delete/ws-1")).status_code == 200
            for _ in range(600):
                if got and got[-1][0] == "remove.instance":
                    break
                await asyncio.sleep(0.05)
        finally:
            await client.disconnect()
    assert _merged(got) == real
