"""``labels``, ``label add|remove``, ``contacts`` and ``chat archive|unarchive|edit|profile``.

Contacts are searched here, by name, number (however written) or LID (core/identity.py): a
gateway's own filter matches only an exact pushName or id. A chat named by an ``@lid`` is
written to through the JID that works on the gateway's version (core/identity.py).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from gateway_tui.cli.commands import EXIT_OK, CommandError, _client, _emit, _gateway_error
from gateway_tui.cli.instance_cmds import _one
from gateway_tui.core.text.i18n import _

if TYPE_CHECKING:
    from gateway_tui.core.files.config import ResolvedConfig


async def labels(args: argparse.Namespace, config: ResolvedConfig) -> int:
    from gateway_tui.core.api.errors import GatewayError

    async with _client(config) as client:
        try:
            found = await client.labels.find(args.instance)
        except GatewayError as error:
            raise _gateway_error(error, config.url) from None
    rows = [
        {"id": label.id, "name": label.name, "colour": label.colour_index, "hex": label.colour}
        for label in found
    ]
    _emit(rows, ("id", "name", "colour", "hex"), args)
    return EXIT_OK


async def label(args: argparse.Namespace, config: ResolvedConfig) -> int:
    """``label add|remove INSTANCE LABEL CHAT``: LABEL is an id or an exact name."""
    from gateway_tui.core.api.errors import GatewayError
    from gateway_tui.core.api.label_models import LabelAction

    async with _client(config) as client:
        try:
            found = await client.labels.find(args.instance)
            chosen = [x for x in found if args.label in (x.id, x.name)]
            if len(chosen) != 1:
                names = ", ".join(f"{x.id} {x.name}" for x in found) or _("none")
                said = (
                    _("{label} names no label of {instance} (its labels: {names})")
                    if not chosen
                    else _("{label} names more than one label of {instance} (its labels: {names})")
                )
                raise CommandError(
                    said.format(label=repr(args.label), instance=args.instance, names=names)
                )
            target = await send_target(client, args.instance, args.chat)
            result = await client.labels.handle(
                args.instance, target, chosen[0].id, LabelAction(args.verb)
            )
        except GatewayError as error:
            raise _gateway_error(error, config.url) from None
    _one(args, {"chat": result.number_jid, "label": chosen[0].name, args.verb: True})
    return EXIT_OK


async def contacts(args: argparse.Namespace, config: ResolvedConfig) -> int:
    from gateway_tui.core.api.errors import GatewayError
    from gateway_tui.core.identity import Identities

    async with _client(config) as client:
        try:
            found = await client.contacts.find(args.instance)
            known = Identities()
            # What the chats' stored keys tell (2.x: the phone beside each @lid).
            for message in await client.chats.last_messages(args.instance):
                known.learn_message(message)
        except GatewayError as error:
            raise _gateway_error(error, config.url) from None
    known.learn_contacts((c.id, c.name) for c in found)
    rows = []
    for contact in found:
        who = known.resolve(contact.id, name=contact.name)
        if args.search and not who.matches(args.search):
            continue
        rows.append(
            {
                "jid": contact.id,
                "name": contact.name,
                "number": who.phone or "",
                "lid": who.lid or "",
                "shown_as": who.label(),
            }
        )
    _emit(rows, ("jid", "name", "number", "lid", "shown_as"), args)
    return EXIT_OK


async def send_target(client: Any, instance: str, chat: str) -> str:
    """The JID to write to for ``chat`` on this gateway: an ``@lid`` before 2.4.0-rc2 goes to
    its phone JID when the store tells it; refused with the reason when it does not."""
    from gateway_tui.core.identity import Identities, NoRoute, is_lid, sends_to_lid
    from gateway_tui.core.services.people import identities_from_store

    if not is_lid(chat):
        return chat
    version = client.server_version or (await client.fetch_server_info(quiet=True)).version
    known = Identities()
    if not sends_to_lid(version):  # its number, from findContacts, findChats, its own chat
        known = await identities_from_store(client, instance, [chat])
    try:
        return known.resolve(chat).send_jid(version)
    except NoRoute as error:
        raise CommandError(str(error)) from None


async def chat(args: argparse.Namespace, config: ResolvedConfig) -> int:
    from gateway_tui.core.api.errors import GatewayError

    async with _client(config) as client:
        try:
            return await _CHAT_VERBS[args.verb](client, args)
        except GatewayError as error:
            raise _gateway_error(error, config.url) from None


async def _newest(client: Any, args: argparse.Namespace, *, mine: bool) -> Any:
    messages = list(await client.chats.chat_messages(args.instance, args.chat))
    if mine:
        messages = [m for m in messages if m.from_me and m.is_text]
    if not messages:
        said = (
            _("no text of yours in chat {chat} on {instance}")
            if mine
            else _("no message in chat {chat} on {instance}")
        )
        raise CommandError(said.format(chat=args.chat, instance=args.instance))
    return messages[-1]


async def _archive(client: Any, args: argparse.Namespace) -> int:
    archive = args.verb == "archive"
    newest = await _newest(client, args, mine=False)
    await client.chats.archive(args.instance, newest.key, archive)
    _one(args, {"chat": args.chat, "archived": archive})
    return EXIT_OK


async def _edit(client: Any, args: argparse.Namespace) -> int:
    if not args.text:
        raise CommandError(_("give the new text: chat edit INSTANCE CHAT TEXT"))
    if args.id:
        from gateway_tui.core.api.models import MessageKey

        key = MessageKey(remoteJid=args.chat, fromMe=True, id=args.id)
    else:
        key = (await _newest(client, args, mine=True)).key
    await client.messages.update(args.instance, key, args.text)
    _one(args, {"chat": args.chat, "id": key.id, "text": args.text})
    return EXIT_OK


async def _profile(client: Any, args: argparse.Namespace) -> int:
    profile = await client.contacts.fetch_profile(args.instance, args.chat)
    _one(
        args,
        {
            "number": args.chat,
            "name": profile.name,
            "on_whatsapp": profile.number_exists,
            "business": profile.is_business,
            "status": profile.status_text,
            "description": profile.description,
            "email": profile.email,
            "websites": " ".join(profile.websites),
        },
    )
    return EXIT_OK


_CHAT_VERBS = {"archive": _archive, "unarchive": _archive, "edit": _edit, "profile": _profile}
CHAT_VERBS = tuple(_CHAT_VERBS)
