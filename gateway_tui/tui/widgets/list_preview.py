"""The composer's live preview: the list message as the recipient sees it, or the JSON body.

Everything typed is data: it is drawn with ``rich.text.Text`` and never parsed as markup.
Texts past what WhatsApp clients display are cut the way the recipient would see them, and
rows past the tenth are marked as not shown.
"""

from __future__ import annotations

import io
import json
from enum import StrEnum
from typing import Any

from rich import box
from rich.console import Console, Group, RenderableType
from rich.highlighter import JSONHighlighter
from rich.panel import Panel
from rich.rule import Rule
from rich.text import Text
from textual.widgets import Static

from gateway_tui.core.api.dialects import Dialect
from gateway_tui.core.api.validation import (
    BUTTON_TEXT_LIMIT,
    ROW_DESCRIPTION_LIMIT,
    TITLE_LIMIT,
    TOTAL_ROWS_LIMIT,
)
from gateway_tui.core.draft import Draft
from gateway_tui.core.text.i18n import _, ngettext, number
from gateway_tui.tui.widgets.styled import styled

BUBBLE_WIDTH = 40
ELLIPSIS = "…"


class PreviewMode(StrEnum):
    MESSAGE = "message"  # the bubble and, under it, the opened list
    LIST = "list"  # the opened list alone, as after pressing the button
    JSON = "json"  # the exact request body


def clip(text: str, limit: int) -> tuple[str, bool]:
    """``text`` as a WhatsApp client shows it: at most ``limit`` characters, else cut with "…"."""
    if len(text) <= limit:
        return text, False
    return text[: limit - 1] + ELLIPSIS, True


def _line(text: str, style: str = "", placeholder: str = "") -> Text:
    if not text:
        return Text(placeholder, style="dim italic")
    # One line per field: a pasted line break must not break the bubble's layout.
    return Text(" ".join(text.split()) if "\n" in text else text, style=style)


def _cut_mark(line: Text, cut: bool) -> Text:
    if cut:
        line.append(" ⚠", style="yellow")
    return line


def bubble(draft: Draft) -> Panel:
    """The message in the chat: title, description, footer, and the button."""
    parts: list[RenderableType] = [
        _line(draft.title, "bold", _("(title)")),
        _line(draft.description, "", _("(description)")),
    ]
    if draft.footer:
        parts.append(_line(draft.footer, "dim"))
    parts.append(Rule(style="dim"))
    button, cut = clip(draft.button_text, BUTTON_TEXT_LIMIT)
    label = _line(f"☰ {button}" if button else "", "bold cyan", "☰ " + _("(button text)"))
    label.justify = "center"
    parts.append(_cut_mark(label, cut))
    return Panel(Group(*parts), box=box.ROUNDED, width=BUBBLE_WIDTH, padding=(0, 1))


def opened_list(draft: Draft, focus_uid: int | None = None, *, with_ids: bool = False) -> Panel:
    """The list the recipient opens with the button: section titles and their rows.

    ``with_ids`` adds the rowId a reply carries under each row (the recipient never sees it).
    """
    ids = draft.row_ids() if with_ids else {}
    parts: list[RenderableType] = []
    shown_rows = 0
    if not draft.sections:
        parts.append(Text(_("(no sections)"), style="dim italic"))
    for s_index, section in enumerate(draft.sections):
        if s_index:
            parts.append(Text(""))
        title, cut = clip(section.title, TITLE_LIMIT)
        heading = _line(title.upper(), "bold green", _("(section {n} title)").format(n=s_index + 1))
        if section.uid == focus_uid:
            heading.stylize("reverse")
        parts.append(_cut_mark(heading, cut))
        if not section.rows:
            parts.append(Text("  " + _("(no rows)"), style="dim italic"))
        for row in section.rows:
            shown_rows += 1
            hidden = shown_rows > TOTAL_ROWS_LIMIT
            row_title, title_cut = clip(row.title, TITLE_LIMIT)
            line = Text.assemble(("○ ", "dim"))
            line.append_text(
                _line(row_title, "bold" if not hidden else "dim strike", _("(row title)"))
            )
            _cut_mark(line, title_cut)
            if hidden:
                line.append("  " + _("not shown by WhatsApp"), style="yellow")
            if row.uid == focus_uid:
                line.stylize("reverse")
            parts.append(line)
            if row.description:
                description, description_cut = clip(row.description, ROW_DESCRIPTION_LIMIT)
                detail = Text("  ")
                detail.append_text(_line(description, "dim" if not hidden else "dim strike"))
                parts.append(_cut_mark(detail, description_cut))
            if with_ids:
                said = styled(
                    _("reply rowId: {row_id}"), "dim italic", row_id=(ids[row.uid], "dim")
                )
                parts.append(Text.assemble(("  ", "dim italic"), said))
    header, _cut = clip(draft.button_text, BUTTON_TEXT_LIMIT)
    return Panel(
        Group(*parts),
        title=Text(header or _("(button text)"), style="bold"),
        title_align="left",
        box=box.ROUNDED,
        width=BUBBLE_WIDTH,
        padding=(0, 1),
    )


CONTINUED = "↪ "  # starts a line that goes on the JSON line above it (no break in the body)


def json_body(body: dict[str, Any]) -> Text:
    """The request body, indented, highlighted as JSON (still plain text: never markup)."""
    text = Text(json.dumps(body, indent=2, ensure_ascii=False), no_wrap=True, overflow="ignore")
    JSONHighlighter().highlight(text)
    return text


class WrappedJson:
    """A JSON text drawn to the width it is given: a line too long is broken at a space (a word
    longer than the width is folded), and each piece after the first starts, under the line's
    indent, with a dim ↪, so the body never seems to hold a line break it does not have."""

    def __init__(self, text: Text) -> None:
        self.text = text

    def __rich_console__(self, console: Console, options: Any):
        width = max(options.max_width, 12)
        for line in self.text.split("\n", allow_blank=True):
            if line.cell_len <= width:
                yield line
                continue
            indent = len(line.plain) - len(line.plain.lstrip(" "))
            content = line[indent:]
            room = max(width - indent - len(CONTINUED), 8)
            pieces = content.wrap(console, room, overflow="fold", no_wrap=False)
            for index, piece in enumerate(pieces):
                shown = Text(" " * indent)
                if index:
                    shown.append(CONTINUED, style="dim")
                piece.rstrip()  # the space it was broken at
                shown.append_text(piece)
                yield shown


class ListPreview(Static):
    """Shows one of the three previews of a draft; the composer calls ``show`` as you type."""

    DEFAULT_CSS = """
    ListPreview {
        height: auto;
        padding: 0 1;
    }
    ListPreview.-json {
        min-width: 100%;
    }
    """

    shown: RenderableType = ""

    def show(
        self,
        draft: Draft,
        *,
        mode: PreviewMode = PreviewMode.MESSAGE,
        focus_uid: int | None = None,
        note: Text | None = None,
        line: Dialect | None = None,
    ) -> None:
        """``line``: the gateway's line, whose body the JSON view shows."""
        parts: list[RenderableType] = []
        if mode == PreviewMode.JSON:
            title = Text(_("JSON body that will be sent"), style="bold")
            keys = _("{copy} copies it · {curl} the curl · {back} back").format(
                copy="y", curl="Y", back="f2"
            )
            title.append("  " + keys, style="not bold dim")
            parts.append(title)
            if note is not None:
                parts.append(note)
            # Broken at a space to the pane's width, each piece after the first marked ↪.
            parts.append(WrappedJson(json_body(draft.body(line))))
        elif mode == PreviewMode.LIST:
            parts.append(Text(_("Opened list — after pressing the button"), style="bold"))
            parts.append(opened_list(draft, focus_uid, with_ids=True))
        else:
            recipient = draft.recipient.strip()
            shown = (recipient, "") if recipient else (_("(recipient)"), "dim italic")
            parts.append(styled(_("To {recipient}"), "dim", recipient=shown))
            parts.append(bubble(draft))
            parts.append(Text(_("Opened list"), style="bold"))
            parts.append(opened_list(draft, focus_uid))
        if draft.row_count > TOTAL_ROWS_LIMIT and mode != PreviewMode.JSON:
            parts.append(
                Text(
                    "⚠ "
                    + ngettext(
                        "{n} row: WhatsApp shows at most {limit}",
                        "{n} rows: WhatsApp shows at most {limit}",
                        draft.row_count,
                    ).format(n=number(draft.row_count), limit=TOTAL_ROWS_LIMIT),
                    style="yellow",
                )
            )
        self.set_class(mode == PreviewMode.JSON, "-json")
        self.shown = Group(*parts)
        self.update(self.shown)

    def plain_text(self, width: int = BUBBLE_WIDTH + 4) -> str:
        """What the preview shows, as plain text (tests and screen readers)."""
        console = Console(width=width, file=io.StringIO(), record=True, color_system=None)
        console.print(self.shown)
        return console.export_text()
