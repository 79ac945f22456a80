"""Groups: the list, participants, invite codes and links, subjects."""

from __future__ import annotations

from typing import Any

import httpx

from gateway_tui.core.api import validation
from gateway_tui.core.api.errors import GatewayError, InvalidResponse
from gateway_tui.core.api.lists import PartialList
from gateway_tui.core.api.models import (
    GroupInviteResult,
    GroupSummary,
    InviteCode,
    Participant,
    RevokeResult,
    SubjectUpdateResult,
)
from gateway_tui.core.api.paths import group_call, instance_path
from gateway_tui.core.api.resources.base import Resource
from gateway_tui.core.api.transport import (
    GROUPS,
    parse_answer,
    parse_list,
    participant_list,
)


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
        result = await self._optional_model(RevokeResult, verb, path, params={"groupJid": jid})
        if result.revoked is False:
            raise GatewayError(
                "The gateway says the code was not revoked",
                method=verb,
                path=path,
                messages=["revoked: false"],
            )
        return result

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
        result = await self._model(GroupInviteResult, "POST", path, body=body)
        if result.send is False:
            raise InvalidResponse(
                "The gateway says the invite was not sent",
                method="POST",
                path=path,
                messages=["send: false"],
            )
        return result
