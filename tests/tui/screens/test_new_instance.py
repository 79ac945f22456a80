"""New instance: the name checked, the key shown once, the new row in the list."""

from __future__ import annotations

import pytest

from gateway_tui.tui.screens.instances import InstancesScreen
from gateway_tui.tui.screens.new_instance import NewInstanceScreen
from tests.support import screen_text, wait_for


async def _instances(pilot):
    await wait_for(
        pilot,
        lambda: (
            bool(pilot.app.state.instances.value) and isinstance(pilot.app.screen, InstancesScreen)
        ),
    )


async def _type(pilot, text: str) -> None:
    await pilot.press(*text)


@pytest.fixture
def manual_scan(demo_server):
    demo_server.state.auto_scan_seconds = None
    return demo_server


SIZE = (120, 36)


# --- new instance -----------------------------------------------------------------------------


async def test_new_instance_refuses_a_bad_name_and_keeps_the_typing(app_for, manual_scan):
    app = app_for()
    async with app.run_test(size=(120, 36)) as pilot:
        await _instances(pilot)
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, NewInstanceScreen)
        await _type(pilot, "../x")
        await pilot.press("enter")
        await pilot.pause()
        text = screen_text(app)
        assert "no / or" in text
        assert app.screen.query_one("#new-name").value == "../x"
        assert not any(w.path == "/instance/create" for w in manual_scan.state.writes)


async def test_new_instance_shows_its_key_once_and_joins_the_list(app_for, manual_scan):
    app = app_for()
    async with app.run_test(size=(120, 36)) as pilot:
        await _instances(pilot)
        await pilot.press("n")
        await pilot.pause()
        await _type(pilot, "fresh-one")
        await pilot.press("tab")
        await _type(pilot, "+55 11 98888 7777")
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.state.instance("fresh-one") is not None)
        await pilot.pause()
        key = manual_scan.state.instances["fresh-one"].apikey
        assert key in screen_text(app)  # shown once, in full, to be copied
        await pilot.press("ctrl+y")
        assert app.clipboard == key
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, InstancesScreen)
        assert key not in screen_text(app)
        assert app.screen.table.cursor_key == "fresh-one"
        assert "fresh-one" in screen_text(app)
        assert manual_scan.state.instances["fresh-one"].owner_number == "5511988887777"


async def test_a_new_instance_says_its_key_is_listed_again_and_keeps_its_integration(app_for):
    from gateway_tui.tui.screens.instance import InstanceScreen
    from gateway_tui.tui.screens.instances import InstancesScreen

    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, InstancesScreen))
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        await pilot.press("n")
        await pilot.pause()
        await pilot.press(*"fresh-one", "enter")
        await wait_for(pilot, lambda: "Created" in screen_text(app))
        text = " ".join(screen_text(app).split())
        assert "fresh-one (WHATSAPP-BAILEYS)" in text
        # Both 1.7.1 and 2.x list every instance's key to whoever holds the global key.
        assert "shown this once" not in text
        assert "lists it again" in text
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, InstancesScreen))
        await pilot.press("r")  # the gateway's own listing: 1.7.1 names no integration
        await wait_for(pilot, lambda: not app.state.instances.loading)
        app.open_instance("fresh-one")
        await wait_for(pilot, lambda: isinstance(app.screen, InstanceScreen))
        await pilot.pause()
        line = next(x for x in screen_text(app).splitlines() if "Integration" in x)
        assert "WHATSAPP-BAILEYS" in line


@pytest.mark.parametrize("version", ["1.7.1", "2.3.7"])
async def test_a_new_instance_lists_its_integration_not_a_dash(version):
    """A new instance's row names its integration (it once said `Integration —`): the one the
    gateway reports, else the line's default (both lines make an instance created without
    one a Baileys instance; 2.3.7's fetchInstances says WHATSAPP-BAILEYS), after the create and
    after the gateway's own listing."""
    from gateway_tui.demo.server import DemoServer
    from tests.support import make_app, make_config

    def row() -> str:
        return next((line for line in screen_text(app).splitlines() if "fresh-one" in line), "")

    with DemoServer(api_version=version) as server:
        server.state.auto_scan_seconds = None
        app = make_app(make_config(server))
        async with app.run_test(size=(220, 40)) as pilot:
            await _instances(pilot)
            await pilot.press("n")
            await wait_for(pilot, lambda: isinstance(app.screen, NewInstanceScreen))
            await pilot.press(*"fresh-one", "enter")
            await wait_for(pilot, lambda: app.state.instance("fresh-one") is not None)
            await pilot.press("escape")
            await wait_for(pilot, lambda: isinstance(app.screen, InstancesScreen))
            await wait_for(pilot, lambda: "fresh-one" in row())
            assert "Integration" in screen_text(app)
            assert "WHATSAPP-BAILEYS" in row(), row()
            await pilot.press("r")
            await wait_for(pilot, lambda: not app.state.instances.loading)
            await wait_for(pilot, lambda: "fresh-one" in row())
            assert "WHATSAPP-BAILEYS" in row(), row()


async def test_an_instance_created_with_a_number_connects_on_its_pairing_code(app_for, manual_scan):
    """Issue 29: with a number, the pairing code is what the user needs; the QR is a key away."""
    from gateway_tui.tui.screens.pairing import PairingScreen
    from gateway_tui.tui.widgets.qr import QRCode

    app = app_for()
    async with app.run_test(size=(140, 45)) as pilot:
        await _instances(pilot)
        await pilot.press("n")
        await pilot.pause()
        await _type(pilot, "with-phone")
        await pilot.press("tab")
        await _type(pilot, "+55 11 98888 7777")
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.state.instance("with-phone") is not None)
        await pilot.press("ctrl+o")  # connect it now
        await wait_for(pilot, lambda: isinstance(app.screen, PairingScreen))
        answer = app.actions.lifecycle.pairing_of("with-phone")
        await wait_for(pilot, lambda: answer.value is not None and bool(answer.value.pairing_code))
        await pilot.pause()
        screen = app.screen
        qr = screen.query_one(QRCode)
        assert not qr.display and qr.drawing is None  # not opened on the QR
        text = " ".join(screen_text(app).split())
        assert "Pairing code for +55 11 98888 7777" in text
        assert answer.value.pairing_code[:4] in text and "Scan the code" not in text
        toggle = screen.key_for("pairing.toggle_qr")
        assert f"{toggle} shows the QR code instead" in text
        await pilot.press(toggle)
        await wait_for(pilot, lambda: qr.display and qr.drawing is not None)
        await pilot.press(toggle)
        await wait_for(pilot, lambda: not qr.display)
