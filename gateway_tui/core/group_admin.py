"""Group administration's rules that every face shares: which group a name means, which
numbers may be added, and each number's outcome in words.

- A group is named by its JID or by its exact subject; a subject several groups share is
  refused with the candidates (never a guess: the next step writes).
- Numbers to add are read as a campaign reads its recipients (core/campaign/recipients.py):
  checked with phonenumbers, one person however the number is written; who is already a
  member is said and left out.
- updateParticipant answers one status per number (WhatsApp's code): each is said in words.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from gateway_tui.core.api.errors import Problem
from gateway_tui.core.api.group_models import ParticipantsUpdate
from gateway_tui.core.api.models import GroupSummary, Participant
from gateway_tui.core.campaign.recipients import parse_recipients
from gateway_tui.core.text.phone import person_key

_SEPARATORS = re.compile(r"[\n,;]+")


class GroupNotFound(LookupError):
    """No group, or several, answer to the name given (the message says which)."""


def find_group(groups: Sequence[GroupSummary], name: str) -> GroupSummary:
    """The group whose JID (with or without ``@g.us``) or exact subject is ``name``."""
    wanted = name.strip()
    if not wanted:
        raise GroupNotFound("name a group: its JID or its exact subject")
    jid = wanted if wanted.endswith("@g.us") else f"{wanted}@g.us"
    for group in groups:
        if group.id == jid:
            return group
    same = [group for group in groups if (group.subject or "") == wanted]
    if len(same) == 1:
        return same[0]
    if len(same) > 1:
        candidates = "; ".join(f"{group.id}" for group in same)
        raise GroupNotFound(
            f"{len(same)} groups are called {wanted!r}: name one by its JID ({candidates})"
        )
    folded = [g for g in groups if (g.subject or "").casefold() == wanted.casefold()]
    hint = f" (did you mean {folded[0].subject!r}?)" if folded else ""
    raise GroupNotFound(f"no group has the JID or subject {wanted!r}{hint}")


@dataclass
class NumbersToAdd:
    """What an "add participants" entry becomes before anything is sent."""

    numbers: list[str] = field(default_factory=list)  # as sent: digits (or a JID)
    invalid: list[Problem] = field(default_factory=list)
    duplicates: int = 0
    members: list[str] = field(default_factory=list)  # already in the group: left out

    @property
    def problems(self) -> list[str]:
        said = [f"{problem.message}" for problem in self.invalid]
        said += [f"{number}: already a member" for number in self.members]
        return said

    def summary(self) -> str:
        parts = [f"{len(self.numbers)} to add"]
        if self.duplicates:
            parts.append(f"{self.duplicates} duplicate(s) removed")
        if self.members:
            parts.append(f"{len(self.members)} already a member")
        if self.invalid:
            parts.append(f"{len(self.invalid)} invalid")
        return ", ".join(parts)


def numbers_to_add(entries: str | Iterable[str], members: Iterable[Participant]) -> NumbersToAdd:
    """Numbers typed (one a line, or separated by commas or semicolons), checked as campaign
    recipients are: invalid ones said with the reason, duplicates dropped, members left out."""
    if isinstance(entries, str):
        entries = _SEPARATORS.split(entries)
    tokens = [token.strip() for token in entries if token.strip()]
    read = parse_recipients("\n".join(tokens))
    present = {person_key(m.number) for m in members if m.number} | {
        m.id for m in members if m.is_lid
    }
    result = NumbersToAdd(invalid=list(read.invalid), duplicates=read.duplicates)
    for recipient in read.recipients:
        key = person_key(recipient.number)
        if key in present or recipient.number in present:
            result.members.append(recipient.number)
        else:
            result.numbers.append(recipient.number)
    return result


@dataclass(frozen=True, slots=True)
class Outcome:
    number: str
    ok: bool
    reason: str


def outcomes(asked: Sequence[str], answer: ParticipantsUpdate) -> list[Outcome]:
    """One line per number asked: what WhatsApp said of it (its JID's digits match the
    number), "no answer for this number" when the server named it nowhere."""
    by_key = {}
    for change in answer.update_participants:
        number = change.jid.split("@", 1)[0]
        by_key[person_key(number) if not change.jid.endswith("@lid") else change.jid] = change
    result = []
    for number in asked:
        key = number if number.endswith("@lid") else person_key(number)
        change = by_key.get(key)
        if change is None:
            result.append(Outcome(number, False, "no answer for this number"))
        else:
            result.append(Outcome(number, change.ok, change.reason))
    return result
