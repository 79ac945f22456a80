"""The campaign set-up's rows that leave a placeholder empty ("Hi {name}!" read as "Hi !"):
listed in the summary, and the user chooses to send them as they are or to skip them (the
campaign does not start until they choose). A mixin of CampaignSetupScreen."""

from __future__ import annotations

from dataclasses import replace

from rich.text import Text
from textual.widgets import Select

from gateway_tui.core.campaign.recipients import MessageTemplate, Recipient, RecipientList
from gateway_tui.core.text.i18n import N_, ngettext, number

EMPTY_SEND, EMPTY_SKIP = "send", "skip"
EMPTY_ROW_CHOICES = [
    (N_("send those rows as they are"), EMPTY_SEND),
    (N_("skip those rows"), EMPTY_SKIP),
]  # translated where the Select is made


def and_more(n: int) -> str:
    """ "… and 3 more": what a list cut short leaves out."""
    return ngettext("… and {n} more", "… and {n} more", n).format(n=number(n))


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
        skipped = {recipient.line for recipient, _names in self.empty_rows()}
        kept = [r for r in self.recipients.recipients if r.line not in skipped]
        return replace(self.recipients, recipients=kept)

    def _draw_empty_rows(self, text: Text) -> None:
        empty = self.empty_rows()
        if not empty:
            return
        said = ngettext(
            "⚠ {n} row leaves a placeholder empty (the message would read with a gap, "
            "e.g. “Hi !”):",
            "⚠ {n} rows leave a placeholder empty (the message would read with a gap, "
            "e.g. “Hi !”):",
            len(empty),
        )
        text.append("\n" + said.format(n=number(len(empty))), style="yellow")
        for recipient, names in empty[:5]:
            gaps = ", ".join("{" + name + "}" for name in names)
            line = ngettext(
                "line {line} ({number}): {gaps} empty",
                "line {line} ({number}): {gaps} empty",
                len(names),
            )
            shown = line.format(line=recipient.line, number=recipient.number, gaps=gaps)
            text.append("\n  " + shown)
        if len(empty) > 5:
            text.append("\n  " + and_more(len(empty) - 5), style="yellow")
