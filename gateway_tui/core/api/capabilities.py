"""What a gateway of a given version cannot do: one table of version ranges, each with the
upstream issue (or the recording) that shows it.

Shown on the fleet's gateway row and where it matters: the composer and campaigns (list
messages, mentions, ``@lid``), the event settings (``messaging-history.set``). Versions compare
by PEP 440 (``packaging``): "2.4.0-rc2" is before "2.4.0". A version newer than any this table
knows is said to be so, and treated as the newest known.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from packaging.version import InvalidVersion, Version

from gateway_tui.core.text.i18n import N_, _

# The newest version the table was written against (2.4.0-rc2 recorded, 2.4.0 announced).
NEWEST_KNOWN = "2.4.0"

COMPOSER = "composer"
CAMPAIGNS = "campaigns"
EVENTS = "events"
GATEWAY = "gateway"


@dataclass(frozen=True, slots=True)
class Limit:
    """Something gateways of versions ``since`` ≤ v < ``until`` do wrong or refuse."""

    key: str
    text: str
    since: str | None  # None: from the first version
    until: str | None  # None: still so in the newest known
    upstream: str  # the upstream issue(s), or the recording that shows it
    where: frozenset[str]
    short: str = ""  # a few words, for a line that lists several

    def applies(self, version: Version) -> bool:
        if self.since is not None and version < Version(self.since):
            return False
        return self.until is None or version < Version(self.until)

    def sentence(self) -> str:
        """The limit and where it is known from, in the reader's language."""
        return f"{_(self.text)} ({_(self.upstream)})"

    def said_short(self) -> str:
        return _(self.short)


LIMITS: tuple[Limit, ...] = (
    Limit(
        "list_messages_unshown",
        N_(
            "WhatsApp does not show list messages sent by Evolution API 2.3.0–2.3.7 (nor button "
            "messages), although the gateway answers 201"
        ),
        since="2.3.0",
        until="2.3.8",
        upstream=N_("upstream issues #1620, #1794, #1926, #1996; 2.4.0 says it fixed this"),
        where=frozenset({COMPOSER, CAMPAIGNS, GATEWAY}),
        short=N_("list messages not shown"),
    ),
    Limit(
        "lid_sends_refused",
        N_("sends to an @lid address are refused as not on WhatsApp (400 exists:false)"),
        since=None,
        until="2.4.0rc2",
        upstream=N_("upstream issues #1585, #1872"),
        where=frozenset({COMPOSER, CAMPAIGNS, GATEWAY}),
        short=N_("@lid sends refused"),
    ),
    Limit(
        "mentions_everyone_forced",
        N_("mentionsEveryOne:false is ignored: any mentionsEveryOne in the body mentions everyone"),
        since="2.0.0",
        until="2.4.0",
        upstream=N_("upstream issue #2431, fixed by pull request #2470"),
        where=frozenset({COMPOSER, CAMPAIGNS}),
        short=N_("mentionsEveryOne:false ignored"),
    ),
    Limit(
        "history_set_event_refused",
        N_(
            "messaging-history.set (MESSAGING_HISTORY_SET) is refused in a webhook or websocket's "
            "event list"
        ),
        since=None,
        until="2.4.0",
        upstream=N_("its 400 lists the events it takes: recording v2.3.6-more/145"),
        where=frozenset({EVENTS}),
        short=N_("messaging-history.set refused"),
    ),
    Limit(
        "licence_required",
        N_(
            "a licence is required: until the server is activated every business call answers "
            "503 LICENSE_REQUIRED"
        ),
        since="2.4.0rc1",
        until=None,
        upstream=N_("recordings v2.4.0-rc2/004–010"),
        where=frozenset({GATEWAY}),
        short=N_("licence required"),
    ),
)

_VERSION = re.compile(r"\s*v?(\d+(?:\.\d+)*(?:[-.]?(?:rc|a|b|alpha|beta)\.?\d*)?)", re.IGNORECASE)


def parse_version(text: str | None) -> Version | None:
    """A gateway's version ("2.3.6", "v2.4.0-rc2") as comparable; None when it is none."""
    match = _VERSION.match(text or "")
    if not match:
        return None
    try:
        return Version(match.group(1))
    except InvalidVersion:
        return None


def newer_than_known(version: str | None) -> bool:
    parsed = parse_version(version)
    return parsed is not None and parsed.release[:2] > Version(NEWEST_KNOWN).release[:2]


def assumed_version(version: str | None) -> Version | None:
    """The version the table is read at: the gateway's, or the newest known for a newer one."""
    parsed = parse_version(version)
    if parsed is None:
        return None
    return Version(NEWEST_KNOWN) if newer_than_known(version) else parsed


def limits_for(version: str | None, where: str | None = None) -> list[Limit]:
    """What a gateway of ``version`` cannot do ([] when the version is not known), only those
    that matter ``where`` (COMPOSER, CAMPAIGNS, EVENTS, GATEWAY) when given."""
    assumed = assumed_version(version)
    if assumed is None:
        return []
    return [
        limit
        for limit in LIMITS
        if limit.applies(assumed) and (where is None or where in limit.where)
    ]


def limit_named(key: str) -> Limit:
    return next(limit for limit in LIMITS if limit.key == key)


def version_note(version: str | None) -> str | None:
    """What to say of the version itself: newer than this app knows, or not told."""
    if version is None or parse_version(version) is None:
        return None
    if newer_than_known(version):
        return _(
            "{version} is newer than any version this app knows ({newest}): assumed to behave "
            "as {newest}"
        ).format(version=version.strip(), newest=NEWEST_KNOWN)
    return None


def notes_for(version: str | None, where: str) -> list[str]:
    """Sentences for a screen (``where``): the version note first, then each limit."""
    notes = [note] if (note := version_note(version)) else []
    return notes + [limit.sentence() for limit in limits_for(version, where)]


# --- what needs 2.4: one place for version → capability -------------------------------------

# Each sentence whole (the feature's words sit differently in each language).
SINCE_24 = {
    "buttons": N_("Evolution API 2.4 or later is needed for buttons: {told}"),
    "carousel": N_("Evolution API 2.4 or later is needed for carousels: {told}"),
    "played": N_("Evolution API 2.4 or later is needed for marking a voice note played: {told}"),
    "message_id": N_(
        "Evolution API 2.4 or later is needed for a message id chosen by the sender: {told}"
    ),
    "poll_votes": N_(
        "Evolution API 2.4 or later is needed for reading a poll's votes (getPollVote): {told}"
    ),
}


def is_24_or_later(version: str | None) -> bool:
    """Whether a gateway of ``version`` is 2.4 or later (2.4.0-rc2 counts)."""
    parsed = assumed_version(version)
    return parsed is not None and parsed.release[:2] >= (2, 4)


def keeps_poll_votes(version: str | None) -> bool:
    """Whether a gateway of ``version`` keeps the poll votes it receives in its store, with the
    chosen options decrypted to their names (findMessages returns them as
    ``pollUpdateMessage``): 2.3.7 and later. 2.3.6 and 1.7.1 drop a vote on arrival
    (``messages.upsert`` skips ``pollUpdateMessage``), so their polls' votes cannot be told."""
    parsed = assumed_version(version)
    return parsed is not None and parsed.release[:3] >= (2, 3, 7)


def unsupported(feature: str, version: str | None) -> str | None:
    """Why a gateway of ``version`` cannot be asked for ``feature`` (a SINCE_24 key), or None.

    Buttons and carousels: 2.3.x answers 201 to sendButtons, and WhatsApp never shows them
    (upstream issues #1620, #1926); 2.4 rebuilt them. Before 2.4, no sendCarousel,
    markMessageAsPlayed, getPollVote, or messageId on sends (2.4.0-rc2's routes and schemas).
    """
    if is_24_or_later(version):
        return None
    if version:
        told = _("this gateway is {version}").format(version=version.strip())
    else:
        told = _("this gateway's version is unknown")
    return _(SINCE_24[feature]).format(told=told)
