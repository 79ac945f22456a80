"""Contacts and labels of an instance: who is who (core/identity.py), and WhatsApp Business
labels on chats."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from gateway_tui.core.api.errors import GatewayError, InvalidRequest, Problem
from gateway_tui.core.api.label_models import Label, LabelAction, LabelResult
from gateway_tui.core.identity import Identities, Identity, NoRoute, is_lid
from gateway_tui.core.services.base import ActionsBase
from gateway_tui.core.state import Loadable, Topic


async def identities_from_store(client: Any, instance: str, lids: Iterable[str]) -> Identities:
    """What the gateway's store tells of who is who, for a send from the command line: the
    contacts (findContacts), each chat's newest key (findChats), and the stored keys of each
    of ``lids``' own chats (2.x's remoteJidAlt), as the app learns them."""
    known = Identities()
    for contact in await client.contacts.find(instance):
        known.learn_contact_row(contact.id, contact.raw, contact.name)
    for message in await client.chats.last_messages(instance):
        known.learn_message(message)
    for lid in lids:
        if known.phone_of(lid) is None:
            for message in await client.chats.chat_messages(instance, lid):
                known.learn_message(message)
    return known


class PeopleActions(ActionsBase):
    # --- contacts ------------------------------------------------------------------------------

    def identities_of(self, instance: str) -> Identities:
        """What is known of who is who on ``instance`` (grows with every read)."""
        return self.state.identities.setdefault(instance, Identities())

    def contacts_of(self, instance: str) -> Loadable[list[Identity]]:
        return self.state.contacts.setdefault(instance, Loadable())

    async def load_contacts(self, instance: str) -> list[Identity]:
        """The store's contacts, each with its number beside its LID when any stored message
        key gives it (2.x's remoteJidAlt / participantAlt)."""
        return await self._load(
            self.contacts_of(instance), Topic.CONTACTS, self._read_contacts(instance)
        )

    async def _read_contacts(self, instance: str) -> list[Identity]:
        known = self.identities_of(instance)
        found = await self.client.contacts.find(instance)
        self.state.contact_numbers_error[instance] = None
        try:
            for message in await self.client.chats.last_messages(instance):
                known.learn_message(message)
        except GatewayError as error:
            # The contacts stand without the numbers messages would have told: kept to be said.
            self.state.contact_numbers_error[instance] = error
        known.learn_contacts((c.id, c.name) for c in found)
        rows = [known.resolve(c.id, name=c.name) for c in found if not c.id.endswith("@g.us")]
        rows.sort(key=lambda who: (who.name is None, (who.name or who.jid).casefold()))
        return rows

    def send_jid(self, instance: str, jid: str, path: str) -> str:
        """The JID a send to chat ``jid`` goes to on this gateway's version: an ``@lid``
        before 2.4.0-rc2 goes to its number; refused (InvalidRequest, nothing sent) when no
        number is known (core/identity.py)."""
        try:
            return self.identities_of(instance).resolve(jid).send_jid(self.client.server_version)
        except NoRoute as error:
            problems = [Problem("number", str(error))]
            raise InvalidRequest(problems, method="POST", path=path) from None

    def learn_book(self, instance: str, contacts: Iterable[Any], last: Iterable[Any]) -> None:
        """What a chats read tells of who is who: each chat's newest message key (remoteJidAlt,
        senderPn), and contact rows that name a number beside a LID (``remoteJidAlt``,
        ``phoneNumber``, ``lid``), with their names."""
        known = self.identities_of(instance)
        for message in last:
            known.learn_message(message)
        for contact in contacts:
            known.learn_contact_row(contact.id, contact.raw, contact.name)

    def learn_chat(self, instance: str, jid: str, messages: Iterable[Any]) -> None:
        """A LID chat's stored keys tell its number (2.x's remoteJidAlt)."""
        if is_lid(jid):
            known = self.identities_of(instance)
            for message in messages:
                known.learn_message(message)

    # --- labels --------------------------------------------------------------------------------

    def labels_of(self, instance: str) -> Loadable[list[Label]]:
        return self.state.labels.setdefault(instance, Loadable())

    async def load_labels(self, instance: str) -> list[Label]:
        return await self._load(
            self.labels_of(instance), Topic.LABELS, self.client.labels.find(instance)
        )

    def chat_labels(self, instance: str) -> dict[str, set[str]]:
        """Label ids by chat JID, as known (1.7.1's findChats, and changes made here)."""
        return self.state.chat_labels.setdefault(instance, {})

    async def load_chat_labels(self, instance: str, jid: str) -> tuple[str, ...] | None:
        """2.x: one chat's labels as the gateway stores them (findChatByRemoteJid), which then
        show for it; None on 1.7.1, whose findChats lists every chat's."""
        if self.client.dialect.line == "1":
            return None
        found = await self.client.labels.of_chat(instance, jid)
        self.chat_labels(instance)[jid] = set(found)
        self.state.notify(Topic.LABELS)
        return found

    async def set_label(
        self,
        instance: str,
        chat: str,
        label_id: str,
        action: LabelAction,
        current: Iterable[str] = (),
    ) -> LabelResult:
        """Put a label on a chat or take it off (sent to the JID the gateway can reach);
        ``current``: the chat's labels as shown, which the change is made to."""
        version = self.client.server_version
        try:
            target = self.identities_of(instance).resolve(chat).send_jid(version)
        except NoRoute as error:
            path = f"/label/handleLabel/{instance}"
            raise InvalidRequest(
                [Problem("number", str(error))], method="POST", path=path
            ) from None
        result = await self.client.labels.handle(instance, target, label_id, action)
        chosen = self.chat_labels(instance).setdefault(chat, set(current))
        if action == LabelAction.ADD:
            chosen.add(label_id)
        else:
            chosen.discard(label_id)
        self.state.notify(Topic.LABELS)
        return result
