"""The app under test for the chat benchmarks (bench/chats.py), as bench/probe.py does it.

``python -m bench.chats_probe MODE --report-fd N --url U --key K`` runs the real GatewayApp
in a pty and, once the instance list has rows, opens the chats screen (``chats``) or one
conversation (``conversation --jid J``). It writes one JSON line per event to fd N:

- ``bytes``: the last byte of a gateway response came off the socket (path, size);
- ``open``: the screen is being pushed;
- ``frame``: a frame was written, with what it shows (screen; for a table: rows, visible,
  filter, cursor; for a conversation: messages, the cursor message's index, the newest
  message's id and whether its bubble is drawn; whether live events are up).

``floor FILE...`` instead prints the milliseconds json.loads takes over the given files, in a
fresh process with the collector off: the least any client does with those bytes.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from pathlib import Path
from typing import Any

from bench.probe import Reporter, _frame_is_written, timing_transport


def run(args: argparse.Namespace, report: Reporter) -> None:
    from gateway_tui.core.files.config import load_config
    from gateway_tui.tui.app import GatewayApp
    from gateway_tui.tui.widgets.conversation import ConversationView
    from gateway_tui.tui.widgets.record_table import RecordTable

    TimingTransport = timing_transport(report)

    class ProbedApp(GatewayApp):
        opened = False
        live_beside_transport = True  # the timing transport talks to the demo gateway

        def _display(self, screen: Any, renderable: Any) -> None:
            written = _frame_is_written(self, renderable)
            super()._display(screen, renderable)
            if written:
                self._report_frame(screen, time.monotonic())

        def _report_frame(self, screen: Any, t: float) -> None:
            name = type(screen).__name__
            tables = [table for table in screen.query(RecordTable) if table.display]
            views = list(screen.query(ConversationView))
            table = tables[0] if tables else None
            view = views[0] if views else None
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
                messages=len(view.messages) if view else 0,
                index=view.index if view else None,
                # The newest message and whether its bubble is drawn (the live benchmarks).
                last_id=view.messages[-1].id if view and view.messages else None,
                last_shown=bool(view and view._shown[1] == len(view.messages) - 1 >= 0),
                live=self.state.live,
            )
            if name == "InstancesScreen" and table is not None and table.visible_count:
                self.set_timer(0.3, self._open)

        def _open(self) -> None:
            if self.opened:
                return
            self.opened = True
            report("open")
            if args.mode == "chats":
                from gateway_tui.tui.screens.chats import ChatsScreen

                self.push_screen(ChatsScreen(args.instance))
            else:
                from gateway_tui.tui.screens.messages import MessagesScreen

                self.push_screen(MessagesScreen(args.instance, args.jid))

    config = load_config(url=args.url, api_key=args.key)
    ProbedApp(config, transport=TimingTransport()).run()


def floor(paths: list[str]) -> None:
    import json

    bodies = [Path(path).read_bytes() for path in paths]
    gc.disable()
    started = time.perf_counter()
    for body in bodies:
        json.loads(body)
    print((time.perf_counter() - started) * 1000)


def main() -> None:
    if sys.argv[1:2] == ["floor"]:
        floor(sys.argv[2:])
        return
    parser = argparse.ArgumentParser(prog="python -m bench.chats_probe")
    parser.add_argument("mode", choices=("chats", "conversation"))
    parser.add_argument("--report-fd", type=int, required=True)
    parser.add_argument("--url", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--instance", default="sales-eu")
    parser.add_argument("--jid")
    args = parser.parse_args()
    run(args, Reporter(args.report_fd))


if __name__ == "__main__":
    main()
