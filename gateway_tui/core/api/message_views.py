"""What the conversation draws of a stored message beyond its one line: a poll's options (and
votes where the server gives them), a location's coordinates and map link, contact cards, a
voice note's length, a document's mimetype and size, and which messages were deleted or
reacted to.

Read from what the store keeps (``StoredMessage.content``, as Baileys wrote it); every reader
is liberal like ``chat_models``: a field of the wrong type reads as absent, never raises.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from gateway_tui.core.api.chat_models import StoredMessage, parse_long
from gateway_tui.core.text.i18n import _, decimal, ngettext, number

POLL_KINDS = ("pollCreationMessage", "pollCreationMessageV2", "pollCreationMessageV3")


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) and value.strip() else None


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


@dataclass(frozen=True)
class PollView:
    question: str
    options: tuple[str, ...]
    selectable: int  # 0: any number of choices
    votes: dict[str, int] | None = None  # per option, when the server told them
    votes_note: str | None = None  # why no votes are shown (the version cannot tell them)

    @property
    def several(self) -> bool:
        return self.selectable != 1

    def lines(self) -> list[str]:
        if self.several:
            head = _("📊 {question} (several choices)").format(question=self.question)
        else:
            head = f"📊 {self.question}"
        rows = [head]
        for option in self.options:
            count = self.votes.get(option, 0) if self.votes is not None else None
            if count is None:
                rows.append(f"  ○ {option}")
                continue
            said = ngettext("{n} vote", "{n} votes", count).format(n=number(count))
            rows.append(f"  ○ {option}  {said}")
        if self.votes is None and self.votes_note:
            rows.append(f"  {self.votes_note}")
        return rows


@dataclass(frozen=True)
class LocationView:
    latitude: float
    longitude: float
    name: str | None
    address: str | None

    @property
    def map_link(self) -> str:
        return (
            f"https://www.openstreetmap.org/?mlat={self.latitude:.6f}&mlon={self.longitude:.6f}"
            f"#map=17/{self.latitude:.6f}/{self.longitude:.6f}"
        )

    def lines(self) -> list[str]:
        rows = ["📍 " + (self.name or _("Location"))]
        if self.address:
            rows.append(f"  {self.address}")
        rows.append(f"  {self.latitude:.5f}, {self.longitude:.5f}")
        rows.append(f"  {self.map_link}")
        return rows


@dataclass(frozen=True)
class ContactView:
    name: str
    phones: tuple[str, ...]


_TEL = re.compile(r"^(?:item\d+\.)?TEL[^:]*:(.*)$", re.IGNORECASE | re.MULTILINE)
_WAID = re.compile(r"waid=([0-9]+)")


def _card(body: dict[str, Any]) -> ContactView:
    vcard = _str(body.get("vcard")) or ""
    phones = []
    for match in _TEL.finditer(vcard):
        line = match.group(0)
        waid = _WAID.search(line)
        phones.append(match.group(1).strip() or (waid.group(1) if waid else ""))
    name = _str(body.get("displayName")) or _("Contact")
    return ContactView(name, tuple(p for p in phones if p))


def contact_cards(message: StoredMessage) -> list[ContactView]:
    if message.kind == "contactMessage":
        return [_card(message.body)]
    if message.kind == "contactsArrayMessage":
        contacts = message.body.get("contacts")
        return (
            [_card(c) for c in contacts if isinstance(c, dict)]
            if isinstance(contacts, list)
            else []
        )
    return []


def poll_view(
    message: StoredMessage, votes: dict[str, int] | None = None, votes_note: str | None = None
) -> PollView | None:
    if message.kind not in POLL_KINDS:
        return None
    body = message.body
    options = body.get("options")
    names = tuple(
        name
        for option in (options if isinstance(options, list) else [])
        if (name := _str(_dict(option).get("optionName")))
    )
    count = parse_long(body.get("selectableOptionsCount"))
    return PollView(
        _str(body.get("name")) or _("Poll"),
        names,
        count if count is not None else 1,
        votes,
        votes_note,
    )


@dataclass(frozen=True)
class PollVotes:
    """2.4's getPollVote answer: the poll's name, how many voted, votes and voters per option."""

    name: str
    total: int
    counts: dict[str, int]
    voters: dict[str, tuple[str, ...]]


def read_poll_votes(content: bytes) -> PollVotes:
    """``{"poll": {"name", "totalVotes", "results": {option: {"votes", "voters"}}}}`` (2.4.0-rc2,
    baileysDecryptPollVote); a field of the wrong type reads as absent."""
    import json

    data = json.loads(content)
    if not isinstance(data, dict) or not isinstance(data.get("poll"), dict):
        raise ValueError("expected an object with a poll")
    poll = data["poll"]
    counts: dict[str, int] = {}
    voters: dict[str, tuple[str, ...]] = {}
    for option, result in _dict(poll.get("results")).items():
        result = _dict(result)
        who = result.get("voters")
        who = who if isinstance(who, list) else []
        voters[option] = tuple(v for v in who if isinstance(v, str))
        count = parse_long(result.get("votes"))
        counts[option] = count if count is not None else len(voters[option])
    total = parse_long(poll.get("totalVotes"))
    return PollVotes(_str(poll.get("name")) or _("Poll"), total or 0, counts, voters)


def location_view(message: StoredMessage) -> LocationView | None:
    if message.kind not in ("locationMessage", "liveLocationMessage"):
        return None
    body = message.body
    lat, lon = body.get("degreesLatitude"), body.get("degreesLongitude")
    if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in (lat, lon)):
        return None
    return LocationView(float(lat), float(lon), _str(body.get("name")), _str(body.get("address")))


def duration(seconds: int | None) -> str:
    if not seconds or seconds < 0:
        return ""
    return f"{seconds // 60}:{seconds % 60:02d}"


def voice_note_seconds(message: StoredMessage) -> int | None:
    """A voice note's (or audio's) length in seconds, when the store has it."""
    if message.kind != "audioMessage":
        return None
    return parse_long(message.body.get("seconds"))


def human_size(size: int) -> str:
    """``size`` bytes as people read it: "512 bytes", "1.5 MB" (1,5 MB in pt-BR and es)."""
    value = float(size)
    for unit in ("bytes", "kB", "MB", "GB"):
        if value < 1000 or unit == "GB":
            if unit == "bytes":
                break
            return f"{decimal(value, 1)} {unit}"
        value /= 1000
    return ngettext("{n} byte", "{n} bytes", size).format(n=number(size))


MEDIA_KINDS = ("documentMessage", "imageMessage", "videoMessage", "audioMessage", "stickerMessage")


def file_facts(message: StoredMessage) -> str | None:
    """A media message's mimetype and size ("application/pdf · 1.2 MB"), when stored."""
    if message.kind not in MEDIA_KINDS:
        return None
    body = message.body
    parts = [mimetype] if (mimetype := _str(body.get("mimetype"))) else []
    size = parse_long(body.get("fileLength"))
    if size is not None and size >= 0:
        parts.append(human_size(size))
    return " · ".join(parts) or None


def revoked_id(message: StoredMessage) -> str | None:
    """The id of the message this one deleted for everyone (a protocolMessage REVOKE)."""
    if message.kind != "protocolMessage" or message.body.get("type") not in ("REVOKE", 0):
        return None
    return _str(_dict(message.body.get("key")).get("id"))


def reaction_target(message: StoredMessage) -> tuple[str, str] | None:
    """(the id of the message reacted to, the emoji — "" takes a reaction away)."""
    if message.kind != "reactionMessage":
        return None
    target = _str(_dict(message.body.get("key")).get("id"))
    if target is None:
        return None
    text = message.body.get("text")
    return target, text if isinstance(text, str) else ""


def poll_vote(message: StoredMessage) -> tuple[str, tuple[str, ...]] | None:
    """(the poll's message id, the option names chosen — () takes a vote away) of a stored
    ``pollUpdateMessage``. 2.3.7 keeps each vote it receives in the store with the chosen
    options already decrypted to their names (``vote.selectedOptions``). A vote whose poll it
    did not find stays as received (no ``selectedOptions``) and reads as None, as does anything
    but a list of names: not counted. (One it found but could not decrypt is stored with
    ``[]``, which reads as a vote taken away: the store cannot tell them apart.)"""
    if message.kind != "pollUpdateMessage":
        return None
    body = message.body
    target = _str(_dict(body.get("pollCreationMessageKey")).get("id"))
    chosen = _dict(body.get("vote")).get("selectedOptions")
    if target is None or not isinstance(chosen, list):
        return None
    if not all(isinstance(name, str) for name in chosen):
        return None
    return target, tuple(chosen)


def latest_ballots(messages: Iterable[StoredMessage]) -> dict[tuple[str, str], tuple[str, ...]]:
    """Each voter's latest vote on each poll, from the stored ``pollUpdateMessage`` rows:
    (poll id, voter) → the option names chosen (() takes a vote away)."""
    ballots: dict[tuple[str, str], tuple[int, tuple[str, ...]]] = {}
    for message in messages:
        if (vote := poll_vote(message)) is None:
            continue
        poll, chosen = vote
        who = "me" if message.from_me else message.sender
        stamp = message.timestamp or 0
        if (poll, who) not in ballots or ballots[(poll, who)][0] <= stamp:
            ballots[(poll, who)] = (stamp, chosen)
    return {key: chosen for key, (_stamp, chosen) in ballots.items()}


def stored_poll_votes(messages: Iterable[StoredMessage], poll_id: str) -> PollVotes | None:
    """2.3.7: the votes of poll ``poll_id`` counted from a chat's stored messages, as the
    conversation counts them (one vote per voter, the latest wins); None when the poll is not
    among them."""
    ordered = list(messages)
    poll = next((m for m in ordered if m.id == poll_id and m.kind in POLL_KINDS), None)
    view = poll_view(poll) if poll is not None else None
    if view is None:
        return None
    counts = dict.fromkeys(view.options, 0)
    voters: dict[str, list[str]] = {}
    total = 0
    for (target, who), chosen in latest_ballots(ordered).items():
        if target != poll_id or not chosen:
            continue
        total += 1
        for name in chosen:
            counts[name] = counts.get(name, 0) + 1
            voters.setdefault(name, []).append(who)
    return PollVotes(view.question, total, counts, {k: tuple(v) for k, v in voters.items()})


@dataclass(frozen=True)
class Decorations:
    """What the other messages of a chat say about each message: its reactions (a count per
    emoji, one per sender: the latest wins), whether it was deleted for everyone, and a
    poll's votes kept in the store (a count per option, one vote per voter: the latest wins,
    so a voter who changes their vote moves). The reactions, revokes and votes themselves are
    not drawn as bubbles of their own."""

    reactions: dict[str, Counter[str]]
    deleted: frozenset[str]
    hidden: frozenset[str]  # reactions, revokes and votes that point at a message of the chat
    poll_votes: dict[str, dict[str, int]] = field(default_factory=dict)

    @classmethod
    def of(cls, messages: Iterable[StoredMessage]) -> Decorations:
        ordered = list(messages)
        ids = {m.id for m in ordered}
        latest: dict[tuple[str, str], tuple[int, str]] = {}
        deleted: set[str] = set()
        hidden: set[str] = set()
        for message in ordered:
            if (gone := revoked_id(message)) is not None:
                deleted.add(gone)
                if gone in ids:
                    hidden.add(message.id)
                continue
            if (vote := poll_vote(message)) is not None:
                if vote[0] in ids:
                    hidden.add(message.id)
                continue
            reaction = reaction_target(message)
            if reaction is None:
                continue
            target, emoji = reaction
            if target not in ids:
                continue  # reacting to a message not loaded: drawn as its own line
            hidden.add(message.id)
            who = "me" if message.from_me else message.sender
            stamp = message.timestamp or 0
            if (target, who) not in latest or latest[(target, who)][0] <= stamp:
                latest[(target, who)] = (stamp, emoji)
        reactions: dict[str, Counter[str]] = {}
        for (target, _who), (_stamp, emoji) in latest.items():
            if emoji:
                reactions.setdefault(target, Counter())[emoji] += 1
        poll_votes: dict[str, dict[str, int]] = {}
        for (poll, _who), chosen in latest_ballots(ordered).items():
            counts = poll_votes.setdefault(poll, {})
            for name in chosen:
                counts[name] = counts.get(name, 0) + 1
        return cls(reactions, frozenset(deleted), frozenset(hidden), poll_votes)

    def reaction_line(self, message_id: str) -> str:
        counts = self.reactions.get(message_id)
        if not counts:
            return ""
        return " ".join(f"{emoji} {n}" if n > 1 else emoji for emoji, n in counts.most_common())


def detail_lines(
    message: StoredMessage, votes: dict[str, int] | None = None, votes_note: str | None = None
) -> list[str]:
    """The lines the conversation draws for a message of a new kind ([] for the others)."""
    if (poll := poll_view(message, votes, votes_note)) is not None:
        return poll.lines()
    if (place := location_view(message)) is not None:
        return place.lines()
    if cards := contact_cards(message):
        return [
            f"👤 {card.name}" + (f"  {', '.join(card.phones)}" if card.phones else "")
            for card in cards
        ]
    if message.kind == "audioMessage":
        voice = message.body.get("ptt") is True
        label = _("🎤 Voice message") if voice else _("🎵 Audio")
        length = duration(voice_note_seconds(message))
        return [label + (f" {length}" if length else "")]
    if message.kind == "documentMessage":
        body = message.body
        name = _str(body.get("fileName")) or _str(body.get("title")) or _("Document")
        facts = file_facts(message)
        return [f"📄 {name}"] + ([f"  {facts}"] if facts else [])
    return []
