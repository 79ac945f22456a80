"""The app under test, as the benchmarks run it: in a pty, reporting what it paints.

``python -m bench.probe MODE --report-fd N ...`` runs the real GatewayApp (or the bare floor app)
with Textual's real driver, and writes one JSON line to file descriptor N for each event:

- ``bytes``: the last byte of a gateway response came off the socket (path, size);
- ``frame``: a frame was handed to the terminal driver (``App._display`` returned having
  written it), with the state it shows (screen, rows, visible rows, filter, cursor, focus);
- ``open``: (participants mode) the participants screen is being pushed.

Every time is ``time.monotonic()``, one clock for all processes, so the parent can compare them
with the moment it typed a key into the pty. Frame times are taken before the probe looks at the
state. Apart from opening the participants screen in that mode, the probe only observes: its
one addition to the app is a transport that notes when each response has been read.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import ssl
import time
from typing import Any

from gateway_tui.tui.textual_private import frame_is_written

MODES = ("instances", "participants", "bare")


class Reporter:
    def __init__(self, fd: int) -> None:
        self._fd = fd

    def __call__(self, event: str, t: float | None = None, **data: Any) -> None:
        record = {"event": event, "t": time.monotonic() if t is None else t, **data}
        os.write(self._fd, (json.dumps(record) + "\n").encode())


def _frame_is_written(app: Any, renderable: Any) -> bool:
    """Whether App._display will write this frame to the terminal (its own conditions)."""
    return frame_is_written(app, renderable)


def timing_transport(report: Reporter) -> Any:
    """The app's plain-HTTP transport class, noting when each response's last byte arrived.

    Built on call: httpx is imported after the app's modules, as in the app itself (they keep
    its CLI from loading)."""
    httpx = importlib.import_module("httpx")

    class TimingTransport(httpx.AsyncHTTPTransport):
        def __init__(self) -> None:
            super().__init__(verify=ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT))

        async def handle_async_request(self, request: Any) -> Any:
            response = await super().handle_async_request(request)
            body = b"".join([chunk async for chunk in response.stream])
            arrived = time.monotonic()
            await response.aclose()
            report("bytes", t=arrived, path=request.url.path, size=len(body))
            return httpx.Response(
                response.status_code,
                headers=response.headers,
                stream=httpx.ByteStream(body),
                extensions=response.extensions,
            )

    return TimingTransport


def run_gateway(args: argparse.Namespace, report: Reporter) -> None:
    from gateway_tui.core.files.config import load_config
    from gateway_tui.tui.app import GatewayApp
    from gateway_tui.tui.widgets.record_table import RecordTable

    TimingTransport = timing_transport(report)

    class ProbedApp(GatewayApp):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._participants_opened = False

        def _display(self, screen: Any, renderable: Any) -> None:
            written = _frame_is_written(self, renderable)
            super()._display(screen, renderable)
            if written:
                self._report_frame(screen, time.monotonic())

        def _report_frame(self, screen: Any, t: float) -> None:
            name = type(screen).__name__
            tables = [table for table in screen.query(RecordTable) if table.display]
            table = tables[0] if tables else None
            focused = self.focused
            report(
                "frame",
                t=t,
                screen=name,
                rows=len(table.rows) if table else 0,
                visible=table.visible_count if table else 0,
                filter=table.filter_text if table else "",
                cursor=table.cursor_index if table else None,
                focus=focused.id if focused is not None else None,
            )
            opening = args.mode == "participants" and name == "InstancesScreen"
            if opening and table is not None and table.visible_count:
                self.set_timer(args.settle, self._open_participants)

        def _open_participants(self) -> None:
            from gateway_tui.tui.screens.participants import ParticipantsScreen

            if self._participants_opened:
                return
            self._participants_opened = True
            report("open")
            self.push_screen(ParticipantsScreen(args.instance, args.group))

    config = load_config(url=args.url, api_key=args.key)
    ProbedApp(config, transport=TimingTransport()).run()


def run_bare(args: argparse.Namespace, report: Reporter) -> None:
    from textual.widgets import DataTable

    from bench.bare_app import BareApp

    class ProbedBareApp(BareApp):
        def _display(self, screen: Any, renderable: Any) -> None:
            written = _frame_is_written(self, renderable)
            super()._display(screen, renderable)
            if written:
                t = time.monotonic()
                table = self.query_one(DataTable)
                report(
                    "frame",
                    t=t,
                    screen=type(screen).__name__,
                    rows=table.row_count,
                    visible=table.row_count,
                    filter="",
                    cursor=table.cursor_row,
                    focus="table" if table.has_focus else None,
                )

    ProbedBareApp(rows=args.rows).run()


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.probe")
    parser.add_argument("mode", choices=MODES)
    parser.add_argument("--report-fd", type=int, required=True)
    parser.add_argument("--url")
    parser.add_argument("--key")
    parser.add_argument("--instance", default="sales-eu")
    parser.add_argument("--group")
    parser.add_argument("--rows", type=int, default=100)
    parser.add_argument("--settle", type=float, default=0.3, help="seconds before opening")
    args = parser.parse_args()
    report = Reporter(args.report_fd)
    if args.mode == "bare":
        run_bare(args, report)
    else:
        run_gateway(args, report)


if __name__ == "__main__":
    main()
