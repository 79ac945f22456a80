"""An instance's contacts: searchable by name, number (however written) or LID; enter opens the
chat (or starts it). A contact WhatsApp shows as ``…@lid`` has its number beside it when any
stored message gave it, and says "number hidden" when none did (core/identity.py)."""

from __future__ import annotations

from textual.binding import Binding
from textual.widgets import Static

from gateway_tui.core.identity import Identity
from gateway_tui.core.state import Topic
from gateway_tui.core.text.formatting import Phrases
from gateway_tui.core.text.i18n import N_, _, ngettext, number
from gateway_tui.tui.screens.table_screen import InstanceTableScreen
from gateway_tui.tui.widgets.record_table import Column


def _number(who: Identity) -> str:
    if who.phone:
        return who.number_text
    return _("number hidden") if who.lid else "—"


CONTACT_COLUMNS: list[Column[Identity]] = [
    Column(
        "name",
        N_("Name"),
        lambda who: who.name or "—",
        sort_key=lambda who: (who.name is None, (who.name or "").casefold()),
        max_width=32,
    ),
    Column(
        "number",
        N_("Number"),
        _number,
        sort_key=lambda who: (who.phone is None, len(who.phone or ""), who.phone or ""),
        max_width=22,
    ),
    Column("lid", "LID", lambda who: who.lid or "", max_width=28, drop_priority=1),
    Column(
        "jid",
        "JID",
        lambda who: who.jid,
        max_width=36,
        drop_priority=2,
        only_when=lambda who: who.lid is None,
    ),
]


def contact_search_text(who: Identity) -> str:
    """What `/` matches: the name, every form of the number and the LID."""
    return "\n".join([who.name or "", who.number_text, *who.forms()])


class ContactsScreen(InstanceTableScreen[Identity]):
    HELP_TITLE = N_("Contacts")
    TITLE_OF = N_("Contacts of {instance}")
    ID_PREFIX = "contacts"
    COLUMNS = CONTACT_COLUMNS
    FILTER_PLACEHOLDER = N_("search by name, number or LID")
    REFRESH_BINDING = "contacts.refresh"
    TOPICS = frozenset({Topic.CONTACTS, Topic.INSTANCES})

    BINDINGS = [
        Binding("enter", "open", "Open chat", id="contacts.open"),
        Binding("escape", "back", "Back", id="contacts.back"),
        Binding("slash", "filter", "Search", id="contacts.filter"),
        Binding("r", "refresh", "Refresh", id="contacts.refresh"),
        Binding("o", "sort", "Sort", id="contacts.sort"),
        Binding("y", "copy_number", "Copy number", id="contacts.copy_number", show=False),
    ]

    def search_text(self, row: Identity) -> str:
        return contact_search_text(row)

    def on_mount(self) -> None:
        self._load()

    def _load(self) -> None:
        self.call(
            self.actions.people.load_contacts(self.instance),
            what=_("Reading the contacts"),
            on_done=self._loaded,
            on_error=lambda _error: True,  # shown in place
            group="contacts",
            exclusive=True,
        )

    def _loaded(self, _rows: object) -> None:
        error = self.state.contact_numbers_error.get(self.instance)
        if error is not None:  # the contacts are there; numbers behind LIDs may be missing
            self.gateway_app.report_error(error, _("Reading numbers from stored messages"))

    def refresh_from_state(self) -> None:
        loadable = self.actions.people.contacts_of(self.instance)
        self.show_rows(
            loadable.value,
            error=loadable.error,
            loading=(_("Reading the contacts…"), _("Asking the gateway for its contacts.")),
            empty=(_("No contacts"), _("The gateway's store has no contacts for this instance.")),
        )
        self.show_stale(loadable, _("contacts"), "")
        self.update_summary()

    def update_summary(self) -> None:
        loadable = self.actions.people.contacts_of(self.instance)
        rows = loadable.value or []
        hidden = sum(1 for who in rows if who.hidden_number)
        count = ngettext("{n} contact", "{n} contacts", len(rows)).format(n=number(len(rows)))
        parts = [count] if loadable.value is not None else []
        if hidden:
            said = ngettext(
                "{n} with the number hidden (LID only)",
                "{n} with the number hidden (LID only)",
                hidden,
            )
            parts.append(said.format(n=number(hidden)))
        if numbers_error := self.state.contact_numbers_error.get(self.instance):
            said = _("⚠ numbers from stored messages unavailable: {reason}")
            parts.append(said.format(reason=numbers_error.title))
        if rows and self.table.visible_count != len(rows):
            parts.append(_("showing {n}").format(n=number(self.table.visible_count)))
        parts += self.view_and_read(loadable)
        parts.append(
            self.key_hints(
                ("contacts.open", _("opens the chat")),
                ("contacts.filter", _("searches")),
                ("contacts.refresh", _("refresh")),
            )
        )
        self.query_one("#contacts-summary", Static).update(Phrases(parts))

    def action_refresh(self) -> None:
        self._load()

    def action_open(self) -> None:
        from gateway_tui.tui.screens.messages import MessagesScreen

        row = self.table.cursor_row if self.table.display else None
        if row is not None:
            self.app.push_screen(MessagesScreen(self.instance, row.jid, title=row.title()))

    def action_copy_number(self) -> None:
        row = self.table.cursor_row if self.table.display else None
        if row is None or not row.phone:
            self.notify(_("No number to copy here (hidden by WhatsApp)"), severity="warning")
            return
        self.copy(row.phone, _("Number"))
