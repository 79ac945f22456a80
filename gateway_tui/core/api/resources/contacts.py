"""Contacts: the store's contacts, business profiles, which numbers are on WhatsApp."""

from __future__ import annotations

import httpx

from gateway_tui.core.api import validation
from gateway_tui.core.api.chat_models import (
    Contact,
    StoreList,
)
from gateway_tui.core.api.errors import (
    Problem,
)
from gateway_tui.core.api.models import (
    NUMBERS_ON_WHATSAPP,
    BusinessProfile,
    NumberOnWhatsApp,
)
from gateway_tui.core.api.paths import instance_path, require, seg_path
from gateway_tui.core.api.resources.base import Resource
from gateway_tui.core.api.transport import (
    parse_answer,
    store_parser,
)
from gateway_tui.core.text.i18n import _


class Contacts(Resource):
    async def find(self, instance: str, jid: str | None = None) -> StoreList[Contact]:
        path = instance_path("/chat/findContacts/", instance, "POST")
        line = await self.line()
        body = line.contacts_body(jid)
        found = await self._call(
            "POST", path, store_parser("POST", path, line.read_contact), body=body
        )
        if jid:
            # The server applies createJid to a number: "5511…" finds "5511…@s.whatsapp.net".
            found[:] = [c for c in found if jid in (c.id, c.id.split("@", 1)[0])]
        return found

    async def fetch_profile(self, instance: str, number: str) -> BusinessProfile:
        path = seg_path("/chat/fetchProfile/", instance)
        problems = validation.check_instance_name(instance) + validation.check_recipient(number)
        require(problems, "POST", path)
        body = {"number": validation.normalise_number(number)}
        return await self._optional_model(BusinessProfile, "POST", path, body=body)

    async def whatsapp_numbers(self, instance: str, numbers: list[str]) -> list[NumberOnWhatsApp]:
        """Ask which numbers exist on WhatsApp (an open instance only; a real server answers
        500 for one that is not connected). Send at most a few dozen per call."""
        path = seg_path("/chat/whatsappNumbers/", instance)
        wanted = [validation.normalise_number(number) for number in numbers]
        problems = validation.check_instance_name(instance)
        if not wanted:
            problems.append(Problem("numbers", _("give at least one number")))
        elif len(set(wanted)) != len(wanted):
            problems.append(Problem("numbers", _("a number is listed twice")))
        require(problems, "POST", path)

        def parse(response: httpx.Response) -> list[NumberOnWhatsApp]:
            return parse_answer(response, "POST", path, NUMBERS_ON_WHATSAPP.validate_json)

        return await self._call("POST", path, parse, body={"numbers": wanted})
