"""The crash path never shows the key: URLs httpx refuses are refused up front, a bug in any
screen's action is reported without locals and the app keeps running, and the report printed
when the app must stop has no local variables and no secret in it.

Everything the app writes is captured: the terminal driver's output (what the user sees) and
stderr (where the crash report goes).
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.screen import Screen

from gateway_tui.core.api.models import MessageKey
from gateway_tui.core.files.config import load_config, validate_gateway_url
from gateway_tui.tui.app import GatewayApp
from gateway_tui.tui.screens.chat_modals import EditMessageScreen, ProfileScreen
from gateway_tui.tui.screens.chats import ChatsScreen
from gateway_tui.tui.screens.compose_modals import LibraryScreen, TemplateNameScreen
from gateway_tui.tui.screens.composer import ComposerScreen
from gateway_tui.tui.screens.confirm import ConfirmScreen
from gateway_tui.tui.screens.connect import ConnectScreen
from gateway_tui.tui.screens.group_modals import ExportScreen, InviteScreen, SubjectScreen
from gateway_tui.tui.screens.groups import GroupPickerScreen
from gateway_tui.tui.screens.help import HelpScreen
from gateway_tui.tui.screens.instance import InstanceScreen
from gateway_tui.tui.screens.instances import InstancesScreen
from gateway_tui.tui.screens.messages import MessagesScreen
from gateway_tui.tui.screens.participants import ParticipantsScreen
from gateway_tui.tui.screens.request_log import RequestLogScreen
from tests.data import send_list_request
from tests.support import (
    CapturingDriver,
    make_app,
    make_config,
    notices,
    posted_notices,
    wait_for,
)

SIZE = (120, 36)


async def until(pilot, condition) -> None:
    """Wait for ``condition``: it ends as soon as it holds; the limit is for a very busy machine."""
    await wait_for(pilot, condition)


SECRET = "sk-live-4f9a1c77e0b2d6a3ZZ"
INSTANCE = "sales-eu"
JONAS = "4915112340001"


@pytest.fixture
def keyed_server():
    from gateway_tui.demo.server import DemoServer

    with DemoServer(api_key=SECRET) as server:
        yield server


@pytest.fixture
def captured():
    CapturingDriver.outputs = []
    yield CapturingDriver.outputs


def capturing(app: GatewayApp) -> GatewayApp:
    app.driver_class = CapturingDriver
    return app


@pytest.mark.parametrize("url", ["http://x²", "http://ｘ.example", "https://gw.exam²ple.com:8080"])
def test_urls_httpx_refuses_are_refused_with_a_reason(url):
    with pytest.raises(ValueError, match="host name is not valid"):
        validate_gateway_url(url)


async def test_connect_screen_with_a_url_httpx_refuses(captured, capfd):
    app = capturing(GatewayApp(load_config()))
    async with app.run_test(size=SIZE, headless=False) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ConnectScreen)
        app.screen.query_one("#url").value = "http://x²"
        app.screen.query_one("#api-key").value = SECRET
        await pilot.press("ctrl+o")
        await pilot.pause()
        assert isinstance(app.screen, ConnectScreen)  # still running, the reason beside the URL
        assert "not valid" in str(app.screen.query_one("#url-error").render())
    out, err = capfd.readouterr()
    assert SECRET not in "".join(captured) + out + err


async def test_a_profile_with_such_a_url_is_reported_not_fatal(captured, capfd, isolated_home):
    config_file = isolated_home / "config" / "config.toml"
    config_file.parent.mkdir(parents=True)
    config_file.write_text(
        'default_profile = "bad"\n[profiles.bad]\nurl = "http://x²"\n'
        f'api_key = "{SECRET}"\n[profiles.good]\nurl = "http://127.0.0.1:9"\napi_key = "k1234567"\n'
    )
    config = load_config()
    assert "bad" not in config.profiles
    assert any("host name is not valid" in p for p in config.problems)
    app = capturing(GatewayApp(config))
    async with app.run_test(size=SIZE, headless=False) as pilot:
        await pilot.pause()
        app.switch_profile("good")
        await pilot.pause()
        assert app.is_running
    out, err = capfd.readouterr()
    assert SECRET not in "".join(captured) + out + err


async def test_the_client_is_never_built_from_a_url_httpx_refuses(keyed_server, captured):
    config = make_config(keyed_server)
    config.url = "http://x²"  # as if it had slipped past the checks
    app = capturing(GatewayApp(config))
    async with app.run_test(size=SIZE, headless=False) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ConnectScreen)
        assert any("URL cannot be used" in n for n in notices(app))
    assert SECRET not in "".join(captured)


def inject_into_actions(screen: Screen) -> list[str]:
    """Make every action of ``screen`` raise an error with the key in its locals and message."""
    names = []
    for binding in type(screen).BINDINGS:
        action = binding.action if hasattr(binding, "action") else binding[1]
        name = action.split("(")[0]

        def broken(*args: Any, _name: str = name, **kwargs: Any) -> None:
            api_key = SECRET  # a local variable a crash report must not show
            raise RuntimeError(f"injected into {_name} while holding {api_key}")

        if name not in names:
            setattr(screen, f"action_{name}", broken)
            names.append(name)
    screen.check_action = lambda action, parameters: True  # type: ignore[method-assign]
    return names


async def break_every_action(app: GatewayApp, pilot: Any, screen_type: type[Screen]) -> str:
    await until(pilot, lambda: isinstance(app.screen, screen_type))
    screen = app.screen
    before = len(posted_notices(app))
    names = inject_into_actions(screen)
    for name in names:
        assert await app.run_action(name, screen)
        await pilot.pause()
    assert app.screen is screen  # nothing ended the screen, let alone the app
    reports = [(t, m) for t, m in posted_notices(app)[before:] if "Unexpected error" in t]
    assert len(reports) == len(names), [title for title, _ in reports]
    for name, (_, message) in zip(names, reports, strict=True):
        assert name in message and "••••" in message
    for name in names:
        delattr(screen, f"action_{name}")
    del screen.check_action
    app.clear_notifications()
    return screen_type.__name__


async def test_an_exception_in_every_screen_action_never_shows_the_key(
    keyed_server, captured, capfd
):
    app = capturing(make_app(make_config(keyed_server)))
    visited = []
    async with app.run_test(size=SIZE, headless=False) as pilot:
        await until(pilot, lambda: bool(app.state.instances.value))
        await app.actions.messages.send_list(INSTANCE, send_list_request(JONAS, "First"))
        await app.actions.messages.send_list(INSTANCE, send_list_request(JONAS, "Second"))

        async def visit(key: str | None, screen_type: type[Screen], pop: int = 0) -> None:
            if key:
                await pilot.press(key)
            visited.append(await break_every_action(app, pilot, screen_type))
            for _ in range(pop):
                app.pop_screen()
            await pilot.pause()

        await visit(None, InstancesScreen)
        await visit("ctrl+d", ConfirmScreen, pop=1)
        app.open_instance(INSTANCE)
        await visit(None, InstanceScreen)
        await visit("g", GroupPickerScreen)
        await until(pilot, lambda: bool(app.state.groups_of(INSTANCE).value))
        await visit("enter", ParticipantsScreen)
        for key, modal in (("s", SubjectScreen), ("n", InviteScreen), ("e", ExportScreen)):
            await visit(key, modal, pop=1)
        app.pop_screen()
        app.pop_screen()
        await visit("m", ComposerScreen)
        await visit("f6", TemplateNameScreen, pop=1)
        await visit("f7", LibraryScreen, pop=2)
        await visit("t", ChatsScreen)
        await visit("p", ProfileScreen, pop=1)
        await until(pilot, lambda: app.screen.table.cursor_row is not None)
        await visit("enter", MessagesScreen)
        own = MessageKey(remoteJid=f"{JONAS}@s.whatsapp.net", fromMe=True, id="3EB0KEYTEST")
        app.push_screen(EditMessageScreen(INSTANCE, own, "old text"))
        await visit(None, EditMessageScreen, pop=1)
        await visit("f12", RequestLogScreen)
        await visit("question_mark", HelpScreen, pop=1)
        app.push_screen(ConnectScreen())
        await visit(None, ConnectScreen)
        assert app.is_running
    out, err = capfd.readouterr()
    assert len(visited) == 18
    assert SECRET not in "".join(captured) + out + err


async def test_the_crash_report_has_no_locals_and_no_key(keyed_server, captured, capfd):
    """A bug outside any action (a timer, a message handler) still ends the app: its report is
    the traceback without local variables, the key masked even in the error's own message."""
    app = capturing(make_app(make_config(keyed_server)))

    def broken_callback() -> None:
        api_key = SECRET  # Textual's own report would print this local
        raise RuntimeError(f"a bug while holding {api_key}")

    with pytest.raises(RuntimeError):
        async with app.run_test(size=SIZE, headless=False) as pilot:
            await until(pilot, lambda: bool(app.state.instances.value))
            app.call_later(broken_callback)
            await pilot.pause()
            await pilot.pause()
    out, err = capfd.readouterr()
    everything = "".join(captured) + out + err
    assert "a bug while holding ••••" in everything
    assert "broken_callback" in everything  # the traceback is there…
    assert SECRET not in everything  # …but neither the local nor the key in the message


async def test_connect_screen_saves_a_profile_with_api_key_env(keyed_server, monkeypatch):
    monkeypatch.setenv("MY_GATEWAY_KEY", SECRET)
    app = GatewayApp(load_config())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        screen.query_one("#url").value = keyed_server.url
        screen.query_one("#api-key-env").value = "MY_GATEWAY_KEY"
        screen.query_one("#profile-name").value = "from-env"
        await pilot.press("ctrl+s")
        await pilot.pause()
        said = str(screen.query_one("#connect-result").render())
        assert "read from $MY_GATEWAY_KEY" in said and "not in the file" in said
        text = app.config.path.read_text()
        assert 'api_key_env = "MY_GATEWAY_KEY"' in text
        assert SECRET not in text
        saved = load_config()
        assert saved.profile == "from-env"
        assert saved.api_key.get_secret_value() == SECRET  # read from the environment
        # The same form with a key typed and no variable: the key goes in the file, and it says so.
        screen.query_one("#api-key-env").value = ""
        screen.query_one("#api-key").value = SECRET
        screen.query_one("#profile-name").value = "in-file"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "with the key in the file" in str(screen.query_one("#connect-result").render())
        # A variable that is not set, and no key typed: said next to the field, nothing saved.
        screen.query_one("#api-key").value = ""
        screen.query_one("#api-key-env").value = "NOT_SET_ANYWHERE"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "is not set" in str(screen.query_one("#env-error").render())
