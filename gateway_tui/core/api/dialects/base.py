"""The interface of a line's dialect: everything the client asks of the line it talks to."""

from __future__ import annotations

from typing import Any

from gateway_tui.core.api.chat_models import Contact, StatusRow, StoredChat
from gateway_tui.core.api.errors import Problem
from gateway_tui.core.api.lifecycle import (
    CreateInstanceRequest,
    WebhookSetResult,
    WebhookSettings,
    WebsocketSetResult,
    WebsocketSettings,
)
from gateway_tui.core.api.lists import ListReader
from gateway_tui.core.api.message_bodies import MediaUpload, Quote
from gateway_tui.core.api.models import (
    Instance,
    InstanceSettings,
    MessageKey,
    SendListOptions,
    SendListRequest,
    SettingsSetResult,
)
from gateway_tui.core.text.i18n import _

# Operations whose verb differs between the lines.
VERB_OPERATIONS = (
    "restart",
    "revoke_invite",
    "update_subject",
    "archive_chat",
    "update_message",
    "find_chats",
    "mark_read",
    # Group administration and labels: 1.7.1 PUT, 2.x POST (recordings v1.7.1-more 115-118,
    # v2.3.6-more 123-126, v2.3.7 913-919, 926).
    "update_participants",
    "update_setting",
    "toggle_ephemeral",
    "update_description",
    "handle_label",
)


class Dialect:
    """One line of the gateway. Subclasses fill in every member; nothing here is shared."""

    line: str  # "1" or "2"
    label: str  # for people: "1.7.1", "2.x"
    verbs: dict[str, str]
    # A findMessages answer comes in pages ({"messages": {total, pages, currentPage, records}}).
    paged_messages: bool
    # sendList: which of the list's texts the gateway requires.
    footer_required: bool
    # Whether a list message's presence (shown during its delay) is sent; 2.x has none and
    # always shows "composing" (whatsapp.baileys.service.ts:3271 at 2.3.6).
    sends_presence: bool
    description_required: bool
    # The events a webhook or websocket may subscribe to.
    event_names: tuple[str, ...]
    instances: ListReader[Any]
    # Instance fields (of api.models.Instance) this line's gateways never give.
    instance_fields_missing: frozenset[str]
    # Whether a server of this line may emit every instance's live events on "/" as well.
    global_live_events: bool
    # Events a hook may subscribe to that this line's gateways accept but never send.
    events_never_sent: frozenset[str]

    def read_event(self, event: str, data: Any) -> Any:
        """A live event's ``data`` in the shape the store answers (a delivery mark as a
        findStatusMessage row): 1.7.1 sends that shape already."""
        return data

    def verb(self, operation: str) -> str:
        return self.verbs[operation]

    def wire_name(self, field: str) -> str:
        """A field's name in this line's request body (a setting's, a webhook's); our field
        names are 1.7.1's."""
        return field

    # --- instances ---
    def read_single_instance(self, content: bytes) -> Instance:
        raise NotImplementedError

    def create_body(self, request: CreateInstanceRequest) -> dict[str, Any]:
        raise NotImplementedError

    # --- settings ---
    def read_settings(self, content: bytes) -> InstanceSettings:
        raise NotImplementedError

    def settings_body(self, settings: InstanceSettings) -> dict[str, Any]:
        raise NotImplementedError

    def read_settings_set(self, content: bytes) -> SettingsSetResult:
        raise NotImplementedError

    # --- messages ---
    def send_list_body(self, request: SendListRequest) -> dict[str, Any]:
        raise NotImplementedError

    def send_list_problems(self, request: SendListRequest) -> list[Problem]:
        """Problems of the parts that differ by line (delay, presence), beyond the list's."""
        raise NotImplementedError

    def update_message_number(self, chat: str) -> str:
        """updateMessage's ``number`` for the chat ``chat`` (a JID or digits)."""
        raise NotImplementedError

    # --- the conversation: text, media, reactions, read receipts ---
    def send_text_body(
        self, number: str, text: str, options: SendListOptions | None, quoted: Quote | None
    ) -> dict[str, Any]:
        raise NotImplementedError

    def send_media_body(
        self,
        number: str,
        upload: MediaUpload,
        options: SendListOptions | None,
        quoted: Quote | None,
    ) -> dict[str, Any]:
        raise NotImplementedError

    def send_reaction_body(self, key: MessageKey, reaction: str) -> dict[str, Any]:
        raise NotImplementedError

    def mark_read_body(self, keys: list[MessageKey]) -> dict[str, Any]:
        raise NotImplementedError

    # --- voice notes, polls, locations, contact cards, presence (api/message_kinds.py) ---
    def kind_body(
        self, number: str, kind: Any, *, delay: int | None = None, message_id: str | None = None
    ) -> dict[str, Any]:
        """The body of a send of ``kind`` (a VoiceNote, Poll, Location, ContactCards, or on
        2.4 Buttons or Carousel); ``message_id`` is 2.4's caller-chosen id."""
        raise NotImplementedError

    def poll_votes_body(self, remote_jid: str, message_id: str) -> dict[str, Any]:
        """2.4's getPollVote (DecryptPollVoteDto); no earlier line has the route."""
        return {"message": {"key": {"id": message_id}}, "remoteJid": remote_jid}

    def presence_body(self, number: str, presence: str, delay: int) -> dict[str, Any]:
        raise NotImplementedError

    # --- webhook and websocket ---
    def webhook_body(self, settings: WebhookSettings) -> dict[str, Any]:
        raise NotImplementedError

    def read_webhook(self, content: bytes) -> WebhookSettings:
        raise NotImplementedError

    def read_webhook_set(self, content: bytes) -> WebhookSetResult:
        raise NotImplementedError

    def websocket_body(self, settings: WebsocketSettings) -> dict[str, Any]:
        raise NotImplementedError

    def read_websocket(self, content: bytes) -> WebsocketSettings:
        raise NotImplementedError

    def read_websocket_set(self, content: bytes) -> WebsocketSetResult:
        raise NotImplementedError

    def check_events(self, events: list[str], field: str = "events") -> list[Problem]:
        unknown = [event for event in events if event not in self.event_names]
        if unknown:
            return [
                Problem(
                    field,
                    _("not an event a {line} gateway knows: {events}").format(
                        line=self.label, events=", ".join(unknown)
                    ),
                )
            ]
        return []

    # --- the chat store ---
    def find_chats_body(self) -> dict[str, Any] | None:
        raise NotImplementedError

    def read_chat(self, data: dict[str, Any]) -> StoredChat | None:
        raise NotImplementedError

    def contacts_body(self, jid: str | None) -> dict[str, Any]:
        raise NotImplementedError

    def read_contact(self, data: dict[str, Any]) -> Contact | None:
        raise NotImplementedError

    def read_status_row(self, data: dict[str, Any]) -> StatusRow | None:
        raise NotImplementedError

    def messages_page(self, data: Any) -> tuple[list[Any], int, int | None]:
        """The items of one findMessages answer (already parsed), how many pages there are and
        how many messages in all (None: not told). Raises ValueError for the wrong shape."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<Dialect {self.label}>"
