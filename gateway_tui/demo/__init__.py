"""The embedded demo gateway: a loopback server that behaves like a real 1.7.1 gateway.

Importing this package is cheap: Starlette and uvicorn load only when ``DemoServer`` or
``serve`` is first used (``from gateway_tui.demo.server import DemoServer`` does the same).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gateway_tui.demo.data import DEFAULT_INSTANCE_COUNT, DEFAULT_SEED, DEMO_API_KEY, build_state

if TYPE_CHECKING:
    from gateway_tui.demo.server import DemoServer, serve

__all__ = [
    "DEFAULT_INSTANCE_COUNT",
    "DEFAULT_SEED",
    "DEMO_API_KEY",
    "DemoServer",
    "build_state",
    "serve",
]


def __getattr__(name: str) -> Any:
    if name in ("DemoServer", "serve"):
        from gateway_tui.demo import server

        return getattr(server, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
