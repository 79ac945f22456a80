"""Recorded exchanges replayed against a fresh demo, for the demo's newer routes (group
administration, labels, contacts, more kinds of message), and a demo of any line for tests of
what those routes change.

A folder is replayed whole, in its recorded order, on one demo with no instances and the
recordings' global key (its creates and deletes make the same history); the answers of the
exchanges a test asks about are then compared with the real ones: status, body shape (keys and
value types; a list by its first item) and, for an error, its words.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from typing import Any

import httpx

from gateway_tui.demo.server import DemoServer
from tests.recorded.gateway import GLOBAL_KEY, Recording, load_folder


def shape(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: shape(item) for key, item in sorted(value.items())}
    if isinstance(value, list):
        return [shape(value[0])] if value else []
    if isinstance(value, int | float) and not isinstance(value, bool):
        return "number"
    return type(value).__name__


def compared(status: int, body: Any) -> dict[str, Any]:
    text = None if 200 <= status < 300 else json.dumps(body, sort_keys=True)
    return {"status": status, "shape": shape(body), "text": text}


@contextmanager
def demo_of(version: str, instances: int = 0, api_key: str | None = None) -> Iterator[DemoServer]:
    """A demo speaking ``version`` ("1.7.1", "2.3.6", "2.3.7", "2.4.0")."""
    options: dict[str, Any] = {"instances": instances, "api_version": version}
    if api_key is not None:
        options["api_key"] = api_key
    with DemoServer(**options) as demo:
        demo.state.api_version = version
        yield demo


def _send(client: httpx.Client, rec: Recording) -> tuple[int, Any]:
    headers = {"Content-Type": "application/json"}
    if rec.api_key is not None:
        headers["apikey"] = rec.api_key
    if rec.raw_body is not None:
        content = rec.raw_body
    elif rec.request_body is not None:
        content = json.dumps(rec.request_body).encode()
    else:
        content = None
    response = client.request(
        rec.method, rec.path, params=rec.query or None, content=content, headers=headers
    )
    try:
        return response.status_code, response.json() if response.content else None
    except ValueError:
        return response.status_code, response.text


@cache
def replayed(folder: str) -> dict[str, tuple[dict[str, Any], dict[str, Any]]]:
    """Recording id → (the demo's answer compared, the real one), the folder replayed whole."""
    version = folder.removeprefix("v").removesuffix("-more")
    results = {}
    with demo_of(version, api_key=GLOBAL_KEY) as demo:
        demo.state.auto_scan_seconds = None  # nobody scans a QR code on a real server here
        with httpx.Client(base_url=demo.url, timeout=120) as client:
            for rec in sorted(load_folder(folder), key=lambda r: r.seq):
                results[rec.id] = (
                    compared(*_send(client, rec)),
                    compared(rec.status, rec.response_body),
                )
    return results


def answer(case_id: str) -> tuple[dict[str, Any], dict[str, Any]]:
    folder = case_id.split("/")[0]
    return replayed(folder)[case_id]


def case_ids(folder: str, *names: str) -> list[str]:
    """The ids of a folder's recordings whose file name holds one of ``names``."""
    return [rec.id for rec in load_folder(folder) if any(name in rec.file for name in names)]


class Gateway:
    """A client on a demo with the seeded world: ``post``, ``put``, ``get``, ``delete``."""

    def __init__(self, demo: DemoServer) -> None:
        self.demo = demo
        self.client = httpx.Client(base_url=demo.url, headers={"apikey": demo.api_key}, timeout=60)

    @property
    def v2(self) -> bool:
        return self.demo.state.api_version.startswith("2")

    def call(self, method: str, path: str, body: Any = None, **query: str) -> httpx.Response:
        return self.client.request(method, path, json=body, params=query or None)

    def instance(self, name: str = "sales-eu") -> Any:
        return self.demo.state.instances[name]

    def messages(self, name: str = "sales-eu", remote_jid: str | None = None) -> list[dict]:
        """Every stored message as findMessages answers it, either line."""
        if self.v2:
            where = {"key": {"remoteJid": remote_jid}} if remote_jid else {}
            body = {"where": where, "offset": 1000}
            records = self.call("POST", f"/chat/findMessages/{name}", body).json()
            return records["messages"]["records"]
        found = self.call("POST", f"/chat/findMessages/{name}", {}).json()
        return [m for m in found if remote_jid is None or m["key"]["remoteJid"] == remote_jid]


@contextmanager
def gateway(version: str) -> Iterator[Gateway]:
    with demo_of(version, instances=8) as demo:
        gw = Gateway(demo)
        try:
            yield gw
        finally:
            gw.client.close()
