"""Groups: the list, participants, invite codes and links, subjects; administration
(participants, settings, description, disappearing messages, member-add mode, leave, create)."""

from __future__ import annotations

from typing import Any, TypeVar

import httpx

from gateway_tui.core.api import validation
from gateway_tui.core.api.errors import GatewayError, Problem
from gateway_tui.core.api.group_models import (
    DISAPPEARING_LABELS,
    EphemeralUpdate,
    GroupMetadata,
    GroupSetting,
    GroupUpdate,
    LeaveResult,
    MemberAddMode,
    MemberAddModeUpdate,
    ParticipantAction,
    ParticipantsUpdate,
    SettingUpdate,
    has_member_add_mode,
)
from gateway_tui.core.api.lists import PartialList
from gateway_tui.core.api.models import (
    GroupInviteResult,
    GroupSummary,
    InviteCode,
    Participant,
    RevokeResult,
    SubjectUpdateResult,
)
from gateway_tui.core.api.paths import group_call, instance_path, require, seg_path
from gateway_tui.core.api.resources.base import Resource
from gateway_tui.core.api.transport import (
    GROUPS,
    parse_answer,
    parse_list,
    participant_list,
)
from gateway_tui.core.text.i18n import _

_M = TypeVar("_M")


class Groups(Resource):
    async def fetch_all(self, instance: str) -> list[GroupSummary]:
        """Optional extra: a server without it answers 404."""
        path = instance_path("/group/fetchAllGroups/", instance, "GET")

        def parse(response: httpx.Response) -> Any:
            return parse_list(response, "GET", path, GROUPS)

        return await self._call("GET", path, parse, params={"getParticipants": "false"})

    async def participants(self, instance: str, group_jid: str) -> list[Participant]:
        path, jid = group_call("/group/participants/", instance, group_jid, "GET")
        params = {"groupJid": jid}

        def parse(response: httpx.Response) -> PartialList[Participant]:
            return parse_answer(response, "GET", path, participant_list)

        return await self._call("GET", path, parse, params=params)

    async def invite_code(self, instance: str, group_jid: str) -> InviteCode:
        path, jid = group_call("/group/inviteCode/", instance, group_jid, "GET")
        return await self._model(InviteCode, "GET", path, params={"groupJid": jid})

    async def revoke_invite(self, instance: str, group_jid: str) -> RevokeResult:
        verb = (await self.line()).verb("revoke_invite")
        path, jid = group_call("/group/revokeInviteCode/", instance, group_jid, verb)
        return await self._optional_model(
            RevokeResult,
            verb,
            path,
            params={"groupJid": jid},
            refusal=lambda result: (
                (_("The gateway says the code was not revoked"), "revoked: false")
                if result.revoked is False
                else None
            ),
        )

    async def update_subject(
        self, instance: str, group_jid: str, subject: str
    ) -> SubjectUpdateResult:
        verb = (await self.line()).verb("update_subject")
        path, jid = group_call(
            "/group/updateGroupSubject/",
            instance,
            group_jid,
            verb,
            validation.check_subject(subject),
        )
        # The interface calls subject an object; a real server wants a plain string.
        body = {"subject": subject}
        return await self._optional_model(
            SubjectUpdateResult, verb, path, params={"groupJid": jid}, body=body
        )

    async def send_invite(
        self, instance: str, group_jid: str, numbers: list[str], description: str
    ) -> GroupInviteResult:
        path, jid = group_call(
            "/group/sendInvite/",
            instance,
            group_jid,
            "POST",
            validation.check_invite_numbers(numbers)
            + validation.check_invite_description(description),
        )
        body = {
            "groupJid": jid,
            "numbers": validation.normalise_invite_numbers(numbers),
            "description": description,
        }
        return await self._model(
            GroupInviteResult,
            "POST",
            path,
            body=body,
            refusal=lambda result: (
                (_("The gateway says the invite was not sent"), "send: false")
                if result.send is False
                else None
            ),
        )

    # --- administration (both lines: 1.7.1 changes with PUT, 2.x with POST) ---

    async def _admin(
        self,
        operation: str,
        prefix: str,
        instance: str,
        group_jid: str,
        model: type[_M],
        body: dict[str, Any] | None = None,
        more: list[Problem] | None = None,
        verb: str | None = None,
    ) -> _M:
        verb = verb or (await self.line()).verb(operation)
        path, jid = group_call(prefix, instance, group_jid, verb, more)
        return await self._optional_model(model, verb, path, params={"groupJid": jid}, body=body)

    async def _version(self) -> str | None:
        """The gateway's version (GET / once, when nothing asked it yet)."""
        if self._client.server_version is None:
            try:
                await self._client.fetch_server_info(quiet=True)
            except GatewayError:
                return None
        return self._client.server_version

    async def info(self, instance: str, group_jid: str) -> GroupMetadata:
        """findGroupInfos: the group's settings, description and members."""
        path, jid = group_call("/group/findGroupInfos/", instance, group_jid, "GET")
        return await self._model(GroupMetadata, "GET", path, params={"groupJid": jid})

    async def update_participants(
        self, instance: str, group_jid: str, action: ParticipantAction, members: list[str]
    ) -> ParticipantsUpdate:
        """Add, remove, promote or demote: one outcome per number (WhatsApp's own code)."""
        wanted = [member_id(m) for m in members]
        problems = _member_problems(wanted)
        body = {"action": ParticipantAction(action).value, "participants": wanted}
        return await self._admin(
            "update_participants",
            "/group/updateParticipant/",
            instance,
            group_jid,
            ParticipantsUpdate,
            body,
            problems,
        )

    async def update_setting(
        self, instance: str, group_jid: str, setting: GroupSetting
    ) -> SettingUpdate:
        body = {"action": GroupSetting(setting).value}
        return await self._admin(
            "update_setting", "/group/updateSetting/", instance, group_jid, SettingUpdate, body
        )

    async def set_disappearing(
        self, instance: str, group_jid: str, seconds: int
    ) -> EphemeralUpdate:
        more = []
        if seconds not in DISAPPEARING_LABELS:
            more.append(
                Problem(
                    "expiration",
                    _("off, 24 h, 7 or 90 days (in seconds: 0, 86400, 604800, 7776000)"),
                )
            )
        return await self._admin(
            "toggle_ephemeral",
            "/group/toggleEphemeral/",
            instance,
            group_jid,
            EphemeralUpdate,
            {"expiration": seconds},
            more,
        )

    async def update_description(
        self, instance: str, group_jid: str, description: str
    ) -> GroupUpdate:
        more = [] if description.strip() else [Problem("description", _("enter a description"))]
        return await self._admin(
            "update_description",
            "/group/updateGroupDescription/",
            instance,
            group_jid,
            GroupUpdate,
            {"description": description},
            more,
        )

    async def set_member_add_mode(
        self, instance: str, group_jid: str, mode: MemberAddMode
    ) -> MemberAddModeUpdate:
        """Who may add members: a 2.4 route (older gateways have none; refused before
        sending)."""
        version = await self._version()
        more = []
        if not has_member_add_mode(version):
            if version:
                said = _(
                    "who adds members came with Evolution API 2.4 (this gateway is {version})"
                ).format(version=version)
            else:
                said = _("who adds members came with Evolution API 2.4 (its version is unknown)")
            more.append(Problem("mode", said))
        return await self._admin(
            "update_member_add_mode",
            "/group/updateMemberAddMode/",
            instance,
            group_jid,
            MemberAddModeUpdate,
            {"mode": MemberAddMode(mode).value},
            more,
            verb="POST",
        )

    async def leave(self, instance: str, group_jid: str) -> LeaveResult:
        return await self._admin(
            "leave", "/group/leaveGroup/", instance, group_jid, LeaveResult, verb="DELETE"
        )

    async def create(
        self,
        instance: str,
        subject: str,
        members: list[str],
        *,
        description: str = "",
        promote: bool = False,
    ) -> GroupMetadata:
        """A new group; a real server drops the numbers that are not on WhatsApp."""
        path = seg_path("/group/create/", instance)
        wanted = [member_id(m) for m in members]
        problems = (
            validation.check_instance_name(instance)
            + validation.check_subject(subject)
            + _member_problems(wanted)
        )
        require(problems, "POST", path)
        body: dict[str, Any] = {"subject": subject, "participants": wanted}
        if description.strip():
            body["description"] = description
        if promote:
            body["promoteParticipants"] = True
        return await self._model(GroupMetadata, "POST", path, body=body)


def member_id(raw: str) -> str:
    """A member as the server takes it: an ``…@lid`` or phone JID as it is, else the digits."""
    value = raw.strip()
    if value.endswith("@lid") or value.endswith("@s.whatsapp.net"):
        return value
    return validation.normalise_number(value)


def _member_problems(members: list[str]) -> list[Problem]:
    if not members:
        return [Problem("participants", _("give at least one number"))]
    problems = []
    for index, member in enumerate(members):
        where = f"participants[{index}]"
        if member.endswith(("@lid", "@s.whatsapp.net")):
            continue
        if not validation.is_digits(member) or len(member) < 10:
            problems.append(
                Problem(
                    where,
                    _("{member!r}: a number of at least 10 digits").format(member=member),
                )
            )
    if len(set(members)) != len(members):
        problems.append(Problem("participants", _("a number is listed twice")))
    return problems
