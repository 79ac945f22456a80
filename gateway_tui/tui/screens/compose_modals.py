"""The composer's dialogs: name a template, and pick a template or a sent message."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from gateway_tui.core.text.i18n import N_, _
from gateway_tui.tui.screens.base import key_for
from gateway_tui.tui.screens.confirm import ConfirmScreen
from gateway_tui.tui.screens.form_modal import FormModal
from gateway_tui.tui.widgets.styled import styled
from gateway_tui.tui.widgets.text_input import TextInput


class TemplateNameScreen(FormModal[str | None]):
    """f6: a name for the template; dismisses with it (None on escape)."""

    HELP_TITLE = N_("Save as template")
    NOTE_ID = "template-name-note"
    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="template_name.cancel"),
    ]

    def __init__(self, existing: list[str], suggestion: str = "") -> None:
        super().__init__()
        self.existing = existing
        self.suggestion = suggestion

    def compose(self) -> ComposeResult:
        with Vertical(id="template-name-dialog", classes="dialog"):
            yield Static(Text(_("Save as template"), style="bold"), classes="dialog-title")
            yield Static(
                Text(
                    _(
                        "Keeps the message (without the recipient) under a name; "
                        "{templates} loads it into the composer of any instance."
                    ).format(templates=self._templates_key())
                ),
                classes="dialog-body",
            )
            yield Label(_("Name"))
            yield TextInput(self.suggestion, placeholder=_("e.g. Lunch menu"), id="template-name")
            yield Static(id="template-name-note", classes="field-error")
            cancel = self.key_for("template_name.cancel")
            yield Static(
                Text(
                    _("{enter} saves · {cancel} cancels").format(enter="enter", cancel=cancel),
                    style="dim",
                )
            )

    def on_mount(self) -> None:
        self.query_one("#template-name", Input).focus()
        self._note(self.suggestion)

    def _templates_key(self) -> str | None:
        from gateway_tui.tui.screens.composer import ComposerScreen

        return self.key_on(ComposerScreen, "composer.templates")

    def _note(self, value: str) -> None:
        if value.strip() in self.existing:
            self.say(Text(_("A template of this name exists: saving replaces it."), "yellow"))
        else:
            self.say(Text())

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        self._note(event.value)

    def submit(self) -> None:
        name = self.query_one("#template-name", Input).value.strip()
        if not name:
            self.say(Text("✕ " + _("A template needs a name."), style="red"))
            return
        self.dismiss(name)


@dataclass(frozen=True)
class LibraryItem:
    key: str
    label: str
    detail: str = ""


class LibraryScreen(ModalScreen[str | None]):
    """A list to pick from (templates, sent messages); dismisses with the item's key.

    ``title``, ``empty`` and ``hint`` are said as given (the caller translates them)."""

    HELP_TITLE = N_("Pick")
    BINDINGS = [
        Binding("escape", "cancel", "Close", id="library.close"),
        Binding("d,delete", "delete", "Delete", id="library.delete"),
    ]

    def __init__(
        self,
        title: str,
        items: list[LibraryItem],
        *,
        empty: str,
        hint: str | None = None,
        on_delete: Callable[[str], bool] | None = None,
    ) -> None:
        super().__init__()
        self._title = title
        self.items = list(items)
        self._empty = empty
        self._hint = hint  # None: "enter loads it into the form", in the current language
        self._on_delete = on_delete

    def compose(self) -> ComposeResult:
        with Vertical(id="library-dialog", classes="dialog"):
            yield Static(Text(self._title, style="bold"), classes="dialog-title")
            yield OptionList(id="library-list")
            yield Static(id="library-note", classes="summary")

    def on_mount(self) -> None:
        self._fill()
        self.query_one("#library-list", OptionList).focus()

    def _fill(self) -> None:
        options = self.query_one("#library-list", OptionList)
        highlighted = options.highlighted
        options.clear_options()
        for item in self.items:
            prompt = Text(item.label, style="bold")
            if item.detail:
                prompt.append("\n  ")
                prompt.append(item.detail, style="dim")
            options.add_option(Option(prompt, id=item.key))
        options.display = bool(self.items)
        if self.items:
            options.highlighted = min(highlighted or 0, len(self.items) - 1)
        hint = self._hint
        if hint is None:
            hint = _("{enter} loads it into the form").format(enter="enter")
        parts = [hint if self.items else self._empty]
        if self.items and self._on_delete is not None:
            parts.append(_("{key} deletes").format(key=key_for(self, "library.delete")))
        parts.append(_("{key} closes").format(key=key_for(self, "library.close")))
        self.query_one("#library-note", Static).update(Text(" · ".join(parts)))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "delete":
            return self._on_delete is not None
        return True

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option.id)

    def action_delete(self) -> None:
        options = self.query_one("#library-list", OptionList)
        if self._on_delete is None or options.highlighted is None or not self.items:
            return
        item = self.items[options.highlighted]
        on_delete = self._on_delete
        body = styled(_("Delete {item}? It is not kept anywhere else."), item=(item.label, "bold"))

        def decided(yes: bool | None) -> None:
            if yes and item in self.items and on_delete(item.key):
                self.items.remove(item)
                self._fill()
                self.notify(_("Deleted “{item}”").format(item=item.label), markup=False)

        # Asked first: one stray d must not lose a template.
        self.app.push_screen(
            ConfirmScreen(
                _("Delete {item}").format(item=item.label), body, confirm_label=_("Delete")
            ),
            decided,
        )

    def action_cancel(self) -> None:
        self.dismiss(None)
