"""What the app keeps beside its screens: the instance names shell completion offers, written
when the instance list comes in (off the event loop), only when the names changed."""

from __future__ import annotations

from gateway_tui.core.files.known_instances import known_instances, known_instances_path
from gateway_tui.tui.app import GatewayApp
from tests.support import make_config, wait_for


async def test_the_app_keeps_the_instance_names_for_completion(demo_server):
    app = GatewayApp(make_config(demo_server))
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        names = sorted(i.instance_name for i in app.state.instances.value)
        await wait_for(pilot, lambda: known_instances(demo_server.url) == names)
        written = known_instances_path().stat().st_mtime_ns
        await app.actions.instances.refresh_instances()  # the same names again: nothing written
        await pilot.pause()
        await app.workers.wait_for_complete()
        assert known_instances_path().stat().st_mtime_ns == written
    assert "sales-eu" in names
