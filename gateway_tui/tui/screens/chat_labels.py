"""Labels in the chats list (WhatsApp Business): a marker per label on each chat, in the
label's colour; ``l`` shows only the chats of one label (again: the next, then all); ``b``
puts a label on the chat or takes it off. Mixed into ChatsScreen (the bindings are its own).

1.7.1 lists a chat's labels with the chats. 2.x does not: its findChats selects no label (the
2.3.6/2.3.7 sources keep them in the Chat row's ``labels``, filled from WhatsApp's
labels.association events, and give them only one chat at a time, through
findChatByRemoteJid). So there a chat shows the labels put on it from here, and the chat the
cursor rests on is read on its own (its stored labels then show); the summary says the rest
is not known (LABELS_NOT_LISTED).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from gateway_tui.core.api.errors import GatewayError, NotFound, Unauthorized
from gateway_tui.core.api.label_models import Label, LabelAction
from gateway_tui.core.chat_book import ChatRow
from gateway_tui.core.text.i18n import N_, _
from gateway_tui.tui.screens.base import key_for
from gateway_tui.tui.widgets.record_table import Column

if TYPE_CHECKING:
    from textual.timer import Timer

    from gateway_tui.tui.screens.chats import ChatsScreen

    _Base = ChatsScreen
else:
    _Base = object

MARK = "●"
LABELS_READ_AFTER = 0.3  # seconds the cursor rests on a chat before its labels are read (2.x)
LABELS_NOT_LISTED = N_(
    "labels applied elsewhere are not listed by this gateway version (2.x): a chat's are read "
    "when the cursor reaches it; the label filter knows only those"
)


def labels_column(labels: dict[str, Label]) -> Column[ChatRow]:
    """The markers, and the names for search and sort ("" when the chat has none)."""
    return Column(
        "labels",
        _("Labels"),
        lambda r: " ".join(f"{MARK} {labels[i].name if i in labels else i}" for i in r.labels),
        style=lambda r: _first_colour(r, labels),
        max_width=16,
        only_when=lambda r: bool(r.labels),
        drop_priority=4,
    )


def _first_colour(row: ChatRow, labels: dict[str, Label]) -> str:
    for label_id in row.labels:
        label = labels.get(label_id)
        if label is not None and label.colour:
            return label.colour
    return ""


class LabelPickerScreen(ModalScreen[tuple[str, LabelAction] | None]):
    """The instance's labels, ✓ on the chat's own: enter puts one on or takes it off."""

    BINDINGS = [Binding("escape", "cancel", "Close", id="label_picker.cancel")]

    def __init__(self, title: str, labels: list[Label], on_chat: tuple[str, ...]) -> None:
        super().__init__()
        self._title = title
        self._labels = labels
        self._on_chat = set(on_chat)

    def compose(self) -> ComposeResult:
        with Vertical(id="label-dialog", classes="dialog"):
            yield Static(
                Text(_("Labels of {chat}").format(chat=self._title), style="bold"),
                classes="dialog-title",
            )
            options = []
            for label in self._labels:
                prompt = Text("✓ " if label.id in self._on_chat else "  ")
                prompt.append(MARK + " ", style=label.colour or "")
                prompt.append(label.name or label.id)
                options.append(Option(prompt, id=label.id))
            yield OptionList(*options, id="label-options")
            cancel = key_for(self, "label_picker.cancel")
            yield Static(
                Text(
                    _("enter puts it on or takes it off · {key} closes").format(key=cancel),
                    style="dim",
                )
            )

    def on_mount(self) -> None:
        self.query_one("#label-options", OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        label_id = event.option.id or ""
        action = LabelAction.REMOVE if label_id in self._on_chat else LabelAction.ADD
        self.dismiss((label_id, action))

    def action_cancel(self) -> None:
        self.dismiss(None)


class ChatLabels(_Base):
    """What ChatsScreen does with labels (``label_filter``: the label id shown, or None;
    ``_labels_asked``: the chats whose labels were read on 2.x; ``_labels_timer``: the read
    waiting for the cursor to rest; ``_labels_error``: why the last chat's read failed)."""

    label_filter: str | None
    _labels_asked: set[str]
    _labels_timer: Timer | None
    _labels_error: GatewayError | None

    def labels_by_id(self) -> dict[str, Label]:
        return {x.id: x for x in self.actions.people.labels_of(self.instance).value or []}

    def load_labels(self) -> None:
        self.call(
            self.actions.people.load_labels(self.instance),
            what=_("Reading the labels"),
            on_error=self._labels_failed,
            group="labels",
            exclusive=True,
        )

    def _labels_failed(self, error: GatewayError) -> bool:
        """A failed labels read stays said in the summary (the loadable or ``_labels_error``
        holds it); a refused key is also told at once: it is never a quiet matter."""
        if self.is_attached:
            self.update_summary()
        return not isinstance(error, Unauthorized)

    def labels_failure(self) -> str | None:
        """The summary's line for labels that could not be read (None: nothing failed)."""
        error = self.actions.people.labels_of(self.instance).error
        if error is not None:
            if isinstance(error, NotFound):  # a gateway without labels (no WhatsApp Business)
                return _("no labels: this gateway answered 404 to findLabels ({reason})").format(
                    reason=error.title
                )
            return "✕ " + _("could not read the labels: {reason}").format(reason=error.title)
        if self._labels_error is not None:
            return "✕ " + _("could not read a chat's labels: {reason}").format(
                reason=self._labels_error.title
            )
        return None

    def apply_labels(self, rows: list[ChatRow]) -> None:
        """The labels set from here replace what the list said for those chats."""
        known = self.actions.people.chat_labels(self.instance)
        for row in rows:
            if row.jid in known:
                row.labels = tuple(sorted(known[row.jid]))

    def read_labels_of(self, row: ChatRow | None) -> None:
        """2.x: the chat the cursor rests on gets its stored labels (once per chat and visit;
        a cursor running down the list asks for none of the rows it passes)."""
        if self._labels_timer is not None:
            self._labels_timer.stop()
            self._labels_timer = None
        if row is None or self.gateway_app.gateway_line.line == "1":
            return
        if row.jid in self._labels_asked or not self.labels_by_id():
            return
        jid = row.jid

        def failed(error: GatewayError) -> bool:
            self._labels_asked.discard(jid)  # asked again when the cursor comes back
            self._labels_error = error
            return self._labels_failed(error)

        def read_done(_found: object) -> None:
            if self._labels_error is not None:
                self._labels_error = None  # a chat's labels were read: the line goes
                if self.is_attached:
                    self.update_summary()

        def read() -> None:
            self._labels_timer = None
            self._labels_asked.add(jid)
            self.call(
                self.actions.people.load_chat_labels(self.instance, jid),
                what=_("Reading the chat's labels"),
                on_done=read_done,
                on_error=failed,
                group="labels-row",
            )

        self._labels_timer = self.set_timer(LABELS_READ_AFTER, read)

    def labels_note(self) -> str | None:
        """What the labels column cannot know on this line (None where it knows it all)."""
        if self.gateway_app.gateway_line.line == "1" or not self.labels_by_id():
            return None  # 1.7.1 lists them; an instance without labels has nothing to miss
        return _(LABELS_NOT_LISTED)

    def label_summary(self) -> str | None:
        if self.label_filter is None:
            return None
        label = self.labels_by_id().get(self.label_filter)
        return _("label: {name}").format(name=label.name if label else self.label_filter)

    def action_label_filter(self) -> None:
        """Only the chats of one label; again: the next label; after the last: all chats."""
        labels = list(self.labels_by_id())
        if not labels:
            self.notify(_("This instance has no labels (WhatsApp Business)"), markup=False)
            return
        position = labels.index(self.label_filter) + 1 if self.label_filter in labels else 0
        self.label_filter = labels[position] if position < len(labels) else None
        wanted = self.label_filter
        self.table.set_predicate(None if wanted is None else lambda r: wanted in r.labels)
        self.update_summary()

    def action_labels(self) -> None:
        row = self._current()
        labels = list(self.labels_by_id().values())
        if row is None:
            return
        if not labels:
            self.notify(_("This instance has no labels (WhatsApp Business)"), markup=False)
            return

        def chosen(choice: tuple[str, LabelAction] | None) -> None:
            if choice is None:
                return
            label_id, action = choice
            name = self.labels_by_id()[label_id].name
            if action == LabelAction.ADD:
                done = _("Label “{label}” put on {chat}").format(label=name, chat=row.title)
            else:
                done = _("Label “{label}” taken off {chat}").format(label=name, chat=row.title)
            self.call(
                self.actions.people.set_label(self.instance, row.jid, label_id, action, row.labels),
                what=_("Label {label}").format(label=name),
                done=done,
                group="labels-write",
                exclusive=True,
            )

        self.app.push_screen(LabelPickerScreen(row.title, labels, row.labels), chosen)
