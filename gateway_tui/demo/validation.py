"""Request validation the way a 1.7.1 gateway does it, with the same error texts.

The real server validates bodies with JSON Schema and reports each failure as the validator's
"stack" text (``listMessage requires property "title"``) or, when the failing schema node has
a ``description``, that description. ``schema_errors`` implements the small subset of JSON
Schema the gateway's schemas use; ``notEmpty`` stands for the gateway's ``isNotEmpty`` helper.
"""

from __future__ import annotations

import json
import re
from typing import Any, NamedTuple

from gateway_tui.demo.data import GROUP_DOMAIN, PERSON_DOMAIN, SETTING_FLAGS


class SchemaError(NamedTuple):
    property: str  # "numbers[0]", "listMessage.title", or "instance" for the body itself
    message: str


_ROOT = "instance"

_TYPE_CHECKS = {
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    # JavaScript cannot tell 5.0 from 5, so neither does the real server.
    "integer": lambda v: (
        (isinstance(v, int) and not isinstance(v, bool))
        or (isinstance(v, float) and v.is_integer())
    ),
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
}


def _display(path: str) -> str:
    return path.removeprefix(_ROOT + ".")


def schema_errors(value: Any, schema: dict[str, Any], path: str = _ROOT) -> list[SchemaError]:
    """Every way ``value`` fails ``schema``, in the order the real validator reports them."""

    def fail(detail: str) -> list[SchemaError]:
        return [
            SchemaError(_display(path), schema.get("description") or f"{_display(path)} {detail}")
        ]

    expected = schema.get("type")
    if expected and not _TYPE_CHECKS[expected](value):
        errors = fail(f"is not of a type(s) {expected}")
        if "enum" in schema and value not in schema["enum"]:
            # A flag declared {type: boolean, enum: [true, false]} fails both ways.
            errors += fail(f"is not one of enum values: {_enum_text(schema['enum'])}")
        return errors
    errors: list[SchemaError] = []
    if isinstance(value, str):
        if "enum" in schema and value not in schema["enum"]:
            errors += fail(f"is not one of enum values: {_enum_text(schema['enum'])}")
        if len(value) < schema.get("minLength", 0):
            errors += fail(f"does not meet minimum length of {schema['minLength']}")
        if len(value) > schema.get("maxLength", len(value)):
            errors += fail(f"does not meet maximum length of {schema['maxLength']}")
        if "pattern" in schema and not re.search(schema["pattern"], value):
            # The validator writes the pattern with JSON.stringify.
            errors += fail(f"does not match pattern {json.dumps(schema['pattern'])}")
    if isinstance(value, int | float) and not isinstance(value, bool):
        if "enum" in schema and value not in schema["enum"]:
            errors += fail(f"is not one of enum values: {_enum_text(schema['enum'])}")
        if value < schema.get("minimum", value):
            errors += fail(f"must be greater than or equal to {schema['minimum']}")
        if value > schema.get("maximum", value):
            errors += fail(f"must be less than or equal to {schema['maximum']}")
    if isinstance(value, list):
        if len(value) < schema.get("minItems", 0):
            errors += fail(f"does not meet minimum length of {schema['minItems']}")
        if len(value) > schema.get("maxItems", len(value)):
            errors += fail(f"does not meet maximum length of {schema['maxItems']}")
        if schema.get("uniqueItems") and _has_duplicates(value):
            errors += fail("contains duplicate item")
        if "items" in schema:
            for index, item in enumerate(value):
                errors += schema_errors(item, schema["items"], f"{path}[{index}]")
    if isinstance(value, dict):
        for name in schema.get("required", ()):
            if name not in value:
                errors.append(
                    SchemaError(_display(path), f'{_display(path)} requires property "{name}"')
                )
        for name, child in schema.get("properties", {}).items():
            if name in value:
                errors += schema_errors(value[name], child, f"{path}.{name}")
        # isNotEmpty is an if/then on propertyNames: it applies only when EVERY key of the
        # object is in its list (a row {title, rowId} yes, a section {title, rows} never).
        not_empty = schema.get("notEmpty", ())
        if not_empty and set(value) <= set(not_empty):
            for name in not_empty:
                if value.get(name) == "":
                    errors.append(
                        SchemaError(_display(f"{path}.{name}"), f'The "{name}" cannot be empty')
                    )
    return errors


def _enum_text(values: list[Any]) -> str:
    """As JavaScript joins them: strings bare, true/false in lower case."""
    return ",".join(v if isinstance(v, str) else json.dumps(v) for v in values)


def _has_duplicates(items: list[Any]) -> bool:
    canonical = [json.dumps(item, sort_keys=True) for item in items]
    return len(set(canonical)) != len(canonical)


# ---------------------------------------------------------------- schemas

_STRING = {"type": "string"}
_BOOLEAN = {"type": "boolean"}
# A real 1.7.1 declares archive and the settings' flags with an enum too (two lines of error).
_FLAG = {"type": "boolean", "enum": [True, False]}

_MESSAGE_KEY = {
    "type": "object",
    "properties": {"id": _STRING, "remoteJid": _STRING, "fromMe": _BOOLEAN},
    "required": ["id", "fromMe", "remoteJid"],
    "notEmpty": ["id", "remoteJid"],
}


def list_sections(*, not_empty: bool) -> dict[str, Any]:
    """A list message's sections, as both lines validate them; 1.7.1 also refuses "" in a
    row's fields and a section's title (``not_empty``), 2.x does not."""
    row: dict[str, Any] = {
        "type": "object",
        "properties": {"title": _STRING, "description": _STRING, "rowId": _STRING},
        "required": ["title", "rowId"],
    }
    section: dict[str, Any] = {
        "type": "object",
        "properties": {
            "title": _STRING,
            "rows": {"type": "array", "minItems": 1, "uniqueItems": True, "items": row},
        },
        "required": ["title", "rows"],
    }
    if not_empty:
        row["notEmpty"] = ["title", "description", "rowId"]
        section["notEmpty"] = ["title"]
    return {"type": "array", "minItems": 1, "uniqueItems": True, "items": section}


PRESENCES = ["unavailable", "available", "composing", "recording", "paused"]

SEND_LIST = {
    "type": "object",
    "properties": {
        "number": {"type": "string", "description": "Invalid format"},
        "options": {
            "type": "object",
            "properties": {
                "delay": {"type": "integer", "description": "Enter a value in milliseconds"},
                "presence": {"type": "string", "enum": PRESENCES},
            },
        },
        "listMessage": {
            "type": "object",
            "properties": {
                "title": _STRING,
                "description": _STRING,
                "footerText": _STRING,
                "buttonText": _STRING,
                "sections": list_sections(not_empty=True),
            },
            "required": ["title", "description", "buttonText", "sections"],
            "notEmpty": ["title", "description", "buttonText", "footerText"],
        },
    },
    "required": ["number", "listMessage"],
}

_SEND_OPTIONS = {
    "type": "object",
    "properties": {
        "delay": {"type": "integer", "description": "Enter a value in milliseconds"},
        "presence": {"type": "string", "enum": PRESENCES},
        "quoted": {
            "type": "object",
            "properties": {"key": _MESSAGE_KEY, "message": {"type": "object"}},
            "required": ["key"],
        },
    },
}

SEND_TEXT = {
    "type": "object",
    "properties": {
        "number": {"type": "string", "description": "Invalid format"},
        "options": _SEND_OPTIONS,
        "textMessage": {
            "type": "object",
            "properties": {"text": _STRING},
            "required": ["text"],
            "notEmpty": ["text"],
        },
    },
    "required": ["number", "textMessage"],
}

MEDIA_TYPES = ["image", "document", "video", "audio"]

SEND_MEDIA = {
    "type": "object",
    "properties": {
        "number": {"type": "string", "description": "Invalid format"},
        "options": _SEND_OPTIONS,
        "mediaMessage": {
            "type": "object",
            "properties": {
                "mediatype": {"type": "string", "enum": MEDIA_TYPES},
                "media": _STRING,
                "fileName": _STRING,
                "caption": _STRING,
            },
            "required": ["mediatype", "media"],
            "notEmpty": ["fileName", "caption", "media"],
        },
    },
    "required": ["number", "mediaMessage"],
}

SEND_REACTION = {
    "type": "object",
    "properties": {
        "reactionMessage": {
            "type": "object",
            "properties": {"key": _MESSAGE_KEY, "reaction": _STRING},
            "required": ["key", "reaction"],
        },
    },
    "required": ["reactionMessage"],
}

MARK_READ = {
    "type": "object",
    "properties": {
        "read_messages": {"type": "array", "minItems": 1, "items": _MESSAGE_KEY},
    },
    "required": ["read_messages"],
}

MEDIA_OF = {
    "type": "object",
    "properties": {
        "message": {"type": "object", "properties": {"key": {"type": "object"}}},
        "convertToMp4": _BOOLEAN,
    },
    "required": ["message"],
}

ARCHIVE_CHAT = {
    "type": "object",
    "properties": {
        "chat": _STRING,
        "lastMessage": {
            "type": "object",
            "properties": {"key": _MESSAGE_KEY, "messageTimestamp": {"type": "integer"}},
            "required": ["key"],
        },
        "archive": _FLAG,
    },
    "required": ["archive"],
}

UPDATE_MESSAGE = {
    "type": "object",
    "properties": {"number": _STRING, "text": _STRING, "key": _MESSAGE_KEY},
    "required": ["number", "text", "key"],
    "notEmpty": ["number", "text", "key"],
}

FETCH_PROFILE = {"type": "object", "properties": {"number": _STRING}}

SETTINGS = {
    "type": "object",
    "properties": {**dict.fromkeys(SETTING_FLAGS, _FLAG), "msg_call": _STRING},
    "required": list(SETTING_FLAGS),
}

CREATE_INSTANCE = {
    "type": "object",
    "properties": {
        "instanceName": _STRING,
        "token": _STRING,
        "qrcode": _BOOLEAN,
        "integration": {"type": "string", "enum": ["WHATSAPP-BAILEYS", "WHATSAPP-BUSINESS"]},
    },
    "required": ["instanceName"],
    "notEmpty": ["instanceName"],
}

# Group endpoints: errors are reported per property ([{"property", "message"}]).
# As the real schema writes it (its "." is any character).
GROUP_JID_PATTERN = r"^[\d-]+@g.us$"
_GROUP_JID = {"type": "string", "pattern": GROUP_JID_PATTERN}

GROUP_ONLY = {"type": "object", "properties": {"groupJid": _GROUP_JID}, "required": ["groupJid"]}

UPDATE_GROUP_SUBJECT = {
    "type": "object",
    "properties": {"groupJid": _GROUP_JID, "subject": _STRING},
    "required": ["groupJid", "subject"],
    "notEmpty": ["groupJid", "subject"],
}

GET_PARTICIPANTS = {
    "type": "object",
    "properties": {"getParticipants": {"type": "string", "enum": ["true", "false"]}},
    "required": ["getParticipants"],
    "notEmpty": ["getParticipants"],
}

SEND_INVITE = {
    "type": "object",
    "properties": {
        "groupJid": _STRING,  # no pattern in the real schema
        "description": _STRING,
        "numbers": {
            "type": "array",
            "minItems": 1,
            "uniqueItems": True,
            "items": {
                "type": "string",
                # As the real schema: 10 characters or more holding a digit.
                "minLength": 10,
                "pattern": r"\d+",
                "description": '"numbers" must be an array of numeric strings',
            },
        },
    },
    "required": ["groupJid", "description", "numbers"],
    "notEmpty": ["groupJid", "description", "numbers"],
}

# What a real 1.7.1 server checks of whatsappNumbers (the items have no pattern: "abc" passes).
WHATSAPP_NUMBERS = {
    "type": "object",
    "properties": {
        "numbers": {
            "type": "array",
            "minItems": 1,
            "uniqueItems": True,
            "items": {
                "type": "string",
                "description": '"numbers" must be an array of numeric strings',
            },
        }
    },
}


# ---------------------------------------------------------------- numbers and JIDs

_JID_SUFFIXES = (PERSON_DOMAIN, GROUP_DOMAIN, "@lid", "@broadcast")


def create_jid(number: str) -> str:
    """Turn a number as sent by a client into a JID, as the real server's ``createJid`` does."""
    if any(suffix in number for suffix in _JID_SUFFIXES):
        return number
    number = re.sub(r"[\s+()]", "", number).split(":")[0].split("@")[0]
    if "-" in number and len(number) >= 24:
        return re.sub(r"[^\d-]", "", number) + GROUP_DOMAIN
    digits = re.sub(r"\D", "", number)
    # Long digit strings are old-style group ids.
    return digits + (GROUP_DOMAIN if len(digits) >= 18 else PERSON_DOMAIN)


def normalize_group_jid(value: str) -> str:
    """The server appends "@g.us" to a group id given without it."""
    return value if value.endswith(GROUP_DOMAIN) else value + GROUP_DOMAIN
