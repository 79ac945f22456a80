"""The composer's drafts, templates and sent history: replace the form, save, load, reopen.

A mixin of ``ComposerScreen``; the files are the screen's ``ComposeStore``.
"""

from __future__ import annotations

from rich.text import Text
from textual import work
from textual.widgets import Input, Select

from gateway_tui.core.api.errors import Problem
from gateway_tui.core.draft import Draft
from gateway_tui.core.files.drafts import ComposeStore
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
        for key, _, attr, _ in HEADER_FIELDS:
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
            "The message in the form will be replaced and not kept. Save it as a template "
            "first (f6) to keep it."
        )

        async def decided(yes: bool | None) -> None:
            if yes:
                await then()

        self.app.push_screen(ConfirmScreen(title, body, confirm_label="Replace"), decided)

    def action_new_draft(self) -> None:
        async def fresh() -> None:
            await self.replace_draft(Draft(), what="New empty draft")

        self._confirm_replace("New empty draft", fresh)

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
            message = f"Template not saved: {problem}"
            self.app.call_from_thread(self.notify, message, severity="error", markup=False)
            return
        verb = "replaced" if replaced else "saved"
        message = f"Template “{name}” {verb} (without the recipient)"
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
                self.notify(f"Template not deleted: {problem}", severity="error", markup=False)
                return False

        def chosen(name: str | None) -> None:
            if name is None or name not in templates:
                return
            template = templates[name]
            template.recipient = self.draft.recipient

            async def load() -> None:
                await self.replace_draft(template, what=f"Template “{name}” loaded")

            self._confirm_replace(f"Load template “{name}”", load)

        self.app.push_screen(
            LibraryScreen(
                "Templates",
                items,
                empty="No templates yet: f6 saves the message in the form as one.",
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
            label = f"{entry.sent_at:%Y-%m-%d %H:%M} → {recipient_label(entry.recipient)}"
            detail = f"{entry.title or '(no title)'} · id {entry.message_id or '—'}"
            when = entry.sent_at.isoformat(timespec="seconds")
            sent.append((when, LibraryItem(f"m{index}", label, detail), entry.draft()))
        for campaign in self._campaigns():
            assert campaign.draft is not None
            counts = campaign.counts
            total = sum(counts.values())
            label = (
                f"{campaign.created[:16].replace('T', ' ')} ⇉ campaign: "
                f"{counts.get('sent', 0):,} of {total:,} sent"
            )
            detail = f"{campaign.draft.title or '(no title)'} · campaign {campaign.id}"
            sent.append(
                (campaign.created, LibraryItem(f"c{campaign.id}", label, detail), campaign.draft)
            )
        sent.sort(key=lambda found: found[0], reverse=True)
        drafts = {item.key: draft for _, item, draft in sent}

        def chosen(key: str | None) -> None:
            if key is None or key not in drafts:
                return
            draft = Draft.from_json(drafts[key].to_json())
            what = (
                "Campaign message reopened as a new draft"
                if key.startswith("c")
                else "Sent message reopened as a new draft"
            )

            async def reopen() -> None:
                await self.replace_draft(draft, what=what)

            self._confirm_replace("Reopen a sent message", reopen)

        self.app.push_screen(
            LibraryScreen(
                "Sent messages",
                [item for _, item, _ in sent],
                empty="Nothing sent from this instance yet.",
                hint="enter reopens the message as a new draft · ⇉ a campaign (f5)",
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


def _summary(draft: Draft) -> str:
    rows = draft.row_count
    return f"{draft.title or '(no title)'} · {len(draft.sections)} section(s), {rows} row(s)"
