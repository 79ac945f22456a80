"""Group administration: requests' choices and the answers, on both lines.

As a real server answers (1.7.1 and 2.3.6 sources; recordings v1.7.1-more 109-119, 150-152,
v2.3.6-more 117-127, 159-161, v2.3.7 913-919, 953-955): updateParticipant answers
``{"updateParticipants": [{"status": "200", "jid": …, "content": …}]}`` — one status per number,
WhatsApp's own code —; updateSetting ``{}`` (Baileys gives nothing back); toggleEphemeral
``{"success": true}``; updateGroupDescription ``{"update": "success"}``; leaveGroup
``{"groupJid", "leave": true}``; create and findGroupInfos the group's metadata (2.x adds
``addressingMode``). The choices are the servers' enums (the recorded 400s list them).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import Field, field_validator

from gateway_tui.core.api.models import GroupSummary, Participant, Text, _Response
from gateway_tui.core.identity import version_tuple
from gateway_tui.core.text.i18n import N_, _


class ParticipantAction(StrEnum):
    ADD = "add"
    REMOVE = "remove"
    PROMOTE = "promote"
    DEMOTE = "demote"


class GroupSetting(StrEnum):
    """updateSetting's ``action`` (the recorded enum: v1.7.1-more 116, v2.3.6-more 124)."""

    ANNOUNCEMENT = "announcement"  # only admins send
    NOT_ANNOUNCEMENT = "not_announcement"  # everyone sends
    LOCKED = "locked"  # only admins edit the group's info
    UNLOCKED = "unlocked"  # everyone edits it


class MemberAddMode(StrEnum):
    """2.4's updateMemberAddMode: who may add members."""

    ADMIN_ADD = "admin_add"
    ALL_MEMBER_ADD = "all_member_add"


# toggleEphemeral's ``expiration`` (the recorded enum: 0, 86400, 604800, 7776000).
DISAPPEARING: dict[str, int] = {"off": 0, "24h": 86_400, "7d": 604_800, "90d": 7_776_000}
DISAPPEARING_LABELS: dict[int, str] = {
    0: N_("off"),
    86_400: N_("24 h"),
    604_800: N_("7 days"),
    7_776_000: N_("90 days"),
}

# WhatsApp's status codes for one participant of updateParticipant (Baileys passes them on).
PARTICIPANT_STATUS: dict[str, str] = {
    "200": N_("done"),
    "400": N_("refused by WhatsApp (bad request)"),
    "401": N_("not allowed (this number is not an admin)"),
    "403": N_("not allowed (their privacy settings, or not on WhatsApp)"),
    "404": N_("not a member of the group"),
    "408": N_("left recently: WhatsApp lets them be added back only by invite"),
    "409": N_("already a member"),
    "500": N_("WhatsApp failed"),
}


def has_member_add_mode(version: str | None) -> bool:
    """updateMemberAddMode came with Evolution API 2.4."""
    parsed = version_tuple(version)
    return parsed is not None and parsed[:2] >= (2, 4)


def disappearing_seconds(text: str) -> int:
    """``off``, ``24h``, ``7d``, ``90d`` (or the seconds themselves) → seconds; ValueError
    naming the choices otherwise."""
    value = text.strip().lower().replace(" ", "")
    if value in DISAPPEARING:
        return DISAPPEARING[value]
    if value.isdigit() and int(value) in DISAPPEARING_LABELS:
        return int(value)
    raise ValueError(
        _("disappearing messages: {value} is not one of {choices}").format(
            value=repr(text), choices=", ".join(DISAPPEARING)
        )
    )


class ParticipantChange(_Response):
    """One number's outcome of updateParticipant."""

    status: Text = ""
    jid: str = ""
    content: dict[str, Any] | None = None

    @property
    def ok(self) -> bool:
        return self.status == "200"

    @property
    def reason(self) -> str:
        if self.status in PARTICIPANT_STATUS:
            return _(PARTICIPANT_STATUS[self.status])
        return _("WhatsApp answered status {status}").format(status=self.status)


class ParticipantsUpdate(_Response):
    update_participants: list[ParticipantChange] = Field(
        default_factory=list, alias="updateParticipants"
    )

    @field_validator("update_participants", mode="before")
    @classmethod
    def _only_objects(cls, value: Any) -> Any:
        # A liberal read: anything that is not an object is no outcome (said as unknown).
        return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []

    def outcome_of(self, jid: str) -> ParticipantChange | None:
        return next((c for c in self.update_participants if c.jid == jid), None)


class SettingUpdate(_Response):
    """updateSetting: ``{}`` from a real server (Baileys' answer is undefined)."""

    update_setting: Any = Field(default=None, alias="updateSetting")


class EphemeralUpdate(_Response):
    success: bool | None = None


class GroupUpdate(_Response):
    """updateGroupDescription (and subject, picture): ``{"update": "success"}``."""

    update: str | None = None


class MemberAddModeUpdate(_Response):
    update: str | None = None
    mode: str | None = None


class LeaveResult(_Response):
    group_jid: str | None = Field(default=None, alias="groupJid")
    leave: bool | None = None


class GroupMetadata(GroupSummary):
    """findGroupInfos and create: the group as Baileys describes it (a GroupSummary's fields
    and how they are read, and more)."""

    announce: bool | None = None
    restrict: bool | None = None
    member_add_mode: bool | None = Field(default=None, alias="memberAddMode")
    ephemeral_duration: int | None = Field(default=None, alias="ephemeralDuration")
    addressing_mode: str | None = Field(default=None, alias="addressingMode")
    participants: list[Participant] = Field(default_factory=list)

    @field_validator("ephemeral_duration", mode="before")
    @classmethod
    def _seconds(cls, value: Any) -> Any:
        return GroupSummary._int_or_none(value)

    @field_validator("announce", "restrict", "member_add_mode", mode="before")
    @classmethod
    def _bool_or_none(cls, value: Any) -> Any:
        return value if isinstance(value, bool) else None

    @field_validator("participants", mode="before")
    @classmethod
    def _members(cls, value: Any) -> Any:
        if not isinstance(value, list):
            return []
        return [p for p in value if isinstance(p, dict) and isinstance(p.get("id"), str)]

    @property
    def disappearing(self) -> str:
        seconds = self.ephemeral_duration or 0
        return DISAPPEARING_LABELS.get(seconds, f"{seconds} s")
