"""Labels (WhatsApp Business): an instance's labels and the answer of putting one on a chat.

findLabels reads the store and works on a closed instance (recorded: v2.3.7 924 ``[]``, 925
``[{"color": "1", "name": "New customer", "id": "1", "predefinedId": "1"}]``, 963 ``[]``);
``color`` is a number on 1.7.1 (its model) and text on 2.x (a text column): both read as the
index of WhatsApp's label palette. handleLabel answers ``{"numberJid", "labelId", "add": true}``
(or ``"remove"``); it asks WhatsApp first, so a closed instance answers a bare 500 (recorded:
926 "Cannot read properties of undefined (reading 'onWhatsApp')", 956 "Connection Closed").
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import Field, TypeAdapter, field_validator

from gateway_tui.core.api.models import Text, _Response

# One distinct colour per index of WhatsApp's label colours (Baileys' LabelColor: 0-19).
# Our own choice of shades: the servers send only the index.
LABEL_COLOURS = (
    "#ff9485", "#64c4ff", "#ffd429", "#dfaef0", "#99b6c1",
    "#55ccb3", "#ff9dff", "#d3a91d", "#6d7cce", "#d7e752",
    "#00d0e2", "#ffc5c7", "#93ceac", "#f74848", "#00a0f2",
    "#83e422", "#ffaf04", "#b5ebff", "#9ba6ff", "#9368cf",
)  # fmt: skip


class LabelAction(StrEnum):
    ADD = "add"
    REMOVE = "remove"


class Label(_Response):
    id: Text
    name: str = ""
    color: Text | None = None
    predefined_id: Text | None = Field(default=None, alias="predefinedId")

    @field_validator("name", mode="before")
    @classmethod
    def _name_text(cls, value: Any) -> Any:
        return value if isinstance(value, str) else ""

    @property
    def colour_index(self) -> int | None:
        try:
            index = int(self.color or "")
        except ValueError:
            return None
        return index if 0 <= index < len(LABEL_COLOURS) else None

    @property
    def colour(self) -> str | None:
        """The colour to draw it in (None when the server's value is none of the palette)."""
        index = self.colour_index
        return LABEL_COLOURS[index] if index is not None else None


class LabelResult(_Response):
    number_jid: str | None = Field(default=None, alias="numberJid")
    label_id: Text | None = Field(default=None, alias="labelId")
    add: bool | None = None
    remove: bool | None = None

    @property
    def done(self) -> bool:
        return bool(self.add or self.remove)


LABEL_LIST = TypeAdapter(list[Label])


def labels_of_chat(raw: dict[str, Any]) -> tuple[str, ...]:
    """The label ids a chat row carries (1.7.1 findChats and 2.x findChatByRemoteJid:
    ``labels``), as text; anything else is none."""
    value = raw.get("labels")
    if not isinstance(value, list):
        return ()
    return tuple(str(item) for item in value if isinstance(item, str | int) and str(item))
