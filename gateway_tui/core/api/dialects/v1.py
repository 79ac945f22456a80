"""The 1.7.1 line: nested, snake_case bodies; PUT for changes; fetchInstances rows wrapped."""

from __future__ import annotations

from typing import Any

from gateway_tui.core.api import message_bodies as bodies
from gateway_tui.core.api import validation
from gateway_tui.core.api.chat_models import Contact, StatusRow, StoredChat
from gateway_tui.core.api.dialects.base import Dialect
from gateway_tui.core.api.errors import Problem
from gateway_tui.core.api.lifecycle import (
    EVENT_NAMES,
    NEVER_DELIVERED,
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
    InstanceEnvelope,
    InstanceSettings,
    MessageKey,
    SendListOptions,
    SendListRequest,
    SettingsSetResult,
)
from gateway_tui.core.text.i18n import _


class V1Dialect(Dialect):
    line = "1"
    global_live_events = False
    events_never_sent: frozenset[str] = NEVER_DELIVERED
    label = "1.7.1"
    verbs = {
        "restart": "PUT",
        "revoke_invite": "PUT",
        "update_subject": "PUT",
        "archive_chat": "PUT",
        "update_message": "PUT",
        "find_chats": "GET",
        "mark_read": "PUT",
        "update_participants": "PUT",
        "update_setting": "PUT",
        "toggle_ephemeral": "PUT",
        "update_description": "PUT",
        "handle_label": "PUT",
    }
    paged_messages = False
    footer_required = False
    sends_presence = True
    description_required = True
    event_names = EVENT_NAMES
    instance_fields_missing = frozenset(
        {"number", "disconnection_reason_code", "disconnection_at", "message_count"}
    )
    # One bad item is skipped and counted (see api/lists.py), not the whole list lost.
    instances = ListReader(
        InstanceEnvelope,
        lambda envelope: envelope.instance,
        name_of=lambda raw: raw["instance"]["instanceName"],  # to name a row that is skipped
    )

    def kind_body(
        self, number: str, kind: Any, *, delay: int | None = None, message_id: str | None = None
    ) -> dict[str, Any]:
        # 1.7.1: the content under <kind>Message, the delay under options; no messageId.
        # options always: 1.7.1's sendWhatsAppAudio sets options.encoding first and, without
        # options, answers 500 "Cannot set properties of undefined" (v1.7.1-more/079).
        return {"number": number, "options": {"delay": delay or 0}, **kind.nested()}

    def presence_body(self, number: str, presence: str, delay: int) -> dict[str, Any]:
        return {"number": number, "options": {"presence": presence, "delay": delay}}

    # The conversation's bodies: nested, snake_case (api/message_bodies.py).
    def send_text_body(
        self, number: str, text: str, options: SendListOptions | None, quoted: Quote | None
    ) -> dict[str, Any]:
        return bodies.send_text_body(number, text, options, quoted)

    def send_media_body(
        self,
        number: str,
        upload: MediaUpload,
        options: SendListOptions | None,
        quoted: Quote | None,
    ) -> dict[str, Any]:
        return bodies.send_media_body(number, upload, options, quoted)

    def send_reaction_body(self, key: MessageKey, reaction: str) -> dict[str, Any]:
        return bodies.send_reaction_body(key, reaction)

    def mark_read_body(self, keys: list[MessageKey]) -> dict[str, Any]:
        return bodies.mark_read_body(keys)

    def read_single_instance(self, content: bytes) -> Instance:
        # The envelope also accepts an unwrapped instance object (liberal).
        return InstanceEnvelope.model_validate_json(content).instance

    def create_body(self, request: CreateInstanceRequest) -> dict[str, Any]:
        return request.to_json()

    def read_settings(self, content: bytes) -> InstanceSettings:
        return InstanceSettings.model_validate_json(content)

    def settings_body(self, settings: InstanceSettings) -> dict[str, Any]:
        return settings.to_json()

    def read_settings_set(self, content: bytes) -> SettingsSetResult:
        return SettingsSetResult.model_validate_json(content)

    def send_list_body(self, request: SendListRequest) -> dict[str, Any]:
        body = request.to_json()
        body.pop("messageId", None)  # 2.4's; 1.7.1 has none
        return body

    def send_list_problems(self, request: SendListRequest) -> list[Problem]:
        if not request.options:
            return []
        return validation.check_delay(request.options.delay) + validation.check_presence(
            request.options.presence
        )

    def update_message_number(self, chat: str) -> str:
        return chat

    def webhook_body(self, settings: WebhookSettings) -> dict[str, Any]:
        return settings.to_json()

    def read_webhook(self, content: bytes) -> WebhookSettings:
        return (
            WebhookSettings()
            if not content.strip()
            else WebhookSettings.model_validate_json(content)
        )

    def read_webhook_set(self, content: bytes) -> WebhookSetResult:
        return WebhookSetResult.model_validate_json(content)

    def websocket_body(self, settings: WebsocketSettings) -> dict[str, Any]:
        return settings.to_json()

    def read_websocket(self, content: bytes) -> WebsocketSettings:
        if not content.strip():
            return WebsocketSettings()
        return WebsocketSettings.model_validate_json(content)

    def read_websocket_set(self, content: bytes) -> WebsocketSetResult:
        return WebsocketSetResult.model_validate_json(content)

    def find_chats_body(self) -> dict[str, Any] | None:
        return None  # a GET

    def read_chat(self, data: dict[str, Any]) -> StoredChat | None:
        return StoredChat.read(data)

    def contacts_body(self, jid: str | None) -> dict[str, Any]:
        return {"where": {"id": jid}} if jid else {}

    def read_contact(self, data: dict[str, Any]) -> Contact | None:
        return Contact.read(data)

    def read_status_row(self, data: dict[str, Any]) -> StatusRow | None:
        return StatusRow.read(data)

    def messages_page(self, data: Any) -> tuple[list[Any], int, int | None]:
        if not isinstance(data, list):
            raise ValueError(_("expected an array, got {kind}").format(kind=type(data).__name__))
        return data, 1, None


LINE = V1Dialect()
