"""The request bodies of the conversation's calls, one small function per route, and the few
values they carry (a quote, a file to send, a downloaded file).

Shaped as a 1.7.1 server wants them (checked against its recordings in tests/recorded): nested
and snake_case — ``textMessage.text``, ``mediaMessage{…}``, ``reactionMessage{key,reaction}``,
``read_messages[]``. A 2.x server wants them flat (``text``, ``mediatype``, ``key``,
``readMessages``): each function is the one place to change for that line.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from typing import Any, Literal

from gateway_tui.core.api.models import MessageKey, SendListOptions

MediaType = Literal["image", "video", "document", "audio"]
MEDIA_TYPES: tuple[MediaType, ...] = ("image", "video", "document", "audio")

# What WhatsApp carries: 16 MB for photos, videos and audio, 100 MB for documents. Checked
# before anything is read or sent, so a file too big costs no upload.
MEDIA_LIMITS: dict[str, int] = {
    "image": 16 * 1024 * 1024,
    "video": 16 * 1024 * 1024,
    "audio": 16 * 1024 * 1024,
    "document": 100 * 1024 * 1024,
}


@dataclass(frozen=True)
class Quote:
    """The message a reply quotes: its key and what it said (the server shows both)."""

    key: MessageKey
    text: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key.to_json(), "message": {"conversation": self.text}}


@dataclass(frozen=True)
class MediaUpload:
    """A file to send: ``media`` is its content in base64 (or a URL the server downloads)."""

    mediatype: MediaType
    media: str
    file_name: str | None = None
    caption: str | None = None
    mimetype: str | None = None  # a document's, guessed from its name


@dataclass(frozen=True)
class MediaFile:
    """A message's media as getBase64FromMediaMessage answers it, decoded."""

    content: bytes
    mimetype: str | None
    file_name: str | None
    media_type: str | None

    @classmethod
    def read(cls, data: Any) -> MediaFile | None:
        """None when the answer holds no readable base64 (the caller says so)."""
        if not isinstance(data, dict) or not isinstance(data.get("base64"), str):
            return None
        try:
            content = base64.b64decode(data["base64"], validate=True)
        except (binascii.Error, ValueError):
            return None

        def text(name: str) -> str | None:
            value = data.get(name)
            return value if isinstance(value, str) and value else None

        return cls(content, text("mimetype"), text("fileName"), text("mediaType"))


def _options(options: SendListOptions | None, quoted: Quote | None) -> dict[str, Any]:
    result = options.to_json() if options is not None else {}
    if quoted is not None:
        result["quoted"] = quoted.to_json()
    return result


def send_text_body(
    number: str, text: str, options: SendListOptions | None, quoted: Quote | None
) -> dict[str, Any]:
    body: dict[str, Any] = {"number": number, "textMessage": {"text": text}}
    if extra := _options(options, quoted):
        body["options"] = extra
    return body


def send_media_body(
    number: str, upload: MediaUpload, options: SendListOptions | None, quoted: Quote | None
) -> dict[str, Any]:
    media: dict[str, Any] = {"mediatype": upload.mediatype, "media": upload.media}
    if upload.caption:
        media["caption"] = upload.caption
    if upload.file_name:
        media["fileName"] = upload.file_name
    if upload.mimetype:
        media["mimetype"] = upload.mimetype
    body: dict[str, Any] = {"number": number, "mediaMessage": media}
    if extra := _options(options, quoted):
        body["options"] = extra
    return body


def send_reaction_body(key: MessageKey, reaction: str) -> dict[str, Any]:
    return {"reactionMessage": {"key": key.to_json(), "reaction": reaction}}


def mark_read_body(keys: list[MessageKey]) -> dict[str, Any]:
    return {"read_messages": [key.to_json() for key in keys]}


def media_base64_body(message_id: str) -> dict[str, Any]:
    return {"message": {"key": {"id": message_id}}, "convertToMp4": False}
