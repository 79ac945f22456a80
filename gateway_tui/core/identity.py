"""Who a JID is: the one rule for ``…@lid`` identities, for every face.

WhatsApp hides many numbers behind ``<digits>@lid`` identities. What a gateway may give beside one:

- a stored message's key (2.x, Baileys 7): ``remoteJidAlt`` (a chat) or ``participantAlt`` (a
  group member), with ``addressingMode: "lid"``; Baileys 6's events name it ``senderPn``;
- a group member (2.x): ``phoneNumber`` beside an ``@lid`` id, or ``lid`` beside a phone id;
- a contact row: a name for either form.

The rule, given the server's version and what is known:

- **show** the phone number when it is known, with the LID beside it; a LID alone says so;
- **search** by either: locally every known form matches (name, number, LID); on the server,
  2.3.7 and later match ``remoteJid`` or ``remoteJidAlt`` in findMessages' ``where.key``, so the
  phone JID finds both the old phone-stored and the new LID-stored messages; before 2.3.7 only
  the stored ``remoteJid`` matches, so each known form is asked for;
- **send** to the JID that works on that version: before 2.4.0-rc2 a send to an ``@lid``
  answers ``exists: false``, so the phone JID is used when known, and a LID without one is
  refused with the reason; 2.4.0-rc2 and later take the ``@lid`` as it is.

Plain Python: no pydantic, no httpx, no Textual (numbers shown by text/formatting.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from gateway_tui.core.text.i18n import _

LID_SUFFIX = "@lid"
PHONE_SUFFIX = "@s.whatsapp.net"
GROUP_SUFFIX = "@g.us"
CHANNEL_SUFFIX = "@newsletter"  # a WhatsApp channel: its digits are an id, not a phone number

_VERSION = re.compile(r"\s*v?(\d+)\.(\d+)(?:\.(\d+))?(?:-?([a-z]+)\.?(\d+)?)?", re.IGNORECASE)
# The first releases that do it.
SERVER_MATCHES_ALT = (2, 3, 7)
LID_SENDS_FROM = (2, 4, 0)
LID_SENDS_FROM_RC = 2  # 2.4.0-rc2 is the first 2.4 pre-release recorded taking an @lid


class NoRoute(ValueError):
    """There is no JID this server can send to for this identity (said in plain words)."""


def is_lid(jid: str | None) -> bool:
    return bool(jid) and jid.lower().endswith(LID_SUFFIX)  # type: ignore[union-attr]


def is_group(jid: str | None) -> bool:
    return bool(jid) and jid.lower().endswith(GROUP_SUFFIX)  # type: ignore[union-attr]


def is_channel(jid: str | None) -> bool:
    return bool(jid) and jid.lower().endswith(CHANNEL_SUFFIX)  # type: ignore[union-attr]


def channel_title(name: str | None) -> str:
    """What a channel's chat is called: its name, else plainly a channel (never a number)."""
    return name or _("channel")


def phone_digits(value: str | None) -> str | None:
    """The digits of a phone number or phone JID (``5511…@s.whatsapp.net``, ``…:12@…``,
    ``+55 11 …``); None for a LID, a group, a broadcast list or anything that is not one."""
    if not value:
        return None
    text = value.strip()
    lowered = text.lower()
    if "@" in text:
        if not (lowered.endswith(PHONE_SUFFIX) or lowered.endswith("@c.us")):
            return None
        text = text.split("@", 1)[0].split(":", 1)[0]
    digits = re.sub(r"[+\s()\-.]", "", text)
    return digits if digits.isdigit() and 6 <= len(digits) <= 15 else None


def phone_jid(digits: str) -> str:
    return f"{digits}{PHONE_SUFFIX}"


def version_tuple(version: str | None) -> tuple[int, int, int, int] | None:
    """``"2.4.0-rc2"`` → (2, 4, 0, 2); a release is (…, 1_000) (after every pre-release);
    None when the text is not a version."""
    match = _VERSION.match(version or "")
    if not match:
        return None
    major, minor, patch = int(match[1]), int(match[2]), int(match[3] or 0)
    if match[4]:
        return major, minor, patch, int(match[5] or 0)
    return major, minor, patch, 1_000


def server_matches_alt(version: str | None) -> bool:
    """Does findMessages match ``remoteJidAlt`` as well as ``remoteJid`` (2.3.7 and later)."""
    parsed = version_tuple(version)
    return parsed is not None and parsed[:3] >= SERVER_MATCHES_ALT


def sends_to_lid(version: str | None) -> bool:
    """Does a send to an ``…@lid`` JID reach the person (2.4.0-rc2 and later); before, the
    gateway answers ``exists: false``. Unknown version: no (the phone JID is the safe one)."""
    parsed = version_tuple(version)
    if parsed is None:
        return False
    if parsed[:3] != LID_SENDS_FROM:
        return parsed[:3] > LID_SENDS_FROM
    return parsed[3] >= LID_SENDS_FROM_RC


@dataclass(frozen=True, slots=True)
class Identity:
    """One person (or group) as far as it is known: the JID the gateway named it by, its
    phone digits and its LID when known, and a name."""

    jid: str
    phone: str | None = None
    lid: str | None = None
    name: str | None = None

    @property
    def phone_jid(self) -> str | None:
        return phone_jid(self.phone) if self.phone else None

    @property
    def hidden_number(self) -> bool:
        """A LID whose number WhatsApp did not give."""
        return self.lid is not None and self.phone is None

    @property
    def number_text(self) -> str:
        """The phone number to show ("" when unknown)."""
        # Imported here: text/formatting reads core/api, whose models read this module.
        from gateway_tui.core.text.formatting import format_number

        return format_number(self.phone) if self.phone else ""

    def label(self) -> str:
        """What to show for it: ``+55 11 98700-1234 · 2056…@lid``, the number alone, or
        ``2056…@lid (number hidden)``; a group or anything else: its JID."""
        if self.phone and self.lid:
            return f"{self.number_text} · {self.lid}"
        if self.phone:
            return self.number_text
        if self.lid:
            return _("{lid} (number hidden)").format(lid=self.lid)
        return self.jid

    def title(self) -> str:
        """The name when there is one, else the label."""
        return f"{self.name} ({self.label()})" if self.name else self.label()

    def forms(self) -> tuple[str, ...]:
        """Every form it is known by (for local search and matching chats)."""
        found = [self.jid]
        for value in (self.lid, self.phone_jid, self.phone):
            if value and value not in found:
                found.append(value)
        return tuple(found)

    def matches(self, text: str) -> bool:
        """Search by name, number (however written) or LID: a part of any of them."""
        needle = text.strip().lower()
        if not needle:
            return True
        if self.name and needle in self.name.lower():
            return True
        digits = re.sub(r"[+\s()\-.]", "", needle)
        if digits.isdigit() and self.phone and digits in self.phone:
            return True
        return any(needle in form.lower() for form in self.forms())

    def send_jid(self, version: str | None) -> str:
        """The JID a send (text, list, media, reply, label) goes to on a gateway of
        ``version``. Raises NoRoute when the gateway cannot reach a LID and no number is
        known."""
        if self.lid is None or is_group(self.jid):
            return self.jid
        if sends_to_lid(version):
            return self.lid
        if self.phone:
            return phone_jid(self.phone)
        if version:
            said = _(
                "{lid}: WhatsApp hides this contact's number, and this gateway ({version}) "
                "cannot send to an @lid address (Evolution API before 2.4.0-rc2 answers exists: "
                "false). Reply in the chat once they write, or use a 2.4 gateway."
            )
        else:
            said = _(
                "{lid}: WhatsApp hides this contact's number, and this gateway cannot send to "
                "an @lid address (Evolution API before 2.4.0-rc2 answers exists: false). "
                "Reply in the chat once they write, or use a 2.4 gateway."
            )
        raise NoRoute(said.format(lid=self.lid, version=version))

    def message_filters(self, version: str | None) -> list[dict[str, str]]:
        """The ``where.key`` filters that find this chat's messages on the server: one on 2.3.7
        and later (the phone JID matches ``remoteJid`` or ``remoteJidAlt``), else one per
        stored form."""
        if server_matches_alt(version) and self.phone_jid:
            return [{"remoteJid": self.phone_jid}]
        stored = [self.jid] + [form for form in (self.lid, self.phone_jid) if form]
        unique = list(dict.fromkeys(stored))
        return [{"remoteJid": jid} for jid in unique]


class Identities:
    """What is known of who is who on one instance: LID ↔ phone pairs and names, learnt from
    message keys, group members and contacts. ``resolve`` gives the Identity of any JID."""

    def __init__(self) -> None:
        self._phone_of_lid: dict[str, str] = {}
        self._lid_of_phone: dict[str, str] = {}
        self._names: dict[str, str] = {}

    def __len__(self) -> int:
        return len(self._phone_of_lid)

    # --- learning

    def pair(self, lid: str | None, phone: str | None) -> None:
        """Learn that ``lid`` is the number ``phone`` (digits or a phone JID)."""
        digits = phone_digits(phone)
        if not is_lid(lid) or digits is None:
            return
        self._phone_of_lid[lid.lower()] = digits  # type: ignore[union-attr]
        self._lid_of_phone[digits] = lid.lower()  # type: ignore[union-attr]

    def name(self, jid: str | None, name: str | None) -> None:
        if jid and name and name.strip():
            self._names[jid.lower()] = name.strip()

    def learn_key(self, key: Mapping[str, Any]) -> None:
        """A message key (stored or live): ``remoteJid``/``remoteJidAlt``, ``participant``/
        ``participantAlt``, Baileys 6's ``senderPn`` and ``senderLid``."""

        def text(field: str) -> str | None:
            value = key.get(field)
            return value if isinstance(value, str) and value else None

        for own, alt in (("remoteJid", "remoteJidAlt"), ("participant", "participantAlt")):
            first, second = text(own), text(alt)
            if is_lid(first):
                self.pair(first, second)
            elif is_lid(second):
                self.pair(second, first)
        sender_pn, sender_lid = text("senderPn"), text("senderLid")
        remote = text("remoteJid")
        if sender_pn:
            self.pair(sender_lid or (remote if is_lid(remote) else None), sender_pn)

    def learn_message(self, message: Any) -> None:
        """A StoredMessage (core/api/chat_models.py): its sender and the phone JID beside it,
        and the sender's pushName for a received one."""
        sender = message.participant or message.remote_jid
        if message.alt:
            self.pair(sender, message.alt)
        if not message.from_me:
            self.name(sender, message.sender_name)

    def learn_participant(self, member: Any) -> None:
        """A group member: a pydantic Participant or its JSON (``id``, ``phoneNumber``,
        ``lid``, ``name``)."""
        get = member.get if isinstance(member, Mapping) else lambda f: getattr(member, f, None)
        jid = get("id")
        phone = get("phoneNumber") if isinstance(member, Mapping) else get("phone_number")
        lid = get("lid")
        if is_lid(jid):
            self.pair(jid, phone)
        elif is_lid(lid):
            self.pair(lid, jid)
        self.name(jid, get("name"))

    def learn_contact_row(self, jid: str, raw: Mapping[str, Any], name: str | None) -> None:
        """A findContacts / findChats row: a number beside a LID (``remoteJidAlt``,
        ``phoneNumber``, ``senderPn``, ``lid``), and its name."""
        for field in ("remoteJidAlt", "phoneNumber", "senderPn", "lid"):
            other = raw.get(field)
            if isinstance(other, str):
                lid, phone = (jid, other) if is_lid(jid) else (other, jid)
                self.pair(lid, phone)
        self.name(jid, name)

    def learn_contacts(self, contacts: Iterable[tuple[str, str | None]]) -> None:
        """(jid, name) of the store's contacts."""
        for jid, name in contacts:
            self.name(jid, name)

    # --- asking

    def phone_of(self, jid: str) -> str | None:
        if is_lid(jid):
            return self._phone_of_lid.get(jid.lower())
        return phone_digits(jid)

    def resolve(self, jid: str, *, phone: str | None = None, name: str | None = None) -> Identity:
        """The Identity of ``jid`` with all that is known (``phone``: a number given beside it
        right now, e.g. a member's ``phoneNumber``)."""
        if phone and is_lid(jid):
            self.pair(jid, phone)
        if is_group(jid):
            return Identity(jid, name=name or self._names.get(jid.lower()))
        if is_lid(jid):
            lid: str | None = jid
            digits = self._phone_of_lid.get(jid.lower())
        else:
            digits = phone_digits(jid)
            lid = self._lid_of_phone.get(digits) if digits else None
        known_name = name or self._names.get(jid.lower())
        if known_name is None and lid:
            known_name = self._names.get(lid.lower())
        if known_name is None and digits:
            known_name = self._names.get(phone_jid(digits).lower())
        return Identity(jid, phone=digits, lid=lid, name=known_name)

    def same(self, first: str, second: str) -> bool:
        """Do two JIDs name one person (a LID and its number count as one)?"""
        if first.lower() == second.lower():
            return True
        one, other = self.phone_of(first), self.phone_of(second)
        return one is not None and one == other
