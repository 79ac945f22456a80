"""A gateway that is already running, for the conformance suite (``make conformance``).

Given by ``GATEWAY_URL`` and ``GATEWAY_API_KEY``. Nothing here builds or starts a gateway. The
suite is safe on a production server: it only changes instances it creates itself, named with
a unique ``gtui-conformance-<run>-`` prefix and never paired (no QR code is asked for), deletes
them at the end, also after a failure, and only reads the rest.
"""

from __future__ import annotations

import json
import os
import secrets
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from gateway_tui.core.text.sanitize import mask_secrets

PREFIX = "gtui-conformance-"
# Generous: a loaded production server may take its time; conditions end the waits early.
WAIT_LIMIT = 120.0


def needs() -> str | None:
    """Why the suite cannot run here (None: it can)."""
    missing = [n for n in ("GATEWAY_URL", "GATEWAY_API_KEY") if not os.environ.get(n)]
    if missing:
        return (
            f"it needs {' and '.join(missing)} of a running gateway "
            "(make conformance GATEWAY_URL=… GATEWAY_API_KEY=…)"
        )
    return None


@dataclass
class LiveGateway:
    url: str
    # Never in a repr: a failing assertion on this object (`live_gateway.names()`) prints it.
    api_key: str = field(repr=False)
    run: str = field(default_factory=lambda: secrets.token_hex(4))
    created: list[str] = field(default_factory=list)  # names this run's creates made
    # Names of this run the server said were taken when asked to create them: someone else's
    # instance (never changed, never deleted, whatever its name says).
    taken: set[str] = field(default_factory=set)
    issued: int = 0

    def mask(self, text: str) -> str:
        """``text`` without the key (a test's failure output, captured output)."""
        return mask_secrets(text, [self.api_key])

    @classmethod
    def from_env(cls) -> LiveGateway:
        return cls(os.environ["GATEWAY_URL"].rstrip("/"), os.environ["GATEWAY_API_KEY"].strip())

    def new_name(self) -> str:
        """A name of this run: ``gtui-conformance-<run>-<n>`` (not yet created)."""
        self.issued += 1
        return f"{PREFIX}{self.run}-{self.issued}"

    def was_created(self, name: str) -> None:
        """The server created ``name`` for this run: the clean-up deletes it."""
        self.created.append(name)

    def was_taken(self, name: str) -> None:
        """The server refused to create ``name``: it is someone else's, left alone."""
        self.taken.add(name)

    def request(self, method: str, path: str, body: Any = None, *, key: str | None = None):
        return http_call(self.url, method, path, body, key=self.api_key if key is None else key)

    def names(self) -> set[str]:
        """Every instance's name the server lists (either line's shape)."""
        status, body = self.request("GET", "/instance/fetchInstances")
        if status != 200 or not isinstance(body, list):
            raise AssertionError(f"fetchInstances answered {status}")
        found = set()
        for item in body:
            inner = item.get("instance", item) if isinstance(item, dict) else {}
            name = inner.get("instanceName") or inner.get("name")
            if isinstance(name, str):
                found.add(name)
        return found

    def ours(self) -> set[str]:
        """This run's instances on the server: the ones it created, and any its name says it
        made whose create gave no clear answer; never a name the server said was taken."""
        mine = {name for name in self.names() if name.startswith(f"{PREFIX}{self.run}-")}
        return mine - self.taken

    def clean_up(self) -> set[str]:
        """Delete every instance of this run (logging out any that connected), wait until the
        server no longer lists them (a 2.x finishes a delete after its 200), and return what
        is left (nothing, when all went well)."""
        for name in sorted((self.ours() | set(self.created)) - self.taken):
            self.request("DELETE", f"/instance/logout/{name}")
            self.request("DELETE", f"/instance/delete/{name}")
        wait_until(lambda: not self.ours(), "this run's instances deleted", raise_=False)
        return self.ours()


def wait_until(
    condition: Callable[[], bool], what: str, limit: float = WAIT_LIMIT, raise_: bool = True
) -> bool:
    deadline = time.monotonic() + limit
    while not condition():
        if time.monotonic() > deadline:
            if raise_:
                raise TimeoutError(f"{what}: not reached in {limit:.0f} s")
            return False
        time.sleep(0.5)
    return True


def http_call(
    base_url: str, method: str, path: str, body: Any = None, *, key: str | None
) -> tuple[int, Any]:
    """Status and decoded JSON (or text) of one plain call: no gateway_tui code."""
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json"}
    if key:
        headers["apikey"] = key
    req = urllib.request.Request(base_url + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=WAIT_LIMIT) as resp:
            status, payload = resp.status, resp.read()
    except urllib.error.HTTPError as err:
        status, payload = err.code, err.read()
    text = payload.decode("utf-8", errors="replace")
    try:
        return status, json.loads(text) if text else None
    except ValueError:
        return status, text
