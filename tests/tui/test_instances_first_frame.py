"""The instance list's first frame: the rows a launch the same as this one kept at the last run
are drawn at once (dimmed, with their age, "until the gateway answers"), before the config and
the HTTP stack are loaded; a different launch (another --profile, a changed config file) draws
nothing of them."""

from __future__ import annotations

import re

from gateway_tui.core.files import storage
from gateway_tui.core.files.config import config_path
from gateway_tui.core.files.instances_head import head_path
from gateway_tui.tui.app import GatewayApp
from gateway_tui.tui.screens.instances import InstancesScreen
from tests.support import make_config, screen_text, wait_for


async def launch(demo_server, key: tuple[str | None, str | None]) -> str:
    """Run the app as the command line does; what its first frame showed."""
    shown = []

    def load():
        shown.append(screen_text(app))
        return make_config(demo_server)

    app = GatewayApp(load, starting_url=demo_server.url, launch=key)
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, InstancesScreen) and "sales-eu" in screen_text(app),
        )
    return shown[0]


async def test_the_same_launch_draws_the_kept_rows_first(demo_server) -> None:
    key = (demo_server.url, None)
    first = await launch(demo_server, key)
    assert "loading…" in first and "sales-eu" not in first  # nothing kept yet
    assert head_path(storage.data_dir()).exists()
    second = await launch(demo_server, key)
    assert "sales-eu" in second
    assert re.search(
        r"from the last run \(\d+ min ago\), dimmed, until the gateway answers", second
    )
    assert "instances of" in second and demo_server.api_key not in second


async def test_another_launch_or_a_changed_config_draws_none_of_them(demo_server) -> None:
    await launch(demo_server, (demo_server.url, None))
    other = await launch(demo_server, (demo_server.url, "staging"))
    assert "sales-eu" not in other and "loading…" in other
    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("refresh_interval = 30\n")
    path.chmod(0o600)
    changed = await launch(demo_server, (demo_server.url, "staging"))
    assert "sales-eu" not in changed  # kept before the file changed


def test_an_unreadable_or_foreign_head_is_nothing(tmp_path) -> None:
    from gateway_tui.core.files.instances_head import load_head, save_head

    path = tmp_path / "instances-head.json"
    path.write_text("{not json")
    assert load_head(path, "k") is None
    from datetime import UTC, datetime

    save_head(path, "k", "prod\x1b[2J", [("a\x1b]0;x", "● open", "", "", "")], datetime.now(UTC))
    assert load_head(path, "other") is None
    head = load_head(path, "k")
    assert head is not None and "\x1b" not in head.label and "\x1b" not in head.rows[0][0]


async def test_the_home_screen_keeps_them_until_the_gateway_answers(demo_server) -> None:
    import asyncio

    import httpx

    key = (demo_server.url, None)
    await launch(demo_server, key)
    release = asyncio.Event()

    class Held(httpx.AsyncBaseTransport):
        def __init__(self) -> None:
            self.real = httpx.AsyncHTTPTransport()

        async def handle_async_request(self, request):
            await release.wait()
            return await self.real.handle_async_request(request)

    app = GatewayApp(
        lambda: make_config(demo_server), starting_url=demo_server.url, launch=key, transport=Held()
    )
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, InstancesScreen))
        await wait_for(pilot, lambda: "Until it answers, the " in screen_text(app))
        text = screen_text(app)
        assert "sales-eu" in text and "not current" in text
        assert app.state.instances.value is None  # nothing current was shown as such
        release.set()
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        await wait_for(pilot, lambda: "Until it answers" not in screen_text(app))
        assert "sales-eu" in screen_text(app)
