"""Groups: the list, participants, the invite code (fetch and revoke), subject and invites."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import TypeVar

from gateway_tui.core.api.errors import GatewayError
from gateway_tui.core.api.group_models import (
    GroupMetadata,
    GroupSetting,
    LeaveResult,
    MemberAddMode,
    ParticipantAction,
)
from gateway_tui.core.api.models import (
    GroupInviteResult,
    GroupSummary,
    InviteCode,
    Participant,
)
from gateway_tui.core.api.validation import group_jid_from
from gateway_tui.core.group_admin import Outcome, outcomes
from gateway_tui.core.services.base import ActionsBase
from gateway_tui.core.state import InviteState, Loadable, SentInvite, Topic

INVITE_URL_PREFIX = "https://chat.whatsapp.com/"
T = TypeVar("T")


class GroupActions(ActionsBase):
    async def load_groups(self, instance: str) -> list[GroupSummary]:
        """fetchAllGroups (an optional endpoint: a server without it raises NotFound)."""
        return await self._load(
            self.state.groups_of(instance), Topic.GROUPS, self.client.groups.fetch_all(instance)
        )

    async def load_participants(self, instance: str, group_jid: str) -> list[Participant]:
        jid = group_jid_from(group_jid)
        return await self._load(
            self.state.participants_of(instance, jid),
            Topic.PARTICIPANTS,
            self.client.groups.participants(instance, jid),
        )

    # --- invite code -------------------------------------------------------------------------

    async def load_invite_code(self, instance: str, group_jid: str) -> InviteCode:
        """Read the current code. A successful read is a refresh: revoked codes are dropped."""
        jid = group_jid_from(group_jid)
        invite = self.state.invite_of(instance, jid)
        code = await self._invite_call(invite, self.client.groups.invite_code(instance, jid))
        invite.current, invite.revoked, invite.error = code, [], None
        invite.updated_at = self.state.now()
        self.state.notify(Topic.INVITE)
        return code

    async def revoke_invite_code(self, instance: str, group_jid: str) -> InviteCode:
        """Revoke; the new code replaces the current one, which stays listed as revoked.

        On failure the current code is kept (it still works) and the error is recorded.
        """
        jid = group_jid_from(group_jid)
        invite = self.state.invite_of(instance, jid)
        result = await self._invite_call(invite, self.client.groups.revoke_invite(instance, jid))
        if result.invite_code:
            new = InviteCode(
                inviteCode=result.invite_code, inviteUrl=INVITE_URL_PREFIX + result.invite_code
            )
        else:
            # Liberal: a server that revokes without naming the new code; read it.
            try:
                new = await self.client.groups.invite_code(instance, jid)
            except GatewayError as error:
                # Revoked all the same: the old code no longer works.
                self._replace_code(invite, None)
                invite.error = error
                self.state.notify(Topic.INVITE)
                raise
        self._replace_code(invite, new)
        self.state.notify(Topic.INVITE)
        return new

    def _replace_code(self, invite: InviteState, new: InviteCode | None) -> None:
        old = invite.current
        if old is not None and (new is None or old.invite_code != new.invite_code):
            invite.revoked.insert(0, old)
        invite.current, invite.error = new, None
        invite.updated_at = self.state.now()

    async def _invite_call(self, invite: InviteState, call: Awaitable[T]) -> T:
        invite.loading = True
        self.state.notify(Topic.INVITE)
        try:
            return await call
        except GatewayError as error:
            invite.error = error
            raise
        finally:
            invite.loading = False
            self.state.notify(Topic.INVITE)

    # --- subject and invites -----------------------------------------------------------------

    async def update_group_subject(self, instance: str, group_jid: str, subject: str) -> str:
        """Change the subject; the group list (and the app's own record) show it at once."""
        jid = group_jid_from(group_jid)
        await self.client.groups.update_subject(instance, jid, subject)
        self.state.group_subjects[(instance, jid)] = subject
        groups = self.state.groups_of(instance)
        if groups.value is not None:
            groups.value = [
                group.model_copy(update={"subject": subject}) if group.id == jid else group
                for group in groups.value
            ]
        self.state.notify(Topic.GROUPS)
        return subject

    async def send_group_invite(
        self, instance: str, group_jid: str, numbers: list[str], description: str
    ) -> GroupInviteResult:
        """Send the group's invite link to ``numbers``; the result names the URL sent."""
        jid = group_jid_from(group_jid)
        result = await self.client.groups.send_invite(instance, jid, numbers, description)
        invite = self.state.invite_of(instance, jid)
        invite.last_sent = SentInvite(list(numbers), description, result, self.state.now())
        self.state.notify(Topic.INVITE)
        return result

    # --- administration ------------------------------------------------------------------------

    def info_of(self, instance: str, group_jid: str) -> Loadable[GroupMetadata]:
        return self.state.group_infos.setdefault((instance, group_jid_from(group_jid)), Loadable())

    async def load_group_info(self, instance: str, group_jid: str) -> GroupMetadata:
        """findGroupInfos: the group's settings, description and disappearing messages."""
        jid = group_jid_from(group_jid)
        return await self._load(
            self.info_of(instance, jid), Topic.PARTICIPANTS, self.client.groups.info(instance, jid)
        )

    async def change_participants(
        self, instance: str, group_jid: str, action: ParticipantAction, members: list[str]
    ) -> list[Outcome]:
        """Add, remove, promote or demote: each number's outcome. The list is read again
        when something changed (a read: the change is never sent twice)."""
        jid = group_jid_from(group_jid)
        answer = await self.client.groups.update_participants(instance, jid, action, members)
        said = outcomes(members, answer)
        if any(outcome.ok for outcome in said):
            try:
                await self.load_participants(instance, jid)
            except GatewayError:
                # The outcomes stand; the failed read is kept in the participants' loadable,
                # and the participants screen's stale banner says it.
                pass
        return said

    async def update_group_setting(
        self, instance: str, group_jid: str, setting: GroupSetting
    ) -> None:
        await self.client.groups.update_setting(instance, group_jid, setting)
        await self._reread_info(instance, group_jid)

    async def set_disappearing(self, instance: str, group_jid: str, seconds: int) -> None:
        await self.client.groups.set_disappearing(instance, group_jid, seconds)
        await self._reread_info(instance, group_jid)

    async def set_member_add_mode(self, instance: str, group_jid: str, mode: MemberAddMode) -> None:
        await self.client.groups.set_member_add_mode(instance, group_jid, mode)
        await self._reread_info(instance, group_jid)

    async def update_description(self, instance: str, group_jid: str, text: str) -> None:
        await self.client.groups.update_description(instance, group_jid, text)
        await self._reread_info(instance, group_jid)

    async def _reread_info(self, instance: str, group_jid: str) -> None:
        try:
            await self.load_group_info(instance, group_jid)
        except GatewayError:
            # The write went through (its outcome stands); the failed read-back is kept in
            # info_of(...).error, and the group view says it when the dialog closes.
            return

    async def leave_group(self, instance: str, group_jid: str) -> LeaveResult:
        """Leave; the group goes from the instance's list."""
        jid = group_jid_from(group_jid)
        result = await self.client.groups.leave(instance, jid)
        listed = self.state.groups_of(instance)
        if listed.value is not None:
            listed.value = [g for g in listed.value if g.id != jid]
        self.state.notify(Topic.GROUPS)
        return result

    async def create_group(
        self, instance: str, subject: str, members: list[str], description: str = ""
    ) -> GroupMetadata:
        """A new group; it joins the instance's list at once."""
        created = await self.client.groups.create(
            instance, subject, members, description=description
        )
        listed = self.state.groups_of(instance)
        summary = GroupSummary(
            id=created.id, subject=created.subject, size=len(created.participants)
        )
        listed.value = [*(listed.value or []), summary]
        self.info_of(instance, created.id).succeed(created, self.state.now())
        self.state.notify(Topic.GROUPS)
        return created
