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
from gateway_tui.core.text.i18n import _, ngettext, number
from gateway_tui.core.text.phone import person_key

_SEPARATORS = re.compile(r"[\n,;]+")


class GroupNotFound(LookupError):
    """No group, or several, answer to the name given (the message says which)."""


def find_group(groups: Sequence[GroupSummary], name: str) -> GroupSummary:
    """The group whose JID (with or without ``@g.us``) or exact subject is ``name``."""
    wanted = name.strip()
    if not wanted:
        raise GroupNotFound(_("name a group: its JID or its exact subject"))
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
            _("{n} groups are called {name!r}: name one by its JID ({candidates})").format(
                n=number(len(same)), name=wanted, candidates=candidates
            )
        )
    folded = [g for g in groups if (g.subject or "").casefold() == wanted.casefold()]
    if folded:
        raise GroupNotFound(
            _("no group has the JID or subject {name!r} (did you mean {subject!r}?)").format(
                name=wanted, subject=folded[0].subject
            )
        )
    raise GroupNotFound(_("no group has the JID or subject {name!r}").format(name=wanted))


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
        said += [_("{number}: already a member").format(number=member) for member in self.members]
        return said

    def summary(self) -> str:
        count = len(self.numbers)
        parts = [ngettext("{n} to add", "{n} to add", count).format(n=number(count))]
        if self.duplicates:
            parts.append(
                ngettext("{n} duplicate removed", "{n} duplicates removed", self.duplicates).format(
                    n=number(self.duplicates)
                )
            )
        if self.members:
            count = len(self.members)
            parts.append(
                ngettext("{n} already a member", "{n} already members", count).format(
                    n=number(count)
                )
            )
        if self.invalid:
            count = len(self.invalid)
            parts.append(ngettext("{n} invalid", "{n} invalid", count).format(n=number(count)))
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
        digits = change.jid.split("@", 1)[0]
        by_key[person_key(digits) if not change.jid.endswith("@lid") else change.jid] = change
    result = []
    for member in asked:
        key = member if member.endswith("@lid") else person_key(member)
        change = by_key.get(key)
        if change is None:
            result.append(Outcome(member, False, _("no answer for this number")))
        else:
            result.append(Outcome(member, change.ok, change.reason))
    return result
