"""``groups INSTANCE`` and ``group VERB INSTANCE GROUP …`` (``participants`` is an alias of
``group participants``).

GROUP is a JID or a group's exact subject: a subject is looked up in the instance's groups, and
one that several groups share is refused with the candidates. A change of participants says
each number's outcome and exits 3 when some were not done (as ``send-list`` does for failed
recipients). ``revoke`` and ``leave`` ask first (``--yes`` skips the question).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from gateway_tui.cli.commands import (
    EXIT_INCOMPLETE,
    EXIT_OK,
    CommandError,
    _client,
    _emit,
    _gateway_error,
)
from gateway_tui.cli.instance_cmds import _one
from gateway_tui.core.text.i18n import _

if TYPE_CHECKING:
    from gateway_tui.core.files.config import ResolvedConfig


async def groups(args: argparse.Namespace, config: ResolvedConfig) -> int:
    from gateway_tui.core.api.errors import GatewayError

    async with _client(config) as client:
        try:
            found = await client.groups.fetch_all(args.instance)
        except GatewayError as error:
            raise _gateway_error(error, config.url) from None
    rows = [{"jid": g.id, "subject": g.subject, "size": g.size, "owner": g.owner} for g in found]
    _emit(rows, ("jid", "subject", "size", "owner"), args)
    return EXIT_OK


async def _group_jid(client: Any, instance: str, name: str) -> str:
    """A JID as given (the client checks it before asking); anything else is a subject,
    looked up in the instance's groups (fetchAllGroups): unknown or ambiguous refused."""
    from gateway_tui.core.group_admin import GroupNotFound, find_group

    text = name.strip()
    if text.endswith("@g.us") or (text.replace("-", "").isdigit() and len(text) >= 10):
        return text
    try:
        return find_group(await client.groups.fetch_all(instance), text).id
    except GroupNotFound as error:
        raise CommandError(str(error)) from None


async def group(args: argparse.Namespace, config: ResolvedConfig) -> int:
    from gateway_tui.core.api.errors import GatewayError

    async with _client(config) as client:
        try:
            jid = await _group_jid(client, args.instance, args.group)
            return await _GROUP_VERBS[args.verb](client, args, jid)
        except GatewayError as error:
            raise _gateway_error(error, config.url) from None


async def participants(args: argparse.Namespace, config: ResolvedConfig) -> int:
    """``participants INSTANCE GROUP``: kept as it was, a subject now accepted too."""
    args.verb = "participants"
    return await group(args, config)


async def _participants(client: Any, args: argparse.Namespace, jid: str) -> int:
    from gateway_tui.core.identity import Identities

    members = await client.groups.participants(args.instance, jid)
    known = Identities()
    for member in members:
        known.learn_participant(member)
    rows = []
    for p in members:
        who = known.resolve(p.id, name=p.name)
        rows.append(
            {
                "number": p.number,
                "jid": p.id,
                "lid": who.lid or "",
                "role": p.role.value,
                "name": p.name,
            }
        )
    _emit(rows, ("number", "jid", "lid", "role", "name"), args)
    return EXIT_OK


async def _invite_code(client: Any, args: argparse.Namespace, jid: str) -> int:
    code = await client.groups.invite_code(args.instance, jid)
    _one(args, {"group": jid, "invite_url": code.url, "invite_code": code.invite_code})
    return EXIT_OK


async def _revoke(client: Any, args: argparse.Namespace, jid: str) -> int:
    from gateway_tui.cli.prompt import confirm

    confirm(
        _("Revoke the invite link of {group}? The current link stops working.").format(group=jid),
        yes=args.yes,
    )
    result = await client.groups.revoke_invite(args.instance, jid)
    _one(args, {"group": jid, "revoked": True, "new_invite_code": result.invite_code})
    return EXIT_OK


async def _subject(client: Any, args: argparse.Namespace, jid: str) -> int:
    text = _single(args, _("give one SUBJECT (quote it when it has spaces)"))
    await client.groups.update_subject(args.instance, jid, text)
    _one(args, {"group": jid, "subject": text})
    return EXIT_OK


async def _description(client: Any, args: argparse.Namespace, jid: str) -> int:
    text = _single(args, _("give one DESCRIPTION (quote it when it has spaces)"))
    await client.groups.update_description(args.instance, jid, text)
    _one(args, {"group": jid, "description": text})
    return EXIT_OK


async def _invite(client: Any, args: argparse.Namespace, jid: str) -> int:
    if not args.values:
        raise CommandError(_("give the numbers to invite (and --text for the invite's words)"))
    text = args.text or _("You are invited to our WhatsApp group:")
    result = await client.groups.send_invite(args.instance, jid, list(args.values), text)
    _one(args, {"group": jid, "sent_to": " ".join(args.values), "invite_url": result.invite_url})
    return EXIT_OK


def _single(args: argparse.Namespace, refusal: str) -> str:
    """The one VALUE given, else CommandError(``refusal``)."""
    if len(args.values) != 1:
        raise CommandError(refusal)
    return args.values[0]


async def _members_change(client: Any, args: argparse.Namespace, jid: str) -> int:
    from gateway_tui.core.api.group_models import ParticipantAction
    from gateway_tui.core.group_admin import numbers_to_add, outcomes

    if not args.values:
        raise CommandError(_("give at least one number (or a member's JID)"))
    if args.verb == "add":
        members = await client.groups.participants(args.instance, jid)
        plan = numbers_to_add(args.values, members)
        for problem in plan.problems:
            _note(_("left out: {problem}").format(problem=problem))
        wanted = plan.numbers
        if not wanted:
            raise CommandError(_("nobody to add ({summary})").format(summary=plan.summary()))
    else:
        wanted = list(dict.fromkeys(v.strip() for v in args.values if v.strip()))
    answer = await client.groups.update_participants(
        args.instance, jid, ParticipantAction(args.verb), wanted
    )
    said = outcomes(wanted, answer)
    rows = [{"number": o.number, "done": o.ok, "result": o.reason} for o in said]
    _emit(rows, ("number", "done", "result"), args)
    return EXIT_OK if all(o.ok for o in said) else EXIT_INCOMPLETE


def _note(message: str) -> None:
    from gateway_tui.cli.output import warn

    warn(message)


_SETTING_WORDS = {
    "announcement": "announcement",
    "admins-send": "announcement",
    "not_announcement": "not_announcement",
    "all-send": "not_announcement",
    "locked": "locked",
    "admins-edit": "locked",
    "unlocked": "unlocked",
    "all-edit": "unlocked",
}


async def _settings(client: Any, args: argparse.Namespace, jid: str) -> int:
    """``group settings I G [announcement|not_announcement|locked|unlocked|disappearing=7d|
    member-add=admin_add|all_member_add] …``; no change: the group's settings are shown."""
    from gateway_tui.core.api.group_models import (
        GroupSetting,
        MemberAddMode,
        disappearing_seconds,
    )

    changes = []
    for value in args.values:
        name, sep, rest = value.partition("=")
        if value in _SETTING_WORDS:
            changes.append(("setting", GroupSetting(_SETTING_WORDS[value])))
        elif sep and name == "disappearing":
            try:
                changes.append(("disappearing", disappearing_seconds(rest)))
            except ValueError as error:
                raise CommandError(str(error)) from None
        elif sep and name == "member-add" and rest in {m.value for m in MemberAddMode}:
            changes.append(("member_add", MemberAddMode(rest)))
        else:
            raise CommandError(
                _(
                    "{value}: not a group setting (announcement, not_announcement, locked, "
                    "unlocked, disappearing=off|24h|7d|90d, member-add=admin_add|all_member_add)"
                ).format(value=repr(value))
            )
    for kind, change in changes:  # each written once, in the order given
        if kind == "setting":
            await client.groups.update_setting(args.instance, jid, change)
        elif kind == "disappearing":
            await client.groups.set_disappearing(args.instance, jid, change)
        else:
            await client.groups.set_member_add_mode(args.instance, jid, change)
    info = await client.groups.info(args.instance, jid)
    _one(
        args,
        {
            "group": jid,
            "subject": info.subject,
            "only_admins_send": info.announce,
            "only_admins_edit": info.restrict,
            "all_members_add": info.member_add_mode,
            "disappearing": info.disappearing,
            "description": info.desc,
        },
    )
    return EXIT_OK


async def _leave(client: Any, args: argparse.Namespace, jid: str) -> int:
    from gateway_tui.cli.prompt import confirm

    confirm(
        _("Leave group {group}? Only an admin can add this number back.").format(group=jid),
        yes=args.yes,
    )
    result = await client.groups.leave(args.instance, jid)
    _one(args, {"group": result.group_jid or jid, "left": bool(result.leave)})
    return EXIT_OK


_GROUP_VERBS = {
    "participants": _participants,
    "invite-code": _invite_code,
    "revoke": _revoke,
    "subject": _subject,
    "description": _description,
    "invite": _invite,
    "add": _members_change,
    "remove": _members_change,
    "promote": _members_change,
    "demote": _members_change,
    "settings": _settings,
    "leave": _leave,
}
GROUP_VERBS = tuple(_GROUP_VERBS)


async def create_group(args: argparse.Namespace, config: ResolvedConfig) -> int:
    """``group-create INSTANCE SUBJECT NUMBER… [--promote NUMBER…]``: numbers checked as for
    add; then the ones to promote made admins, in one call, each number's outcome said. Each
    write is made once: a failed promotion says the group exists and how to promote by hand."""
    from gateway_tui.core.api.errors import GatewayError
    from gateway_tui.core.api.group_models import ParticipantAction
    from gateway_tui.core.group_admin import Outcome, numbers_to_add, outcomes
    from gateway_tui.core.text.phone import person_key

    plan = numbers_to_add(args.numbers, [])
    for problem in plan.problems:
        _note(_("left out: {problem}").format(problem=problem))
    if not plan.numbers:
        raise CommandError(_("nobody to add ({summary})").format(summary=plan.summary()))
    members = {person_key(number): number for number in plan.numbers}
    promote = list(dict.fromkeys(members.get(person_key(n), n) for n in args.promote or ()))
    strangers = [number for number in promote if person_key(number) not in members]
    if strangers:  # refused before anything is written
        raise CommandError(
            _(
                "--promote {numbers}: not among the group's participants "
                "(only a participant can be made an admin)"
            ).format(numbers=", ".join(strangers))
        )
    promoted: list[Outcome] = []
    async with _client(config) as client:
        try:
            created = await client.groups.create(
                args.instance, args.subject, plan.numbers, description=args.description or ""
            )
        except GatewayError as error:
            raise _gateway_error(error, config.url) from None
        if promote:
            try:
                answer = await client.groups.update_participants(
                    args.instance, created.id, ParticipantAction.PROMOTE, promote
                )
            except GatewayError as error:
                reason = str(_gateway_error(error, config.url))
                promoted = [Outcome(number, False, reason) for number in promote]
                _note(
                    _(
                        "the group {group} was created, but nobody was promoted: {reason}. "
                        "Do not create it again; promote with: {command}"
                    ).format(
                        group=created.id,
                        reason=reason,
                        command=f"gateway-tui group promote {args.instance} {created.id} "
                        + " ".join(promote),
                    )
                )
            else:
                promoted = outcomes(promote, answer)
    row: dict[str, Any] = {
        "group": created.id,
        "subject": created.subject,
        "members": len(created.participants),
    }
    said = [{"number": o.number, "promoted": o.ok, "result": o.reason} for o in promoted]
    if args.json or not promote:
        _one(args, row | ({"promoted": said} if promote else {}))
    elif args.csv:
        _emit([row | line for line in said], (*row, "number", "promoted", "result"), args)
    else:
        _one(args, row)
        _emit(said, ("number", "promoted", "result"), args)
    return EXIT_OK if all(o.ok for o in promoted) else EXIT_INCOMPLETE
