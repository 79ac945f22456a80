"""The composer's sections editor: the section and row lines, and adding, removing, moving them.

A mixin of ``ComposerScreen``: it reads and changes ``self.draft`` and asks the screen to redraw
(``_changed``). Row edits happen in place; section edits rebuild the editor.
"""

from __future__ import annotations

from textual.containers import Horizontal, Vertical
from textual.widget import Widget
from textual.widgets import Input, Label, Static

from gateway_tui.core.draft import Draft, DraftRow, DraftSection
from gateway_tui.core.text.i18n import _, ngettext, number
from gateway_tui.tui.screens.confirm import ConfirmScreen
from gateway_tui.tui.widgets.styled import styled
from gateway_tui.tui.widgets.text_input import TextInput


class SectionsEditor:
    """Adds the sections editor to the composer (``ComposerScreen`` mixes it in)."""

    draft: Draft
    _touched: set[str]
    _shown_lines: dict[Widget, str]

    def _section_widgets(self) -> list[Widget]:
        ids = self.draft.row_ids()
        blocks: list[Widget] = []
        for s_index, section in enumerate(self.draft.sections):
            children: list[Widget] = [
                Horizontal(
                    Label(_("Section {n}").format(n=s_index + 1), classes="section-label"),
                    TextInput(
                        section.title,
                        placeholder=_("section title"),
                        id=f"sec-{section.uid}-title",
                        compact=True,
                    ),
                    classes="composer-section-line",
                ),
                Static(id=f"err-sec-{section.uid}", classes="field-error composer-error"),
            ]
            for r_index, row in enumerate(section.rows):
                children.extend(self._row_widgets(row, r_index, ids[row.uid]))
            blocks.append(Vertical(*children, classes="composer-section", id=f"sec-{section.uid}"))
        return blocks

    @staticmethod
    def _row_widgets(row: DraftRow, index: int, row_id: str) -> tuple[Widget, Widget]:
        """A row's line (number, title, description, rowId) and its error line."""
        line = Horizontal(
            Label(f"{index + 1:>3}.", classes="row-number"),
            TextInput(
                row.title,
                placeholder=_("row title"),
                id=f"row-{row.uid}-title",
                classes="row-title",
                compact=True,
            ),
            TextInput(
                row.description,
                placeholder=_("description (optional)"),
                id=f"row-{row.uid}-desc",
                classes="row-desc",
                compact=True,
            ),
            TextInput(
                row_id,
                placeholder=row_id,
                id=f"row-{row.uid}-id",
                classes="row-id",
                compact=True,
            ),
            classes="composer-row",
            id=f"row-{row.uid}",
        )
        return line, Static(id=f"err-row-{row.uid}", classes="field-error composer-error")

    # --- editing the sections -----------------------------------------------------------------

    async def _rebuild_sections(self, focus: str | None = None) -> None:
        editor = self.query_one("#sections-editor", Vertical)
        await editor.remove_children()
        self._shown_lines = {w: t for w, t in self._shown_lines.items() if w.is_attached}
        await editor.mount_all(self._section_widgets())
        self._touched.add("err-sections")
        self._changed()
        if focus:
            self._focus_field(focus)

    def _renumber(self, section: DraftSection) -> None:
        for index, row in enumerate(section.rows):
            for label in self.query(f"#row-{row.uid} .row-number").results(Label):
                label.update(f"{index + 1:>3}.")

    async def _after_row_change(self, section: DraftSection, focus: str | None) -> None:
        """Finish an edit that touched one section's rows in place (no rebuild)."""
        self._renumber(section)
        self._touched.add("err-sections")
        self._changed()
        if focus:
            self._focus_field(focus)

    def _focus_field(self, widget_id: str) -> None:
        try:
            target = self.query_one(f"#{widget_id}", Input)
        except Exception:  # noqa: BLE001 - nothing to focus (it was the last one)
            return
        target.focus()
        target.scroll_visible(animate=False)

    async def _mount_row(self, section: DraftSection, index: int) -> None:
        """Show the row at ``index`` of ``section`` (already in the draft)."""
        container = self.query_one(f"#sec-{section.uid}", Vertical)
        row = section.rows[index]
        after = f"#err-row-{section.rows[index - 1].uid}" if index else f"#err-sec-{section.uid}"
        line, error = self._row_widgets(row, index, self.draft.row_ids()[row.uid])
        await container.mount(line, error, after=self.query_one(after))

    async def action_add_row(self) -> None:
        kind, s_index, r_index = self._position()
        sections = self.draft.sections
        if not sections:
            sections.append(DraftSection(rows=[]))
            await self._rebuild_sections()
        row = DraftRow()
        if kind == "row" and s_index is not None and r_index is not None:
            section, at = sections[s_index], r_index + 1
        elif kind == "section" and s_index is not None:
            section = sections[s_index]
            at = len(section.rows)
        else:
            section = sections[-1]
            at = len(section.rows)
        section.rows.insert(at, row)
        await self._mount_row(section, at)
        await self._after_row_change(section, f"row-{row.uid}-title")

    async def action_add_section(self) -> None:
        _kind, s_index, _row = self._position()
        section = DraftSection()
        at = len(self.draft.sections) if s_index is None else s_index + 1
        self.draft.sections.insert(at, section)
        await self._rebuild_sections(focus=f"sec-{section.uid}-title")

    async def action_remove(self) -> None:
        kind, s_index, r_index = self._position()
        if kind == "row" and s_index is not None and r_index is not None:
            section = self.draft.sections[s_index]
            row = section.rows.pop(r_index)
            rows = section.rows
            if rows:
                focus = f"row-{rows[min(r_index, len(rows) - 1)].uid}-title"
            else:
                focus = f"sec-{section.uid}-title"
            self._focus_field(focus)  # first: the removed field must not hold the focus
            await self.query_one(f"#row-{row.uid}").remove()
            await self.query_one(f"#err-row-{row.uid}").remove()
            self._shown_lines = {w: t for w, t in self._shown_lines.items() if w.is_attached}
            await self._after_row_change(section, focus)
        elif kind == "section" and s_index is not None:
            section = self.draft.sections[s_index]
            if section.is_empty:
                await self._remove_section(s_index)
                return
            count = len(section.rows)
            body = styled(
                ngettext(
                    "Remove section {section} and its {n} row?",
                    "Remove section {section} and its {n} rows?",
                    count,
                ),
                section=(section.title or f"{s_index + 1}", "bold"),
                n=number(count),
            )

            async def decided(yes: bool | None) -> None:
                if yes:
                    await self._remove_section(s_index)

            self.app.push_screen(
                ConfirmScreen(_("Remove section"), body, confirm_label=_("Remove")), decided
            )
        else:
            self.notify(_("Put the cursor in a row or a section title to remove it."), markup=False)

    async def _remove_section(self, index: int) -> None:
        sections = self.draft.sections
        if not 0 <= index < len(sections):
            return
        sections.pop(index)
        if sections:
            focus = f"sec-{sections[min(index, len(sections) - 1)].uid}-title"
        else:
            focus = "f-footer"
        await self._rebuild_sections(focus=focus)
        if not sections:
            self.query_one("#f-footer", Input).focus()

    async def action_move(self, step: int) -> None:
        kind, s_index, r_index = self._position()
        sections = self.draft.sections
        if kind == "row" and s_index is not None and r_index is not None:
            rows = sections[s_index].rows
            row = rows[r_index]
            focus_part = (self.focused.id or "").rsplit("-", 1)[-1] if self.focused else "title"
            target = r_index + step
            if 0 <= target < len(rows):
                rows[r_index], rows[target] = rows[target], rows[r_index]
                # In place: the row's two lines go before (or after) its neighbour's.
                container = self.query_one(f"#sec-{sections[s_index].uid}", Vertical)
                line, error = (
                    self.query_one(f"#row-{row.uid}"),
                    self.query_one(f"#err-row-{row.uid}"),
                )
                other = rows[r_index].uid
                if step < 0:
                    container.move_child(line, before=self.query_one(f"#row-{other}"))
                else:
                    container.move_child(line, after=self.query_one(f"#err-row-{other}"))
                container.move_child(error, after=line)
                await self._after_row_change(sections[s_index], f"row-{row.uid}-{focus_part}")
                return
            elif 0 <= s_index + step < len(sections):
                # Past the edge of its section: into the next one (or the previous).
                rows.pop(r_index)
                neighbour = sections[s_index + step].rows
                if step < 0:
                    neighbour.append(row)
                else:
                    neighbour.insert(0, row)
            else:
                return
            await self._rebuild_sections(focus=f"row-{row.uid}-{focus_part}")
        elif kind == "section" and s_index is not None:
            target = s_index + step
            if not 0 <= target < len(sections):
                return
            sections[s_index], sections[target] = sections[target], sections[s_index]
            await self._rebuild_sections(focus=f"sec-{sections[target].uid}-title")
        else:
            self.notify(_("Put the cursor in a row or a section title to move it."), markup=False)
