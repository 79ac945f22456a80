"""The 2.x line (2.3.6 as recorded): flat camelCase bodies, POST for changes, flat
fetchInstances rows, paged findMessages. Routes and schemas: the gateway's tag 2.3.6,
src/api/routes/ and src/validate/; answers: the recordings of a real 2.3.6."""

from __future__ import annotations

import json
from typing import Annotated, Any

from pydantic import AliasPath, BeforeValidator, Field

from gateway_tui.core.api import validation
from gateway_tui.core.api.chat_models import Contact, StatusRow, StoredChat, parse_long
from gateway_tui.core.api.dialects.base import Dialect
from gateway_tui.core.api.errors import Problem
from gateway_tui.core.api.lifecycle import (
    BAILEYS,
    CreateInstanceRequest,
    WebhookSetResult,
    WebhookSettings,
    WebsocketSetResult,
    WebsocketSettings,
)
from gateway_tui.core.api.lifecycle import (
    EVENT_NAMES as V1_EVENT_NAMES,
)
from gateway_tui.core.api.lists import ListReader
from gateway_tui.core.api.message_bodies import MediaUpload, Quote
from gateway_tui.core.api.models import (
    Instance,
    InstanceSettings,
    Integration,
    MessageKey,
    SendListOptions,
    SendListRequest,
    SettingsSetResult,
    Text,
)
from gateway_tui.core.text.i18n import _

# The enum a webhook or websocket takes on 2.3.6 (its 400 lists them: v2.3.6-more/145):
# 1.7.1's, without two, with seven more, in the server's order.
_ADDED_AFTER = {
    "MESSAGES_UPSERT": ("MESSAGES_EDITED",),
    "SEND_MESSAGE": ("SEND_MESSAGE_UPDATE",),
    "TYPEBOT_CHANGE_STATUS": (
        "REMOVE_INSTANCE",
        "LOGOUT_INSTANCE",
        "INSTANCE_CREATE",
        "INSTANCE_DELETE",
        "STATUS_INSTANCE",
    ),
}
EVENT_NAMES: tuple[str, ...] = tuple(
    name
    for old in V1_EVENT_NAMES
    if old not in ("NEW_JWT_TOKEN", "CHAMA_AI_ACTION")
    for name in (old, *_ADDED_AFTER.get(old, ()))
)

# settings/find and settings/set: our field ← the 2.x name.
_SETTINGS = {
    "rejectCall": "reject_call",
    "msgCall": "msg_call",
    "groupsIgnore": "groups_ignore",
    "alwaysOnline": "always_online",
    "readMessages": "read_messages",
    "readStatus": "read_status",
    "syncFullHistory": "sync_full_history",
    "wavoipToken": "wavoip_token",
}


def _integration_named(value: Any) -> Any:
    """2.x names the integration ("WHATSAPP-BAILEYS"); 1.7.1 sent an object."""
    if isinstance(value, str):
        return {"integration": value}
    return value if isinstance(value, dict) else None


def _count_or_none(value: Any) -> Any:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


_Count = Annotated[int | None, BeforeValidator(_count_or_none)]

# Names in 2.x's request bodies: settings/set, and webhook/set's {"webhook": {…}}.
_WIRE_NAMES = {ours: theirs for theirs, ours in _SETTINGS.items()} | {
    "webhook_by_events": "byEvents",
    "webhook_base64": "base64",
}


class InstanceRow(Instance):
    """A fetchInstances row of 2.x: the Prisma ``Instance`` row, flat.

    The row also holds the instance's token, its settings and integrations' credentials: they
    are dropped here (``_Listed`` keeps no unknown field), so this app never holds them.

    Every difference from 1.7.1 is a field's own alias or validator, none a validator of the
    whole row: one of those makes pydantic build each row as a Python dict first (settings,
    token and all), which cost a third of the time of 10,000 rows (bench §2b).
    """

    instance_name: str = Field(alias="name")
    instance_id: str | None = Field(default=None, alias="id")
    status: Text = Field(default="unknown", alias="connectionStatus")
    owner: str | None = Field(default=None, alias="ownerJid")
    profile_picture_url: str | None = Field(default=None, alias="profilePicUrl")
    integration: Annotated[Integration | None, BeforeValidator(_integration_named)] = None
    number: Text | None = None
    message_count: _Count = Field(default=None, validation_alias=AliasPath("_count", "Message"))
    contact_count: _Count = Field(default=None, validation_alias=AliasPath("_count", "Contact"))
    chat_count: _Count = Field(default=None, validation_alias=AliasPath("_count", "Chat"))


def _object_or_none(content: bytes) -> dict[str, Any] | None:
    """find of webhook/websocket: ``null`` before any set, an empty body when the server has
    websockets off, else the stored row."""
    if not content.strip():
        return None
    data = json.loads(content)
    if data is None:
        return None
    if not isinstance(data, dict):
        raise ValueError(_("expected an object, got {kind}").format(kind=type(data).__name__))
    return data


def _webhook(row: dict[str, Any]) -> WebhookSettings:
    return WebhookSettings.model_validate(
        {
            **{k: row[k] for k in ("url", "enabled", "events") if row.get(k) is not None},
            "webhook_by_events": row.get("webhookByEvents"),
            "webhook_base64": row.get("webhookBase64"),
        }
    )


def _websocket(row: dict[str, Any]) -> WebsocketSettings:
    return WebsocketSettings.model_validate(
        {k: row[k] for k in ("enabled", "events") if row.get(k) is not None}
    )


def _settings(data: Any) -> InstanceSettings:
    if not isinstance(data, dict):
        raise ValueError(_("expected an object, got {kind}").format(kind=type(data).__name__))
    return InstanceSettings.model_validate(
        {ours: data[theirs] for theirs, ours in _SETTINGS.items() if theirs in data}
    )


class V2Dialect(Dialect):
    line = "2"
    global_live_events = True
    events_never_sent: frozenset[str] = frozenset()

    def read_event(self, event: str, data: Any) -> Any:
        """A delivery mark (messages.update) names its message's id ``keyId``."""
        if event == "messages.update":
            marks = data if isinstance(data, list) else [data]
            return [
                {**one, "id": one["keyId"]}
                if isinstance(one, dict) and isinstance(one.get("keyId"), str)
                else one
                for one in marks
            ]
        return data

    label = "2.x"
    verbs = {
        "restart": "POST",
        "revoke_invite": "POST",
        "update_subject": "POST",
        "archive_chat": "POST",
        "update_message": "POST",
        "find_chats": "POST",
        "mark_read": "POST",
        "update_participants": "POST",
        "update_setting": "POST",
        "toggle_ephemeral": "POST",
        "update_description": "POST",
        "handle_label": "POST",
    }
    paged_messages = True
    footer_required = True
    sends_presence = False
    description_required = False
    event_names = EVENT_NAMES
    instance_fields_missing = frozenset(
        {"server_url", "profile_status", "wa_business_callback_url"}
    )
    # A 2.x row is about 1 kB (900 bytes recorded, the demo's 980) against 1.7.1's 440, the
    # most of it skipped (settings, token, times): the same 18,000-odd rows that make 8 MB of
    # 1.7.1 make 20 MB here and take as long to read. Below that the fast path holds the loop
    # no longer than 1.7.1's does; 10,000 rows (9.8 MB) go through it, as on 1.7.1.
    instances = ListReader(
        InstanceRow, off_loop_bytes=20 * 1024 * 1024, name_of=lambda raw: raw["name"]
    )

    # The conversation's bodies: flat, camelCase (as the 2.3.6 recordings and
    # src/validate/message.schema.ts have them); delay top-level, no presence.
    def _send_options(
        self, body: dict[str, Any], options: SendListOptions | None, quoted: Quote | None
    ) -> dict[str, Any]:
        if options is not None and options.delay:
            body["delay"] = options.delay
        if quoted is not None:
            body["quoted"] = quoted.to_json()
        return body

    def wire_name(self, field: str) -> str:
        return _WIRE_NAMES.get(field, field)

    def kind_body(
        self, number: str, kind: Any, *, delay: int | None = None, message_id: str | None = None
    ) -> dict[str, Any]:
        # Flat, as recorded (v2.3.7/911-962); 2.4 takes the sender's messageId beside them.
        body: dict[str, Any] = {"number": number, **kind.flat()}
        if delay:
            body["delay"] = delay
        if message_id:
            body["messageId"] = message_id
        return body

    def presence_body(self, number: str, presence: str, delay: int) -> dict[str, Any]:
        return {"number": number, "presence": presence, "delay": delay}

    def send_text_body(
        self, number: str, text: str, options: SendListOptions | None, quoted: Quote | None
    ) -> dict[str, Any]:
        return self._send_options({"number": number, "text": text}, options, quoted)

    def send_media_body(
        self,
        number: str,
        upload: MediaUpload,
        options: SendListOptions | None,
        quoted: Quote | None,
    ) -> dict[str, Any]:
        body: dict[str, Any] = {"number": number, "mediatype": upload.mediatype}
        body["media"] = upload.media
        if upload.caption:
            body["caption"] = upload.caption
        if upload.file_name:
            body["fileName"] = upload.file_name
        if upload.mimetype:
            body["mimetype"] = upload.mimetype
        return self._send_options(body, options, quoted)

    def send_reaction_body(self, key: MessageKey, reaction: str) -> dict[str, Any]:
        return {"key": key.to_json(), "reaction": reaction}

    def mark_read_body(self, keys: list[MessageKey]) -> dict[str, Any]:
        return {"readMessages": [key.to_json() for key in keys]}

    def read_single_instance(self, content: bytes) -> Instance:
        return InstanceRow.model_validate_json(content)

    def create_body(self, request: CreateInstanceRequest) -> dict[str, Any]:
        body = request.to_json()
        # 2.x refuses a create without it: 400 "Invalid integration".
        body.setdefault("integration", BAILEYS)
        return body

    def read_settings(self, content: bytes) -> InstanceSettings:
        return _settings(json.loads(content))

    def settings_body(self, settings: InstanceSettings) -> dict[str, Any]:
        # All six switches and msgCall, as recorded. wavoipToken is left out: the app does not
        # edit it, and the server keeps the stored one when the field is absent.
        body = {
            theirs: getattr(settings, ours)
            for theirs, ours in _SETTINGS.items()
            if ours != "wavoip_token"
        }
        body["msgCall"] = settings.msg_call or ""
        return body

    def read_settings_set(self, content: bytes) -> SettingsSetResult:
        data = json.loads(content)
        outer = data.get("settings") if isinstance(data, dict) else None
        inner = outer.get("settings") if isinstance(outer, dict) else None
        if isinstance(inner, dict):
            # SettingsSetResult.applied reads our names.
            outer = {**outer, "settings": _settings(inner).model_dump()}
        return SettingsSetResult.model_validate({"settings": outer} if outer else {})

    def send_list_body(self, request: SendListRequest) -> dict[str, Any]:
        message = request.list_message.to_json()
        body: dict[str, Any] = {"number": request.number}
        for field in ("title", "description", "buttonText", "footerText", "sections"):
            if message.get(field) not in (None, ""):
                body[field] = message[field]
        if request.options and request.options.delay is not None:
            body["delay"] = request.options.delay
        if request.message_id:
            body["messageId"] = request.message_id
        return body

    def send_list_problems(self, request: SendListRequest) -> list[Problem]:
        # No presence on 2.x: the gateway always shows "composing" during the delay.
        return validation.check_delay(request.options.delay) if request.options else []

    def update_message_number(self, chat: str) -> str:
        # As recorded: the digits of a person's chat (2.x builds the JID and compares it with
        # key.remoteJid); a group's JID as it is.
        return chat.split("@", 1)[0] if chat.endswith("@s.whatsapp.net") else chat

    def webhook_body(self, settings: WebhookSettings) -> dict[str, Any]:
        inner: dict[str, Any] = {
            "enabled": settings.enabled,
            "url": settings.url.strip(),
            "events": list(settings.events),
        }
        if settings.webhook_by_events is not None:
            inner["byEvents"] = settings.webhook_by_events
        if settings.webhook_base64 is not None:
            inner["base64"] = settings.webhook_base64
        return {"webhook": inner}

    def read_webhook(self, content: bytes) -> WebhookSettings:
        row = _object_or_none(content)
        return _webhook(row) if row else WebhookSettings()

    def read_webhook_set(self, content: bytes) -> WebhookSetResult:
        row = _object_or_none(content)
        return WebhookSetResult(
            webhook={"webhook": _webhook(row).model_dump(exclude_none=True)} if row else None
        )

    def websocket_body(self, settings: WebsocketSettings) -> dict[str, Any]:
        inner: dict[str, Any] = {"enabled": settings.enabled}
        if settings.enabled or settings.events:  # off: 2.x empties the list anyway
            inner["events"] = list(settings.events)
        return {"websocket": inner}

    def read_websocket(self, content: bytes) -> WebsocketSettings:
        row = _object_or_none(content)
        return _websocket(row) if row else WebsocketSettings()

    def read_websocket_set(self, content: bytes) -> WebsocketSetResult:
        row = _object_or_none(content)
        return WebsocketSetResult(
            websocket={"websocket": _websocket(row).model_dump()} if row else None
        )

    def find_chats_body(self) -> dict[str, Any] | None:
        return {}

    def read_chat(self, data: dict[str, Any]) -> StoredChat | None:
        # ``id`` is the row's own id; the chat is ``remoteJid``.
        jid = data.get("remoteJid")
        if not isinstance(jid, str) or not jid:
            return None
        last = data.get("lastMessage")
        stamp = parse_long(last.get("messageTimestamp")) if isinstance(last, dict) else None
        archived = data.get("archived")
        return StoredChat(
            id=jid,
            owner=None,
            last_timestamp=stamp,
            archived=archived if isinstance(archived, bool) else None,
            raw=data,
        )

    def contacts_body(self, jid: str | None) -> dict[str, Any]:
        return {"where": {"remoteJid": jid}} if jid else {}

    def read_contact(self, data: dict[str, Any]) -> Contact | None:
        jid = data.get("remoteJid")
        if not isinstance(jid, str) or not jid:
            return None
        return Contact.read({**data, "id": jid, "profilePictureUrl": data.get("profilePicUrl")})

    def read_status_row(self, data: dict[str, Any]) -> StatusRow | None:
        # A MessageUpdate row: ``keyId`` is the message's id, ``id`` the row's own.
        key_id = data.get("keyId")
        return StatusRow.read({**data, "id": key_id} if isinstance(key_id, str) else data)

    def messages_page(self, data: Any) -> tuple[list[Any], int, int | None]:
        messages = data.get("messages") if isinstance(data, dict) else None
        records = messages.get("records") if isinstance(messages, dict) else None
        if not isinstance(records, list):
            raise ValueError("expected {messages: {records: [...]}}")
        pages, total = messages.get("pages"), messages.get("total")
        if not isinstance(total, int) or isinstance(total, bool) or total < 0:
            total = None
        return records, pages if isinstance(pages, int) and pages > 0 else 1, total


LINE = V2Dialect()
