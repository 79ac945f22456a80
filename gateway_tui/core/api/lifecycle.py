"""An instance from birth to logout: create, connect (QR / pairing code), restart, webhook and
websocket settings — the models of those answers and the rules checked before sending.

Shapes and rules are those a real 1.7.1 server showed (gateway-behaviour-1.7.1-more.md §2-3,
checked with curl): create and set answer 201; ``connect`` answers ``{"count":0}`` when the
instance cannot reach WhatsApp, and an empty body when the server swallowed an exception.
"""

from __future__ import annotations

import re
import uuid
from typing import Any

from pydantic import Field

from gateway_tui.core.api.errors import Problem
from gateway_tui.core.api.models import _Request, _Response
from gateway_tui.core.text.i18n import _, ngettext, number

# The names a real 1.7.1 accepts in ``events`` (validate.schema.ts:925-952), in its order.
EVENT_NAMES: tuple[str, ...] = (
    "APPLICATION_STARTUP",
    "QRCODE_UPDATED",
    "MESSAGES_SET",
    "MESSAGES_UPSERT",
    "MESSAGES_UPDATE",
    "MESSAGES_DELETE",
    "SEND_MESSAGE",
    "CONTACTS_SET",
    "CONTACTS_UPSERT",
    "CONTACTS_UPDATE",
    "PRESENCE_UPDATE",
    "CHATS_SET",
    "CHATS_UPSERT",
    "CHATS_UPDATE",
    "CHATS_DELETE",
    "GROUPS_UPSERT",
    "GROUP_UPDATE",
    "GROUP_PARTICIPANTS_UPDATE",
    "CONNECTION_UPDATE",
    "LABELS_EDIT",
    "LABELS_ASSOCIATION",
    "CALL",
    "NEW_JWT_TOKEN",
    "TYPEBOT_START",
    "TYPEBOT_CHANGE_STATUS",
    "CHAMA_AI_ACTION",
)
# Accepted, but a 1.7.1 server never sends them (see the behaviour spec §3).
NEVER_DELIVERED = frozenset({"APPLICATION_STARTUP", "NEW_JWT_TOKEN"})

BAILEYS = "WHATSAPP-BAILEYS"
BUSINESS = "WHATSAPP-BUSINESS"
INTEGRATIONS: tuple[str, ...] = (BAILEYS, BUSINESS)


def integration_shown(name: str | None, *, say_default: bool = True) -> str:
    """An instance's integration as the gateway names it, else the default of both lines for
    an instance created without one: 2.x stores Baileys (and lists it by name); 1.7.1 lists
    it unnamed (its create answer and fetchInstances in the recordings). ``say_default``
    adds "(default)" to the one told, not read."""
    if name:
        return name
    return _("{integration} (default)").format(integration=BAILEYS) if say_default else BAILEYS


# The name becomes a file name in the server's store (``<name>.json``): a real server given a
# longer one fails half-way ("Authentication error") and keeps a broken instance in memory.
MAX_NAME_BYTES = 200
_PRINTABLE_ASCII = re.compile(r"[\x20-\x7e]+")
_NUMBER_NOISE = re.compile(r"[+\s()\-]")
_HTTP_URL = re.compile(r"https?://[^\s/?#]+[^\s]*", re.IGNORECASE)


# --- create -----------------------------------------------------------------------------------


def new_instance_token() -> str:
    """An instance key in the form a real server generates itself (an upper-case UUID)."""
    return str(uuid.uuid4()).upper()


def check_new_instance_name(name: str) -> list[Problem]:
    """A real server makes a folder and files of the name: refuse what breaks that."""
    problems: list[str] = []
    if not name:
        problems.append(_("enter a name"))
    elif name != name.strip():
        problems.append(_("no spaces at the start or end"))
    elif "/" in name or "\\" in name:
        problems.append(_("no / or \\ (the name becomes a folder on the server)"))
    elif name.startswith("."):
        problems.append(_("must not start with a dot (. and .. are folders; .x is hidden)"))
    elif any(ord(ch) < 0x20 or ord(ch) == 0x7F for ch in name):
        problems.append(_("no control characters"))
    elif len(name.encode()) > MAX_NAME_BYTES:
        problems.append(_("too long: at most {n} bytes as UTF-8").format(n=number(MAX_NAME_BYTES)))
    return [Problem("instanceName", text) for text in problems]


def normalise_pairing_number(raw: str) -> str:
    return _NUMBER_NOISE.sub("", raw.strip())


def check_pairing_number(raw: str, field: str = "number") -> list[Problem]:
    """Optional: international digits (the number the pairing code is for)."""
    value = normalise_pairing_number(raw)
    if not value:
        return []
    if not re.fullmatch(r"[0-9]+", value):
        return [Problem(field, _("digits with the country code (spaces, +, ( ) and - are fine)"))]
    if len(value) < 8:
        return [Problem(field, _("too short for an international number with country code"))]
    return []


def check_token(token: str) -> list[Problem]:
    if not token.strip():
        return [Problem("token", _("the instance needs a key"))]
    if not _PRINTABLE_ASCII.fullmatch(token):
        return [Problem("token", _("printable ASCII only (it travels in a header)"))]
    return []


class CreateInstanceRequest(_Request):
    instance_name: str = Field(alias="instanceName")
    token: str
    number: str | None = None
    qrcode: bool = False
    integration: str | None = None

    def problems(self) -> list[Problem]:
        problems = check_new_instance_name(self.instance_name) + check_token(self.token)
        problems += check_pairing_number(self.number or "")
        if self.integration is not None and self.integration not in INTEGRATIONS:
            problems.append(
                Problem("integration", _("one of {names}").format(names=", ".join(INTEGRATIONS)))
            )
        if self.integration == BUSINESS and not self.number:
            # The real server answers "number is required" and keeps a half-made instance.
            problems.append(
                Problem(
                    "number",
                    _("{integration} needs the business number").format(integration=BUSINESS),
                )
            )
        return problems

    def to_json(self) -> dict[str, Any]:
        body = super().to_json()
        if self.number:
            body["number"] = normalise_pairing_number(self.number)
        else:
            body.pop("number", None)
        return body


class CreatedInstance(_Response):
    """201 of /instance/create: ``instance`` (name, id, status "created"), ``hash.apikey``."""

    instance: dict[str, Any] = Field(default_factory=dict)
    hash: Any = None
    settings: dict[str, Any] | None = None
    qrcode: dict[str, Any] | None = None

    @property
    def name(self) -> str:
        return str(self.instance.get("instanceName") or "")

    @property
    def instance_id(self) -> str | None:
        value = self.instance.get("instanceId")
        return str(value) if value else None

    @property
    def integration(self) -> str | None:
        value = self.instance.get("integration")
        return str(value) if value else None

    @property
    def token(self) -> str | None:
        """The instance's own key, as the server stored it (older servers send a string)."""
        if isinstance(self.hash, dict):
            value = self.hash.get("apikey")
            return str(value) if value else None
        return self.hash if isinstance(self.hash, str) and self.hash else None


# --- connect ----------------------------------------------------------------------------------


class ConnectResult(_Response):
    """What /instance/connect answered.

    ``code`` is the text a QR code carries, ``base64`` the same as a PNG data URL,
    ``pairingCode`` the 8 letters to type on the phone (only when a number was given);
    ``count`` how many codes were issued. An open instance answers its connection state instead
    (``instance``). ``{"count":0}``: the server could not reach WhatsApp to get a code.
    """

    pairing_code: str | None = Field(default=None, alias="pairingCode")
    code: str | None = None
    base64: str | None = None
    count: int | None = None
    instance: dict[str, Any] | None = None
    # Set when the body was empty: a real server swallows an exception that way.
    empty: bool = False

    @property
    def state(self) -> str | None:
        value = (self.instance or {}).get("state")
        return str(value) if value else None

    @property
    def has_code(self) -> bool:
        return bool(self.code or self.pairing_code)

    @property
    def explanation(self) -> str:
        """In plain words, what this answer means for the user."""
        if self.state == "open":
            return _("The instance is already connected (open): nothing to scan.")
        if self.has_code:
            return _("Scan the code with WhatsApp on the phone: Linked devices → Link a device.")
        if self.empty:
            return _(
                "The gateway answered with an empty body: it failed inside while asking "
                "WhatsApp for a code. Its log says why; try again in a moment."
            )
        return _(
            "No code: the gateway could not get one from WhatsApp (it answered "
            "count {count}). The gateway has no "
            "connection to WhatsApp's servers, or WhatsApp refused it. It keeps retrying "
            "(the state flips connecting/close) for as long as it runs: a 1.7.1 gateway goes "
            "on even after a logout."
        ).format(count=self.count if self.count is not None else "—")


# --- webhook and websocket --------------------------------------------------------------------


def check_events(events: list[str], field: str = "events") -> list[Problem]:
    unknown = [event for event in events if event not in EVENT_NAMES]
    if unknown:
        said = _("not an event a 1.7.1 gateway knows: {events}").format(events=", ".join(unknown))
        return [Problem(field, said)]
    return []


def check_webhook_url(url: str) -> list[Problem]:
    """A real server wants a URL even to turn the webhook off (``""`` is refused)."""
    if not url.strip():
        return [Problem("url", _("enter the URL the gateway should call (needed even when off)"))]
    if not _HTTP_URL.fullmatch(url.strip()):
        said = _("a full http:// or https:// URL, e.g. {example}").format(
            example="https://example.com/hook"
        )
        return [Problem("url", said)]
    return []


class WebhookSettings(_Response):
    """A webhook as find returns it; an empty object (``configured`` False) when never set."""

    url: str = ""
    enabled: bool = False
    events: list[str] = Field(default_factory=list)
    webhook_by_events: bool | None = None
    webhook_base64: bool | None = None

    @property
    def configured(self) -> bool:
        return bool(self.model_fields_set & {"url", "enabled", "events"})

    def problems(self) -> list[Problem]:
        return check_webhook_url(self.url) + check_events(self.events)

    def to_json(self) -> dict[str, Any]:
        # events is always sent: without it an enabled webhook makes a real server fail
        # with 500 "Cannot read properties of undefined (reading 'length')".
        body: dict[str, Any] = {
            "url": self.url.strip(),
            "enabled": self.enabled,
            "events": list(self.events),
        }
        if self.webhook_by_events is not None:
            body["webhook_by_events"] = self.webhook_by_events
        if self.webhook_base64 is not None:
            body["webhook_base64"] = self.webhook_base64
        return body


class WebhookSetResult(_Response):
    webhook: dict[str, Any] | None = None

    @property
    def applied(self) -> WebhookSettings | None:
        inner = (self.webhook or {}).get("webhook")
        return WebhookSettings.model_validate(inner) if isinstance(inner, dict) else None


class WebsocketSettings(_Response):
    enabled: bool = False
    events: list[str] = Field(default_factory=list)

    @property
    def configured(self) -> bool:
        return bool(self.model_fields_set & {"enabled", "events"})

    def problems(self) -> list[Problem]:
        return check_events(self.events)

    def to_json(self) -> dict[str, Any]:
        # events always sent: enabled without it is a 500 on a real server.
        return {"enabled": self.enabled, "events": list(self.events)}


class WebsocketSetResult(_Response):
    websocket: dict[str, Any] | None = None

    @property
    def applied(self) -> WebsocketSettings | None:
        inner = (self.websocket or {}).get("websocket")
        return WebsocketSettings.model_validate(inner) if isinstance(inner, dict) else None


def _event_difference(sent: list[str], found: list[str]) -> str | None:
    if set(sent) == set(found):
        return None
    if not sent:
        # None ticked means all of the line's events: the gateway keeping them is what was meant.
        return None
    if not found:
        return ngettext(
            "events: {n} sent, none kept", "events: {n} sent, none kept", len(sent)
        ).format(n=number(len(sent)))
    added = [e for e in found if e not in sent]
    dropped = [e for e in sent if e not in found]
    parts = []
    if added:
        if len(added) <= 4:
            parts.append(_("added {events}").format(events=", ".join(added)))
        else:
            parts.append(_("added {n} events").format(n=number(len(added))))
    if dropped:
        if len(dropped) <= 4:
            parts.append(_("dropped {events}").format(events=", ".join(dropped)))
        else:
            parts.append(_("dropped {n}").format(n=number(len(dropped))))
    return _("events: {changes}").format(changes="; ".join(parts))


def webhook_differences(sent: WebhookSettings, found: WebhookSettings) -> list[str]:
    """What the gateway keeps differently from what was sent, in plain words."""
    if not found.configured:
        return [_("the gateway stored nothing (find answers {{}})").format()]
    lines: list[str] = []
    if sent.url.strip() != found.url:
        said = (
            _("url: sent {sent}, kept {kept}")
            if found.enabled
            else _("url: sent {sent}, kept {kept} (a disabled webhook keeps no URL)")
        )
        lines.append(said.format(sent=sent.url.strip(), kept=found.url or '""'))
    if sent.enabled != found.enabled:
        lines.append(_sent_kept("enabled", sent.enabled, found.enabled))
    if diff := _event_difference(sent.events, found.events):
        lines.append(diff)
    for name in ("webhook_by_events", "webhook_base64"):
        want, got = getattr(sent, name), getattr(found, name)
        if want is not None and want != got:
            lines.append(_sent_kept(name, want, got))
    return lines


def _sent_kept(name: str, sent: object, kept: object) -> str:
    """``name: sent True, kept False`` (the setting's name and values are the wire's)."""
    if kept is None:
        return _("{setting}: sent {sent}, kept nothing").format(setting=name, sent=sent)
    return _("{setting}: sent {sent}, kept {kept}").format(setting=name, sent=sent, kept=kept)


def websocket_differences(sent: WebsocketSettings, found: WebsocketSettings) -> list[str]:
    if not found.configured:
        return [_("the gateway stored nothing (find answers {{}})").format()]
    lines: list[str] = []
    if sent.enabled != found.enabled:
        lines.append(_sent_kept("enabled", sent.enabled, found.enabled))
    if not found.enabled and sent.events and set(found.events) == set(EVENT_NAMES):
        # 1.7.1's way (not something added): it sends none of them while off.
        lines.append(
            _("events: a disabled websocket keeps all {n} (none is sent while it is off)").format(
                n=number(len(EVENT_NAMES))
            )
        )
    elif diff := _event_difference(sent.events, found.events):
        lines.append(diff)
    return lines
