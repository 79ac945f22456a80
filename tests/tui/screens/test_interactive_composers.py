"""2.4's interactive composers beside the list composer: from the instance view (and so the
palette), one per kind of button (reply, URL / call / copy, PIX) and the carousel, each with
2.4's rules, a preview, the JSON and the curl; refused before 2.4 with the reason and the
version."""

from __future__ import annotations

import httpx
import pytest
from textual.widgets import Input, Static

from gateway_tui.tui.app import GatewayApp
from gateway_tui.tui.screens.instance import InstanceScreen
from gateway_tui.tui.screens.interactive_composer import InteractiveComposerScreen
from tests.in_process import InProcessDemo
from tests.navigation import open_instance
from tests.support import make_config, screen_text, wait_for

SIZE = (140, 50)
OPENED_BY = {"b": "reply", "u": "cta", "p": "pix", "K": "carousel"}


def _static(screen, selector: str) -> str:
    return str(screen.query_one(selector, Static).render())


@pytest.mark.in_process
async def test_each_composer_opens_from_the_instance_view(app_for, demo_server) -> None:
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        view = await open_instance(app, pilot)
        hints = view.sections_hint()
        assert "b reply buttons" in hints and "p PIX" in hints and "K carousel" in hints
        commands = {c.title for c in app.get_system_commands(view)}
        # The palette offers each (its line is the binding's tooltip).
        assert {
            "Compose a message with reply buttons (Evolution API 2.4)",
            "Compose a message with URL, call or copy buttons (Evolution API 2.4)",
            "Compose a PIX payment message (Evolution API 2.4)",
            "Compose a carousel of cards (Evolution API 2.4)",
        } <= commands
        for key, kind in OPENED_BY.items():
            await pilot.press(key)
            await wait_for(pilot, lambda: isinstance(app.screen, InteractiveComposerScreen))
            composer = app.screen
            assert composer.kind == kind and composer.instance == "sales-eu"
            # Before 2.4 (the demo is 1.7.1): refused with the reason and the version.
            await wait_for(
                pilot, lambda c=composer: "this gateway is 1.7.1" in str(c.message()[1][0])
            )
            await pilot.press("ctrl+s")
            await wait_for(pilot, lambda: "Not sent" in screen_text(app))
            await pilot.press("escape")
            await wait_for(pilot, lambda: isinstance(app.screen, InstanceScreen))
    assert not [e for e in app.state.calls if "/sendButtons/" in e.path or "Carousel" in e.path]


async def test_each_button_composer_keeps_to_its_kind_on_24(isolated_home) -> None:
    with InProcessDemo(api_version="2.4.0") as demo:
        app = GatewayApp(make_config(demo, api_version="auto"), transport=demo.transport())
        async with app.run_test(size=SIZE) as pilot:
            await open_instance(app, pilot)
            await pilot.press("p")
            await wait_for(pilot, lambda: isinstance(app.screen, InteractiveComposerScreen))
            pix = app.screen
            pix.query_one("#i-to", Input).value = "4915112340001"
            pix.query_one("#i-title", Input).value = "Pay here"
            await wait_for(pilot, lambda: "ready to send" in screen_text(app))
            assert "PIX" in _static(pix, "#i-preview")
            assert '"keyType": "email"' in _static(pix, "#i-json")
            assert "/message/sendButtons/sales-eu" in _static(pix, "#i-curl")
            pix.query_one("#i-lines").text = "pix: A | email | a@b.c\nreply: Ok = ok"
            await wait_for(
                pilot,
                lambda: (
                    "reply buttons: this composer writes one PIX button"
                    in _static(pix, "#i-problems")
                ),
            )
            await pilot.press("ctrl+s")
            await wait_for(pilot, lambda: "Not sent" in screen_text(app))
            assert not [e for e in app.state.calls if "/sendButtons/" in e.path]
            pix.query_one("#i-lines").text = "pix: Loja | email | pix@example.com"
            await wait_for(pilot, lambda: "ready to send" in screen_text(app))
            await pilot.press("ctrl+s")
            await wait_for(pilot, lambda: "✓ Sent" in screen_text(app))
            await pilot.press("escape")
            await wait_for(pilot, lambda: isinstance(app.screen, InstanceScreen))
            await pilot.press("u")
            await wait_for(pilot, lambda: isinstance(app.screen, InteractiveComposerScreen))
            cta = app.screen
            assert cta.kind == "cta"
            cta.query_one("#i-to", Input).value = "4915112340001"
            cta.query_one("#i-title", Input).value = "Links"
            await wait_for(pilot, lambda: "ready to send" in screen_text(app))
            cta.query_one("#i-lines").text = "url: A = https://a.example\nreply: Yes = y"
            await wait_for(
                pilot, lambda: "reply buttons: this composer writes" in _static(cta, "#i-problems")
            )
            assert "Reply buttons cannot be mixed with CTA or PIX" in _static(cta, "#i-problems")
    (sent,) = [e for e in app.state.calls if "/sendButtons/" in e.path]
    assert [b["type"] for b in sent.request_body["buttons"]] == ["pix"]


class _RootFails(httpx.AsyncBaseTransport):
    """The demo gateway, except that GET / (its version) answers 500."""

    def __init__(self) -> None:
        self.real = httpx.AsyncHTTPTransport()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.path == "/":
            return httpx.Response(500, json={"status": 500, "error": "down"}, request=request)
        return await self.real.handle_async_request(request)

    async def aclose(self) -> None:
        await self.real.aclose()


async def test_a_failed_version_read_is_said(demo_server) -> None:
    """The composer asks GET / for the version 2.4's kinds need: when that read fails it is
    said in a notice (it was swallowed: a refusal then blamed an unknown version unexplained)."""
    from tests.support import notices

    app = GatewayApp(make_config(demo_server), transport=_RootFails())
    async with app.run_test(size=SIZE) as pilot:
        await open_instance(app, pilot)
        await pilot.press("b")
        await wait_for(pilot, lambda: isinstance(app.screen, InteractiveComposerScreen))
        what = "Reading the gateway's version failed"
        await wait_for(pilot, lambda: any(what in n for n in notices(app)))
