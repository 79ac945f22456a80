"""The demo in 2.x mode: what the recordings of a real 2.3.6 show beyond one exchange.

Every recorded exchange is replayed against the demo, in order, in
tests/recorded/test_demo_agrees.py (one table of differences for both lines). Here: the rows'
fields, a delete that finishes after its 200, paging, and that the default stays 1.7.1.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from gateway_tui.demo.server import DemoServer
from tests.support import RECORDINGS

pytestmark = pytest.mark.skipif(
    not (RECORDINGS / "v2.3.6").is_dir(), reason=f"no recordings at {RECORDINGS}"
)
GLOBAL_KEY = "EVO-LOCAL-GLOBAL-KEY-0001"
EVO_B_KEY = "EVO-B-INSTANCE-KEY-0001"


def recording(name: str) -> dict[str, Any]:
    folder, seq = name.split("/")
    (path,) = sorted((RECORDINGS / folder).glob(f"{seq}-*.json"))
    return json.loads(path.read_text())


@pytest.fixture(scope="module")
def demo() -> Iterator[DemoServer]:
    with DemoServer(api_version="2.3.6", instances=0) as server:
        for name, token in (("evo-a", None), ("evo-b", EVO_B_KEY), ("evo-c", None)):
            server.state.create_instance(name, token).status = "close"
        yield server


def test_fetch_instances_rows_are_flat_with_the_recorded_fields(demo: DemoServer) -> None:
    (want, *_) = recording("v2.3.6/011")["response_body"]
    rows = httpx.get(demo.url + "/instance/fetchInstances", headers={"apikey": demo.api_key}).json()
    assert {row["name"] for row in rows} >= {"evo-a", "evo-b", "evo-c"}
    assert set(rows[0]) == set(want) and set(rows[0]["_count"]) == set(want["_count"])
    assert set(rows[0]["Setting"]) <= set(want["Setting"])


def test_find_chats_rows_have_the_recorded_fields(demo: DemoServer) -> None:
    (want,) = recording("v2.3.6/053")["response_body"]
    with DemoServer(api_version="2.3.6", instances=1) as server:
        name = next(iter(server.state.instances))
        rows = httpx.post(
            f"{server.url}/chat/findChats/{name}", headers={"apikey": server.api_key}, json={}
        ).json()
    assert rows and set(rows[0]) == set(want)
    assert set(rows[0]["lastMessage"]) <= set(want["lastMessage"]) | {"participant"}


def test_a_delete_finishes_after_its_200() -> None:
    with DemoServer(api_version="2.3.6", instances=0) as server:
        server.state.create_instance("gone", None).status = "close"
        headers = {"apikey": server.api_key}
        assert (
            httpx.delete(server.url + "/instance/delete/gone", headers=headers).status_code == 200
        )
        listed = httpx.get(server.url + "/instance/fetchInstances", headers=headers).json()
        assert [row["name"] for row in listed] == ["gone"]  # still there right after (rec 067)
        again = httpx.delete(server.url + "/instance/delete/gone", headers=headers)
        assert again.status_code == 200
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            listed = httpx.get(server.url + "/instance/fetchInstances", headers=headers).json()
            if not listed:
                break
            time.sleep(0.2)
        assert listed == []  # and gone a moment later (rec 068)


def test_find_messages_pages_like_2x() -> None:
    with DemoServer(api_version="2.3.6", instances=1) as server:
        headers = {"apikey": server.api_key}
        name = next(iter(server.state.instances))
        url = f"{server.url}/chat/findMessages/{name}"
        first = httpx.post(url, headers=headers, json={"page": 1, "offset": 5}).json()
        second = httpx.post(url, headers=headers, json={"page": 2, "offset": 5}).json()
    page = first["messages"]
    assert page["currentPage"] == 1 and len(page["records"]) == 5
    assert page["pages"] == -(-page["total"] // 5)
    ids = {r["key"]["id"] for r in page["records"]}
    assert ids.isdisjoint(r["key"]["id"] for r in second["messages"]["records"])


def test_the_default_demo_stays_1_7_1() -> None:
    with DemoServer(instances=1) as server:
        root = httpx.get(server.url + "/").json()
        rows = httpx.get(
            server.url + "/instance/fetchInstances", headers={"apikey": server.api_key}
        ).json()
    assert root["version"] == "1.7.1" and "instance" in rows[0]
