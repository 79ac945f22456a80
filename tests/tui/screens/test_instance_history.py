"""The history sync's line on the instance view (issue 31): the live events keep the
envelope's top-level ``isLatest``/``progress`` of 2.3.7's ``messages.set``, the state's
HistoryBook reads them, and the instance view says how far the sync got."""

from __future__ import annotations

import asyncio

from gateway_tui.demo.server import DemoServer
from tests.data import INSTANCE
from tests.navigation import open_instance
from tests.support import PROCESS_LIMIT, make_app, make_config, screen_text, wait_for

SIZE = (140, 40)


async def test_the_instance_view_shows_how_far_a_history_sync_got():
    with DemoServer(api_version="2.3.7") as server:
        app = make_app(make_config(server))
        async with app.run_test(size=SIZE) as pilot:
            await open_instance(app, pilot)
            app.follow_live(INSTANCE)  # as the pairing screen does: the sync follows a pairing
            await wait_for(pilot, lambda: app.live_for(INSTANCE))
            assert "History sync" not in screen_text(app)
            # Two batches of four (25 %, 50 %), then nothing: the sync stops early.
            assert await asyncio.to_thread(server.history_sync, INSTANCE, stop_at=50) == 2
            await wait_for(pilot, lambda: "History sync: 50 %" in screen_text(app))
            line = app.state.history.syncs[INSTANCE]
            assert (line.progress, line.batches, line.latest) == (50, 2, False)


async def test_a_batch_the_gateway_calls_the_latest_below_100_is_said_stopped():
    with DemoServer(api_version="2.3.7") as server:
        app = make_app(make_config(server))
        async with app.run_test(size=SIZE) as pilot:
            await open_instance(app, pilot)
            app.follow_live(INSTANCE)
            await wait_for(pilot, lambda: app.live_for(INSTANCE))

            async def emit() -> None:
                instance = server.state.instances[INSTANCE]
                extra = {"isLatest": True, "progress": 40}
                server.events.emit(instance, "messages.set", [], extra)

            await asyncio.to_thread(lambda: server.on_loop(emit()).result(PROCESS_LIMIT))
            said = "History sync stopped at 40 %: the gateway called a batch the latest"
            await wait_for(pilot, lambda: said in " ".join(screen_text(app).split()))
            assert "A restart of the instance pulls the next batch" in app.state.history.line(
                INSTANCE
            )
