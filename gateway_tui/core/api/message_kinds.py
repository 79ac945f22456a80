"""The kinds of message beyond text, media and lists: voice notes, polls, locations, contact
cards, presence, and 2.4's buttons and carousels — what each carries, its checks as the real
server makes them, and its content for either line.

Each kind gives its content twice: ``flat()`` as 2.x takes it (top-level fields, the shape of
``../shared/recordings/v2.3.7/911–962``) and ``nested()`` as 1.7.1 takes it (under
``audioMessage``, ``pollMessage``, …, the shape of ``v1.7.1-more/079–087``). The dialects put
the number, delay and 2.4's ``messageId`` around it (``Dialect.kind_body``).

A check's message quotes the server's own words (the recorded 400s) after our own, so a user
reads both what to do and what the gateway would have answered.
"""

from __future__ import annotations

import mimetypes
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Any, Literal

from gateway_tui.core.api.errors import Problem
from gateway_tui.core.text.i18n import N_, _, number

# What the gateway's schemas allow (2.3.7 src/validate/message.schema.ts; 1.7.1 the same).
POLL_MIN_OPTIONS = 2
# The gateway refuses more than 10 ("values does not meet maximum length of 10"), although
# WhatsApp itself shows 12.
POLL_MAX_OPTIONS = 10
CONTACT_PHONE_MIN = 10
PRESENCES = ("available", "unavailable", "composing", "recording", "paused")
# How long a "typing…" sent while composing lasts (the gateway holds the request that long).
PRESENCE_DELAY_MS = 3000

# Voice notes: the gateway converts what it is given to ogg/opus with ffmpeg (2.x; 1.7.1 the
# same by default), so any common audio file works; these are the ones we let through.
VOICE_FORMATS = (".ogg", ".opus", ".mp3", ".m4a", ".aac", ".wav", ".amr", ".webm", ".oga")
VOICE_FORMATS_TEXT = N_("ogg/opus, mp3, m4a/aac, wav, amr or webm")  # _() where shown


def _server(problem: str, said: str) -> str:
    """Our words for a problem, then the gateway's own (``said``: its words, kept as they are)."""
    return _("{problem} (the gateway: {said})").format(problem=problem, said=said)


def guess_mimetype(file_name: str | None) -> str | None:
    """A file's mimetype from its name (``report.txt`` → ``text/plain``); None when unknown."""
    if not file_name:
        return None
    guessed, _encoding = mimetypes.guess_type(PurePath(file_name).name, strict=False)
    return guessed


@dataclass(frozen=True)
class VoiceNote:
    """A voice note: ``audio`` is the file in base64, or a URL the gateway downloads."""

    audio: str
    file_name: str | None = None

    def problems(self) -> list[Problem]:
        if not self.audio.strip():
            return [
                Problem("audio", _server(_("choose an audio file"), 'requires property "audio"'))
            ]
        if self.file_name and PurePath(self.file_name).suffix.lower() not in VOICE_FORMATS:
            return [
                Problem(
                    "audio",
                    _("a voice note is {formats}, not {file}").format(
                        formats=_(VOICE_FORMATS_TEXT), file=repr(self.file_name)
                    ),
                )
            ]
        return []

    def flat(self) -> dict[str, Any]:
        return {"audio": self.audio}

    def nested(self) -> dict[str, Any]:
        return {"audioMessage": {"audio": self.audio}}


@dataclass(frozen=True)
class Poll:
    name: str
    values: tuple[str, ...]
    selectable_count: int = 1  # 1: one choice; 0 or len(values): several

    def problems(self) -> list[Problem]:
        problems: list[Problem] = []
        if not self.name.strip():
            problems.append(Problem("name", _("the poll needs a question")))
        count = len(self.values)
        if count < POLL_MIN_OPTIONS:
            problems.append(
                Problem(
                    "values",
                    _server(
                        _("a poll needs at least {n} options").format(n=POLL_MIN_OPTIONS),
                        f"values does not meet minimum length of {POLL_MIN_OPTIONS}",
                    ),
                )
            )
        elif count > POLL_MAX_OPTIONS:
            problems.append(
                Problem(
                    "values",
                    _server(
                        _("the gateway takes at most {n} options").format(n=POLL_MAX_OPTIONS),
                        f"values does not meet maximum length of {POLL_MAX_OPTIONS}",
                    ),
                )
            )
        if any(not value.strip() for value in self.values):
            problems.append(Problem("values", _("an option cannot be empty")))
        if len(set(self.values)) != count:
            problems.append(
                Problem("values", _server(_("two options are the same"), "contains duplicate item"))
            )
        if not 0 <= self.selectable_count <= max(count, 1):
            problems.append(
                Problem("selectableCount", _("between 0 and {n}").format(n=number(count)))
            )
        return problems

    def flat(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "selectableCount": self.selectable_count,
            "values": list(self.values),
        }

    def nested(self) -> dict[str, Any]:
        return {"pollMessage": self.flat()}


@dataclass(frozen=True)
class Location:
    latitude: float
    longitude: float
    name: str = ""
    address: str = ""  # both always sent: the gateway requires them (recording 931)

    def problems(self) -> list[Problem]:
        problems: list[Problem] = []
        if not -90 <= self.latitude <= 90:
            problems.append(Problem("latitude", "between -90 and 90"))
        if not -180 <= self.longitude <= 180:
            problems.append(Problem("longitude", "between -180 and 180"))
        return problems

    def flat(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "address": self.address,
            "latitude": self.latitude,
            "longitude": self.longitude,
        }

    def nested(self) -> dict[str, Any]:
        return {"locationMessage": self.flat()}


@dataclass(frozen=True)
class ContactCard:
    full_name: str
    phone_number: str
    wuid: str | None = None
    organization: str | None = None
    email: str | None = None
    url: str | None = None

    def to_json(self) -> dict[str, Any]:
        card = {"fullName": self.full_name}
        if self.wuid:
            card["wuid"] = self.wuid
        card["phoneNumber"] = self.phone_number
        for name in ("organization", "email", "url"):
            if value := getattr(self, name):
                card[name] = value
        return card


@dataclass(frozen=True)
class ContactCards:
    cards: tuple[ContactCard, ...]

    def problems(self) -> list[Problem]:
        if not self.cards:
            return [Problem("contact", _("add at least one contact"))]
        problems: list[Problem] = []
        for index, card in enumerate(self.cards):
            where = f"contact[{index}]"
            if not card.full_name.strip():
                problems.append(Problem(f"{where}.fullName", _("a contact needs a name")))
            if len(card.phone_number) < CONTACT_PHONE_MIN:
                problems.append(
                    Problem(
                        f"{where}.phoneNumber",
                        _server(
                            _("a phone number with its country code"),
                            f"{where}.phoneNumber does not meet minimum length of "
                            f"{CONTACT_PHONE_MIN}",
                        ),
                    )
                )
        if len({repr(card) for card in self.cards}) != len(self.cards):
            problems.append(Problem("contact", _("the same contact is listed twice")))
        return problems

    def flat(self) -> dict[str, Any]:
        return {"contact": [card.to_json() for card in self.cards]}

    def nested(self) -> dict[str, Any]:
        return {"contactMessage": [card.to_json() for card in self.cards]}


def check_presence(presence: str, delay: int) -> list[Problem]:
    problems: list[Problem] = []
    if presence not in PRESENCES:
        problems.append(
            Problem("presence", _("one of {values}").format(values=", ".join(PRESENCES)))
        )
    if isinstance(delay, bool) or not isinstance(delay, int) or delay < 0:
        problems.append(Problem("delay", _("whole milliseconds, 0 or more")))
    return problems


# --- 2.4's interactive messages ----------------------------------------------------------

ButtonType = Literal["reply", "url", "call", "copy", "pix"]
CTA_TYPES = ("url", "call", "copy")
PIX_KEY_TYPES = ("phone", "email", "cpf", "cnpj", "random")
MAX_REPLY_BUTTONS = 3
MAX_CTA_BUTTONS = 2  # 2.4
CAROUSEL_MAX_CARDS = 10
CARD_MAX_BUTTONS = 3


@dataclass(frozen=True)
class Button:
    type: ButtonType
    display_text: str = ""
    id: str = ""  # reply
    url: str = ""  # url
    phone_number: str = ""  # call
    copy_code: str = ""  # copy
    # pix
    currency: str = "BRL"
    name: str = ""
    key_type: str = "random"
    key: str = ""

    def to_json(self) -> dict[str, Any]:
        if self.type == "pix":
            return {
                "type": "pix",
                "currency": self.currency,
                "name": self.name,
                "keyType": self.key_type,
                "key": self.key,
            }
        body: dict[str, Any] = {"type": self.type, "displayText": self.display_text}
        extra = {"reply": ("id", self.id), "url": ("url", self.url)}
        extra |= {"call": ("phoneNumber", self.phone_number), "copy": ("copyCode", self.copy_code)}
        name, value = extra[self.type]
        body[name] = value
        return body

    def problems(self, where: str) -> list[Problem]:
        if self.type == "pix":
            problems = [
                Problem(f"{where}.{name}", _("cannot be empty"))
                for name, value in (("name", self.name), ("key", self.key))
                if not value.strip()
            ]
            if self.key_type not in PIX_KEY_TYPES:
                problems.append(
                    Problem(
                        f"{where}.keyType",
                        _("one of {values}").format(values=", ".join(PIX_KEY_TYPES)),
                    )
                )
            return problems
        problems = []
        if not self.display_text.strip():
            problems.append(Problem(f"{where}.displayText", _("a button needs its text")))
        needed = {"reply": ("id", self.id), "url": ("url", self.url)}
        needed |= {"call": ("phoneNumber", self.phone_number)}
        needed |= {"copy": ("copyCode", self.copy_code)}
        name, value = needed[self.type]
        if not value.strip():
            problems.append(Problem(f"{where}.{name}", _("cannot be empty")))
        return problems


def button_rule(buttons: Sequence[Button], *, allow_pix: bool = True) -> str | None:
    """2.4's rule for a set of buttons, in its source's words (2.4.0-rc2); None when fine."""
    if not buttons:
        return "At least one button is required"
    kinds = [button.type for button in buttons]
    replies, pix = "reply" in kinds, "pix" in kinds
    cta = any(kind in CTA_TYPES for kind in kinds)
    if pix and not allow_pix:
        return "A carousel card has no PIX button"
    if replies and len(kinds) > MAX_REPLY_BUTTONS:
        return f"Maximum of {MAX_REPLY_BUTTONS} reply buttons allowed"
    if replies and (cta or pix):
        return "Reply buttons cannot be mixed with CTA or PIX buttons"
    if pix and len(kinds) > 1:
        return "Only one PIX button is allowed"
    if cta and len(kinds) > MAX_CTA_BUTTONS:
        return f"Maximum of {MAX_CTA_BUTTONS} CTA buttons allowed"
    return None


@dataclass(frozen=True)
class Buttons:
    title: str
    description: str = ""
    footer: str = ""
    buttons: tuple[Button, ...] = ()

    def problems(self) -> list[Problem]:
        problems: list[Problem] = []
        if rule := button_rule(self.buttons):
            problems.append(Problem("buttons", rule))
        pix_only = bool(self.buttons) and self.buttons[0].type == "pix"
        if not pix_only and not self.title.strip():
            problems.append(Problem("title", _("cannot be empty")))
        for index, button in enumerate(self.buttons):
            problems += button.problems(f"buttons[{index}]")
        return problems

    def flat(self) -> dict[str, Any]:
        body: dict[str, Any] = {"title": self.title}
        if self.description:
            body["description"] = self.description
        if self.footer:
            body["footer"] = self.footer
        body["buttons"] = [button.to_json() for button in self.buttons]
        return body


@dataclass(frozen=True)
class Card:
    body: str
    buttons: tuple[Button, ...]
    title: str = ""
    footer: str = ""
    image_url: str = ""

    def to_json(self) -> dict[str, Any]:
        card: dict[str, Any] = {}
        if self.title:
            card["title"] = self.title
        card["body"] = self.body
        if self.footer:
            card["footer"] = self.footer
        if self.image_url:
            card["imageUrl"] = self.image_url
        card["buttons"] = [button.to_json() for button in self.buttons]
        return card


@dataclass(frozen=True)
class Carousel:
    body: str
    cards: tuple[Card, ...] = field(default_factory=tuple)

    def problems(self) -> list[Problem]:
        problems: list[Problem] = []
        if not self.body.strip():
            problems.append(Problem("body", _("cannot be empty")))
        if not 1 <= len(self.cards) <= CAROUSEL_MAX_CARDS:
            problems.append(Problem("cards", _("1 to {n} cards").format(n=CAROUSEL_MAX_CARDS)))
        for index, card in enumerate(self.cards):
            where = f"cards[{index}]"
            if not card.body.strip():
                problems.append(Problem(f"{where}.body", _("cannot be empty")))
            if len(card.buttons) > CARD_MAX_BUTTONS:
                problems.append(
                    Problem(f"{where}.buttons", _("at most {n}").format(n=CARD_MAX_BUTTONS))
                )
            elif rule := button_rule(card.buttons, allow_pix=False):
                problems.append(Problem(f"{where}.buttons", rule))
            for b_index, button in enumerate(card.buttons):
                problems += button.problems(f"{where}.buttons[{b_index}]")
        return problems

    def flat(self) -> dict[str, Any]:
        return {"body": self.body, "cards": [card.to_json() for card in self.cards]}
