"""Seeded, deterministic world of the demo gateway: instances, groups, chats and profiles.

Everything is derived from one ``random.Random(seed)``, so the same seed always gives the
same instances, keys, group JIDs and invite codes. Only the standard library is used here,
so importing this module stays cheap.

Instances 1-8 are hand-written (see ``CURATED_INSTANCES``); more are generated. The groups
and chats of an instance are built on first use, which keeps 10,000 instances cheap.
"""

from __future__ import annotations

import contextvars
import random
import string
import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, NamedTuple
from urllib.parse import quote

DEMO_API_KEY = "gtui-demo-7d41c9e2b8a65f30"
DEFAULT_SEED = 171
DEFAULT_INSTANCE_COUNT = 8

PERSON_DOMAIN = "@s.whatsapp.net"
GROUP_DOMAIN = "@g.us"
INVITE_URL_PREFIX = "https://chat.whatsapp.com/"
# Timestamps of seeded messages and groups: a fixed epoch keeps the data deterministic.
SEED_EPOCH = 1_717_000_000

SETTING_FLAGS = (
    "reject_call",
    "groups_ignore",
    "always_online",
    "read_messages",
    "read_status",
    "sync_full_history",
)

_BASE62 = string.digits + string.ascii_letters


class CuratedInstance(NamedTuple):
    name: str
    status: str
    owner_number: str
    profile_name: str
    profile_status: str
    has_picture: bool
    has_integration: bool = True


CURATED_INSTANCES = (
    CuratedInstance("sales-eu", "open", "4915123456701", "Acme Sales EU", "Mo-Fr 9-18 Uhr", True),
    CuratedInstance("support", "open", "447700900123", "Acme Support", "We reply within 1h", True),
    CuratedInstance("marketing-br", "open", "5511987654321", "not loaded", "", False),
    CuratedInstance("billing-apac", "connecting", "6591234567", "Acme Billing", "", False),
    CuratedInstance("onboarding", "close", "14155550123", "Acme Onboarding", "", True),
    CuratedInstance("logistics-mx", "refused", "5215512345678", "Acme Logística", "", False),
    CuratedInstance("hr-internal", "close", "4930123456789", "Acme HR", "", False, False),
    CuratedInstance("ops-alerts", "open", "31612345678", "Acme Ops", "Automated alerts", True),
)

# Numbers a demo gateway reports as "not on WhatsApp" (besides any number starting with 999).
NOT_ON_WHATSAPP = frozenset({"4915100000000", "5511900000000", "447700900000"})

# Business profiles returned by fetchProfile, keyed by number.
BUSINESS_PROFILES: dict[str, dict[str, Any]] = {
    "5511912345678": {
        "name": "Padaria Pão Quente",
        "status": "Aberto todos os dias, 7h às 20h",
        "email": "contato@paoquente.com.br",
        "description": "Pães artesanais e encomendas para eventos.",
        "website": "https://paoquente.com.br",
    },
    "447700900456": {
        "name": "Baker Street Books",
        "status": "Rare books, shipped worldwide",
        "email": "hello@bakerstreetbooks.co.uk",
        "description": "Second-hand and rare books since 1987.",
        "website": "https://bakerstreetbooks.co.uk",
    },
    "4915790001122": {
        "name": "Berliner Fahrradladen",
        "status": "Reparatur am selben Tag",
        "email": "info@fahrradladen.berlin",
        "description": "Fahrräder, Ersatzteile und Werkstatt in Kreuzberg.",
        "website": None,
    },
}

# Names the gateway knows for some contacts (shown by fetchProfile and in participant lists).
CONTACT_NAMES: dict[str, str] = {
    "4915112340001": "Jonas Weber",
    "4915112340002": "Lena Fischer",
    "447700900321": "Priya Shah",
    "5511912345678": "Padaria Pão Quente",
    "447700900456": "Baker Street Books",
}

_TEAMS = ("sales", "support", "marketing", "billing", "ops", "partners", "retail", "field")
_REGIONS = ("eu", "us", "br", "mx", "uk", "de", "fr", "in", "apac", "za")
_COUNTRY_CODES = ("49", "44", "55", "1", "52", "33", "91", "31", "34", "39")
_PROFILE_NAMES = ("Acme", "Northwind", "Globex", "Initech", "Umbrella", "Stark", "Wayne")
_GROUP_SUBJECTS = (
    "Weekly sync",
    "Customers — priority",
    "Field team",
    "Launch checklist",
    "Shift handover",
    "Partners",
    "Escalations",
)
_CHAT_LINES = (
    ("Hi, is my order on its way?", "Yes, it shipped this morning."),
    ("Can we move the call to 3pm?", "Sure, 3pm works."),
    ("Invoice received, thanks!", "You're welcome."),
    ("Do you deliver on Saturdays?", "We do, until noon."),
)
_STATUS_WEIGHTS = {"open": 50, "close": 25, "connecting": 15, "refused": 10}


def person_jid(number: str) -> str:
    return number + PERSON_DOMAIN


def number_of(jid: str) -> str:
    return jid.split("@", 1)[0]


def is_on_whatsapp(number: str) -> bool:
    """Whether a digits-only number "exists" on WhatsApp in the demo world."""
    return (
        10 <= len(number) <= 15 and not number.startswith("999") and number not in NOT_ON_WHATSAPP
    )


@dataclass
class Message:
    key: dict[str, Any]  # {"remoteJid", "fromMe", "id"}, exactly as clients send it back
    text: str
    timestamp: int
    status: str = "DELIVERY_ACK"
    list_message: dict[str, Any] | None = None
    edited: bool = False
    # The stored ``message`` object when it is not plain text (demo/chats.py), who wrote it,
    # and, for messages sent through the API, when (time.monotonic(): statuses advance from it).
    content: dict[str, Any] | None = None
    push_name: str = ""
    participant: str | None = None
    sent_clock: float | None = None
    # The file of a media message sent through the API (history media is made up on request:
    # demo/chats.py media_bytes).
    media: bytes | None = None


@dataclass
class Chat:
    jid: str
    messages: list[Message] = field(default_factory=list)
    archived: bool = False
    # Label ids applied to the chat (demo/labels.py), and "mark as unread" (demo/message_kinds.py).
    labels: list[str] = field(default_factory=list)
    marked_unread: bool = False

    def find(self, message_id: str) -> Message | None:
        return next((m for m in self.messages if m.key["id"] == message_id), None)


@dataclass
class Group:
    jid: str
    subject: str
    owner: str
    creation: int
    participants: list[dict[str, Any]]  # wire shape: {"id", "admin"[, "name"]}
    invite_code: str
    description: str = ""
    restrict: bool = False
    announce: bool = False
    subject_owner: str = ""
    subject_time: int = 0
    # Disappearing messages (seconds, 0: off) and who may add members (demo/group_admin.py).
    ephemeral: int = 0
    member_add_mode: str = "admin_add"

    def role_of(self, jid: str) -> str | None:
        return next((p["admin"] for p in self.participants if p["id"] == jid), None)

    def summary(self, *, with_participants: bool) -> dict[str, Any]:
        """One item of fetchAllGroups."""
        item = {
            "id": self.jid,
            "subject": self.subject,
            "subjectOwner": self.subject_owner or self.owner,
            "subjectTime": self.subject_time or self.creation,
            "pictureUrl": None,
            "size": len(self.participants),
            "creation": self.creation,
            "owner": self.owner,
            "desc": self.description,
            "descId": f"{self.creation:X}",
            "restrict": self.restrict,
            "announce": self.announce,
        }
        if with_participants:
            item["participants"] = self.participants
        return item


@dataclass
class Workspace:
    """What an instance sees on WhatsApp: its groups and chats, both keyed by JID."""

    groups: dict[str, Group] = field(default_factory=dict)
    chats: dict[str, Chat] = field(default_factory=dict)
    # pushName by JID, as findContacts answers ("" for a contact that set no name).
    contacts: dict[str, str] = field(default_factory=dict)
    # The instance's labels ({"id", "name", "color", "predefinedId"}: demo/labels.py) and, for
    # contacts WhatsApp shows as "…@lid", the phone JID when it is known (demo/contacts.py).
    labels: list[dict[str, Any]] = field(default_factory=list)
    lids: dict[str, str | None] = field(default_factory=dict)


_WORKSPACE_LOCK = threading.Lock()
# The id a 2.4 caller chose for the message its request sends (``messageId``); per request
# (each runs as its own task, so a context variable).
CHOSEN_MESSAGE_ID: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "chosen_message_id", default=None
)


@dataclass
class Instance:
    name: str
    instance_id: str
    status: str
    apikey: str
    owner_number: str
    profile_name: str
    profile_status: str
    profile_picture_url: str | None
    has_integration: bool
    settings: dict[str, Any]
    workspace_seed: int
    _workspace: Workspace | None = field(default=None, repr=False)
    # The chat store of an open instance (demo/chats.py): how many history chats, and the
    # size of one extra chat for the 100,000-message benchmark (0: none).
    history_chats: int = 30
    big_chat_messages: int = 0
    # What an instance created through the interface was given (None: a seeded instance).
    integration_fields: dict[str, Any] | None = None
    # Trouble (demo/conditions.py): listed open while its session is closed; or going
    # open/close/connecting on a cycle. The last disconnection as 2.x keeps it (code, at, object).
    zombie: bool = False
    flapping: bool = False
    disconnection: dict[str, Any] | None = None
    # Created with qrcode:true: its socket started at once (2.3.6 logs it out on delete).
    qrcode_at_create: bool = False

    @property
    def owner(self) -> str:
        return person_jid(self.owner_number)

    @property
    def workspace(self) -> Workspace:
        # Built on first use (by the server thread or a test thread, hence the lock).
        if self._workspace is None:
            with _WORKSPACE_LOCK:
                if self._workspace is None:
                    self._workspace = build_workspace(self)
        return self._workspace

    @property
    def groups(self) -> dict[str, Group]:
        return self.workspace.groups

    @property
    def chats(self) -> dict[str, Chat]:
        return self.workspace.chats

    def add_sent_message(
        self, jid: str, message_id: str, text: str, list_message: dict[str, Any] | None = None
    ) -> Message:
        """Store a message this instance just sent, opening the chat when it is new (with the
        id the caller chose, on 2.4: CHOSEN_MESSAGE_ID)."""
        message_id = CHOSEN_MESSAGE_ID.get() or message_id
        message = Message(
            key={"remoteJid": jid, "fromMe": True, "id": message_id},
            text=text,
            timestamp=int(time.time()),
            status="PENDING",
            list_message=list_message,
            sent_clock=time.monotonic(),
        )
        self.chats.setdefault(jid, Chat(jid)).messages.append(message)
        return message

    def fetch_item(self, server_url: str) -> dict[str, Any]:
        """The ``{"instance": {...}}`` object of fetchInstances."""
        record: dict[str, Any] = {"instanceName": self.name, "instanceId": self.instance_id}
        if self.status == "open":
            record |= {
                "owner": self.owner,
                "profileName": self.profile_name,
                "profilePictureUrl": self.profile_picture_url,
                "profileStatus": self.profile_status,
            }
        record |= {"status": self.status, "serverUrl": server_url, "apikey": self.apikey}
        if self.integration_fields is not None:
            # A real 1.7.1 always has this object: the webhook URL, plus what create was given.
            record["integration"] = dict(self.integration_fields) | {
                "webhook_wa_business": f"{server_url}/webhook/whatsapp/"
                + quote(self.name, safe="!~*'()"),
            }
        elif self.has_integration:
            record["integration"] = {
                "integration": "WHATSAPP-BAILEYS",
                "token": self.apikey,
                # Named by the instance name, as encodeURIComponent writes it.
                "webhook_wa_business": f"{server_url}/webhook/whatsapp/"
                + quote(self.name, safe="!~*'()"),
            }
        return {"instance": record}


class Write(NamedTuple):
    method: str
    path: str
    request_id: str | None


@dataclass
class DemoState:
    api_key: str
    seed: int
    instances: dict[str, Instance]
    server_url: str = "http://127.0.0.1"
    # The release the demo imitates: "1.7.1", "2.3.6", "2.3.7" or "2.4.0" (demo/versions.py).
    api_version: str = "1.7.1"
    # 2.4's licence: "active" or "inactive" (None before 2.4); Prometheus /metrics served, and
    # its basic-auth (user, password) when required.
    licence: str | None = None
    # A history sync (demo/events.py) after each pairing, and where it stops early (a
    # percentage; None: it runs to 100).
    history_sync: bool = False
    history_stop_at: int | None = None
    # 2.4 sends under a caller-chosen messageId now under way: (instance, id).
    sending: dict[tuple[str, str], Any] = field(default_factory=dict)
    metrics: bool = False
    metrics_auth: tuple[str, str] | None = None
    # 2.x: instances deleted (name → when): still listed for a moment after the 200.
    deleting: dict[str, float] = field(default_factory=dict)
    # Writes (POST/PUT/DELETE) as received, so tests can prove a call was not repeated.
    writes: list[Write] = field(default_factory=list)
    write_counts: Counter[str | None] = field(default_factory=Counter)
    # Campaign knobs and counters: list messages sent per recipient number, and numbers that
    # are "not on WhatsApp" on top of the built-in rule (is_on_whatsapp).
    sends_by_number: Counter[str] = field(default_factory=Counter)
    not_on_whatsapp: set[str] = field(default_factory=set)
    # Ids of messages marked read through markMessageAsRead (the read receipts sent).
    read_receipts: list[str] = field(default_factory=list)
    # The socket.io side (demo/events.py DemoEvents), set by the server that serves it.
    events: Any = None
    rng: random.Random = field(default_factory=random.Random, repr=False)
    # Pairings, webhooks, websockets (demo/lifecycle.py); and when a "phone" scans a shown QR
    # code by itself (None: only lifecycle.scan() does).
    lifecycle: Any = field(default=None, repr=False)
    auto_scan_seconds: float | None = 6.0
    # fetchProfile answers for these numbers are merged over the usual ones (the hostile set).
    profile_overrides: dict[str, dict[str, Any]] = field(default_factory=dict)
    # What the newer routes keep per server (demo/message_kinds.py Extras).
    extras: Any = field(default=None, repr=False)

    def record_write(self, method: str, path: str, request_id: str | None) -> None:
        self.writes.append(Write(method, path, request_id))
        self.write_counts[request_id] += 1

    def new_message_id(self) -> str:
        return new_message_id(self.rng)

    def new_invite_code(self) -> str:
        return new_invite_code(self.rng)

    def create_instance(self, name: str, token: str | None) -> Instance:
        instance = new_instance(self.rng, name, "connecting", token=token)
        self.instances[name] = instance
        return instance


def new_message_id(rng: random.Random) -> str:
    """An id as a Baileys-based gateway gives messages it sends."""
    return f"3EB0{rng.getrandbits(64):016X}"


def new_invite_code(rng: random.Random) -> str:
    return "".join(rng.choices(_BASE62, k=22))


def _new_token(rng: random.Random) -> str:
    return f"{rng.getrandbits(128):032X}"


def _new_uuid(rng: random.Random) -> str:
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def _random_number(rng: random.Random) -> str:
    country = rng.choice(_COUNTRY_CODES)
    return country + "".join(rng.choices(string.digits[1:], k=12 - len(country)))


def _picture_url(rng: random.Random) -> str:
    return f"https://pps.whatsapp.net/v/t61.24694-24/{rng.getrandbits(40)}_n.jpg"


def _default_settings(rng: random.Random) -> dict[str, Any]:
    settings: dict[str, Any] = {flag: rng.random() < 0.3 for flag in SETTING_FLAGS}
    settings["msg_call"] = (
        "Calls are not answered here, please write." if settings["reject_call"] else ""
    )
    return settings


def new_instance(
    rng: random.Random,
    name: str,
    status: str,
    *,
    token: str | None = None,
    owner_number: str | None = None,
    profile_name: str | None = None,
    profile_status: str = "",
    has_picture: bool = True,
    has_integration: bool = True,
) -> Instance:
    return Instance(
        name=name,
        instance_id=_new_uuid(rng),
        status=status,
        apikey=token or _new_token(rng),
        owner_number=owner_number or _random_number(rng),
        profile_name=profile_name or f"{rng.choice(_PROFILE_NAMES)} {name.split('-')[0].title()}",
        profile_status=profile_status,
        profile_picture_url=_picture_url(rng) if has_picture else None,
        has_integration=has_integration,
        settings=_default_settings(rng),
        workspace_seed=rng.getrandbits(64),
    )


def _generated_instance(rng: random.Random, index: int) -> Instance:
    name = f"{rng.choice(_TEAMS)}-{rng.choice(_REGIONS)}-{index:05d}"
    status = rng.choices(tuple(_STATUS_WEIGHTS), weights=tuple(_STATUS_WEIGHTS.values()))[0]
    not_loaded = rng.random() < 0.05
    return new_instance(
        rng,
        name,
        status,
        profile_name="not loaded" if not_loaded else None,
        has_picture=not not_loaded,
        has_integration=rng.random() < 0.9,
    )


def build_state(
    instances: int = DEFAULT_INSTANCE_COUNT,
    *,
    seed: int = DEFAULT_SEED,
    api_key: str = DEMO_API_KEY,
    chats: int | None = None,
    big_chat: int = 0,
) -> DemoState:
    """The demo world: the curated instances first, then generated ones up to ``instances``.

    ``chats`` (history chats of each open instance) and ``big_chat`` (messages of one extra
    chat) are the benchmarks' knobs.
    """
    rng = random.Random(seed)
    by_name: dict[str, Instance] = {}
    for index in range(instances):
        if index < len(CURATED_INSTANCES):
            spec = CURATED_INSTANCES[index]
            instance = new_instance(
                rng,
                spec.name,
                spec.status,
                owner_number=spec.owner_number,
                profile_name=spec.profile_name,
                profile_status=spec.profile_status,
                has_picture=spec.has_picture,
                has_integration=spec.has_integration,
            )
        else:
            instance = _generated_instance(rng, index + 1)
        if chats is not None:
            instance.history_chats = chats
        instance.big_chat_messages = big_chat
        by_name[instance.name] = instance
    return DemoState(
        api_key=api_key,
        seed=seed,
        instances=by_name,
        rng=random.Random(rng.getrandbits(64)),
    )


# ---------------------------------------------------------------- workspaces (groups, chats)


def build_workspace(instance: Instance) -> Workspace:
    from gateway_tui.demo.chats import add_history  # it builds on this module's types
    from gateway_tui.demo.contacts import add_people

    rng = random.Random(instance.workspace_seed)
    if instance.name == "sales-eu":
        workspace = _sales_eu_workspace(instance, rng)
    else:
        workspace = _generated_workspace(instance, rng)
    if instance.status == "open":
        add_history(instance, workspace)
    add_people(instance, workspace)  # labels and @lid contacts
    return workspace


def _participants(
    rng: random.Random,
    size: int,
    *,
    creator: str,
    owner: str,
    owner_role: str | None,
    known: tuple[str, ...] = (),
) -> list[dict[str, Any]]:
    """``size`` participants: creator (superadmin), instance owner, known contacts, others."""
    members = [creator] if creator == owner else [creator, owner]
    members += [person_jid(n) for n in known]
    seen = set(members)
    while len(members) < size:
        jid = person_jid(_random_number(rng))
        if jid not in seen:
            seen.add(jid)
            members.append(jid)
    participants = []
    for position, jid in enumerate(members[:size]):
        if jid == creator:
            role = "superadmin"
        elif jid == owner:
            role = owner_role
        else:
            role = "admin" if position < 6 and rng.random() < 0.5 else None
        participant: dict[str, Any] = {"id": jid, "admin": role}
        name = CONTACT_NAMES.get(number_of(jid))
        if name:
            participant["name"] = name
        participants.append(participant)
    return participants


def _message(jid: str, from_me: bool, message_id: str, text: str, minutes: int) -> Message:
    return Message(
        key={"remoteJid": jid, "fromMe": from_me, "id": message_id},
        text=text,
        timestamp=SEED_EPOCH + minutes * 60,
    )


def _sales_eu_workspace(instance: Instance, rng: random.Random) -> Workspace:
    owner = instance.owner
    someone = person_jid("4915112340009")
    groups = [
        Group(
            jid="120363012345678901@g.us",
            subject="EU Sales — all hands",
            owner=owner,
            creation=SEED_EPOCH - 90 * 86400,
            participants=_participants(
                rng,
                1024,
                creator=owner,
                owner=owner,
                owner_role="superadmin",
                known=("4915112340001", "4915112340002"),
            ),
            invite_code=new_invite_code(rng),
            description="Everyone selling in the EU. Announcements only.",
            announce=True,
        ),
        Group(
            jid="120363023456789012@g.us",
            subject="Pricing war room",
            owner=someone,
            creation=SEED_EPOCH - 30 * 86400,
            participants=_participants(
                rng, 6, creator=someone, owner=owner, owner_role="admin", known=("447700900321",)
            ),
            invite_code=new_invite_code(rng),
        ),
        Group(
            jid="5511999887766-1589000000@g.us",
            subject="Clientes VIP",
            owner=person_jid("5511999887766"),
            creation=1_589_000_000,
            participants=_participants(
                rng,
                12,
                creator=person_jid("5511999887766"),
                owner=owner,
                owner_role="admin",
                known=("5511912345678",),
            ),
            invite_code=new_invite_code(rng),
            description="Grupo antigo, criado antes das comunidades.",
        ),
        # The instance is a plain member here: invite-code operations are not authorized.
        Group(
            jid="120363034567890123@g.us",
            subject="Partner announcements",
            owner=someone,
            creation=SEED_EPOCH - 200 * 86400,
            participants=_participants(rng, 40, creator=someone, owner=owner, owner_role=None),
            invite_code=new_invite_code(rng),
            restrict=True,
        ),
    ]
    jonas, padaria, books = (
        person_jid(n) for n in ("4915112340001", "5511912345678", "447700900456")
    )
    war_room = "120363023456789012@g.us"
    chats = [
        Chat(
            jonas,
            [
                _message(
                    jonas, False, "3A5F0C2D9B7E41A6C8D0", "Hallo! Ist Bestellung 4711 unterwegs?", 0
                ),
                _message(jonas, True, "3EB0A1B2C3D4E5F60718", "Ja, sie wurde heute verschickt.", 5),
                _message(
                    jonas, True, "3EB0C0FFEE0123456789", "Tracking: DHL 00340434161234567890", 6
                ),
            ],
        ),
        Chat(
            padaria,
            [
                _message(
                    padaria,
                    True,
                    "3EB09F8E7D6C5B4A3921",
                    "Bom dia! Confirmam 200 pães de queijo?",
                    60,
                ),
                _message(
                    padaria, False, "BAE5D1F0A9C84E2B", "Confirmado, entrega sexta às 8h.", 75
                ),
            ],
        ),
        Chat(
            books,
            [
                _message(books, False, "3AD0C9B8A7F6E5D4C3B2", "Your order #1887 is ready.", 120),
                _message(
                    books, True, "3EB0123456789ABCDEF0", "Great, I'll pick it up tomorrow.", 121
                ),
            ],
            archived=True,
        ),
        Chat(
            war_room,
            [
                _message(
                    war_room,
                    False,
                    "3A11B22C33D44E55F660",
                    "Competitor dropped prices by 10%.",
                    200,
                ),
                _message(war_room, True, "3EB0FEDCBA9876543210", "Let's hold ours until Q3.", 203),
            ],
        ),
    ]
    return Workspace(
        groups={group.jid: group for group in groups}, chats={chat.jid: chat for chat in chats}
    )


def _group_jid(rng: random.Random) -> str:
    return f"120363{rng.getrandbits(40) % 10**12:012d}{GROUP_DOMAIN}"


def _generated_workspace(instance: Instance, rng: random.Random) -> Workspace:
    owner = instance.owner
    groups = {}
    for _ in range(rng.randint(2, 4)):
        creator = rng.choice((owner, person_jid(_random_number(rng))))
        group = Group(
            jid=_group_jid(rng),
            subject=rng.choice(_GROUP_SUBJECTS),
            owner=creator,
            creation=SEED_EPOCH - rng.randint(1, 400) * 86400,
            participants=_participants(
                rng,
                rng.randint(3, 30),
                creator=creator,
                owner=owner,
                owner_role=rng.choice(("admin", "admin", None)),
            ),
            invite_code=new_invite_code(rng),
        )
        groups[group.jid] = group
    chats = {}
    for minutes in range(0, rng.randint(2, 4) * 90, 90):
        jid = person_jid(_random_number(rng))
        question, answer = rng.choice(_CHAT_LINES)
        chats[jid] = Chat(
            jid,
            [
                _message(jid, False, f"3A{rng.getrandbits(72):018X}", question, minutes),
                _message(jid, True, new_message_id(rng), answer, minutes + 2),
            ],
        )
    return Workspace(groups=groups, chats=chats)
