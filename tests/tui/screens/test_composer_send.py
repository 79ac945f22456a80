"""The composer's send flow: what is sent, what the gateway answered and where it is said, never
a send repeated on its own."""

from __future__ import annotations

import httpx
from textual.widgets import Static

from gateway_tui.core.api import GatewayClient
from gateway_tui.core.api.errors import NOT_CONNECTED_HINT
from gateway_tui.core.api.events import CallEvent
from gateway_tui.core.api.models import ListMessage, ListRow, ListSection, SendListRequest
from gateway_tui.core.draft import Draft, DraftRow, DraftSection
from gateway_tui.tui.app import GatewayApp
from gateway_tui.tui.screens.composer import ComposerScreen
from gateway_tui.tui.screens.confirm import ConfirmScreen
from tests.data import good_draft, store_for
from tests.navigation import open_composer, open_composer_with
from tests.support import make_config, screen_text, wait_for

SIZE = (140, 50)


class RefusingTransport(httpx.AsyncBaseTransport):
    """Answers sendList the way a real server refuses a body; everything else goes through."""

    def __init__(self, message) -> None:
        self.message = message
        self.inner = httpx.AsyncHTTPTransport()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.path.startswith("/message/sendList/"):
            body = {"status": 400, "error": "Bad Request", "response": {"message": self.message}}
            return httpx.Response(400, json=body)
        return await self.inner.handle_async_request(request)


def line(screen, widget_id: str) -> str:
    """The text of an error line next to a field ("" when hidden)."""
    widget = screen.query_one(f"#{widget_id}", Static)
    return str(widget.render()) if widget.display else ""


def sendlist_writes(server) -> int:
    return sum(1 for w in server.state.writes if w.path.startswith("/message/sendList/"))


OPEN = "sales-eu"
JONAS = "4915112340001"


def _list_request(*rows: ListRow) -> SendListRequest:
    section = ListSection(title="Bikes", rows=list(rows))
    message = ListMessage(
        title="Offers", description="Pick one", button_text="Open", sections=[section]
    )
    return SendListRequest(number=JONAS, list_message=message)


CLOSED = "onboarding"


def _lunch() -> Draft:
    return Draft(
        recipient=JONAS,
        title="Lunch",
        description="Pick one",
        button_text="Menu",
        sections=[DraftSection("Pizzas", [DraftRow("Margherita"), DraftRow("Funghi")])],
    )


# --- the composer: a general send error is not drawn under the last row ----------------------


def _status(screen: ComposerScreen) -> str:
    return str(screen.query_one("#composer-status", Static).render())


# --- sending --------------------------------------------------------------------------------------


async def test_a_delayed_send_counts_down_and_outlasts_the_normal_timeout(app_for, demo_server):
    app = app_for()
    app.client.timeout = 1.0  # shorter than the delay: only "delay + timeout" lets it through
    async with app.run_test(size=SIZE) as pilot:
        draft = good_draft(delay="1500", presence="composing")
        screen = await open_composer_with(app, pilot, demo_server, draft)
        await pilot.press("ctrl+s")
        status = lambda: str(screen.query_one("#composer-status", Static).render())  # noqa: E731
        await wait_for(pilot, lambda: "s left" in status())
        assert "delay of 1500 ms" in status() and "composing" in status()
        # (esc now gives a send up as "outcome unknown": tests/hostile/test_hostile_limits.py)
        await wait_for(pilot, lambda: screen.last_result is not None)
        assert "✓ Sent" in status()
    sends = [e for e in app.state.calls if e.path.startswith("/message/sendList/")]
    assert [e.status for e in sends] == [201]
    assert sends[0].request_body["options"] == {"delay": 1500, "presence": "composing"}


async def test_server_validation_errors_appear_next_to_the_fields_they_name(demo_server):
    refusal = [
        [
            'listMessage.sections[0].rows[1] requires property "rowId"',
            "listMessage.sections[1].title is not of a type(s) string",
            "Enter a value in milliseconds",
            "Invalid format",
            "Something nobody can place",
        ]
    ]
    app = GatewayApp(make_config(demo_server), transport=RefusingTransport(refusal))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_composer_with(app, pilot, demo_server, good_draft())
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: not screen.sending)
        await pilot.pause()
        row = screen.draft.sections[0].rows[1]
        assert 'requires property "rowId"' in line(screen, f"err-row-{row.uid}")
        assert "is not of a type" in line(screen, f"err-sec-{screen.draft.sections[1].uid}")
        assert "Enter a value in milliseconds" in line(screen, "err-options")
        assert "Invalid format" in line(screen, "err-recipient")
        status = str(screen.query_one("#composer-status", Static).render())
        assert "Not sent" in status and "Something nobody can place" in status
        assert screen.last_result is None


async def test_a_number_not_on_whatsapp_is_said_at_the_recipient(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_composer_with(
            app, pilot, demo_server, good_draft(recipient="4915100000000")
        )
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: "gateway" in line(screen, "err-recipient"))
        assert "4915100000000 is not on WhatsApp" in line(screen, "err-recipient")


async def test_a_disconnected_instance_is_said_in_plain_words(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        store_for(demo_server, "billing-apac").save_draft(good_draft())
        screen = await open_composer(app, pilot, "billing-apac")
        await pilot.press("ctrl+s")
        status = lambda: str(screen.query_one("#composer-status", Static).render())  # noqa: E731
        await wait_for(pilot, lambda: "Not sent" in status())
        assert "probably not connected" in status()


async def test_a_timed_out_send_is_not_repeated_and_asks_before_the_next(app_for, demo_server):
    demo_server.faults.add("stall", path_prefix="/message/sendList/", seconds=5, times=1)
    app = app_for()
    app.client.timeout = 0.5
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_composer_with(app, pilot, demo_server, good_draft())
        await pilot.press("ctrl+s")
        status = lambda: str(screen.query_one("#composer-status", Static).render())  # noqa: E731
        await wait_for(pilot, lambda: "outcome unknown — check before retrying" in status())
        assert sendlist_writes(demo_server) == 1
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)  # asks; does not send on its own
        await pilot.press("n")
        await pilot.pause()
        assert sendlist_writes(demo_server) == 1
        app.client.timeout = 60.0  # the stall is used up: a busy machine must not time out now
        await pilot.press("ctrl+s")
        await pilot.pause()
        await pilot.press("y")
        await wait_for(pilot, lambda: screen.last_result is not None)
    assert sendlist_writes(demo_server) == 2


async def test_sending_the_same_message_again_asks_first(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_composer_with(app, pilot, demo_server, good_draft())
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: screen.last_result is not None)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        await pilot.pause()
    assert sendlist_writes(demo_server) == 1


async def test_after_a_send_the_field_with_the_cursor_stays_in_view_and_marked(
    app_for, demo_server
):
    """10b: the result is shown under the form; the focused field (the last row, at the form's
    bottom at 80×24) is scrolled back into view and its hint line stays."""
    from tests.data import good_draft
    from tests.navigation import open_composer_with

    app = app_for()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_composer_with(app, pilot, demo_server, good_draft())
        last = screen.draft.sections[-1].rows[-1]
        field = screen.query_one(f"#row-{last.uid}-title")
        field.focus()
        await wait_for(pilot, lambda: "1. Cola" in screen_text(app))
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: screen.last_result is not None)
        await wait_for(pilot, lambda: "✓ Sent" in screen_text(app))
        await wait_for(pilot, lambda: "1. Cola" in screen_text(app))
        assert app.focused is field
        assert "▸ Row title" in screen_text(app)


# --- empty optional strings are left out, never sent as "" -----------------------------------


async def test_a_row_without_description_is_sent_without_the_field(demo_server) -> None:
    events: list[CallEvent] = []
    async with GatewayClient(demo_server.url, demo_server.api_key) as client:
        client.subscribe(events.append)
        request = _list_request(
            ListRow(title="City bike", row_id="city"),
            ListRow(title="Road bike", description="", row_id="road"),
            ListRow(title="Cargo bike", description="Carries 80 kg", row_id="cargo"),
        )
        sent = await client.messages.send_list(
            OPEN, request
        )  # the demo, like a real 1.7.1, refuses ""
    assert sent.key is not None
    rows = events[-1].request_body["listMessage"]["sections"][0]["rows"]
    assert rows == [
        {"title": "City bike", "rowId": "city"},
        {"title": "Road bike", "rowId": "road"},
        {"title": "Cargo bike", "description": "Carries 80 kg", "rowId": "cargo"},
    ]


async def test_a_general_send_error_is_in_the_status_line_not_under_the_last_row(
    app_for, demo_server
) -> None:
    app = app_for()
    async with app.run_test(size=(140, 50)) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        screen = await open_composer_with(app, pilot, demo_server, _lunch(), CLOSED)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: "Not sent" in _status(screen))
        await pilot.pause()
        assert "Cannot read properties of undefined (reading 'onWhatsApp')" in _status(screen)
        assert NOT_CONNECTED_HINT in _status(screen)
        shown = [w for w in screen.query(".composer-error").results(Static) if w.display]
        assert not [str(w.render()) for w in shown if "gateway" in str(w.render())]
