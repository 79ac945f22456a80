"""gateway-tui: a keyboard-first terminal client for messaging gateways."""

__version__ = "0.1.0"

import sys as _sys

# httpx's package imports its command-line client (click, pygments, rich.syntax: ~18 ms of the
# start) whenever click is installed, which the demo's uvicorn brings. The app never runs it, so
# it is marked as absent before httpx is first imported; httpx then defines a stub `main`.
_sys.modules.setdefault("httpx._main", None)  # type: ignore[arg-type]
