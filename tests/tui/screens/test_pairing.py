"""Connecting an instance: the QR drawn and decoded back, the pairing code, a lapsed code,
errors; and an instance's whole life by key."""

from __future__ import annotations

import pytest
import zxingcpp
from PIL import Image

from gateway_tui.demo import lifecycle as demo_lifecycle
from gateway_tui.tui.screens import pairing as pairing_screen
from gateway_tui.tui.screens.instances import InstancesScreen
from gateway_tui.tui.screens.pairing import PairingScreen
from gateway_tui.tui.widgets.qr import Drawing, QRCode, pixels
from tests.navigation import open_pairing
from tests.support import notices, screen_text, wait_for


def _answer(app, name: str = "onboarding"):
    """The last connect answer the app holds for ``name`` (None before it arrives)."""
    return app.actions.lifecycle.pairing_of(name).value


async def _instances(pilot):
    await wait_for(
        pilot,
        lambda: (
            bool(pilot.app.state.instances.value) and isinstance(pilot.app.screen, InstancesScreen)
        ),
    )


# A terminal cell is about twice as tall as wide: pixels per module, as a camera would see them.
_CELL_W, _CELL_H = 8, 16

# A terminal cell is about twice as tall as wide: pixels per module, as a camera would see them.
_CELL_W, _CELL_H = 8, 16


def decode_drawn_qr(app) -> list[str]:
    """Read the QR code back from the screen's TEXT, as a phone camera would from the glass."""
    widget = app.screen.query_one(QRCode)
    assert widget.drawing is not None, screen_text(app)
    region = widget.content_region
    lines = screen_text(app).split("\n")[region.y : region.bottom]
    crop = [line[region.x : region.right].ljust(region.width) for line in lines]
    module_w, module_h = {
        Drawing.FULL: (2 * _CELL_W, _CELL_H),
        Drawing.HALF: (_CELL_W, _CELL_H // 2),
        Drawing.SEXTANT: (_CELL_W // 2, _CELL_H // 3),
    }[widget.drawing]
    modules = pixels(crop, widget.drawing)
    margin = 40
    image = Image.new(
        "L", (len(modules[0]) * module_w + 2 * margin, len(modules) * module_h + 2 * margin), 255
    )
    for y, row in enumerate(modules):
        for x, dark in enumerate(row):
            if dark:
                left, top = margin + x * module_w, margin + y * module_h
                image.paste(0, (left, top, left + module_w, top + module_h))
    return [barcode.text for barcode in zxingcpp.read_barcodes(image)]


@pytest.fixture
def manual_scan(demo_server):
    demo_server.state.auto_scan_seconds = None
    return demo_server


async def _type(pilot, text: str) -> None:
    await pilot.press(*text)


# --- the connect screen ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "drawing"),
    [((170, 66), Drawing.FULL), ((140, 45), Drawing.HALF), ((80, 24), Drawing.SEXTANT)],
    ids=str,
)
async def test_the_qr_as_drawn_decodes_to_the_code(app_for, manual_scan, size, drawing):
    """At 80×24 the code fits only in sextants (2×3 modules a cell); larger, in half blocks;
    in a big window, two cells a module."""
    app = app_for()
    async with app.run_test(size=size) as pilot:
        await _instances(pilot)
        app.screen.table.move_cursor_to_key("onboarding")
        await pilot.press("C")
        await pilot.pause()
        await wait_for(pilot, lambda: app.screen.query_one(QRCode).drawing is not None)
        assert app.screen.query_one(QRCode).drawing == drawing
        assert decode_drawn_qr(app) == [_answer(app).code]
        assert "New code in" in screen_text(app)


async def test_too_small_says_so_and_offers_the_pairing_code(app_for, manual_scan):
    app = app_for()
    async with app.run_test(size=(60, 16)) as pilot:
        await open_pairing(pilot.app, pilot)
        text = " ".join(screen_text(app).split())
        assert "Too small for the QR code" in text
        assert "press p" in text
        assert app.screen.query_one(QRCode).drawing is None


async def test_pairing_code_in_large_letters_and_scan_returns(app_for, manual_scan):
    app = app_for()
    async with app.run_test(size=(140, 45)) as pilot:
        await _instances(pilot)
        app.screen.table.move_cursor_to_key("onboarding")
        await pilot.press("C")
        await pilot.pause()
        await pilot.press("p")
        await pilot.pause()
        await _type(pilot, "+49 151 2345 0000")
        await pilot.press("enter")
        await wait_for(pilot, lambda: _answer(app) is not None and _answer(app).pairing_code)
        await pilot.pause()
        code = _answer(app).pairing_code
        text = screen_text(app)
        assert "Pairing code for +49 1512 3450000" in text
        assert "█" in app.screen.query_one("#pairing-code").render().plain  # large letters
        await pilot.press("c")
        assert app.clipboard == code
        # The phone types the code: the state turns open within a poll, then the screen returns.
        demo_lifecycle.scan(manual_scan.state, "onboarding")
        await wait_for(pilot, lambda: "Connected" in screen_text(app))
        await wait_for(pilot, lambda: isinstance(app.screen, InstancesScreen))
        instance = app.state.instance("onboarding")
        assert instance.status == "open" and instance.owner_number == "4915123450000"
        # Said once, with the profile name and number the phone brought.
        said = f"onboarding is open: {instance.profile_name}, +49 1512 3450000"
        assert instance.profile_name and any(said in line for line in notices(app))


async def test_offline_answer_is_shown_plainly(app_for, manual_scan):
    demo_lifecycle.of(manual_scan.state).whatsapp = "offline"
    app = app_for()
    async with app.run_test(size=(120, 36)) as pilot:
        await open_pairing(pilot.app, pilot)
        text = " ".join(screen_text(app).split())
        assert "could not get one from WhatsApp" in text
        assert "count 0" in text
        assert "Asking again in" in text


async def test_a_lapsed_code_is_replaced(app_for, manual_scan, monkeypatch):
    monkeypatch.setattr(pairing_screen, "FIRST_CODE_SECONDS", 1.0)
    monkeypatch.setattr(demo_lifecycle, "FIRST_CODE_SECONDS", 0.5)
    app = app_for()
    async with app.run_test(size=(140, 45)) as pilot:
        await _instances(pilot)
        app.open_pairing("onboarding")
        await pilot.pause()
        await wait_for(pilot, lambda: app.screen.query_one(QRCode).drawing is not None)
        first = _answer(app).code
        await wait_for(
            pilot,
            lambda: (_answer(app) or None) is not None and _answer(app).code not in (None, first),
        )
        await pilot.pause()
        assert decode_drawn_qr(app) == [_answer(app).code]


async def test_a_failed_check_on_the_connect_screen_is_shown_in_place(app_for, manual_scan):
    manual_scan.faults.add("status", path_prefix="/instance/connectionState/", status=500)
    app = app_for()
    async with app.run_test(size=(140, 45)) as pilot:
        await open_pairing(pilot.app, pilot)
        await wait_for(pilot, lambda: "the last check failed" in screen_text(app))
        assert isinstance(app.screen, PairingScreen)
        assert not any("failed" in n for n in notices(app))  # no toast every two seconds


# --- done when: the whole day, keys only --------------------------------------------------------


async def test_create_connect_open_webhook_restart_logout_keys_only(app_for, manual_scan):
    # The phone scans once the test has read the QR off the screen (a phone that scanned a
    # second after the code came could beat a slow machine's drawing of it).
    app = app_for()
    async with app.run_test(size=(120, 36)) as pilot:
        await _instances(pilot)
        await pilot.press("n")
        await pilot.pause()
        await _type(pilot, "day-one")
        await pilot.press("enter")
        await wait_for(pilot, lambda: "Created" in screen_text(app))
        await pilot.press("ctrl+o")
        await wait_for(pilot, lambda: isinstance(app.screen, PairingScreen))
        await pilot.pause()
        await wait_for(pilot, lambda: app.screen.query_one(QRCode).drawing is not None)
        assert decode_drawn_qr(app) == [app.actions.lifecycle.pairing_of("day-one").value.code]
        assert demo_lifecycle.scan(manual_scan.state, "day-one")
        # Scanned: open, then back on the list, where the row says so.
        await wait_for(pilot, lambda: isinstance(app.screen, InstancesScreen))
        await wait_for(pilot, lambda: "day-one" in screen_text(app))
        row = next(line for line in screen_text(app).splitlines() if "day-one" in line)
        assert "open" in row
        assert app.screen.table.cursor_key == "day-one"
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("w")
        await wait_for(pilot, lambda: "Never set" in screen_text(app))
        await _type(pilot, "https://hooks.example/day-one")
        await pilot.press("tab", "space")  # Enabled
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: "Written" in screen_text(app))
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("R", "y")
        await wait_for(pilot, lambda: any("Restarted day-one" in n for n in notices(app)))
        await pilot.press("L", "y")
        await wait_for(pilot, lambda: any("Logged out day-one" in n for n in notices(app)))
        await wait_for(pilot, lambda: app.state.instance("day-one").status == "close")
        assert demo_lifecycle.of(manual_scan.state).webhooks["day-one"]["enabled"] is True
        assert [w.path for w in manual_scan.state.writes] == [
            "/instance/create",
            "/webhook/set/day-one",
            "/instance/restart/day-one",
            "/instance/logout/day-one",
        ]


async def test_the_pairing_code_is_also_plain_text_beside_its_large_letters(app_for, demo_server):
    from gateway_tui.tui.screens.pairing import PairingScreen
    from gateway_tui.tui.widgets.big_code import grouped
    from tests.support import screen_text, wait_for

    demo_server.state.auto_scan_seconds = None
    app = app_for()
    async with app.run_test(size=(140, 45)) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        app.open_pairing("onboarding", "4915123450000")
        await wait_for(pilot, lambda: isinstance(app.screen, PairingScreen))
        answer = app.actions.lifecycle.pairing_of("onboarding")
        await wait_for(pilot, lambda: answer.value is not None and bool(answer.value.pairing_code))
        await pilot.pause()
        shown = app.screen.query_one("#pairing-code").render().plain
        assert "█" in shown  # large letters
        assert grouped(answer.value.pairing_code) in screen_text(app)  # and as text


async def test_the_pairing_hints_name_the_keys_the_bindings_have(app_for, manual_scan):
    """ "(r: now)" and "press p" were written by hand: remapped, the hints follow the keys."""
    keys = {"pairing.new_code": "f5", "pairing.pair_by_number": "f6"}
    app = app_for(keys=keys)
    async with app.run_test(size=(60, 16)) as pilot:
        await open_pairing(pilot.app, pilot)
        assert app.config.problems == []
        await wait_for(pilot, lambda: "now)" in screen_text(app))
        text = " ".join(screen_text(app).split())
        assert "Too small for the QR code" in text
        assert "press f6 to pair" in text and "press p" not in text
        assert "(f5: now)" in text and "(r: now)" not in text
