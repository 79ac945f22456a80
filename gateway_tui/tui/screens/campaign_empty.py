"""The campaign set-up's rows that leave a placeholder empty ("Hi {name}!" read as "Hi !"):
listed in the summary, and the user chooses to send them as they are or to skip them (the
campaign does not start until they choose). A mixin of CampaignSetupScreen."""

from __future__ import annotations

from dataclasses import replace

from rich.text import Text
from textual.widgets import Select

from gateway_tui.core.campaign.recipients import MessageTemplate, Recipient, RecipientList

EMPTY_SEND, EMPTY_SKIP = "send", "skip"
EMPTY_ROW_CHOICES = [
    ("send those rows as they are", EMPTY_SEND),
    ("skip those rows", EMPTY_SKIP),
]


class EmptyRows:
    """Needs of the screen: ``template``, ``recipients``, ``_empty_rows`` (None: not read yet;
    set to None when the recipients change), a Select ``#c-empty`` inside ``#c-empty-field``,
    and a handler of that Select's changes that redraws."""

    template: MessageTemplate
    recipients: RecipientList | None
    _empty_rows: list[tuple[Recipient, list[str]]] | None

    def empty_rows(self) -> list[tuple[Recipient, list[str]]]:
        """Rows whose value for a placeholder the message uses is empty."""
        if self._empty_rows is None:
            self._empty_rows = (
                self.template.empty_rows(self.recipients) if self.recipients is not None else []
            )
        return self._empty_rows

    def _empty_choice(self) -> str | None:
        value = self.query_one("#c-empty", Select).value
        return value if isinstance(value, str) else None

    def recipients_to_send(self) -> RecipientList:
        """The recipients the campaign is made with: without the rows with an empty
        placeholder when the user chose to skip them."""
        assert self.recipients is not None
        if self._empty_choice() != EMPTY_SKIP or not self.empty_rows():
            return self.recipients
        skipped = {recipient.line for recipient, _ in self.empty_rows()}
        kept = [r for r in self.recipients.recipients if r.line not in skipped]
        return replace(self.recipients, recipients=kept)

    def _draw_empty_rows(self, text: Text) -> None:
        empty = self.empty_rows()
        if not empty:
            return
        text.append(
            f"\n⚠ {len(empty):,} row(s) leave a placeholder empty (the message would read "
            "with a gap, e.g. “Hi !”):",
            style="yellow",
        )
        for recipient, names in empty[:5]:
            gaps = ", ".join("{" + name + "}" for name in names)
            text.append(f"\n  line {recipient.line} ({recipient.number}): {gaps} empty")
        if len(empty) > 5:
            text.append(f"\n  … and {len(empty) - 5:,} more", style="yellow")
