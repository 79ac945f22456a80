"""The list-message composer against the demo gateway, driven with keys."""

from __future__ import annotations

import json

import pytest
from textual.widgets import Input, Static

from gateway_tui.core.draft import Draft, DraftRow, DraftSection
from gateway_tui.tui.screens.composer import ComposerScreen
from gateway_tui.tui.widgets.length_counter import LengthCounter
from gateway_tui.tui.widgets.list_preview import ListPreview
from tests.data import INSTANCE, JONAS, good_draft
from tests.navigation import open_composer, open_composer_with
from tests.support import screen_text, wait_for

SIZE = (140, 50)


def sendlist_writes(server) -> int:
    return sum(1 for w in server.state.writes if w.path.startswith("/message/sendList/"))


def line(screen, widget_id: str) -> str:
    """The text of an error line next to a field ("" when hidden)."""
    widget = screen.query_one(f"#{widget_id}", Static)
    return str(widget.render()) if widget.display else ""


def preview(screen) -> str:
    return screen.query_one("#composer-preview", ListPreview).plain_text(width=200)


# --- validation: each rule blocks, shown next to its field ----------------------------------------


def _no_rows(draft: Draft) -> Draft:
    draft.sections[1].rows = []
    return draft


def _same_rows(draft: Draft) -> Draft:
    draft.sections[0].rows = [DraftRow("A", row_id="a"), DraftRow("A", row_id="a")]
    return draft


def _same_sections(draft: Draft) -> Draft:
    draft.sections = [
        DraftSection("Same", [DraftRow("A", row_id="a")]),
        DraftSection("Same", [DraftRow("A", row_id="a")]),
    ]
    return draft


def _untitled_row(draft: Draft) -> Draft:
    draft.sections[0].rows[1].title = ""
    return draft


def _untitled_section(draft: Draft) -> Draft:
    draft.sections[1].title = ""
    return draft


def _no_sections(draft: Draft) -> Draft:
    draft.sections = []
    return draft


def _set(**values):
    def change(draft: Draft) -> Draft:
        for name, value in values.items():
            setattr(draft, name, value)
        return draft

    return change


def _row(s: int, r: int):
    return lambda screen: f"err-row-{screen.draft.sections[s].rows[r].uid}"


def _section(s: int):
    return lambda screen: f"err-sec-{screen.draft.sections[s].uid}"


ERROR_RULES = {
    "recipient missing": (_set(recipient=""), "err-recipient", "country code"),
    "recipient not a number": (_set(recipient="call me"), "err-recipient", "digits only"),
    "title empty": (_set(title=""), "err-title", "cannot be empty"),
    "description empty": (_set(description=""), "err-description", "cannot be empty"),
    "button text empty": (_set(button_text=" "), "err-button", "cannot be empty"),
    "no sections": (_no_sections, "err-sections", "add at least one section"),
    "section without rows": (_no_rows, _section(1), "at least one row"),
    "section without title": (_untitled_section, _section(1), "a section needs a title"),
    "row without title": (_untitled_row, _row(0, 1), "a row needs a title"),
    "identical rows": (_same_rows, _row(0, 1), "identical to an earlier row"),
    "identical sections": (_same_sections, _section(1), "identical to an earlier section"),
    "delay with a fraction": (_set(delay="1.5"), "err-options", "whole number of milliseconds"),
    "delay as words": (_set(delay="soon"), "err-options", "whole number of milliseconds"),
}


# --- warnings: past what WhatsApp shows, but sent -------------------------------------------------


def _many_rows(draft: Draft) -> Draft:
    draft.sections[0].rows = [DraftRow(f"Dish {n}") for n in range(11)]
    return draft


def _long_section_title(draft: Draft) -> Draft:
    draft.sections[0].title = "Pizzas from the wood-fired oven"
    return draft


def _long_row_title(draft: Draft) -> Draft:
    draft.sections[0].rows[0].title = "Margherita with buffalo mozzarella"
    return draft


def _long_row_description(draft: Draft) -> Draft:
    draft.sections[0].rows[0].description = "Tomato, " * 10
    return draft


def _same_row_ids(draft: Draft) -> Draft:
    draft.sections[0].rows[0].row_id = draft.sections[0].rows[1].row_id = "pizza"
    return draft


WARNINGS = {
    "button text over 20": (
        _set(button_text="See everything we cook today"),
        "err-button",
        "at most 20 characters",
    ),
    "section title over 24": (_long_section_title, _section(0), "at most 24 characters"),
    "row title over 24": (_long_row_title, _row(0, 0), "at most 24 characters"),
    "row description over 72": (_long_row_description, _row(0, 0), "at most 72 characters"),
    "more than 10 rows": (_many_rows, "err-sections", "12 rows: WhatsApp shows at most 10"),
    "rowId used twice": (_same_row_ids, _row(0, 1), "used twice"),
}


# --- the whole flow from the keyboard -------------------------------------------------------------


async def test_two_sections_of_three_rows_from_the_keyboard_then_sent(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_composer(app, pilot)
        assert screen.focused.id == "f-recipient"
        await pilot.press(*JONAS, "tab", *"Lunch menu")
        await pilot.pause()
        assert "Lunch menu" in preview(screen)  # the bubble follows the typing
        await pilot.press("tab", *"Pick today's dish", "tab", *"See the menu")
        await pilot.press("tab", *"Order by 11:30", "tab", "tab", "tab")
        assert screen.focused.id.startswith("sec-")
        menu = {
            "Pizza": [("Rossa", "Tomato"), ("Funghi", "Mushroom"), ("Diavola", "Hot")],
            "Drinks": [("Cola", "Cold"), ("Tea", "Hot"), ("Water", "0.5 l")],
        }
        for s_index, (section, rows) in enumerate(menu.items()):
            if s_index:
                await pilot.press("ctrl+o")
                await pilot.pause()
            await pilot.press(*section)
            for r_index, (title, description) in enumerate(rows):
                if r_index:
                    await pilot.press("ctrl+n")
                    await pilot.pause()
                else:
                    await pilot.press("tab")
                await pilot.press(*title, "tab", *description, "shift+tab")
        await pilot.pause()
        shown = preview(screen)
        for section, rows in menu.items():
            assert section.upper() in shown
            for title, description in rows:
                assert title in shown and description in shown
        assert "See the menu" in shown and "Order by 11:30" in shown
        assert [len(s.rows) for s in screen.draft.sections] == [3, 3]

        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: screen.last_result is not None)
        result = screen.last_result
        status = str(screen.query_one("#composer-status", Static).render())
        assert "✓ Sent" in status
        assert result.key.id in status and "PENDING" in status
        assert result.message_timestamp in status

        # The demo gateway stored it in the chat, exactly as composed.
        chat = demo_server.state.instances[INSTANCE].chats[f"{JONAS}@s.whatsapp.net"]
        sent = chat.find(result.key.id)
        assert sent.list_message["buttonText"] == "See the menu"
        sections = sent.list_message["sections"]
        assert [s["title"] for s in sections] == ["Pizza", "Drinks"]
        assert [r["rowId"] for r in sections[0]["rows"]] == ["rossa", "funghi", "diavola"]
        # And the app's state has the message and its chat.
        record = app.state.sent[INSTANCE][-1]
        assert record.result.key.id == result.key.id
        assert record.body == screen.draft.body()
        assert app.state.chats_of(INSTANCE)[f"{JONAS}@s.whatsapp.net"].last_key == result.key
        assert sendlist_writes(demo_server) == 1


async def test_errors_wait_until_a_field_is_touched(app_for):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_composer(app, pilot)
        # A fresh form is not scolded.
        assert not [w for w in screen.query(".composer-error") if w.display]
        assert "✕" not in screen_text(app)
        await pilot.press("tab", "x", "backspace")
        await pilot.pause()
        assert "cannot be empty" in line(screen, "err-title")
        assert line(screen, "err-description") == ""  # not touched yet


async def test_preview_json_and_opened_list_toggles(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_composer_with(app, pilot, demo_server, good_draft(footer="Bye"))
        await pilot.press("f2")
        await pilot.pause()
        shown = preview(screen)
        assert "JSON body that will be sent" in shown
        body_text = shown.split("ctrl+s sends exactly this", 1)[1]
        assert json.loads(body_text) == screen.draft.body()
        await pilot.press("f2")
        await pilot.pause()
        assert "JSON body" not in preview(screen) and "Lunch menu" in preview(screen)
        await pilot.press("f3")
        await pilot.pause()
        assert "Opened list — after pressing the button" in preview(screen)
        assert "reply rowId: margherita" in preview(screen)


async def test_row_id_follows_the_title_until_edited(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_composer_with(app, pilot, demo_server, good_draft())
        row = screen.draft.sections[0].rows[0]
        id_field = screen.query_one(f"#row-{row.uid}-id", Input)
        screen.query_one(f"#row-{row.uid}-title", Input).focus()
        await pilot.press("end", *" Pizza")
        await pilot.pause()
        assert id_field.value == "margherita-pizza"
        id_field.focus()
        await pilot.press("end", *"-xl")
        await pilot.pause()
        assert screen.draft.row_ids()[row.uid] == "margherita-pizza-xl"
        screen.query_one(f"#row-{row.uid}-title", Input).focus()
        await pilot.press("end", "backspace")
        await pilot.pause()
        assert id_field.value == "margherita-pizza-xl"  # typed by the user: kept


@pytest.mark.parametrize("rule", list(ERROR_RULES))
async def test_each_rule_blocks_sending_and_is_shown_at_its_field(app_for, demo_server, rule):
    change, target, words = ERROR_RULES[rule]
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_composer_with(app, pilot, demo_server, change(good_draft()))
        await pilot.press("ctrl+s")
        await pilot.pause()
        target_id = target(screen) if callable(target) else target
        assert words in line(screen, target_id)
        assert line(screen, target_id).startswith("✕")
        assert "Not sent" in str(screen.query_one("#composer-status", Static).render())
        assert not screen.sending
    assert sendlist_writes(demo_server) == 0


async def test_every_row_is_sent_with_a_row_id_even_when_its_field_is_cleared(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_composer_with(app, pilot, demo_server, good_draft())
        row = screen.draft.sections[0].rows[0]
        screen.query_one(f"#row-{row.uid}-id", Input).focus()
        await pilot.press("ctrl+u")  # clear the field: back to the automatic rowId
        await pilot.pause()
        rows = [r for s in screen.draft.body()["listMessage"]["sections"] for r in s["rows"]]
        assert all(r["rowId"] for r in rows)
        assert rows[0]["rowId"] == "margherita"
        await pilot.press("tab")  # leaving the field shows the automatic one again
        await pilot.pause()
        assert screen.query_one(f"#row-{row.uid}-id", Input).value == "margherita"


@pytest.mark.parametrize("warning", list(WARNINGS))
async def test_each_warning_is_shown_but_does_not_block(app_for, demo_server, warning):
    change, target, words = WARNINGS[warning]
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_composer_with(app, pilot, demo_server, change(good_draft()))
        target_id = target(screen) if callable(target) else target
        assert words in line(screen, target_id)
        assert line(screen, target_id).startswith("⚠")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: screen.last_result is not None)
    assert sendlist_writes(demo_server) == 1


async def test_the_preview_shows_what_whatsapp_would_cut(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        draft = _many_rows(good_draft(button_text="See everything we cook today"))
        screen = await open_composer_with(app, pilot, demo_server, draft)
        shown = preview(screen)
        assert "See everything we c…" in shown
        assert "not shown by WhatsApp" in shown  # the 11th and 12th rows


async def test_bindings_have_ids_and_descriptions():
    from gateway_tui.tui.screens.compose_modals import LibraryScreen, TemplateNameScreen

    for screen in (ComposerScreen, LibraryScreen, TemplateNameScreen):
        for binding in screen.BINDINGS:
            assert binding.id and binding.description, binding
    ids = {b.id for b in ComposerScreen.BINDINGS}
    assert {"composer.send", "composer.add_row", "composer.add_section"} <= ids


async def test_an_instance_that_is_not_open_is_flagged(app_for):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_composer(app, pilot, "onboarding")
        title = str(screen.query_one("#composer-title", Static).render())
        assert "status close" in title and "connected (open)" in title


# --- 3. the composer at 80 columns ------------------------------------------------------------


@pytest.mark.in_process
async def test_at_80_columns_the_preview_steps_aside_and_f4_shows_it_below(app_for):
    app = app_for()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_composer(app, pilot)
        pane = screen.query_one("#composer-preview-pane")
        assert not pane.display or pane.region.width == 0
        await pilot.press("ctrl+n")
        await pilot.pause()
        row_title = screen.query(".row-title").filter("Input").first()
        assert row_title.region.width >= 15  # a row title is readable (it was 4 cells)
        await pilot.press("f4")
        await pilot.pause()
        form = screen.query_one("#composer-form")
        assert pane.region.width > 60 and pane.region.y > form.region.y  # under the form
        await pilot.press("f4")
        await pilot.pause()
        assert pane.region.width == 0


@pytest.mark.in_process
async def test_on_a_wide_terminal_the_preview_is_beside_the_form(app_for):
    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        screen = await open_composer(app, pilot)
        pane, form = screen.query_one("#composer-preview-pane"), screen.query_one("#composer-form")
        assert pane.region.x > form.region.x and pane.region.y == form.region.y
        await pilot.press("f4")  # hides it: the form takes the width
        await pilot.pause()
        assert pane.region.width == 0 and form.region.width > 130


# --- 9. limits, next to the field, as you type ------------------------------------------------


@pytest.mark.in_process
async def test_a_long_list_title_is_warned_next_to_the_field_as_you_type(app_for):
    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        screen = await open_composer(app, pilot)
        screen.query_one("#f-title", Input).focus()
        await pilot.press(*("x" * 61))
        await pilot.pause()
        counter = screen.query_one("#count-title", LengthCounter)
        assert "61/60" in str(counter.render()) and counter.has_class("-over")
        assert "WhatsApp shows at most 60" in str(screen.query_one("#err-title").render())
        await pilot.press("backspace")
        await pilot.pause()
        assert not counter.has_class("-over")
        assert "at most" not in str(screen.query_one("#err-title").render())


# --- 10. keys that do what they say ------------------------------------------------------------


async def test_q_on_a_composer_widget_that_is_not_text_does_not_quit(app_for):
    from textual.widgets import Select

    from gateway_tui.tui.screens.composer import ComposerScreen
    from tests.navigation import open_composer
    from tests.support import notices

    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        screen = await open_composer(app, pilot)
        screen.query_one("#f-presence", Select).focus()
        await pilot.pause()
        await pilot.press("q")
        await pilot.pause()
        assert app.is_running and isinstance(app.screen, ComposerScreen)
        assert any("^q quits" in n for n in notices(app))


async def test_the_composer_presence_note_wraps_at_a_word_at_120_columns(app_for):
    from tests.navigation import open_composer

    app = app_for()
    async with app.run_test(size=(120, 36)) as pilot:
        await open_composer(app, pilot)
        await wait_for(pilot, lambda: "only takes effect" in screen_text(app))
        lines = screen_text(app).splitlines()
        at = next(i for i, line in enumerate(lines) if "only takes effect" in line)
        assert "with a delay" in lines[at] + lines[at + 1], "\n".join(lines[at : at + 2])
