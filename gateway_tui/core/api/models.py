"""pydantic models for every request and response of the gateway interface 1.7.1.

Responses are liberal: extra fields are kept, optional fields may be absent, and enum-like values
(instance status, message status, listType, admin role) stay plain strings — an unknown value is
kept and shown, never an error. The ``*_kind`` properties map them onto our enums.
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Annotated, Any, TypeVar

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    TypeAdapter,
    field_validator,
    model_serializer,
    model_validator,
)

from gateway_tui.core.text.i18n import N_, _


class InstanceStatus(StrEnum):
    OPEN = "open"
    CONNECTING = "connecting"
    CLOSE = "close"
    REFUSED = "refused"
    UNKNOWN = "unknown"


class MessageStatus(StrEnum):
    ERROR = "ERROR"
    PENDING = "PENDING"
    SERVER_ACK = "SERVER_ACK"
    DELIVERY_ACK = "DELIVERY_ACK"
    READ = "READ"
    DELETED = "DELETED"
    PLAYED = "PLAYED"
    UNKNOWN = "UNKNOWN"


class ParticipantRole(StrEnum):
    SUPERADMIN = "superadmin"
    ADMIN = "admin"
    MEMBER = "member"
    UNKNOWN = "unknown"


class Presence(StrEnum):
    UNAVAILABLE = "unavailable"
    AVAILABLE = "available"
    COMPOSING = "composing"
    RECORDING = "recording"
    PAUSED = "paused"


_E = TypeVar("_E", bound=StrEnum)


def _kind(enum: type[_E], raw: str | None, unknown: _E) -> _E:
    try:
        return enum(raw)
    except ValueError:
        return unknown


_JID_USER = re.compile(r"^([0-9]+)")


def _scalar_as_text(value: Any) -> Any:
    """An enum-like value seen as a number (or true/false) is kept as text, not refused."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    return value


# A string field fed by a server that is not always consistent about its type.
Text = Annotated[str, BeforeValidator(_scalar_as_text)]


def _json_string(value: Any) -> Any:
    """A value stored as JSON text on one server and as an object on another: kept as text;
    anything else (a number, say) is dropped rather than refusing the whole row."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, dict | list):
        import json

        try:
            return json.dumps(value)[:4096]
        except (TypeError, ValueError, RecursionError):
            return None
    return None


def jid_number(jid: str | None) -> str:
    """The digits of a ``<number>@domain`` JID ("" when there are none)."""
    match = _JID_USER.match(jid or "")
    return match.group(1) if match else ""


class _Response(BaseModel):
    """Base of response models: keep unknown fields, accept camelCase or our names."""

    model_config = ConfigDict(extra="allow", populate_by_name=True, frozen=True)


class _Request(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True, frozen=True)

    def to_json(self) -> dict[str, Any]:
        return self.model_dump(by_alias=True, exclude_none=True, mode="json")


# --- shared ---------------------------------------------------------------------------------------


class MessageKey(_Response):
    remote_jid: str = Field(alias="remoteJid")
    from_me: bool = Field(default=False, alias="fromMe")
    id: str

    def to_json(self) -> dict[str, Any]:
        return self.model_dump(by_alias=True, include={"remote_jid", "from_me", "id"})


# --- instances ------------------------------------------------------------------------------------


class _Listed(_Response):
    """Items of fetchInstances, which may list 10,000: unknown fields are dropped, not kept.

    Keeping them cost a third of the parse time, and what a server adds there includes secrets
    (the instance's own key, its integration token, chatwoot credentials) this app never uses —
    so it does not hold them at all.
    """

    model_config = ConfigDict(extra="ignore", populate_by_name=True, frozen=True)


class Integration(_Listed):
    integration: str | None = None
    webhook_wa_business: str | None = None


class Instance(_Listed):
    instance_name: str = Field(alias="instanceName")
    instance_id: str | None = Field(default=None, alias="instanceId")
    status: Text = "unknown"
    owner: str | None = None
    profile_name: str | None = Field(default=None, alias="profileName")
    profile_picture_url: str | None = Field(default=None, alias="profilePictureUrl")
    profile_status: str | None = Field(default=None, alias="profileStatus")
    server_url: str | None = Field(default=None, alias="serverUrl")
    integration: Integration | None = None
    # Known on the 2.x line only (None on 1.7.1).
    number: str | None = None
    disconnection_reason_code: Text | None = Field(default=None, alias="disconnectionReasonCode")
    disconnection_at: str | None = Field(default=None, alias="disconnectionAt")
    # The WhatsApp library's error, as a JSON string on 2.3.x (core/fleet/reasons.py reads it).
    disconnection_object: Annotated[str | None, BeforeValidator(_json_string)] = Field(
        default=None, alias="disconnectionObject"
    )
    message_count: int | None = None
    contact_count: int | None = None
    chat_count: int | None = None

    @field_validator("status", mode="before")
    @classmethod
    def _status_or_unknown(cls, value: Any) -> Any:
        return "unknown" if value is None else value

    @property
    def status_kind(self) -> InstanceStatus:
        return _kind(InstanceStatus, self.status, InstanceStatus.UNKNOWN)

    @property
    def owner_number(self) -> str:
        return jid_number(self.owner)

    @property
    def integration_name(self) -> str | None:
        return self.integration.integration if self.integration else None

    @property
    def wa_business_callback_url(self) -> str | None:
        """Where the gateway receives WhatsApp Business (Cloud API) events for this instance.

        Not the instance's own webhook (the URL the gateway posts events to).
        """
        return self.integration.webhook_wa_business if self.integration else None


class InstanceEnvelope(_Listed):
    """fetchInstances wraps each instance in an object with one property, ``instance``."""

    instance: Instance

    @model_validator(mode="before")
    @classmethod
    def _wrap_bare_instance(cls, data: Any) -> Any:
        # Liberal: some servers list the instance objects without the envelope.
        if isinstance(data, dict) and "instance" not in data and "instanceName" in data:
            return {"instance": data}
        return data


class DeleteResult(_Response):
    status: str | None = None
    error: bool | None = None
    response: dict[str, Any] | None = None

    @property
    def message(self) -> str:
        msg = (self.response or {}).get("message")
        return msg if isinstance(msg, str) else _("Instance deleted")


class LogoutResult(_Response):
    status: str | None = None
    error: bool | None = None
    response: dict[str, Any] | None = None


class ConnectionState(_Response):
    instance: dict[str, Any] | None = None

    @property
    def state(self) -> str | None:
        return (self.instance or {}).get("state")


# --- settings -------------------------------------------------------------------------------------

# The settings' names as shown (N_: translated where drawn, with _()).
SETTING_LABELS: dict[str, str] = {
    "reject_call": N_("Reject incoming calls"),
    "groups_ignore": N_("Ignore group messages"),
    "always_online": N_("Always online"),
    "read_messages": N_("Mark messages as read"),
    "read_status": N_("Read status updates"),
    "sync_full_history": N_("Sync full history"),
}


class InstanceSettings(_Response):
    reject_call: bool = False
    groups_ignore: bool = False
    always_online: bool = False
    read_messages: bool = False
    read_status: bool = False
    sync_full_history: bool = False
    msg_call: str | None = None
    # 2.x only: the key of a calls service (wavoip). A secret: never shown, never in a repr.
    wavoip_token: str | None = Field(default=None, repr=False, exclude=True)

    def to_json(self) -> dict[str, Any]:
        return self.model_dump(include={*SETTING_LABELS, "msg_call"}, exclude_none=True)


class SettingsSetResult(_Response):
    settings: dict[str, Any] | None = None

    @property
    def applied(self) -> InstanceSettings | None:
        inner = (self.settings or {}).get("settings")
        return InstanceSettings.model_validate(inner) if isinstance(inner, dict) else None


# --- groups ---------------------------------------------------------------------------------------


class Participant(_Response):
    """A group member. ``id`` may be a WhatsApp ``…@lid`` identifier (2.x, Baileys 7) with the
    phone number beside it (``phoneNumber``) or not at all."""

    id: str
    admin: Text | None = None
    name: str | None = None
    lid: str | None = None
    phone_number: str | None = Field(default=None, alias="phoneNumber")

    @property
    def is_lid(self) -> bool:
        return self.id.endswith("@lid")

    @property
    def role(self) -> ParticipantRole:
        if self.admin is None or self.admin == "":
            return ParticipantRole.MEMBER
        return _kind(ParticipantRole, self.admin, ParticipantRole.UNKNOWN)

    @property
    def number(self) -> str:
        """The phone number; "" for a LID member whose number the gateway did not give."""
        if self.is_lid:
            return jid_number(self.phone_number)
        return jid_number(self.id)

    @property
    def is_admin(self) -> bool:
        return self.role in (ParticipantRole.ADMIN, ParticipantRole.SUPERADMIN)


class ParticipantList(_Response):
    participants: list[Participant] = Field(default_factory=list)


class InviteCode(_Response):
    invite_url: str | None = Field(default=None, alias="inviteUrl")
    invite_code: str | None = Field(default=None, alias="inviteCode")

    @property
    def url(self) -> str:
        if self.invite_url:
            return self.invite_url
        return f"https://chat.whatsapp.com/{self.invite_code}" if self.invite_code else ""


class RevokeResult(_Response):
    revoked: bool | None = None
    invite_code: str | None = Field(default=None, alias="inviteCode")


class GroupInviteResult(_Response):
    send: bool | None = None
    invite_url: str | None = Field(default=None, alias="inviteUrl")


class SubjectUpdateResult(_Response):
    update: str | None = None


class GroupSummary(_Response):
    id: str
    subject: str | None = None
    size: int | None = None
    owner: str | None = None
    desc: str | None = None
    creation: int | None = None

    @field_validator("size", "creation", mode="before")
    @classmethod
    def _int_or_none(cls, value: Any) -> Any:
        # Servers send these as numbers or numeric strings; anything else is unknown, not an error.
        if isinstance(value, bool):
            return None
        if isinstance(value, int | None):
            return value
        try:
            return int(value)
        except (TypeError, ValueError, OverflowError):  # OverflowError: a JSON 1e400 is inf
            return None


# --- messages -------------------------------------------------------------------------------------


class ListRow(_Request):
    title: str
    description: str = ""
    row_id: str = Field(alias="rowId")

    @model_serializer(mode="wrap")
    def _without_empty_description(self, handler: SerializerFunctionWrapHandler) -> Any:
        # Optional means left out: a real 1.7.1 refuses "" in every field of a row (400).
        data = handler(self)
        if isinstance(data, dict) and not self.description:
            data.pop("description", None)
        return data


class ListSection(_Request):
    title: str
    rows: list[ListRow]


class ListMessage(_Request):
    title: str
    description: str
    button_text: str = Field(alias="buttonText")
    footer_text: str | None = Field(default=None, alias="footerText")
    sections: list[ListSection]


class SendListOptions(_Request):
    delay: int | None = None
    presence: Presence | None = None


class SendListRequest(_Request):
    number: str
    list_message: ListMessage = Field(alias="listMessage")
    options: SendListOptions | None = None
    # 2.4: the message's id, chosen by the sender (a campaign fixes it in its journal first).
    message_id: str | None = Field(default=None, alias="messageId")

    @property
    def delay_ms(self) -> int:
        return (self.options.delay or 0) if self.options else 0


class SentListContent(_Response):
    title: str | None = None
    description: str | None = None
    button_text: str | None = Field(default=None, alias="buttonText")
    footer_text: str | None = Field(default=None, alias="footerText")
    list_type: Text | None = Field(default=None, alias="listType")
    sections: list[dict[str, Any]] = Field(default_factory=list)


class SentMessageContent(_Response):
    list_message: SentListContent | None = Field(default=None, alias="listMessage")


class SentMessage(_Response):
    key: MessageKey | None = None
    message: SentMessageContent = Field(default_factory=SentMessageContent)
    message_timestamp: str | None = Field(default=None, alias="messageTimestamp")
    status: Text | None = None

    @field_validator("message_timestamp", mode="before")
    @classmethod
    def _timestamp_text(cls, value: Any) -> Any:
        # Documented as numeric text; some servers send a number. Keep it as text either way.
        return (
            str(value) if isinstance(value, int | float) and not isinstance(value, bool) else value
        )

    @property
    def status_kind(self) -> MessageStatus:
        return _kind(MessageStatus, self.status, MessageStatus.UNKNOWN)


class ArchiveResult(_Response):
    chat_id: str | None = Field(default=None, alias="chatId")
    archived: bool | None = None


class BusinessProfile(_Response):
    wuid: str | None = None
    name: str | None = None
    number_exists: bool | None = Field(default=None, alias="numberExists")
    picture: str | None = None
    status: Any = None
    is_business: bool | None = Field(default=None, alias="isBusiness")
    email: str | None = None
    description: str | None = None
    website: Any = None

    @property
    def status_text(self) -> str | None:
        # Seen as a string and as {"status": "...", "setAt": ...}.
        if isinstance(self.status, dict):
            inner = self.status.get("status")
            return inner if isinstance(inner, str) else None
        return self.status if isinstance(self.status, str) else None

    @property
    def websites(self) -> list[str]:
        if isinstance(self.website, str):
            return [self.website] if self.website else []
        if isinstance(self.website, list):
            return [w for w in self.website if isinstance(w, str) and w]
        return []


class NumberOnWhatsApp(_Response):
    """One answer of whatsappNumbers: does this number (or group) exist on WhatsApp."""

    exists: bool = False
    jid: str = ""
    number: Text | None = None
    name: str | None = None


# Built once at import: validating straight from bytes is the fast path for large lists.
INSTANCE_LIST = TypeAdapter(list[InstanceEnvelope])
GROUP_LIST = TypeAdapter(list[GroupSummary])
NUMBERS_ON_WHATSAPP = TypeAdapter(list[NumberOnWhatsApp])


class ServerInfo(_Response):
    """GET /: the gateway's welcome. ``version`` tells the line ("1.7.1", "2.3.6")."""

    version: Text | None = None
    client_name: str | None = Field(default=None, alias="clientName")
    whatsapp_web_version: str | None = Field(default=None, alias="whatsappWebVersion")
