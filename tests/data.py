"""Data the test modules share: the demo gateway's names and numbers, drafts and requests.

What a test needs to find in the seeded demo (an instance, a person, a group) is named here once,
so a module never imports it from another test module.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from gateway_tui.core.api.models import ListMessage, ListRow, ListSection, SendListRequest
from gateway_tui.core.draft import Draft, DraftRow, DraftSection
from gateway_tui.core.files.drafts import ComposeStore
from gateway_tui.tui.widgets.record_table import Column

# --- the seeded demo gateway ------------------------------------------------------------------

INSTANCE = "sales-eu"  # open, the first instance listed, with the curated groups and chats
JONAS = "4915112340001"
JONAS_JID = f"{JONAS}@s.whatsapp.net"
JONAS_LAST_ID = "3EB0C0FFEE0123456789"  # "Tracking: DHL …", the newest message of his chat
BAKERY = "5511912345678"
BAKERY_JID = f"{BAKERY}@s.whatsapp.net"
WAR_ROOM = "120363023456789012@g.us"
BIG = "120363012345678901@g.us"  # "EU Sales — all hands": 1,024 participants, we are superadmin
MEMBER_ONLY = "120363034567890123@g.us"  # "Partner announcements": the instance is no admin
INVITE_PREFIX = "https://chat.whatsapp.com/"


def demo_instance(server: Any, instance: str = INSTANCE) -> Any:
    return server.state.instances[instance]


def demo_group(server: Any, jid: str = BIG, instance: str = INSTANCE) -> Any:
    return demo_instance(server, instance).groups[jid]


def chat_with(server: Any, test) -> str:
    """The JID of the first demo chat (of INSTANCE) with a message that passes ``test``."""
    for jid, chat in demo_instance(server).chats.items():
        if any(test(m) for m in chat.messages):
            return jid
    raise AssertionError("no such chat in the demo")


def newest_person_chat(server: Any, instance: str) -> str:
    """The demo instance's chat with a person whose last message is the newest."""
    chats = server.state.instances[instance].chats.values()
    people = [c for c in chats if not c.jid.endswith("@g.us")]
    return max(people, key=lambda c: c.messages[-1].timestamp).jid


def sent_writes(server: Any, path: str) -> list:
    """The writes the demo gateway received on paths starting with ``path``."""
    return [w for w in server.state.writes if w.path.startswith(path)]


# --- drafts and requests ----------------------------------------------------------------------


def send_list_request(number: str, title: str) -> SendListRequest:
    """A one-row list message to ``number``."""
    return SendListRequest(
        number=number,
        list_message=ListMessage(
            title=title,
            description="Pick one",
            button_text="Options",
            sections=[ListSection(title="Choices", rows=[ListRow(title="Yes", row_id="yes")])],
        ),
    )


def store_for(server: Any, instance: str = INSTANCE) -> ComposeStore:
    return ComposeStore(server.url, instance)


def good_draft(**changes: Any) -> Draft:
    """A draft the composer sends as it is (two sections, to Jonas); ``changes`` set fields."""
    draft = Draft(
        recipient=JONAS,
        title="Lunch menu",
        description="Pick one",
        button_text="See the menu",
        sections=[
            DraftSection("Pizzas", [DraftRow("Margherita"), DraftRow("Funghi")]),
            DraftSection("Drinks", [DraftRow("Cola")]),
        ],
    )
    for name, value in changes.items():
        setattr(draft, name, value)
    return draft


# A campaign's message: {name} is filled from each recipient's row.
CAMPAIGN_DRAFT = Draft(
    title="Hello {name}",
    description="Menu of the week",
    button_text="See the menu",
    sections=[DraftSection("Drinks", [DraftRow("Cola"), DraftRow("Water")])],
)
# The same kind of message as the JSON the command line's --draft-file reads.
CAMPAIGN_DRAFT_JSON = {
    "title": "Hello {name}",
    "description": "This week's menu",
    "buttonText": "See the menu",
    "sections": [{"title": "Drinks", "rows": [{"title": "Cola"}, {"title": "Water"}]}],
}
# The campaign set-up screen's draft and pasted recipients (one number twice).
SETUP_DRAFT = Draft(
    title="Hello {name}",
    description="Menu for {city}",
    button_text="See the menu",
    sections=[DraftSection("Drinks", [DraftRow("Cola"), DraftRow("Water")])],
)
PASTED = "number,name,city\n4917300000001,Ana,Berlin\n4917300000002,Bo,Paris\n4917300000001,Ana\n"


# --- rows for the record table ----------------------------------------------------------------


@dataclass
class Item:
    name: str
    status: str
    owner: str


def make_items(count: int) -> list[Item]:
    return [
        Item(f"item-{number:05d}", "open" if number % 3 else "closed", f"owner-{number % 7}")
        for number in range(count)
    ]


def make_columns(calls: Counter[str] | None = None) -> list[Column[Item]]:
    """The record table's test columns; `calls` counts every value() call per column."""

    def counted(key: str, field: str):
        def value(item: Item) -> str:
            if calls is not None:
                calls[key] += 1
            return getattr(item, field)

        return value

    return [
        Column("name", "Name", counted("name", "name"), max_width=20),
        Column(
            "status",
            "Status",
            counted("status", "status"),
            style=lambda item: "green" if item.status == "open" else "red",
        ),
        Column("owner", "Owner", counted("owner", "owner")),
    ]
