"""Labels (WhatsApp Business): an instance's labels, and putting one on a chat or taking it off."""

from __future__ import annotations

import json

import httpx

from gateway_tui.core.api import validation
from gateway_tui.core.api.errors import Problem
from gateway_tui.core.api.label_models import (
    LABEL_LIST,
    Label,
    LabelAction,
    LabelResult,
    labels_of_chat,
)
from gateway_tui.core.api.paths import instance_path, require, seg_path
from gateway_tui.core.api.resources.base import Resource
from gateway_tui.core.api.transport import parse_answer
from gateway_tui.core.text.i18n import _


class Labels(Resource):
    async def find(self, instance: str) -> list[Label]:
        """The instance's labels (read from the store: a closed instance answers too)."""
        path = instance_path("/label/findLabels/", instance, "GET")

        def parse(response: httpx.Response) -> list[Label]:
            return parse_answer(response, "GET", path, LABEL_LIST.validate_json)

        return await self._call("GET", path, parse)

    async def of_chat(self, instance: str, jid: str) -> tuple[str, ...]:
        """2.x: the label ids on one chat. findChats selects none; findChatByRemoteJid gives the
        stored Chat row, whose ``labels`` WhatsApp's labels.association events fill (an empty
        answer: no row, so no label). 1.7.1 has no such route (its findChats lists them)."""
        path = instance_path("/chat/findChatByRemoteJid/", instance, "GET")
        require(validation.check_recipient(jid, "remoteJid"), "GET", path)

        def parse(response: httpx.Response) -> tuple[str, ...]:
            row = parse_answer(response, "GET", path, lambda raw: json.loads(raw or b"null"))
            return labels_of_chat(row) if isinstance(row, dict) else ()

        return await self._call("GET", path, parse, params={"remoteJid": jid})

    async def handle(
        self, instance: str, number: str, label_id: str, action: LabelAction
    ) -> LabelResult:
        """Put a label on the chat of ``number`` (or take it off). 1.7.1: PUT, 2.x: POST."""
        verb = (await self.line()).verb("handle_label")
        path = seg_path("/label/handleLabel/", instance)
        problems = validation.check_instance_name(instance) + validation.check_recipient(number)
        if not str(label_id).strip():
            problems.append(Problem("labelId", _("choose a label")))
        require(problems, verb, path)
        body = {
            "number": validation.normalise_number(number),
            "labelId": str(label_id),
            "action": LabelAction(action).value,
        }
        return await self._model(
            LabelResult,
            verb,
            path,
            body=body,
            refusal=lambda result: (
                None
                if result.done
                else (
                    _("The gateway says the label was not added")
                    if action == "add"
                    else _("The gateway says the label was not removed"),
                    f"{action}: false",
                )
            ),
        )
