"""The one app state every screen reads from. Plain Python: no Textual, no I/O.

Only ``gateway_tui.core.services`` changes it, after each call; screens observe it through
``subscribe`` (the app bridges that to a Textual signal) and never keep their own copy of server
data. A failed call keeps the last good value and marks it stale.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Generic, TypeVar

from gateway_tui.core.api.chat_models import ChatMessages, StatusRow
from gateway_tui.core.api.errors import GATEWAY_WIDE_PATHS, GatewayError, says_route_missing
from gateway_tui.core.api.events import CallEvent
from gateway_tui.core.api.group_models import GroupMetadata
from gateway_tui.core.api.label_models import Label
from gateway_tui.core.api.models import (
    BusinessProfile,
    GroupInviteResult,
    GroupSummary,
    Instance,
    InstanceSettings,
    InviteCode,
    MessageKey,
    Participant,
    SentMessage,
)
from gateway_tui.core.chat_book import ChatBook
from gateway_tui.core.events.history import HistoryBook
from gateway_tui.core.identity import Identities, Identity
from gateway_tui.core.lifecycle_state import LifecycleState

T = TypeVar("T")
StateListener = Callable[["Topic"], None]
REQUEST_LOG_SIZE = 1000


class Topic(StrEnum):
    """What changed; observers re-read just that part."""

    INSTANCES = "instances"
    SETTINGS = "settings"
    SELECTED = "selected"
    CALLS = "calls"
    GROUPS = "groups"
    PARTICIPANTS = "participants"
    INVITE = "invite"
    SENT = "sent"
    CHATS = "chats"
    PROFILES = "profiles"
    # Connect codes, state checks, webhook and websocket settings (issue 13).
    LIFECYCLE = "lifecycle"
    MESSAGES = "messages"  # a chat's stored messages and their delivery statuses
    LIVE = "live"  # live events: up, or why not
    CONTACTS = "contacts"  # an instance's contacts (who is who: core/identity.py)
    LABELS = "labels"  # an instance's labels and the labels on its chats


class Health(StrEnum):
    UNKNOWN = "unknown"
    OK = "ok"
    FAILING = "failing"
    UNREACHABLE = "unreachable"


@dataclass
class Loadable(Generic[T]):
    """A piece of server data with how its last load went."""

    value: T | None = None
    error: GatewayError | None = None
    loading: bool = False
    updated_at: datetime | None = None

    @property
    def stale(self) -> bool:
        """Data is on screen but the last try to refresh it failed."""
        return self.value is not None and self.error is not None

    def start(self) -> None:
        self.loading = True

    def succeed(self, value: T, at: datetime | None = None) -> None:
        self.value, self.error, self.loading = value, None, False
        self.updated_at = at or datetime.now()

    def fail(self, error: GatewayError) -> None:
        self.error, self.loading = error, False


@dataclass
class SentInvite:
    """An invite this app sent for a group: to whom, and the URL the gateway says it sent."""

    numbers: list[str]
    description: str
    result: GroupInviteResult
    sent_at: datetime = field(default_factory=datetime.now)


@dataclass
class InviteState:
    """The current invite code of a group and the ones revoked since the last refresh."""

    current: InviteCode | None = None
    revoked: list[InviteCode] = field(default_factory=list)
    error: GatewayError | None = None
    loading: bool = False
    updated_at: datetime | None = None
    # The last invite sent from this app for the group (None until one is sent).
    last_sent: SentInvite | None = None


@dataclass
class SentRecord:
    """A list message this app sent, with what the gateway answered."""

    instance: str
    recipient: str
    result: SentMessage
    body: dict
    sent_at: datetime = field(default_factory=datetime.now)


@dataclass
class ChatRecord:
    """A chat known to the app: from messages it sent or chats the server returned."""

    jid: str
    last_key: MessageKey | None = None
    last_text: str = ""
    archived: bool = False
    # Texts of messages by id, so an edit can be prefilled and its result shown.
    texts: dict[str, str] = field(default_factory=dict)
    # Ids of messages edited from here (their new text is in ``texts``): drawn "edited".
    edited: set[str] = field(default_factory=set)
    # When the last known message was sent, and the status the gateway gave it.
    last_at: datetime | None = None
    last_status: str | None = None


class AppState:
    def __init__(self, clock: Callable[[], datetime] = datetime.now) -> None:
        # Injectable so screenshots and snapshots show a fixed time.
        self.now = clock
        self._listeners: list[StateListener] = []
        self.instances: Loadable[list[Instance]] = Loadable()
        self.settings: dict[str, Loadable[InstanceSettings]] = {}
        self.selected: str | None = None
        self.health: Health = Health.UNKNOWN
        self.last_error: str | None = None
        # New messages live events brought to chats not open since: instance -> JID -> count.
        self.unread: dict[str, dict[str, int]] = {}
        # The last messages live events brought per (instance, JID): a read that left before
        # one of them arrived puts it back in (actions/chats.py).
        self.live_items: dict[tuple[str, str], deque[dict]] = {}
        # Live events: None not tried yet; True live; False polling, with ``live_why``.
        self.live: bool | None = None
        self.live_why: str | None = None
        self.calls: deque[CallEvent] = deque(maxlen=REQUEST_LOG_SIZE)
        self.groups: dict[str, Loadable[list[GroupSummary]]] = {}
        self.participants: dict[tuple[str, str], Loadable[list[Participant]]] = {}
        self.invites: dict[tuple[str, str], InviteState] = {}
        # Subjects this app set, for groups the server's group list does not show (no
        # fetchAllGroups): (instance, group JID) -> subject.
        self.group_subjects: dict[tuple[str, str], str] = {}
        self.sent: dict[str, list[SentRecord]] = {}
        self.chats: dict[str, dict[str, ChatRecord]] = {}
        self.profiles: dict[tuple[str, str], Loadable[BusinessProfile]] = {}
        self.lifecycle = LifecycleState()
        # Instances this app deleted, and when (time.monotonic()): a 2.x gateway still lists
        # one for a moment after its 200, and the list must not bring it back.
        self.deleted: dict[str, float] = {}
        # The gateway's chat store (issue 12): per instance, per (instance, chat JID), and the
        # latest delivery status of each message id per instance.
        self.chat_books: dict[str, Loadable[ChatBook]] = {}
        self.messages: dict[tuple[str, str], Loadable[ChatMessages]] = {}
        self.statuses: dict[str, dict[str, StatusRow]] = {}
        # Group administration, contacts and labels (services/groups.py, services/people.py):
        # a group's settings (findGroupInfos) per (instance, JID); per instance its contacts,
        # who is who (LID and number), its labels, and label ids by chat JID as known.
        self.group_infos: dict[tuple[str, str], Loadable[GroupMetadata]] = {}
        self.contacts: dict[str, Loadable[list[Identity]]] = {}
        # Why the last contacts read could not add numbers from stored messages (None: it did).
        self.contact_numbers_error: dict[str, GatewayError | None] = {}
        self.identities: dict[str, Identities] = {}
        self.labels: dict[str, Loadable[list[Label]]] = {}
        self.chat_labels: dict[str, dict[str, set[str]]] = {}
        # History syncs as the live events tell them (issue 31): the instance view's line.
        self.history = HistoryBook()

    # --- observers -----------------------------------------------------------------------------

    def subscribe(self, listener: StateListener) -> Callable[[], None]:
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def notify(self, topic: Topic) -> None:
        for listener in list(self._listeners):
            listener(topic)

    # --- derived views -------------------------------------------------------------------------

    def instance(self, name: str | None) -> Instance | None:
        if name is None:
            return None
        for item in self.instances.value or ():
            if item.instance_name == name:
                return item
        return None

    def settings_of(self, name: str) -> Loadable[InstanceSettings]:
        return self.settings.setdefault(name, Loadable())

    def groups_of(self, name: str) -> Loadable[list[GroupSummary]]:
        return self.groups.setdefault(name, Loadable())

    def participants_of(self, name: str, jid: str) -> Loadable[list[Participant]]:
        return self.participants.setdefault((name, jid), Loadable())

    def invite_of(self, name: str, jid: str) -> InviteState:
        return self.invites.setdefault((name, jid), InviteState())

    def group_of(self, name: str, jid: str) -> GroupSummary | None:
        """The group as the server's group list last showed it (None when not listed)."""
        for group in self.groups_of(name).value or ():
            if group.id == jid:
                return group
        return None

    def subject_of(self, name: str, jid: str) -> str | None:
        """The group's subject: from the server's list, else the one this app last set."""
        group = self.group_of(name, jid)
        if group is not None and group.subject:
            return group.subject
        return self.group_subjects.get((name, jid))

    def chats_of(self, name: str) -> dict[str, ChatRecord]:
        return self.chats.setdefault(name, {})

    # --- calls ---------------------------------------------------------------------------------

    def record_call(self, event: CallEvent) -> None:
        """Every finished call goes to the request log and sets the connection health."""
        self.calls.append(event)
        if event.unreachable:
            self.health, self.last_error = Health.UNREACHABLE, event.error
        elif event.status is not None and _gateway_failing(event):
            self.health, self.last_error = Health.FAILING, event.error
        else:
            # A 400 or 404 is the gateway answering about the request: the link itself is fine.
            self.health, self.last_error = Health.OK, None
        self.notify(Topic.CALLS)

    def clear_calls(self) -> None:
        """Empty the request log (the connection health stays as the last call left it)."""
        self.calls.clear()
        self.notify(Topic.CALLS)

    def reset(self) -> None:
        """Forget all server data (another gateway was chosen); keep observers."""
        listeners = self._listeners
        self.__init__(self.now)  # type: ignore[misc]
        self._listeners = listeners
        for topic in Topic:
            self.notify(topic)


def _gateway_failing(event: CallEvent) -> bool:
    """Whether an answer says the gateway itself is in trouble (the key, the server, a proxy).

    A 500 from a call about one instance is that instance's session failing (a real 1.7.1
    answers 500 for every instance that is not connected): the gateway answered, it is fine.
    """
    status = event.status or 0
    if status in (401, 403) or status >= 502:
        return True
    if status >= 500:
        return event.path.startswith(GATEWAY_WIDE_PATHS)
    # No instance list at this URL (a wrong path prefix): whatever answered is not a gateway.
    if status == 404:
        return event.path.startswith(GATEWAY_WIDE_PATHS) and says_route_missing(event.error_lines)
    return False
