"""What can be done to one message of the conversation, mixed into MessagesScreen: edit (own
text, within WhatsApp's window or knowingly past it), view whole, copy its id or the gateway's
JSON of it; and to the chat: archive, the sender's profile, answer with a list message.

`edit_own_message` is shared with the chat list (its edit key edits the newest own message).
"""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING

from rich.text import Text

from gateway_tui.core.api.chat_models import StoredMessage
from gateway_tui.core.api.models import jid_number
from gateway_tui.core.files.drafts import ComposeStore
from gateway_tui.core.text.i18n import _
from gateway_tui.tui.screens.base import GatewayScreen
from gateway_tui.tui.screens.chat_modals import TOO_OLD_TO_SEE, EditMessageScreen, ProfileScreen
from gateway_tui.tui.screens.chats import archive_chat, open_composer_to
from gateway_tui.tui.screens.confirm import ConfirmScreen

if TYPE_CHECKING:
    from gateway_tui.tui.screens.messages import MessagesScreen

    _Base = MessagesScreen
else:
    _Base = object

EDIT_WINDOW_SECONDS = 15 * 60


def edit_own_message(
    screen: GatewayScreen, message: StoredMessage, store: ComposeStore | None
) -> None:
    """The edit dialog for ``message`` (own text only: else says why not); the new text goes
    in the state (the bubble shows it, marked edited) and in the sent history."""
    if not message.from_me:
        screen.notify(_("Only your own messages can be edited."), markup=False)
        return
    if not message.is_text:
        screen.notify(
            _("WhatsApp edits only text messages; this is a {kind}.").format(
                kind=message.kind or _("message")
            ),
            markup=False,
        )
        return
    seen = not (message.timestamp and time.time() - message.timestamp > EDIT_WINDOW_SECONDS)
    key = message.key
    instance: str = screen.instance  # type: ignore[attr-defined]
    record = screen.state.chats_of(instance).get(message.remote_jid)
    old_text = record.texts[key.id] if record and key.id in record.edited else message.full_text

    def edited(text: str | None) -> None:
        if text is None:
            return
        if not seen:  # nothing marks it edited: the customer will never see it
            screen.notify(
                _("Sent to the gateway; WhatsApp will not show the edit (older than 15 minutes)."),
                severity="warning",
                markup=False,
            )
            return
        screen.notify(_("Message edited"), markup=False)
        if store is not None:
            try:
                store.record_edit(key.id, text)
            except OSError as problem:
                screen.notify(
                    _("Could not store the edit: {problem}").format(problem=problem),
                    severity="warning",
                    markup=False,
                )

    def edit() -> None:
        screen.app.push_screen(EditMessageScreen(instance, key, old_text, seen=seen), edited)

    if seen:
        edit()
        return
    # Asked before anything is written: past the window the customer never sees an edit.
    screen.app.push_screen(
        ConfirmScreen(
            _("Edit an old message"),
            # Two sentences: the warning (chat_modals marks it) and the question.
            Text(_(TOO_OLD_TO_SEE) + " " + _("Edit it anyway?")),
            confirm_label=_("Edit anyway"),
        ),
        lambda yes: edit() if yes else None,
    )


class ConversationActions(_Base):
    def _selected(self) -> StoredMessage | None:
        message = self.view.selected
        if message is None:
            self.notify(_("No message here."), markup=False)
        return message

    def action_edit(self) -> None:
        message = self._selected()
        if message is not None:
            edit_own_message(self, message, self.store)

    def action_view_whole(self) -> None:
        from gateway_tui.tui.screens.message_pager import MessagePagerScreen

        message = self._selected()
        if message is None:
            return
        text = self.view.edits.get(message.id) or message.full_text or message.text
        self.app.push_screen(MessagePagerScreen(self.chat_title, message, text))

    def action_archive(self) -> None:
        last = self.all_messages[-1] if self.all_messages else None
        if last is None:
            self.notify(_("No message of this chat is known: it cannot be archived."), markup=False)
            return
        record = self.state.chats_of(self.instance).get(self.jid)
        archive_chat(self, self.jid, last.key, not (record is not None and record.archived))

    def action_profile(self) -> None:
        message = self.view.selected
        jid = self.jid
        if self.is_group:
            jid = message.sender if message is not None and not message.from_me else ""
        self.app.push_screen(ProfileScreen(self.instance, jid_number(jid) if jid else ""))

    def action_compose(self) -> None:
        open_composer_to(self, self.jid)

    def action_copy_id(self) -> None:
        message = self._selected()
        if message is not None:
            self.app.copy_to_clipboard(message.id)
            self.notify(_("Copied the message id {id}").format(id=message.id), markup=False)

    def action_copy_json(self) -> None:
        """The message as the gateway stores it: read again by its id (the one filter the
        file store honours), so what is copied is the server's JSON, not ours."""
        message = self._selected()
        if message is None:
            return

        def copy(stored: dict | None) -> None:
            if stored is None:
                self.notify(_("The gateway no longer holds this message."), markup=False)
                return
            self.app.copy_to_clipboard(json.dumps(stored, ensure_ascii=False, indent=2))
            self.notify(_("Copied the message as JSON"), markup=False)

        self.call(
            self.actions.chats.message_json(self.instance, message.id),
            what=_("Reading the message's JSON"),
            on_done=copy,
            group="copy-json",
            exclusive=True,
        )
