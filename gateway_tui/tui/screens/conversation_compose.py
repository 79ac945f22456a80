"""The conversation's writing side, mixed into MessagesScreen: the message line (enter sends
sendText), a quoted reply, a reaction, read receipts when opened (opt-in), media saved to a
file and a local file sent.

Every send goes out once: a second enter while one is under way is refused with a word, and a
failed send leaves the typed text in the line. The bindings are MessagesScreen's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.widgets import Static

from gateway_tui.core.api.chat_models import StoredMessage, one_line
from gateway_tui.core.api.message_bodies import Quote
from gateway_tui.core.chat_book import person_label, printable
from gateway_tui.core.files.media_files import (
    MediaFileProblem,
    extension_for,
    media_dir,
    safe_name,
    save_new_file,
)
from gateway_tui.core.text.i18n import _
from gateway_tui.tui.screens.conversation_modals import FileToSend, ReactionScreen, SendFileScreen
from gateway_tui.tui.widgets.message_kinds_view import MEDIA_KINDS, file_size
from gateway_tui.tui.widgets.message_line import MessageLine
from gateway_tui.tui.widgets.styled import styled

if TYPE_CHECKING:
    from gateway_tui.tui.screens.messages import MessagesScreen

    _Base = MessagesScreen
else:
    _Base = object

# Read receipts go for at most this many received messages (the newest unanswered ones).
READ_RECEIPTS_AT_MOST = 20


def _who(message: StoredMessage) -> str:
    if message.from_me:
        return _("You")
    return message.sender_name or person_label(message.sender)


class ConversationCompose(_Base):
    reply_to: StoredMessage | None = None
    _sending = False
    _marked_read = False
    _reload_pending = False

    @property
    def line(self) -> MessageLine:
        return self.query_one("#message-line", MessageLine)

    # --- the message line ---------------------------------------------------------------------

    def action_write(self) -> None:
        self.line.focus()

    def on_message_line_send(self, event: MessageLine.Send) -> None:
        event.stop()
        text = event.text
        if not text.strip():
            self.notify(_("Nothing to send: type a message first."), markup=False)
            return
        if self._sending:
            self.notify(_("Still sending the last message…"), markup=False)
            return
        self._sending = True
        quote = self.reply_to
        quoted = Quote(quote.key, quote.text) if quote is not None else None

        async def send() -> object:
            try:
                return await self.actions.messages.send_text(self.instance, self.jid, text, quoted)
            finally:
                self._sending = False  # a failure leaves the text in the line, to try again

        def sent(_result: object) -> None:
            if self.line.text == text:  # what was sent, unless typing went on meanwhile
                self.line.clear()
            self._set_reply(None)
            self._reload_messages()

        self.call(send(), what=_("Sending the message"), on_done=sent, group="send-text")

    def _reload_messages(self) -> None:
        """Read the chat again after a send. A read already under way may have left before
        the send: then one more read follows it (refresh_from_state sees it end)."""
        if self.actions.chats.messages_of(self.instance, self.jid).loading:
            self._reload_pending = True
        else:
            self._reload_pending = False
            self.call(
                self.actions.chats.load_messages(self.instance, self.jid),
                what=_("Reading the conversation"),
                on_done=lambda _m: self.view.action_last(),
                on_error=self._failed,
                group="messages",
            )

    def _follow_pending_reload(self) -> None:
        if (
            self._reload_pending
            and not self.actions.chats.messages_of(self.instance, self.jid).loading
        ):
            self._reload_messages()

    # --- a quoted reply -------------------------------------------------------------------------

    def action_reply(self) -> None:
        message = self._selected()
        if message is not None:
            self._set_reply(message)
            self.line.focus()

    def _set_reply(self, message: StoredMessage | None) -> None:
        self.reply_to = message
        banner = self.query_one("#reply-banner", Static)
        banner.display = message is not None
        if message is None:
            return
        text = styled(
            _("↩ Replying to {who}: {text}"),
            "dim",
            who=(printable(_who(message)), "bold"),
            text=(printable(one_line(message.text or f"[{message.kind}]", 70)), "italic"),
        )
        text.style = "dim"  # the whole banner dim, the name and the text in their styles too
        cancels = _("{key} cancels").format(key=self.key_for("messages.back") or "escape")
        text.append(f"  ({cancels})", style="dim")
        banner.update(text)

    # --- a reaction ----------------------------------------------------------------------------

    def action_react(self) -> None:
        message = self._selected()
        if message is None:
            return
        key = message.key

        def chosen(emoji: str | None) -> None:
            if emoji is None:
                return
            self.call(
                self.actions.messages.send_reaction(self.instance, key, emoji),
                what=_("Sending the reaction"),
                done=_("Reacted {emoji}").format(emoji=emoji)
                if emoji
                else _("Reaction taken away"),
                on_done=lambda _r: self._reload_messages(),
                group="react",
            )

        quoted = f"{_who(message)}: {one_line(message.text or message.kind, 60)}"
        self.app.push_screen(ReactionScreen(quoted), chosen)

    # --- read receipts when opened (opt-in) ------------------------------------------------------

    def _mark_read_once(self) -> None:
        """The newest received messages since your last own one, once per opening, when the
        config asks for it (the contacts see read receipts)."""
        if self._marked_read or not self.gateway_app.config.mark_read_on_open:
            return
        self._marked_read = True
        received: list[StoredMessage] = []
        loaded = self._merged()  # the answer just read (the redraw may not have run yet)
        for message in reversed(loaded[-200:]):
            if message.from_me:
                break
            received.append(message)
            if len(received) >= READ_RECEIPTS_AT_MOST:
                break
        if not received:
            return
        self.call(
            self.actions.messages.mark_read(self.instance, [m.key for m in received]),
            what=_("Sending read receipts"),
            group="mark-read",
        )

    # --- media -------------------------------------------------------------------------------

    def action_save_media(self) -> None:
        message = self._selected()
        if message is None:
            return
        if message.kind not in MEDIA_KINDS:
            self.notify(
                _("This is a {kind}, not a photo, video, audio or document.").format(
                    kind=message.kind or _("message")
                ),
                markup=False,
            )
            return
        body = message.body
        fallback = f"{MEDIA_KINDS[message.kind][1].lower()}-{message.id}"

        def save(media) -> None:  # noqa: ANN001
            name = safe_name(media.file_name or body.get("fileName"), fallback)
            if "." not in name:
                name += extension_for(media.mimetype or body.get("mimetype"), media.media_type)
            try:
                path = save_new_file(media_dir(), name, media.content)
            except (OSError, MediaFileProblem) as problem:
                self.notify(
                    _("Could not save the file: {problem}").format(problem=problem),
                    severity="error",
                    markup=False,
                )
                return
            self.notify(
                _("Saved {size} to {path}").format(size=file_size(len(media.content)), path=path),
                markup=False,
            )

        self.call(
            self.actions.messages.media_of(self.instance, message.id),
            what=_("Downloading the media"),
            on_done=save,
            group="save-media",
            exclusive=True,
        )

    def action_send_file(self) -> None:
        def chosen(choice: FileToSend | None) -> None:
            if choice is None:
                return
            self.call(
                self.actions.messages.send_media(self.instance, self.jid, choice.upload),
                what=_("Sending {file} ({size})").format(
                    file=choice.upload.file_name, size=file_size(choice.size)
                ),
                done=_("File sent"),
                on_done=lambda _r: self._reload_messages(),
                group="send-file",
            )

        self.app.push_screen(SendFileScreen(self.chat_title), chosen)
