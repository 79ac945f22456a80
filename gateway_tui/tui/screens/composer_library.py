"""The composer's drafts, templates and sent history: replace the form, save, load, reopen.

A mixin of ``ComposerScreen``; the files are the screen's ``ComposeStore``.
"""

from __future__ import annotations

from datetime import datetime

from rich.text import Text
from textual import work
from textual.widgets import Input, Select

from gateway_tui.core.api.errors import Problem
from gateway_tui.core.draft import Draft
from gateway_tui.core.files.drafts import ComposeStore
from gateway_tui.core.text.i18n import _, date_time, ngettext, number
from gateway_tui.tui.screens.composer_fields import HEADER_FIELDS
from gateway_tui.tui.screens.composer_send import recipient_label
from gateway_tui.tui.screens.confirm import ConfirmScreen


class DraftLibrary:
    """Templates, sent history and new drafts for the composer (``ComposerScreen`` mixes it in)."""

    draft: Draft
    store: ComposeStore | None
    _touched: set[str]
    _reveal_all: bool
    _server_problems: list[Problem]

    async def replace_draft(self, draft: Draft, *, what: str) -> None:
        """Show another draft in the form (a template, a sent message, a new one)."""
        self.draft = draft
        self._touched.clear()
        self._reveal_all = False
        self._server_problems = []
        for key, _label, attr, _hint in HEADER_FIELDS:
            field = self.query_one(f"#f-{key}", Input)
            with field.prevent(Input.Changed):
                field.value = getattr(draft, attr)
        delay = self.query_one("#f-delay", Input)
        with delay.prevent(Input.Changed):
            delay.value = draft.delay
        presence = self.query_one("#f-presence", Select)
        with presence.prevent(Select.Changed):
            presence.value = draft.presence or Select.NULL
        await self._rebuild_sections()
        self._touched.clear()
        self._redraw()
        self._schedule_autosave()
        self.query_one("#f-recipient", Input).focus()
        self.notify(what, markup=False)

    def _kept_elsewhere(self) -> bool:
        """Whether the form holds nothing that replacing it would lose: it is empty, or exactly
        a message in the sent history (f8), or a template (f7) with no recipient typed."""
        if self.draft.is_empty:
            return True
        if self.store is None:
            return False
        form = self.draft.to_json()
        try:
            if any(entry.draft().to_json() == form for entry in self.store.history()):
                return True
            return any(t.to_json() == form for t in self.store.templates().values())
        except OSError:
            return False  # unreadable: ask, as if it were not kept

    def _confirm_replace(self, title: str, then) -> None:
        """Ask before a draft is replaced, only when it would be lost (kept nowhere else)."""
        if self._kept_elsewhere():
            self.call_later(then)
            return
        body = Text(
            _(
                "The message in the form will be replaced and not kept. Save it as a template "
                "first ({save}) to keep it."
            ).format(save=self.key_for("composer.save_template"))
        )

        async def decided(yes: bool | None) -> None:
            if yes:
                await then()

        self.app.push_screen(ConfirmScreen(title, body, confirm_label=_("Replace")), decided)

    def action_new_draft(self) -> None:
        async def fresh() -> None:
            await self.replace_draft(Draft(), what=_("New empty draft"))

        self._confirm_replace(_("New empty draft"), fresh)

    def action_save_template(self) -> None:
        from gateway_tui.tui.screens.compose_modals import TemplateNameScreen

        assert self.store is not None
        names = list(self.store.templates())

        def chosen(name: str | None) -> None:
            if name and self.store is not None:  # a snapshot: typing goes on meanwhile
                self._save_template(self.store, name, Draft.from_json(self.draft.to_json()))

        self.app.push_screen(TemplateNameScreen(names, self.draft.title), chosen)

    @work(thread=True, exit_on_error=False, group="template")
    def _save_template(self, store: ComposeStore, name: str, draft: Draft) -> None:
        """Write templates.json (fsync'd) off the event loop; the outcome is said either way."""
        try:
            replaced = store.save_template(name, draft)
        except (OSError, ValueError) as problem:
            message = _("Template not saved: {problem}").format(problem=problem)
            self.app.call_from_thread(self.notify, message, severity="error", markup=False)
            return
        if replaced:
            message = _("Template “{name}” replaced (without the recipient)").format(name=name)
        else:
            message = _("Template “{name}” saved (without the recipient)").format(name=name)
        self.app.call_from_thread(self.notify, message, markup=False)

    def action_templates(self) -> None:
        from gateway_tui.tui.screens.compose_modals import LibraryItem, LibraryScreen

        assert self.store is not None
        store = self.store
        templates = store.templates()
        items = [LibraryItem(name, name, _summary(draft)) for name, draft in templates.items()]

        def delete(name: str) -> bool:
            try:
                return store.delete_template(name)
            except OSError as problem:
                self.notify(
                    _("Template not deleted: {problem}").format(problem=problem),
                    severity="error",
                    markup=False,
                )
                return False

        def chosen(name: str | None) -> None:
            if name is None or name not in templates:
                return
            template = templates[name]
            template.recipient = self.draft.recipient

            async def load() -> None:
                await self.replace_draft(
                    template, what=_("Template “{name}” loaded").format(name=name)
                )

            self._confirm_replace(_("Load template “{name}”").format(name=name), load)

        self.app.push_screen(
            LibraryScreen(
                _("Templates"),
                items,
                empty=_("No templates yet: {save} saves the message in the form as one.").format(
                    save=self.key_for("composer.save_template")
                ),
                on_delete=delete,
            ),
            chosen,
        )

    def action_history(self) -> None:
        from gateway_tui.tui.screens.compose_modals import LibraryItem, LibraryScreen

        assert self.store is not None
        # Newest first: the messages sent from here and the campaigns (f5) of this instance.
        sent: list[tuple[str, LibraryItem, Draft]] = []
        for index, entry in reversed(list(enumerate(self.store.history()))):
            label = f"{date_time(entry.sent_at)} → {recipient_label(entry.recipient)}"
            detail = _("{title} · id {id}").format(
                title=entry.title or _("(no title)"), id=entry.message_id or "—"
            )
            when = entry.sent_at.isoformat(timespec="seconds")
            sent.append((when, LibraryItem(f"m{index}", label, detail), entry.draft()))
        for campaign in self._campaigns():
            assert campaign.draft is not None
            counts = campaign.counts
            total = sum(counts.values())
            sent_count = ngettext(
                "campaign: {sent} of {n} sent", "campaign: {sent} of {n} sent", total
            ).format(sent=number(counts.get("sent", 0)), n=number(total))
            label = f"{_created(campaign.created)} ⇉ {sent_count}"
            detail = _("{title} · campaign {id}").format(
                title=campaign.draft.title or _("(no title)"), id=campaign.id
            )
            sent.append(
                (campaign.created, LibraryItem(f"c{campaign.id}", label, detail), campaign.draft)
            )
        sent.sort(key=lambda found: found[0], reverse=True)
        drafts = {item.key: draft for _when, item, draft in sent}

        def chosen(key: str | None) -> None:
            if key is None or key not in drafts:
                return
            draft = Draft.from_json(drafts[key].to_json())
            what = (
                _("Campaign message reopened as a new draft")
                if key.startswith("c")
                else _("Sent message reopened as a new draft")
            )

            async def reopen() -> None:
                await self.replace_draft(draft, what=what)

            self._confirm_replace(_("Reopen a sent message"), reopen)

        self.app.push_screen(
            LibraryScreen(
                _("Sent messages"),
                [item for _when, item, _draft in sent],
                empty=_("Nothing sent from this instance yet."),
                hint=_("{enter} reopens the message as a new draft · ⇉ a campaign ({many})").format(
                    enter="enter", many=self.key_for("composer.send_to_many")
                ),
            ),
            chosen,
        )

    def _campaigns(self) -> list:
        """The campaigns sent from this instance of this gateway (one that cannot be read is
        left out here; the campaigns list, f9 in the set-up, says why)."""
        from gateway_tui.core.campaign.journal import list_campaigns

        gateway = self.gateway_app.gateway_identity or ""  # type: ignore[attr-defined]
        try:
            found = list_campaigns()
        except OSError:
            return []
        return [
            campaign
            for campaign in found
            if campaign.instance == self.instance  # type: ignore[attr-defined]
            and campaign.gateway == gateway
            and campaign.draft is not None
        ]


def _created(created: str) -> str:
    """When a campaign was created (ISO text from its journal), the locale's way."""
    try:
        return date_time(datetime.fromisoformat(created))
    except ValueError:
        return created[:16].replace("T", " ")


def _summary(draft: Draft) -> str:
    sections, rows = len(draft.sections), draft.row_count
    counts = ngettext("{n} section, {rows}", "{n} sections, {rows}", sections).format(
        n=number(sections),
        rows=ngettext("{n} row", "{n} rows", rows).format(n=number(rows)),
    )
    return f"{draft.title or _('(no title)')} · {counts}"
